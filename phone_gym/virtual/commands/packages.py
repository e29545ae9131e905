"""The phone's installed packages as the package manager knows them, and ``dumpsys package``.

``installed(phone)`` lists the mock apps (from the device's manifests) and a few system
packages, each with what ``pm`` and ``dumpsys package`` print: uid, version, APK path,
install times and, for an app with a launcher icon, its launcher activity and the intent
actions its manifest answers. ``dump(phone, args)`` is ``dumpsys package [PKG]`` in the
layout of AOSP ``Settings.dumpPackageLPr`` (Android 11 to 14: ``userId=``, ``versionCode=N
minSdk=N targetSdk=N``, ``versionName=``, ``timeStamp=``, ``lastUpdateTime=``,
``signatures=PackageSignatures{...}``, ``pkgFlags=[ ... ]`` and per user ``User 0: ...``
with ``firstInstallTime=``), after its ``Activity Resolver Table``: what adbutils'
``app_info`` and uiautomator2's ``app_info``/``app_auto_grant_permissions`` read.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from ...world.device import CONTACTS_PROVIDER, IME_PACKAGE, LAUNCHER_PACKAGE, SYSTEMUI_PACKAGE

if TYPE_CHECKING:
    from ..phone import VirtualPhone

MAIN = "android.intent.action.MAIN"
LAUNCHER = "android.intent.category.LAUNCHER"
#: A preinstalled package's install time: Android dates the system image's packages at the
#: epoch of the build's ``SOURCE_DATE_EPOCH``; devices show ``2008-12-31`` or ``2009-01-01``.
SYSTEM_INSTALL = datetime(2009, 1, 1)
#: System packages: (uid, the process they run in or None, APK folder).
SYSTEM: dict[str, tuple[int, str | None, str]] = {
    "android": (1000, "system_server", "/system/framework/framework-res.apk"),
    "com.android.shell": (2000, None, "/system/priv-app/Shell/Shell.apk"),
    "com.android.providers.settings": (1000, "system_server",
                                       "/system/priv-app/SettingsProvider/SettingsProvider.apk"),
    CONTACTS_PROVIDER: (10008, "android.process.acore",
                        "/system/priv-app/ContactsProvider/ContactsProvider.apk"),
    "com.android.providers.media": (10009, "android.process.media",
                                    "/system/priv-app/MediaProvider/MediaProvider.apk"),
    LAUNCHER_PACKAGE: (10105, LAUNCHER_PACKAGE,
                       "/system_ext/priv-app/NexusLauncherRelease/NexusLauncherRelease.apk"),
    SYSTEMUI_PACKAGE: (10104, SYSTEMUI_PACKAGE,
                       "/system_ext/priv-app/SystemUIGoogle/SystemUIGoogle.apk"),
    IME_PACKAGE: (10106, IME_PACKAGE, "/product/app/LatinIMEGooglePrebuilt/"
                                      "LatinIMEGooglePrebuilt.apk"),
}
#: The first uid of the mock apps (one each, in launcher order).
APP_UID = 10150


@dataclass(frozen=True)
class Package:
    """One installed package."""

    name: str
    uid: int
    system: bool
    path: str  # the base APK
    version_name: str
    version_code: int
    installed_at: datetime
    activity: str | None = None  # the launcher activity's class (mock apps)
    actions: tuple[str, ...] = ()  # more intent actions that activity answers

    @property
    def user(self) -> str:
        """The uid's user name (``u0_a150``, ``system``, ``shell``)."""
        if self.uid >= 10000:
            return f"u0_a{self.uid - 10000}"
        return {1000: "system", 2000: "shell"}.get(self.uid, str(self.uid))


def installed(phone: VirtualPhone) -> dict[str, Package]:
    """Every installed package by name: the system ones, then the mock apps."""
    props = phone.properties
    release = props.get("ro.build.version.release", "14")
    sdk = props.get("ro.build.version.sdk", "34")
    code = int(sdk) if sdk.isdigit() else 34
    out = {name: Package(name, uid, True, path, release, code, SYSTEM_INSTALL)
           for name, (uid, _process, path) in SYSTEM.items()}
    installed_at = phone.boot.replace(microsecond=0) - timedelta(days=1)
    for k, cls in enumerate(phone.device.app_classes):
        m = cls.manifest
        actions = tuple(a for a in m.intents if not any(c in a for c in "*?["))
        out[m.package] = Package(
            m.package, APP_UID + k, False, f"/data/app/~~phonegym==/{m.package}-1/base.apk",
            "1.0", 1, installed_at, f"{m.package}.MainActivity", actions)
    return out


def process_of(package: str) -> str | None:
    """The process a system package runs in (None: none, or not a system package)."""
    entry = SYSTEM.get(package)
    return entry[1] if entry is not None else None


