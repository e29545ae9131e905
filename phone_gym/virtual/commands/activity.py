"""Activities and packages from the shell: ``am``, ``monkey`` and ``pm``.

``am start`` resolves an intent (``-n`` component, ``-a`` action, ``-c`` category, ``-p``
package, ``-d`` data, ``-t`` type, extras) as PackageManager does, from the apps' manifests
(``resolver``): one app that answers gets it (``SET_ALARM`` reaches the clock, ``VIEW
https://`` Chrome, ``DIAL tel:`` the dialer, ``SENDTO smsto:`` Messages), several get the
resolver dialog (``VIEW geo:``: Maps and OsmAnd; ``SEND`` of ``text/plain``), none "unable to
resolve Intent"; ``-n`` and ``-p`` name the app themselves, a HOME intent opens the launcher
(``--activity-clear-task``: the app on its start screen). Every start is logged as
ActivityTaskManager logs it (``logd``; ``Starting:`` and the log print the intent as
``Intent.toShortString`` does, its data as ``Uri.toSafeString``); ``am force-stop`` stops an app and
cancels its alarms (``VirtualPhone.alarms_cancelled``), ``am kill`` keeps them; ``am
broadcast`` is acknowledged (and reaches ADBKeyboard when it is the selected input method:
``ime.py``). ``monkey -p PKG`` opens an app.
``pm list packages|path|clear|dump`` sees the mock apps and a few system packages
(``packages.py``); ``pm grant|revoke`` changes runtime permissions (``permissions``). Nothing
is ever installed or removed on a PhoneWorld phone: ``pm install`` (and ``cmd package
install``, which ``adb install`` streams an APK to, and ``install-create`` of ``adb
install-multiple``) answers one ``Failure [INSTALL_FAILED_USER_RESTRICTED: ...]`` line saying
so, and ``pm uninstall`` answers as Android's ``PackageManagerShellCommand`` does under a user
restriction.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...world.app import App
from ...world.device import LAUNCHER_PACKAGE
from ...world.manifest import Intent as DeviceIntent
from .. import resolver, system_screens
from ..logd import short_component
from ..sh import IO
from . import ime, packages
from .base import Commands, split_flags, strip_user

#: Packages every phone has besides the mock apps.
SYSTEM_PACKAGES = tuple(packages.SYSTEM)
MAIN = "android.intent.action.MAIN"
#: What ``pm install`` answers: nothing can be installed on a PhoneWorld phone (the code is
#: Android's for an install a user restriction forbids, ``PackageManager
#: .INSTALL_FAILED_USER_RESTRICTED``).
INSTALL_REFUSED = ("Failure [INSTALL_FAILED_USER_RESTRICTED: the virtual device runs "
                   "PhoneWorld's apps only; it installs no APKs]")
#: ``pm install`` options that take a value (AOSP ``PackageManagerShellCommand
#: .makeInstallParams``).
INSTALL_VALUE_OPTIONS = frozenset({"-S", "-i", "-p", "--user", "--install-location",
                                   "--originating-uri", "--referrer", "--abi", "--pkg",
                                   "--install-reason", "--force-uuid", "--apex-timeout",
                                   "--staged-ready-timeout", "--update-ownership"})
#: ``monkey``'s default share of system key events (AOSP ``MonkeySourceRandom``:
#: ``mFactors[FACTOR_SYSOPS] = 2.0f``).
SYSKEYS_FACTOR = 2.0


class LaunchError(Exception):
    """``am start`` could not start anything (the message is what ``am`` prints)."""


class Activities(Commands):
    """``am``, ``monkey`` and ``pm``."""

    # --- activities --------------------------------------------------------------------
    def find_app(self, package: str | None) -> App | None:
        """The installed app with exactly this Android package."""
        app = self.device.apps.get(package) if package else None
        return app if app is not None and app.package == package else None

    def open_app(self, app: App) -> None:
        self.device.open_app(app.name)

    def go_home(self) -> None:
        self.device.press("home")

    def cmd_am(self, args: list[str], io: IO) -> int:
        if not args:
            return io.fail("usage: am [start|force-stop|broadcast|kill] ...", 255)
        sub, rest = args[0], args[1:]
        if sub in ("start", "start-activity"):
            return self._am_start(rest, io)
        if sub == "force-stop":
            # AOSP ActivityManagerService.forceStopPackage: the app's processes and activities
            # end and it is put in the stopped state; the ACTION_PACKAGE_RESTARTED broadcast
            # makes AlarmManagerService (UninstallReceiver) remove all its alarms.
            for package in strip_user(rest):
                if self.find_app(package) is not None:
                    self.device.force_stop(package)
                    self.phone.alarms_cancelled.add(package)
                    self.phone.logd.force_stopped(
                        package, f"from pid {self.phone.logd.shell_pid()}")
            return 0
        if sub in ("kill", "kill-all"):
            # AOSP ActivityManagerService.killBackgroundProcesses: only processes in the
            # background die (their tasks and saved state stay, so a relaunch restores the
            # last screen); no stopped state, no PACKAGE_RESTARTED, so alarms stay. The
            # process table does not show the death: a killed app reads as still running.
            return 0
        if sub == "broadcast":
            try:
                intent = Intent.parse(rest)
            except ValueError as exc:
                return io.fail(f"Error: {exc}", 255)
            io.print(f"Broadcasting: Intent {{ {intent.describe()} }}")
            ime.deliver(self.phone, intent.action, intent.extras)  # ADBKeyboard's, if selected
            io.print("Broadcast completed: result=0")
            return 0
        return io.fail(f"Error: Unknown command: {sub}", 255)

    def _am_start(self, args: list[str], io: IO) -> int:
        try:
            intent = Intent.parse(args)
        except ValueError as exc:
            return io.fail(f"Error: {exc}", 255)
        io.print(f"Starting: Intent {{ {intent.describe()} }}")
        self.phone.overlays.resolver.dismiss()  # a new start stops the resolver dialog
        try:
            shown = self._launch(intent)
        except LaunchError as exc:
            return io.fail(str(exc))
        if shown is None:
            io.print("Warning: Activity not started, intent has been delivered to currently "
                     "running top-most instance.")
        elif intent.wait:
            io.print(f"Status: ok\nLaunchState: COLD\nActivity: {shown}\n"
                     "TotalTime: 312\nWaitTime: 318\nComplete")
        return 0

    def _launch(self, intent: Intent) -> str | None:
        """Carry out an activity intent: the short component shown (None if the intent went
        to the activity on top already), the start logged. Raises ``LaunchError`` when
        nothing handles it."""
        shown = self._start(intent)
        if shown is None:
            return None
        package, cls = shown
        full = package + cls if cls.startswith(".") else cls
        if package != resolver.PACKAGE:  # the resolver's start is logged when it opens
            self.phone.logd.started(intent.describe(resolver.NEW_TASK,
                                                    short_component(package, full)),
                                    package, full)
        return short_component(package, full)

    def _unresolved(self, intent: Intent) -> LaunchError:
        return LaunchError(f"Error: Activity not started, unable to resolve Intent "
                           f"{{ {intent.describe()} }}")

    def _start(self, intent: Intent) -> tuple[str, str] | None:
        """``_launch`` without the log: (package, activity class) shown, or None."""
        screen = system_screens.target(intent.action, intent.component)
        if screen is not None:  # Settings' and PackageInstaller's own screens
            shown = self.phone.overlays.screens.open(screen, intent.data)
            if shown is None:
                raise self._unresolved(intent)
            return shown, "." + system_screens.ACTIVITIES.get(screen, "Settings")
        package = intent.package
        if intent.component is not None:
            package, _, cls = intent.component.partition("/")
            if not cls:
                raise LaunchError(f"Error: Bad component name: {intent.component}")
            if package != LAUNCHER_PACKAGE and self.find_app(package) is None:
                full = package + cls if cls.startswith(".") else cls
                raise LaunchError(f"Error type 3\nError: Activity class {{{package}/{full}}} "
                                  "does not exist.")
        home = "android.intent.category.HOME" in intent.categories
        if package == LAUNCHER_PACKAGE or (home and package is None):
            self.go_home()
            return LAUNCHER_PACKAGE, ".MainActivity"
        action = intent.action or MAIN
        if action == MAIN and package is None and not intent.data:
            raise self._unresolved(intent)
        if package is None:  # implicit: the apps whose manifests answer it
            package = self._resolve(intent)
            if package is None:
                return resolver.PACKAGE, resolver.ACTIVITY
        target = self.find_app(package)
        if intent.clear_task and target is not None:
            self.device.force_stop(target.name)  # the task's activities finish, data stays
        if (action == MAIN and target is not None and self.device.current_app is target
                and not self.device.shade_open and not intent.data):
            self.phone.logd.started(intent.describe(resolver.NEW_TASK,
                                                    f"{package}/.MainActivity"),
                                    package, f"{package}.MainActivity", to_top=True)
            return None
        try:
            app = self.device.start_intent(DeviceIntent(
                action, package, intent.data, dict(intent.extras), tuple(intent.categories)))
        except LookupError:
            raise self._unresolved(intent) from None
        return app.package, ".MainActivity"

    def _resolve(self, intent: Intent) -> str | None:
        """The package an implicit intent goes to: the one app that answers it, or the one
        an "Always" answer chose; None when the resolver dialog opened to ask."""
        found = resolver.candidates(self.phone, intent.action, intent.data, intent.mime,
                                    intent.categories)
        if not found:
            raise self._unresolved(intent)
        chooser = self.phone.overlays.resolver
        preferred = chooser.preferred.get(resolver.preference_key(
            intent.action, intent.data, intent.mime))
        if len(found) == 1 or preferred in [c.package for c in found]:
            return found[0].package if len(found) == 1 else preferred
        choice = resolver.Choice(intent.action, intent.data, intent.mime, dict(intent.extras),
                                 list(intent.categories), [c.package for c in found],
                                 intent.describe, self.phone.overlays.foreground())
        self.phone.logd.started(intent.describe(
            "0x10800000", f"{resolver.PACKAGE}/{resolver.ACTIVITY}"), resolver.PACKAGE,
            resolver.ACTIVITY)  # am's NEW_TASK, and the resolver's EXCLUDE_FROM_RECENTS
        chooser.open(choice)
        self.device.invalidate()
        return None

    def cmd_monkey(self, args: list[str], io: IO) -> int:
        """``monkey -p PKG [-c CATEGORY] [--pct-syskeys N] [...] COUNT``: the ``monkey``
        script echoes its arguments (``bash arg:``); AOSP ``Monkey.run`` then validates its
        event source: ``MonkeySourceRandom.validateKeys`` refuses a key category whose
        factor is 0.1% or more when the device has none of its keys, and on a phone
        without hardware keys (``hardware_keys=False``) the default 2% of system keys fails
        ("** SYS_KEYS has no physical keys but with factor 2.0%.", ``run`` returns -5:
        exit 251) unless ``--pct-syskeys 0``."""
        packages, count, syskeys = [], 1, SYSKEYS_FACTOR
        it = iter(args)
        for arg in it:
            if arg == "-p":
                packages.append(next(it, ""))
            elif arg == "--pct-syskeys":
                try:
                    syskeys = float(next(it, ""))
                except ValueError:  # Monkey.nextOptionLong, then processOptions fails: -1
                    return io.fail("** Error: system (key) operations percentage is not a "
                                   "number", 255)
            elif arg in ("-c", "--throttle", "-s") or arg.startswith("--pct-"):
                next(it, None)
            elif arg.isdigit():
                count = int(arg)
        for arg in args:
            io.print(f"  bash arg: {arg}")
        app = next((a for p in packages if (a := self.find_app(p)) is not None), None)
        if app is None:
            return io.fail("** No activities found to run, monkey aborted.", 252)
        if not self.phone.hardware_keys and syskeys >= 0.1:
            return io.fail(f"** SYS_KEYS has no physical keys but with factor {syskeys}%.", 251)
        self.phone.overlays.resolver.dismiss()
        on_top = self.device.current_app is app and not self.device.shade_open
        self.phone.logd.started(  # MonkeySourceRandom's launch: NEW_TASK | RESET_TASK_IF_NEEDED
            "act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] "
            f"flg=0x10200000 cmp={app.package}/.MainActivity", app.package,
            f"{app.package}.MainActivity", to_top=on_top)
        self.open_app(app)
        io.print(f"Events injected: {count}")
        io.print("## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)")
        return 0

    # --- packages ----------------------------------------------------------------------
    def packages(self) -> list[str]:
        """Installed packages: the system ones and the mock apps."""
        return list(packages.installed(self.phone))

    def package_path(self, package: str) -> str:
        info = packages.installed(self.phone).get(package)
        if info is not None:
            return info.path
        name = package.rsplit(".", 1)[-1].capitalize()
        return f"/system/priv-app/{name}/{name}.apk"

    def cmd_pm(self, args: list[str], io: IO) -> int:
        if not args:
            return io.fail("usage: pm [list|path|clear|dump|grant|revoke|install|uninstall] ...",
                           255)
        sub, rest = args[0], strip_user(args[1:])
        if sub == "list" and rest[:1] == ["packages"]:
            return self._pm_list(rest[1:], io)
        if sub == "path" and rest:
            if rest[0] not in self.packages():
                return 1
            io.print(f"package:{self.package_path(rest[0])}")
            return 0
        if sub == "clear" and rest:
            package = rest[0]
            if self.device.clear_data(package) or package in SYSTEM_PACKAGES:
                self.phone.logd.force_stopped(package, "clear data")
                # clearApplicationUserData also resets the app's runtime permissions to what
                # an install gives them, and its first-run screen is back with its data
                self.phone.permissions.reset(package)
                self.phone.overlays.onboarded.discard(
                    self.phone.permissions.app_of(package) or "")
                io.print("Success")
                return 0
            return io.fail("Failed")
        if sub == "dump" and rest:
            io.print(packages.dump(self.phone, rest[:1]), end="")
            return 0
        if sub in ("query-activities", "resolve-activity"):  # profiles: packages.py
            options = [a for a in rest if a in ("--brief", "--components")]
            try:
                intent = Intent.parse([a for a in rest if a not in options])
            except ValueError as exc:
                return io.fail(f"Error: {exc}", 255)
            io.print(packages.query_activities(
                self.phone, sub, intent.action, intent.categories, intent.package,
                intent.component, options, intent.data, intent.mime), end="")
            return 0
        if sub in ("grant", "revoke"):  # permissions.Permissions.grant_command
            error = self.phone.permissions.grant_command(sub, rest)
            if error is None:
                return 0
            io.error(f"\nException occurred while executing '{sub}':\n{error}\n")
            return 255
        if sub in ("install", "install-create"):
            return self._pm_install(rest if sub == "install" else [*rest, "-S", "0"], io)
        if sub == "uninstall" and rest:
            return self._pm_uninstall(rest, io)
        return io.fail(f"Error: unknown or incomplete command: pm {' '.join(args)}", 255)

    def _pm_list(self, args: list[str], io: IO) -> int:
        """``pm list packages [-f] [-3] [-s] [-U] [--show-versioncode] [FILTER]``."""
        versions = "--show-versioncode" in args
        flags, rest = split_flags([a for a in args if a != "--show-versioncode"])
        for package in sorted(packages.installed(self.phone).values(), key=lambda p: p.name):
            if rest and rest[0] not in package.name:
                continue
            if ("3" in flags and package.system) or ("s" in flags and not package.system):
                continue
            path = f"{package.path}=" if "f" in flags else ""
            line = f"package:{path}{package.name}"
            if versions:
                line += f" versionCode:{package.version_code}"
            if "U" in flags:
                line += f" uid:{package.uid}"
            io.print(line)
        return 0

    def _pm_install(self, args: list[str], io: IO) -> int:
        """``pm install [-r] [-t] [-g] ... PATH`` or ``-S SIZE`` (the APK streamed on
        standard input, as ``adb install`` sends it) and ``install-create``: one
        ``INSTALL_REFUSED`` line, exit 1. AOSP ``PackageManagerShellCommand.doRunInstall``
        prints ``Failure [CODE: message]`` when the install session fails; here it fails
        before any file is opened, so the size of a streamed APK is never taken for a path
        ("Can't open file: 5")."""
        options, paths = _install_args(args)
        if not paths and "-S" not in options:
            return io.fail("Error: must either specify a package size or an APK file", 1)
        size = options.get("-S", "")
        if size.isdigit():  # read the streamed APK, as the session would, and drop it
            io.source.take(int(size))
        io.print(INSTALL_REFUSED)
        return 1

    def _pm_uninstall(self, args: list[str], io: IO) -> int:
        """``pm uninstall [-k] PKG``: nothing is ever removed from a PhoneWorld phone, so an
        installed package fails as under the ``no_uninstall_apps`` user restriction and an
        unknown one as on Android (AOSP ``PackageManagerShellCommand.runUninstall``:
        ``Failure [DELETE_FAILED_...]``, exit status 1)."""
        names = [a for a in args if not a.startswith("-")]
        if not names:
            return io.fail("Error: package name not specified", 1)
        installed = names[0] in packages.installed(self.phone)
        io.print("Failure [DELETE_FAILED_USER_RESTRICTED]" if installed else
                 "Failure [DELETE_FAILED_INTERNAL_ERROR]")
        return 1


@dataclass
class Intent:
    """An intent as ``am start``/``am broadcast`` parse it."""

    action: str | None = None
    categories: list[str] = field(default_factory=list)
    component: str | None = None
    package: str | None = None
    data: str | None = None
    mime: str | None = None
    flags: str | None = None
    extras: dict[str, Any] = field(default_factory=dict)
    wait: bool = False
    #: ``--activity-clear-task`` (``Intent.FLAG_ACTIVITY_CLEAR_TASK``): the app's task is
    #: cleared and its activity starts afresh, on its start screen.
    clear_task: bool = False

    @classmethod
    def parse(cls, args: Sequence[str]) -> Intent:
        """Raises ``ValueError`` with ``am``'s complaint."""
        intent, it = cls(), iter(args)
        for arg in it:
            if arg in VALUE_OPTIONS:
                value = next(it, None)
                if value is None:
                    raise ValueError(f"No argument for option {arg}")
                intent.option(arg, value, it)
            elif arg == "-W":
                intent.wait = True
            elif arg == "--activity-clear-task":
                intent.clear_task = True
            elif arg in FLAG_OPTIONS or arg.startswith(("--activity-", "--receiver-",
                                                        "--grant-")):
                continue
            elif arg.startswith("-"):
                raise ValueError(f"Unknown option: {arg}")
            elif "/" in arg and "://" not in arg:
                intent.component = arg
            else:
                intent.data = arg
        return intent

    def option(self, name: str, value: str, it: Iterator[str]) -> None:
        simple = {"-a": "action", "-n": "component", "-p": "package", "-d": "data",
                  "-t": "mime", "-f": "flags"}
        if name in simple:
            setattr(self, simple[name], value)
        elif name == "-c":
            self.categories.append(value)
        elif name == "--esn":
            self.extras[value] = None
        elif name in EXTRA_TYPES:
            raw = next(it, None)
            if raw is None:
                raise ValueError(f"No argument for option {name}")
            self.extras[value] = extra_value(name, raw)

    def describe(self, flags: str | None = None, component: str | None = None) -> str:
        """``Intent.toShortString(secure=true, comp=true, extras=true, clip=false)``: ``act=...
        cat=[...] dat=... typ=... flg=0x... pkg=... cmp=... (has extras)``, the data as
        ``Uri.toSafeString`` shows it; ``flags`` (hex) are added to the intent's own and
        ``component`` replaces its own (what the log shows once it is resolved)."""
        value = _flag_value(self.flags) | (int(flags, 16) if flags else 0)
        parts = []
        for key, text in (("act", self.action), ("cat", self.categories and
                                                 f"[{','.join(self.categories)}]"),
                          ("dat", self.data and safe_uri(self.data)), ("typ", self.mime),
                          ("flg", f"0x{value:x}" if value else None), ("pkg", self.package),
                          ("cmp", component or self.short_component())):
            if text:
                parts.append(f"{key}={text}")
        if self.extras:
            parts.append("(has extras)")
        return " ".join(parts)

    def short_component(self) -> str | None:
        if self.component is None:
            return None
        package, _, cls = self.component.partition("/")
        return f"{package}/{cls[len(package):]}" if cls.startswith(package + ".") else \
            self.component


