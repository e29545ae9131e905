"""Runtime permissions on the virtual phone, as Android's permission manager keeps them.

Each mock app requests the permissions of the real app it models (``REQUESTED``, from their
``AndroidManifest.xml``; ``INTERNET`` besides). Runtime ("dangerous") permissions
(``RUNTIME``, each from the API level that added it) are granted or not per package. As
installed, a profile of fresh installs (``commands.packages.Profile.fresh``, as ``pm
install`` without ``-g`` leaves them) holds none; the other profiles model apps installed
with their permissions granted (``pm install -g``, or a system image's), and hold all.
``pm clear`` puts a package back as installed.

``pm grant|revoke PKG PERMISSION`` follows AOSP ``PermissionManagerServiceImpl
.grantRuntimePermissionInternal`` (through ``PackageManagerShellCommand
.runGrantRevokePermission``): an unknown package is ``IllegalArgumentException: Unknown
package``, an unknown permission (one from a newer API too) ``IllegalArgumentException:
Unknown permission``, one the package does not request ``SecurityException: Package P has
not requested permission X``, an install-time one ``SecurityException: Permission X
requested by P is not a changeable permission type``; each printed as the shell prints an
exception (stderr, exit 255). Success prints nothing. ``dumpsys package`` shows the
requested permissions and, per user, ``runtime permissions:`` with ``granted=``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .phone import VirtualPhone

P = "android.permission."
#: Runtime permissions and the API level that added each (``Manifest.permission``).
RUNTIME: dict[str, int] = {
    **{P + name: 23 for name in (
        "READ_CONTACTS", "WRITE_CONTACTS", "CAMERA", "RECORD_AUDIO", "READ_SMS", "SEND_SMS",
        "RECEIVE_SMS", "READ_CALENDAR", "WRITE_CALENDAR", "READ_EXTERNAL_STORAGE",
        "WRITE_EXTERNAL_STORAGE", "ACCESS_FINE_LOCATION", "ACCESS_COARSE_LOCATION",
        "CALL_PHONE", "READ_PHONE_STATE", "READ_CALL_LOG", "WRITE_CALL_LOG")},
    **{P + name: 33 for name in ("POST_NOTIFICATIONS", "READ_MEDIA_IMAGES",
                                 "READ_MEDIA_VIDEO", "READ_MEDIA_AUDIO")},
}
#: Install-time permissions the apps request (granted at install, not changeable).
INSTALL = (P + "INTERNET", P + "VIBRATE", P + "WAKE_LOCK")
NOTIFICATIONS = P + "POST_NOTIFICATIONS"
#: The runtime permissions each app requests, by app name (the real apps' manifests:
#: AOSP DeskClock, Contacts, Camera2, Google's Files; Simple Mobile Tools' SMS Messenger,
#: Gallery, Calendar and Draw; Markor); any other app requests notifications only.
REQUESTED: dict[str, tuple[str, ...]] = {
    "Clock": (NOTIFICATIONS, P + "READ_MEDIA_AUDIO"),
    "Contacts": (P + "READ_CONTACTS", P + "WRITE_CONTACTS", P + "CALL_PHONE", NOTIFICATIONS),
    "Messages": (P + "READ_SMS", P + "SEND_SMS", P + "RECEIVE_SMS", P + "READ_CONTACTS",
                 NOTIFICATIONS),
    "Camera": (P + "CAMERA", P + "RECORD_AUDIO", P + "ACCESS_FINE_LOCATION"),
    "Gallery": (P + "READ_MEDIA_IMAGES", P + "READ_MEDIA_VIDEO",
                P + "READ_EXTERNAL_STORAGE", NOTIFICATIONS),
    "Calendar": (P + "READ_CALENDAR", P + "WRITE_CALENDAR", NOTIFICATIONS),
    "Draw": (P + "READ_MEDIA_IMAGES", P + "WRITE_EXTERNAL_STORAGE"),
    "Markor": (P + "READ_EXTERNAL_STORAGE", P + "WRITE_EXTERNAL_STORAGE"),
    "Files": (P + "READ_EXTERNAL_STORAGE", NOTIFICATIONS),
    "Settings": (),
}


def requested(app: str) -> tuple[str, ...]:
    """The runtime permissions app ``app`` (its name) requests."""
    return REQUESTED.get(app, (NOTIFICATIONS,))


class Permissions:
    """The runtime permissions granted to each mock app's package, and the user's denials
    (see the module doc)."""

    def __init__(self, phone: VirtualPhone) -> None:
        self.phone = phone
        self._granted: dict[str, set[str]] = {}
        #: How often the user denied each (package, permission) at a prompt.
        self.denials: dict[tuple[str, str], int] = {}

    def sdk(self) -> int:
        value = self.phone.properties.get("ro.build.version.sdk", "34")
        return int(value) if value.isdigit() else 34

    def app_of(self, package: str) -> str | None:
        return next((c.name for c in self.phone.device.app_classes if c.package == package),
                    None)

    def runtime(self, package: str) -> tuple[str, ...]:
        """The runtime permissions ``package`` requests that exist on this Android."""
        app = self.app_of(package)
        if app is None:
            return ()
        return tuple(p for p in requested(app) if RUNTIME[p] <= self.sdk())

    def granted(self, package: str) -> set[str]:
        found = self._granted.get(package)
        if found is None:
            fresh = self.phone.profile_info().fresh
            found = self._granted[package] = set() if fresh else set(self.runtime(package))
        return found

    def is_granted(self, package: str, permission: str) -> bool:
        return permission in self.granted(package)

    def set(self, package: str, permission: str, grant: bool) -> None:
        (self.granted(package).add if grant else self.granted(package).discard)(permission)

    def reset(self, package: str) -> None:
        """``pm clear``: the package's permissions as an install gives them."""
        self._granted.pop(package, None)
        for key in [k for k in self.denials if k[0] == package]:
            del self.denials[key]

    def clear(self) -> None:
        self._granted.clear()
        self.denials.clear()

    def grant_command(self, verb: str, args: list[str]) -> str | None:
        """``pm grant|revoke PKG PERMISSION``: the exception text, or None on success."""
        if len(args) < 2:
            return f"java.lang.IllegalArgumentException: Usage: pm {verb} PACKAGE PERMISSION"
        package, permission = args[0], args[1]
        from .commands.packages import installed  # the package table imports this module

        if package not in installed(self.phone):
            return f"java.lang.IllegalArgumentException: Unknown package: {package}"
        known = permission in RUNTIME and RUNTIME[permission] <= self.sdk()
        if not known and permission not in INSTALL:
            return f"java.lang.IllegalArgumentException: Unknown permission: {permission}"
        app = self.app_of(package)
        asked = (*INSTALL[:1], *(requested(app) if app is not None else ()))
        if permission not in asked:
            return (f"java.lang.SecurityException: Package {package} has not requested "
                    f"permission {permission}")
        if permission in INSTALL:
            return (f"java.lang.SecurityException: Permission {permission} requested by "
                    f"{package} is not a changeable permission type")
        self.set(package, permission, verb == "grant")
        return None

    def dump_lines(self, package: str) -> tuple[list[str], list[str]]:
        """``dumpsys package``'s ``requested permissions:`` entries and its per-user
        ``runtime permissions:`` lines (``PERM: granted=BOOL, flags=[ ... ]``)."""
        runtime = self.runtime(package)
        flags = "flags=[ USER_SENSITIVE_WHEN_GRANTED|USER_SENSITIVE_WHEN_DENIED]"
        return ([*INSTALL[:1], *runtime],
                [f"{p}: granted={str(self.is_granted(package, p)).lower()}, {flags}"
                 for p in runtime])
