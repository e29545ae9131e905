"""The device-state interface that real-device tasks are written against.

A task's setup and check read and write a phone only through ``DeviceState``: settings,
contacts, scheduled alarms and files, plus app resets. It has two implementations:
``phone_gym.mockapps.device_state.WorldState`` (a PhoneWorld phone, read directly) and
``phone_gym.real.state.AdbState`` (any phone over adb: ``settings get``, ``content query``,
``dumpsys alarm``, sync). ``observe`` turns what a task watches into a plain snapshot that
the usual criteria and diff check, so collateral damage is judged the same way in both worlds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .criteria import digits


class DeviceError(RuntimeError):
    """The phone could not be reached or did not answer in time (adb), or refused a
    command. Raised by ``DeviceState`` implementations and the real-phone backends."""


@dataclass(frozen=True)
class ContactRow:
    """A contact as the contacts provider lists it."""

    name: str
    phone: str = ""


@dataclass(frozen=True)
class AlarmRow:
    """An alarm the clock app has scheduled (enabled alarms only: that is what a phone's
    alarm manager reports)."""

    hour: int
    minute: int


@runtime_checkable
class DeviceState(Protocol):
    """Read and write a phone's state (raises ``DeviceError`` when the phone is gone)."""

    def get_setting(self, namespace: str, key: str) -> str | None:
        """``settings get <namespace> <key>``; None when unset."""
        ...

    def put_setting(self, namespace: str, key: str, value: str) -> None: ...

    def contacts(self) -> list[ContactRow]: ...

    def add_contact(self, name: str, phone: str = "") -> None: ...

    def alarms(self) -> list[AlarmRow]: ...

    def add_alarm(self, hour: int, minute: int, label: str = "") -> None: ...

    def list_dir(self, path: str) -> list[str]:
        """Names of the regular files in folder ``path`` (empty if it does not exist)."""
        ...

    def read_file(self, path: str) -> bytes | None: ...

    def write_file(self, path: str, data: bytes) -> None: ...

    def remove_file(self, path: str) -> None: ...

    def clear_app(self, package: str) -> None:
        """``pm clear``: wipe an app's data (contacts live in the contacts provider)."""
        ...

    def force_stop(self, package: str) -> None: ...

    def home(self) -> None:
        """Press home."""
        ...


#: Settings every real-device task watches for collateral damage.
WATCHED_SETTINGS: tuple[tuple[str, str], ...] = (
    ("global", "wifi_on"),
    ("global", "bluetooth_on"),
    ("global", "airplane_mode_on"),
    ("system", "screen_brightness"),
    ("secure", "ui_night_mode"),
    ("global", "zen_mode"),
)
#: Folders every real-device task watches.
WATCHED_DIRS: tuple[str, ...] = ("/sdcard/Download", "/sdcard/Documents")


@dataclass(frozen=True)
class Watch:
    """What of a phone's state a task's snapshot covers."""

    settings: tuple[tuple[str, str], ...] = WATCHED_SETTINGS
    contacts: bool = True
    alarms: bool = True
    dirs: tuple[str, ...] = WATCHED_DIRS


def contact_key(name: str, phone: str) -> str:
    return f"{name.strip()}|{digits(phone)}"


def _counted(rows: Iterable[tuple[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for key, fields in rows:
        if key in out:
            out[key]["count"] += 1
        else:
            out[key] = {**fields, "count": 1}
    return out


def observe(state: DeviceState, watch: Watch = Watch()) -> dict[str, Any]:
    """A plain snapshot of what ``watch`` covers, for ``verifiers.check``.

    ``settings.<namespace>.<key>`` (value or None); ``contacts.<name|digits>`` with name,
    phone and count; ``alarms.<HH:MM>`` with hour, minute and count; ``files.<path>`` with
    name, folder, size and sha1.
    """
    snap: dict[str, Any] = {"settings": {}}
    for namespace, key in watch.settings:
        snap["settings"].setdefault(namespace, {})[key] = state.get_setting(namespace, key)
    if watch.contacts:
        snap["contacts"] = _counted(
            (contact_key(c.name, c.phone), {"name": c.name, "phone": c.phone})
            for c in state.contacts())
    if watch.alarms:
        snap["alarms"] = _counted(
            (f"{a.hour:02d}:{a.minute:02d}", {"hour": a.hour, "minute": a.minute})
            for a in state.alarms())
    if watch.dirs:
        files: dict[str, Any] = {}
        for folder in watch.dirs:
            for name in sorted(state.list_dir(folder)):
                path = f"{folder.rstrip('/')}/{name}"
                data = state.read_file(path) or b""
                files[path] = {"name": name, "folder": folder, "size": len(data),
                               "sha1": hashlib.sha1(data).hexdigest()}
        snap["files"] = files
    return snap