VALUE_OPTIONS = frozenset({"-a", "-c", "-n", "-p", "-d", "-t", "-f", "--user", "--display",
                           "--windowingMode", "--activityType", "-R", "-P", "--task",
                           "--start-profiler", "--sampling", "--attach-agent", "--esn",
                           "--es", "--ez", "--ei", "--el", "--ef", "--ed", "--eu", "--ecn",
                           "--eia", "--ela", "--efa", "--esa", "--eial", "--elal",
                           "--efal", "--esal"})
FLAG_OPTIONS = frozenset({"-D", "-N", "-S", "--streaming", "--track-allocation",
                          "--debug-log-resolution", "--exclude-stopped-packages",
                          "--include-stopped-packages", "--dismiss-keyguard"})
EXTRA_TYPES = frozenset({"--es", "--ez", "--ei", "--el", "--ef", "--ed", "--eu", "--ecn",
                         "--eia", "--ela", "--efa", "--esa", "--eial", "--elal", "--efal",
                         "--esal"})


def extra_value(option: str, raw: str) -> Any:
    """An ``--e?`` extra's value; ``ValueError`` when it does not parse."""
    try:
        if option == "--ez":
            if raw.lower() not in ("true", "false", "t", "f", "0", "1"):
                raise ValueError(raw)
            return raw.lower() in ("true", "t", "1")
        if option in ("--ei", "--el"):
            return int(raw)
        if option in ("--ef", "--ed"):
            return float(raw)
        if option in ("--eia", "--ela", "--eial", "--elal"):
            return [int(v) for v in raw.split(",") if v]
        if option in ("--efa", "--efal"):
            return [float(v) for v in raw.split(",") if v]
        if option in ("--esa", "--esal"):
            return raw.split(",")
    except ValueError:
        raise ValueError(f"Invalid value for {option}: {raw}") from None
    return raw