def hexid(text: str) -> str:
    """A stable identity hash (as Java prints object ids)."""
    return f"{zlib.crc32(text.encode()) & 0xFFFFFFF:x}"


def dump(phone: VirtualPhone, args: list[str]) -> str:
    """``dumpsys package [packages] [PKG]``: the resolver table of the launcher activities,
    then the ``Packages:`` section of PKG (of every package without one)."""
    packages = installed(phone)
    names = [a for a in args if "." in a]
    if names:
        chosen = [packages[n] for n in names[:1] if n in packages]
        if not chosen:
            return "\nDexopt state:\n  Unable to find package: " + names[0] + "\n"
    else:
        chosen = list(packages.values())
    lines: list[str] = []
    if not args or names:
        lines += resolver_table(chosen)
    lines.append("Packages:")
    for package in chosen:
        lines += package_block(package)
    return "\n".join(lines) + "\n"


def resolver_table(packages: list[Package]) -> list[str]:
    """``Activity Resolver Table:``: the MAIN/LAUNCHER filter of each launcher activity and
    the manifest's other actions (``Action:``/``Category:`` lines as ``IntentFilter.dump``)."""
    apps = [p for p in packages if p.activity]
    if not apps:
        return []
    by_action: dict[str, list[Package]] = {}
    for p in apps:
        for action in (MAIN, *p.actions):
            by_action.setdefault(action, []).append(p)
    lines = ["Activity Resolver Table:", "  Non-Data Actions:"]
    for action, owners in by_action.items():
        lines.append(f"      {action}:")
        for p in owners:
            assert p.activity is not None
            short = p.activity.removeprefix(p.name)
            lines.append(f"        {hexid(p.name + 'a')} {p.name}/{short} filter "
                         f"{hexid(p.name + action)}")
            lines.append(f'          Action: "{action}"')
            category = LAUNCHER if action == MAIN else "android.intent.category.DEFAULT"
            lines.append(f'          Category: "{category}"')
    lines.append("")
    return lines


def package_block(p: Package) -> list[str]:
    """One ``Package [NAME] (id):`` block of the ``Packages:`` section."""
    when = f"{p.installed_at:%Y-%m-%d %H:%M:%S}"
    folder = p.path.rsplit("/", 1)[0]
    flags = ("[ SYSTEM HAS_CODE ALLOW_CLEAR_USER_DATA ]" if p.system
             else "[ HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]")
    return [
        f"  Package [{p.name}] ({hexid(p.name)}):",
        f"    userId={p.uid}",
        f"    pkg=Package{{{hexid(p.name + 'p')} {p.name}}}",
        f"    codePath={folder}",
        f"    resourcePath={folder}",
        f"    legacyNativeLibraryDir={folder}/lib",
        "    extractNativeLibs=false",
        "    primaryCpuAbi=null",
        "    secondaryCpuAbi=null",
        "    cpuAbiOverride=null",
        f"    versionCode={p.version_code} minSdk=26 targetSdk=34",
        "    minExtensionVersions=[]",
        f"    versionName={p.version_name}",
        "    usesNonSdkApi=false",
        "    splits=[base]",
        "    apkSigningVersion=3",
        f"    flags={flags}",
        "    privateFlags=[ PRIVATE_FLAG_ACTIVITIES_RESIZE_MODE_RESIZEABLE_VIA_SDK_VERSION "
        "ALLOW_AUDIO_PLAYBACK_CAPTURE PRIVATE_FLAG_ALLOW_NATIVE_HEAP_POINTER_TAGGING ]",
        "    forceQueryable=false",
        f"    dataDir=/data/user/0/{p.name}",
        "    supportsScreens=[small, medium, large, xlarge, resizeable, anyDensity]",
        f"    timeStamp={when}",
        f"    lastUpdateTime={when}",
        "    installerPackageName=null" if p.system else
        "    installerPackageName=com.android.shell",
        f"    signatures=PackageSignatures{{{hexid(p.name + 's')} version:3, signatures:["
        f"{hexid('platform' if p.system else 'phone-gym')}], past signatures:[]}}",
        "    installPermissionsFixed=true",
        f"    pkgFlags={flags}",
        "    requested permissions:",
        "      android.permission.INTERNET",
        "    install permissions:",
        "      android.permission.INTERNET: granted=true",
        f"    User 0: ceDataInode={zlib.crc32(p.name.encode()) % 90000 + 10000} installed=true "
        "hidden=false suspended=false distractionFlags=0 stopped=false "
        "notLaunched=false enabled=0 instant=false virtual=false quarantined=false",
        f"      firstInstallTime={when}",
        "      uninstallReason=0",
        "      gids=[3003]",
        "      runtime permissions:",
        "",
    ]
