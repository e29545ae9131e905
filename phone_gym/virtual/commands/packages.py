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

Profiles (``PROFILES``) give the mock apps the packages of one kind of phone: "aosp" (AOSP
builds and emulator images: ``com.android.contacts``, ``com.android.deskclock``,
``com.android.documentsui``) and "pixel" (Google's apps: ``com.google.android.contacts``,
``com.google.android.deskclock``, Files by Google ``com.google.android.apps.nbu.files``, with
Google's DocumentsUI installed but without a launcher entry, as AOSP DocumentsUI's
``LauncherActivity`` is disabled unless a device overlays ``@bool/is_launcher_enabled``).
``profile_apps`` makes the app classes of a profile. ``query_activities`` is ``pm
query-activities`` / ``pm resolve-activity`` (AOSP ``PackageManagerShellCommand``).
"""

from __future__ import annotations

import dataclasses
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from ...world.app import App, AppHandle
from ...world.device import CONTACTS_PROVIDER, IME_PACKAGE, LAUNCHER_PACKAGE, SYSTEMUI_PACKAGE

if TYPE_CHECKING:
    from ..phone import VirtualPhone

MAIN = "android.intent.action.MAIN"
LAUNCHER = "android.intent.category.LAUNCHER"
DEFAULT = "android.intent.category.DEFAULT"
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


#: Google's build of AOSP ``PermissionController`` (AOSP builds: ``com.android.``...).
GOOGLE_PERMISSIONS = "com.google.android.permissioncontroller"


@dataclass(frozen=True)
class Profile:
    """A kind of phone: the packages of the mock apps (by app name; others keep their
    manifest's), system packages installed without a launcher entry (name -> APK), the
    package of its permission dialogs; ``fresh``: its apps were just installed (no runtime
    permission granted: ``permissions``, prompts at launch: ``overlays``); ``first_run``:
    apps (by name) that show a first-run screen at their first launch; ``foldable``: two
    built-in displays, the inner one in use (``commands.screen``, ``commands.dumpsys``)."""

    apps: dict[str, str]
    hidden: dict[str, str] = dataclasses.field(default_factory=dict)
    permission_controller: str = GOOGLE_PERMISSIONS
    fresh: bool = False
    first_run: frozenset[str] = frozenset()
    foldable: bool = False


PIXEL_APPS = {"Contacts": "com.google.android.contacts",
              "Clock": "com.google.android.deskclock",
              "Files": "com.google.android.apps.nbu.files", "Settings": "com.android.settings"}
PIXEL_HIDDEN = {"com.google.android.documentsui": "/system/priv-app/DocumentsUIGoogle/"
                                                  "DocumentsUIGoogle.apk"}
#: The virtual phone's profiles (``VirtualPhone(profile=...)``; None: the manifests'
#: packages): an AOSP build, a Pixel, a Pixel whose apps were just installed (Android 14:
#: each asks for notifications at launch, Markor shows its intro) and a foldable Pixel.
PROFILES: dict[str, Profile] = {
    "aosp": Profile({"Contacts": "com.android.contacts", "Clock": "com.android.deskclock",
                     "Files": "com.android.documentsui", "Settings": "com.android.settings"},
                    permission_controller="com.android.permissioncontroller"),
    "pixel": Profile(PIXEL_APPS, PIXEL_HIDDEN),
    "pixel-fresh": Profile(PIXEL_APPS, PIXEL_HIDDEN, fresh=True,
                           first_run=frozenset({"Markor"})),
    "foldable": Profile(PIXEL_APPS, PIXEL_HIDDEN, foldable=True),
}
#: A phone without a profile: the manifests' packages, Google's permission dialogs.
NO_PROFILE = Profile({})


def profile_apps(classes: Sequence[type[App] | AppHandle], profile: str
                 ) -> list[type[App] | AppHandle]:
    """``classes`` with the packages of ``profile`` (``ValueError`` for an unknown one)."""
    if profile not in PROFILES:
        raise ValueError(f"profile={profile!r}; accepted: {', '.join(map(repr, PROFILES))} "
                         "or None (the apps' manifests' packages)")
    names = PROFILES[profile].apps
    return [_with_package(cls, names.get(cls.name, cls.package)) for cls in classes]


_MADE: dict[tuple[type[App], str], type[App]] = {}


def _with_package(app: type[App] | AppHandle, package: str) -> type[App] | AppHandle:
    """``app`` with its manifest's package set to ``package`` (one class per pair; an app
    whose package changes loads its code)."""
    if app.package == package:
        return app
    cls = app.cls if isinstance(app, AppHandle) else app
    made = _MADE.get((cls, package))
    if made is None:
        manifest = dataclasses.replace(cls.manifest, package=package)
        made = _MADE[(cls, package)] = type(
            cls.__name__, (cls,), {"manifest": manifest, "__module__": cls.__module__,
                                   "__qualname__": cls.__qualname__})
    return made


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
    def component(self) -> str:
        """``PKG/CLASS`` of the launcher activity (empty: none)."""
        return f"{self.name}/{self.activity}" if self.activity else ""

    @property
    def short_component(self) -> str:
        """``ComponentName.flattenToShortString()``: ``PKG/.Cls`` when the class is in the
        package, else ``PKG/CLASS`` (empty: no launcher activity)."""
        if not self.activity:
            return ""
        cls = self.activity
        return f"{self.name}/{cls[len(self.name):] if cls.startswith(self.name + '.') else cls}"

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
    profile = PROFILES.get(getattr(phone, "profile", None) or "", NO_PROFILE)
    for k, (name, path) in enumerate(profile.hidden.items()):
        out[name] = Package(name, 10120 + k, True, path, release, code, SYSTEM_INSTALL)
    controller = profile.permission_controller
    out[controller] = Package(controller, 10118, True, "/system/priv-app/PermissionController/"
                              "PermissionController.apk", release, code, SYSTEM_INSTALL)
    installed_at = phone.boot.replace(microsecond=0) - timedelta(days=1)
    for k, cls in enumerate(phone.device.app_classes):
        m = cls.manifest
        actions = tuple(a for a in m.intents if not any(c in a for c in "*?["))
        out[m.package] = Package(
            m.package, APP_UID + k, False, f"/data/app/~~phonegym==/{m.package}-1/base.apk",
            "1.0", 1, installed_at, f"{m.package}.MainActivity", actions)
    return out


def query_activities(phone: VirtualPhone, sub: str, action: str | None,
                     categories: Sequence[str], package: str | None, component: str | None,
                     options: Sequence[str], data: str | None = None,
                     mime: str | None = None) -> str:
    """``pm query-activities|resolve-activity [--brief] [--components] INTENT`` over the
    mock apps' launcher activities (``MAIN``/``LAUNCHER`` and their manifests' actions; an
    intent with data or a type: the filters ``resolver.matches`` reads from the manifests),
    as AOSP ``PackageManagerShellCommand.runQueryIntentActivities``/``runResolveActivity``
    and ``printResolveInfo`` print them: ``N activities found:`` then ``  Activity #i:``
    blocks; with ``--components`` one ``flattenToShortString()`` a line; with ``--brief`` a
    ``priority=... isDefault=...`` line before each component; ``No activities found`` (or
    ``No activity found`` for resolve-activity) when nothing matches. ``resolve-activity`` of
    an intent with data or a type that several apps answer names the resolver dialog (AOSP
    ``chooseBestActivity``), unless an "Always" answer chose one."""
    from .. import resolver

    found = []
    for p in installed(phone).values():
        if p.activity is None or (package is not None and p.name != package):
            continue
        if component is not None and component not in (p.short_component, p.component):
            continue
        if data or mime:
            cls = phone.device.apps.class_of(p.name)
            if cls is not None and resolver.matches(cls.manifest, action, data, mime,
                                                    list(categories)):
                found.append(p)
            continue
        filters = [(MAIN, {LAUNCHER}), *((a, {DEFAULT}) for a in p.actions)]
        if any(action in (None, a) and set(categories) <= cats for a, cats in filters):
            found.append(p)  # IntentFilter.match: the action, and every category, matches
    brief, components = "--brief" in options, "--components" in options
    if sub == "resolve-activity":
        if not found:
            return "No activity found\n"
        if (data or mime) and len(found) > 1:
            chosen = phone.overlays.resolver.preferred.get(
                resolver.preference_key(action, data, mime))
            best = next((p for p in found if p.name == chosen), None)
            if best is None:
                system = installed(phone)[resolver.PACKAGE]
                best = dataclasses.replace(system, activity=resolver.ACTIVITY)
            return "".join(resolve_info(best, "", brief, components, False))
        return "".join(resolve_info(found[0], "", brief, components, len(found) == 1))
    if not found:
        return "No activities found\n"
    if components:
        return "".join(line for p in found for line in resolve_info(p, "", brief, True, False))
    lines = [f"{len(found)} activities found:\n"]
    for i, p in enumerate(found):
        lines.append(f"  Activity #{i}:\n")
        lines += resolve_info(p, "    ", brief, False, False)
    return "".join(lines)


def resolve_info(p: Package, prefix: str, brief: bool, components: bool,
                 default: bool) -> list[str]:
    """``printResolveInfo``: the short component (after a priority line unless
    ``components``) when brief or components, else ``ResolveInfo.dump``'s first lines."""
    head = (f"{prefix}priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 "
            f"isDefault={str(default).lower()}\n")
    if components:
        return [f"{prefix}{p.short_component}\n"]
    if brief:
        return [head, f"{prefix}{p.short_component}\n"]
    return [head, f"{prefix}ActivityInfo:\n", f"{prefix}  name={p.activity}\n",
            f"{prefix}  packageName={p.name}\n",
            f"{prefix}  enabled=true exported=true directBootAware=false\n",
            f"{prefix}  processName={p.name}\n"]


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
        lines += package_block(package, *(
            ((), ()) if package.system else phone.permissions.dump_lines(package.name)))
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
            category = LAUNCHER if action == MAIN else DEFAULT
            lines.append(f'          Category: "{category}"')
    lines.append("")
    return lines


def package_block(p: Package, requested: Sequence[str] = (),
                  runtime: Sequence[str] = ()) -> list[str]:
    """One ``Package [NAME] (id):`` block of the ``Packages:`` section; ``requested``: its
    requested permissions (default ``INTERNET``), ``runtime``: its per-user runtime
    permission lines (``permissions.Permissions.dump_lines``)."""
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
        *(f"      {name}" for name in requested or ("android.permission.INTERNET",)),
        "    install permissions:",
        "      android.permission.INTERNET: granted=true",
        f"    User 0: ceDataInode={zlib.crc32(p.name.encode()) % 90000 + 10000} installed=true "
        "hidden=false suspended=false distractionFlags=0 stopped=false "
        "notLaunched=false enabled=0 instant=false virtual=false quarantined=false",
        f"      firstInstallTime={when}",
        "      uninstallReason=0",
        "      gids=[3003]",
        "      runtime permissions:",
        *(f"        {line}" for line in runtime),
        "",
    ]