def _install_args(args: Sequence[str]) -> tuple[dict[str, str], list[str]]:
    """``pm install``'s options (with their values) and APK paths."""
    options: dict[str, str] = {}
    paths: list[str] = []
    it = iter(args)
    for arg in it:
        if arg in INSTALL_VALUE_OPTIONS:
            options[arg] = next(it, "")
        elif arg.startswith("-"):
            options[arg] = ""
        else:
            paths.append(arg)
    return options, paths


def _flag_value(text: str | None) -> int:
    """``am``'s ``-f FLAGS`` (``Integer.decode``: decimal, ``0x`` hex or ``0`` octal)."""
    if not text:
        return 0
    try:
        return int(text, 0) & 0xFFFFFFFF
    except ValueError:
        return 0


#: Schemes whose data ``Uri.toSafeString`` masks (every character but ``-@.`` is ``x``).
MASKED_SCHEMES = frozenset({"tel", "sip", "sms", "smsto", "mailto", "nfc"})


def safe_uri(uri: str) -> str:
    """``Uri.toSafeString``: ``tel:xxxxxxx``, ``https://host/...``, and for other schemes
    the scheme-specific part (all but the fragment)."""
    scheme, colon, rest = uri.partition(":")
    if not colon:
        return uri.partition("#")[0]
    if scheme.lower() in MASKED_SCHEMES:
        return f"{scheme}:" + "".join(c if c in "-@." else "x" for c in rest.partition("#")[0])
    if scheme.lower() in ("http", "https", "ftp", "rtsp"):
        host = rest.removeprefix("//").partition("/")[0].partition("?")[0].partition("#")[0]
        return f"{scheme}://{host.rpartition('@')[2]}/..."
    return f"{scheme}:{rest.partition('#')[0]}"
