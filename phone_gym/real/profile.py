"""What a phone is, read at connect time, and which real-device templates it can run.

``read_profile`` asks the phone (five shell commands, no argument from outside):

- ``getprop ro.build.version.sdk`` and ``getprop ro.build.version.release``: its Android
  version (API level and release name);
- ``pm list packages``: every installed package (``package:NAME`` lines, AOSP
  ``PackageManagerShellCommand.runListPackages``);
- ``cmd package query-activities --components -a android.intent.action.MAIN -c
  android.intent.category.LAUNCHER``: the activities the launcher shows, one
  ``ComponentName.flattenToShortString()`` per line (``com.android.settings/.Settings``),
  or ``No activities found`` (``PackageManagerShellCommand.runQueryIntentActivities``);
- ``dumpsys display``: its displays, to pick the one screenshots take on a foldable
  (``frames.choose_display``).

``resolve_packages`` then maps each mock app to the package this phone has (Google's or
AOSP's Contacts, Files by Google or DocumentsUI: ``packages.PACKAGE_ALTERNATIVES``), the
first candidate with a launcher entry, and ``skip_reason`` says why a template cannot run
here: Android older than ``MIN_SDK`` (or the template's own minimum, ``TEMPLATE_MIN_SDK``),
or an app of the template that is missing or has no launcher entry.

What a reset does for the task's apps on this phone (``real.first_run``):
``APP_PERMISSIONS``, the runtime permissions each app needs for its tasks, granted with
``pm grant`` (and ``POST_NOTIFICATIONS`` from Android 13, whose prompt would cover the app
at every cold start); ``FIRST_RUN_RULES``, the first-run screens known to cover an app
after a cold start, each with the button that dismisses it (a profile's ``first_run``: the
defaults plus the env's ``first_run_rules``).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..world.manifest import AppManifest
from .base import Backend, DeviceError, ShellResult
from .frames import choose_display
from .packages import package_candidates

#: The oldest Android ``RealPhone-v0`` supports: Android 10 (API 29), the first with
#: ``cmd notification post``, ``cmd package query-activities --components`` and the
#: ``input`` and ``content`` behaviours the commands rely on.
MIN_SDK = 29
#: Android release names of the API levels named in reasons.
RELEASES = {29: "10", 30: "11", 31: "12", 32: "12L", 33: "13", 34: "14", 35: "15"}
#: Templates that need a newer Android than ``MIN_SDK``: id -> (API level, why). Setting
#: alarms from the shell (``am start -a android.intent.action.SET_ALARM`` with
#: ``EXTRA_SKIP_UI``, the Clock templates' setup) works from Android 12 on (issue 11's
#: finding on real phones). A template may also declare ``min_sdk``.
TEMPLATE_MIN_SDK: dict[str, tuple[int, str]] = {
    tid: (31, "its setup sets alarms from the shell with SET_ALARM and SKIP_UI")
    for tid in ("ClockCreateAlarm", "ClockDeleteAlarm", "ClockDeleteAlarmInfeasible")
}
MAIN = "android.intent.action.MAIN"
LAUNCHER = "android.intent.category.LAUNCHER"
LAUNCHER_QUERY = ("cmd", "package", "query-activities", "--components", "-a", MAIN, "-c",
                  LAUNCHER)
COMPONENT = re.compile(r"^([A-Za-z_][\w.]*)/([\w.$]+)$")


@dataclass(frozen=True)
class FirstRunRule:
    """A first-run screen and how to dismiss it: it shows when a node of one of
    ``packages`` is on screen (and, when ``signs`` are given, a text matching one of them,
    whole and case-insensitively); the dismissal taps the first node whose resource-id
    entry name (after ``:id/``) is in ``tap_ids``, else whose text matches one of
    ``tap_texts``."""

    name: str
    packages: tuple[str, ...]
    tap_ids: tuple[str, ...] = ()
    tap_texts: tuple[str, ...] = ()
    signs: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.packages or not (self.tap_ids or self.tap_texts):
            raise ValueError(f"FirstRunRule {self.name!r}: give packages and tap_ids or "
                             "tap_texts")
        for pattern in (*self.tap_texts, *self.signs):
            re.compile(pattern)


PERMISSION_CONTROLLERS = ("com.android.permissioncontroller",
                          "com.google.android.permissioncontroller")
#: First-run screens known to cover the apps of real-device tasks (see the module doc).
FIRST_RUN_RULES: tuple[FirstRunRule, ...] = (
    # AOSP PermissionController, GrantPermissionsActivity (layout grant_dialog): "While
    # using the app" where a permission offers it, else "Allow"
    FirstRunRule("permission prompt", PERMISSION_CONTROLLERS,
                 tap_ids=("permission_allow_foreground_only_button", "permission_allow_button")),
    # Markor's IntroActivity, an AppIntro slide show: its SKIP (or last DONE) button
    FirstRunRule("Markor intro", ("net.gsantner.markor",), tap_ids=("skip", "done")),
    # Chrome's first run: accept the terms, then no sync
    FirstRunRule("Chrome first run", ("com.android.chrome",),
                 tap_ids=("terms_accept", "negative_button")),
    # Files by Google's welcome screen
    FirstRunRule("Files by Google welcome", ("com.google.android.apps.nbu.files",),
                 tap_texts=(r"continue", r"get started"), signs=(r"welcome.*",)),
)
P = "android.permission."
#: The runtime permissions each app needs for its real-device tasks (by app name;
#: ``first_run.grant_needed`` grants those the app requests, and notifications from
#: Android 13 to every app that requests them).
APP_PERMISSIONS: dict[str, tuple[str, ...]] = {
    "Contacts": (P + "READ_CONTACTS", P + "WRITE_CONTACTS"),
    "Messages": (P + "READ_SMS", P + "SEND_SMS", P + "RECEIVE_SMS", P + "READ_CONTACTS"),
    "Calendar": (P + "READ_CALENDAR", P + "WRITE_CALENDAR"),
    "Camera": (P + "CAMERA", P + "RECORD_AUDIO"),
    "Gallery": (P + "READ_MEDIA_IMAGES", P + "READ_MEDIA_VIDEO", P + "READ_EXTERNAL_STORAGE",
                P + "WRITE_EXTERNAL_STORAGE"),
    "Draw": (P + "READ_MEDIA_IMAGES", P + "READ_EXTERNAL_STORAGE", P + "WRITE_EXTERNAL_STORAGE"),
    "Markor": (P + "READ_EXTERNAL_STORAGE", P + "WRITE_EXTERNAL_STORAGE"),
    "Files": (P + "READ_MEDIA_IMAGES", P + "READ_MEDIA_VIDEO", P + "READ_MEDIA_AUDIO",
              P + "READ_EXTERNAL_STORAGE", P + "WRITE_EXTERNAL_STORAGE"),
}
NOTIFICATIONS = P + "POST_NOTIFICATIONS"
#: The API levels that added permissions newer than ``MIN_SDK`` (none exists before).
PERMISSION_SDK = {NOTIFICATIONS: 33, P + "READ_MEDIA_IMAGES": 33, P + "READ_MEDIA_VIDEO": 33,
                  P + "READ_MEDIA_AUDIO": 33}


def needed_permissions(app: str, sdk: int | None) -> tuple[str, ...]:
    """The runtime permissions app ``app`` needs on Android ``sdk`` (``APP_PERMISSIONS``,
    notifications from Android 13), those newer than the phone left out."""
    wanted = (*APP_PERMISSIONS.get(app, ()), NOTIFICATIONS)
    return tuple(p for p in wanted if sdk is None or PERMISSION_SDK.get(p, 0) <= sdk)


@dataclass(frozen=True)
class DeviceProfile:
    """A phone's Android version, installed packages and launcher packages (None: the
    phone did not say which have a launcher entry; every installed package counts), the
    physical display screenshots are taken of (None: its only one: ``frames
    .choose_display``) and the first-run screens a reset dismisses."""

    serial: str
    sdk: int | None
    release: str
    packages: frozenset[str]
    launchable: frozenset[str] | None
    display: str | None = None
    first_run: tuple[FirstRunRule, ...] = FIRST_RUN_RULES

    def has_launcher(self, package: str) -> bool:
        if self.launchable is None:
            return package in self.packages
        return package in self.launchable

    def describe(self) -> str:
        """``Android 14 (API 34)``, or what is known of it."""
        if self.sdk is None:
            return f"Android {self.release or '(version unknown)'}"
        return f"Android {self.release or '?'} (API {self.sdk})"


def android(sdk: int) -> str:
    """``Android 12 (API 31)``."""
    name = RELEASES.get(sdk)
    return f"Android {name} (API {sdk})" if name else f"API {sdk}"


def read_profile(backend: Backend, timeout: float | None = None,
                 first_run: Iterable[FirstRunRule] = ()) -> DeviceProfile:
    """The profile of the phone behind ``backend`` (see the module doc; ``first_run``:
    rules besides ``FIRST_RUN_RULES``); ``DeviceError`` when it cannot list its
    packages."""
    sdk_text = _run(backend, ("getprop", "ro.build.version.sdk"), timeout).output.strip()
    release = _run(backend, ("getprop", "ro.build.version.release"), timeout).output.strip()
    argv = ("pm", "list", "packages")
    listed = _run(backend, argv, timeout)
    packages = parse_packages(listed.output)
    if not listed.ok or not packages:
        raise DeviceError(f"`{' '.join(argv)}` on {backend.serial} listed no packages "
                          f"(exit {listed.returncode}): {listed.output[:300]!r}")
    query = _run(backend, LAUNCHER_QUERY, timeout)
    launchable = parse_components(query.output) if query.ok else None
    display = choose_display(_run(backend, ("dumpsys", "display"), timeout).output)
    return DeviceProfile(backend.serial, int(sdk_text) if sdk_text.isdigit() else None,
                         release, packages, launchable, display,
                         (*FIRST_RUN_RULES, *first_run))


def _run(backend: Backend, argv: tuple[str, ...], timeout: float | None) -> ShellResult:
    return backend.shell(" ".join(shlex.quote(a) for a in argv), timeout)


def parse_packages(output: str) -> frozenset[str]:
    """The names of ``pm list packages`` output (``package:NAME``, with ``-f``
    ``package:PATH=NAME``; trailing `` versionCode:`` or `` uid:`` fields dropped)."""
    names = set()
    for line in output.splitlines():
        if line.startswith("package:"):
            fields = line[len("package:"):].split()
            if fields:
                names.add(fields[0].rsplit("=", 1)[-1])
    return frozenset(names)


def parse_components(output: str) -> frozenset[str] | None:
    """The packages of ``query-activities --components`` output (one short component a
    line); empty for ``No activities found``; None for output of another shape (an Android
    without ``--components``)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    if lines == ["No activities found"]:
        return frozenset()
    found = [COMPONENT.match(line) for line in lines]
    if not lines or not all(found):
        return None
    return frozenset(m.group(1) for m in found if m is not None)


def resolve_app(profile: DeviceProfile, candidates: Iterable[str]) -> tuple[str | None, str]:
    """The first of ``candidates`` with a launcher entry on the phone, or None and why."""
    candidates = tuple(candidates)
    for package in candidates:
        if profile.has_launcher(package):
            return package, ""
    present = [p for p in candidates if p in profile.packages]
    if present:
        return None, (f"{', '.join(present)} {'is' if len(present) == 1 else 'are'} installed "
                      "but has no launcher entry")
    return None, f"none of {', '.join(candidates)} is installed"


def resolve_packages(profile: DeviceProfile, manifests: Iterable[AppManifest],
                     fixed: Mapping[str, str] | None = None
                     ) -> tuple[dict[str, str], dict[str, str]]:
    """``(packages, missing)``: each mock app's package on this phone by name and label
    (apps named in ``fixed``, the caller's own choice, are left out), and why an app has
    none (by name)."""
    fixed = dict(fixed or {})
    packages: dict[str, str] = {}
    missing: dict[str, str] = {}
    for m in manifests:
        if m.name in fixed:
            continue
        package, why = resolve_app(profile, package_candidates(m.name, m.package))
        if package is None:
            missing[m.name] = why
            continue
        for key in (m.name, m.label):
            if key not in fixed:
                packages.setdefault(key, package)
    return packages, missing


def min_sdk(template: Any) -> tuple[int, str]:
    """The oldest API level ``template`` runs on, and why (empty: ``MIN_SDK``)."""
    own = getattr(template, "min_sdk", None)
    if isinstance(own, int) and own > MIN_SDK:
        return own, "the template says so"
    return TEMPLATE_MIN_SDK.get(template.id, (MIN_SDK, ""))


def skip_reason(template: Any, profile: DeviceProfile, missing: Mapping[str, str]) -> str | None:
    """Why ``template`` cannot run on the phone of ``profile`` (None: it can)."""
    if profile.sdk is not None and profile.sdk < MIN_SDK:
        return (f"RealPhone-v0 needs {android(MIN_SDK)} or later; {profile.serial} runs "
                f"{profile.describe()}")
    need, why = min_sdk(template)
    if profile.sdk is not None and profile.sdk < need:
        return f"needs {android(need)} or later: {why}; {profile.serial} runs {profile.describe()}"
    for app in template.apps:
        if app in missing:
            return f"its app {app} is not on {profile.serial}: {missing[app]}"
    return None
