"""The device-state interface that tasks are written against: one phone facade for PhoneWorld,
real phones over adb, and the virtual adb device.

A task's setup writes a phone's state and its verifier reads it only through ``DeviceState``:
the shared stores (settings, contacts, alarms, files, messages, call log, calendar events,
notifications), plus app resets. Implementations: ``phone_gym.world.state.WorldState`` (a
PhoneWorld phone, read directly) and ``phone_gym.real.state.AdbState`` (any phone over adb:
``settings``, ``content``, ``dumpsys``, sync). ``observe`` turns what a task watches into a
snapshot with one key per store, records keyed as the phone reports them, that criteria and
``diff`` check the same way in every world. A store a phone cannot read raises
``Unsupported`` (and is missing from ``stores()``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .criteria import digits


class DeviceError(RuntimeError):
    """The phone could not be reached or did not answer in time (adb), or refused a
    command. Raised by ``DeviceState`` implementations and the real-phone backends."""


class Unsupported(DeviceError):
    """This phone cannot read or write that store (e.g. a wallet over adb)."""


@dataclass(frozen=True)
class ContactRow:
    """A contact as the contacts provider lists it."""

    name: str
    phone: str = ""
    email: str = ""
    starred: bool = False


@dataclass(frozen=True)
class AlarmRow:
    """An alarm the clock app has scheduled (enabled alarms only: that is what a phone's
    alarm manager reports)."""

    hour: int
    minute: int


#: Every store a task may watch (snapshot keys; see ``world.system.STORES``).
STORE_NAMES: tuple[str, ...] = ("settings", "contacts", "alarms", "files", "messages", "calls",
                                "events", "notifications", "accounts", "wallet", "clipboard")


@runtime_checkable
class DeviceState(Protocol):
    """Read and write a phone's state (raises ``DeviceError`` when the phone is gone)."""

    def stores(self) -> frozenset[str]:
        """The stores this phone can read (``rows`` of any other raises ``Unsupported``)."""
        ...

    def rows(self, store: str) -> Mapping[str, Mapping[str, Any]]:
        """The records of ``store``, plain, keyed as the phone reports them."""
        ...

    def get_setting(self, namespace: str, key: str) -> str | None:
        """``settings get <namespace> <key>``; None when unset."""
        ...

    def put_setting(self, namespace: str, key: str, value: str) -> None: ...

    def contacts(self) -> list[ContactRow]: ...

    def add_contact(self, name: str, phone: str = "", email: str = "",
                    starred: bool = False) -> None: ...

    def alarms(self) -> list[AlarmRow]: ...

    def add_alarm(self, hour: int, minute: int, label: str = "",
                  days: Sequence[str] = ()) -> None: ...

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
    """What of a phone's state a task's snapshot covers: ``stores`` (besides settings and
    files), the ``settings`` keys, and the folders ``dirs`` of the files store."""

    settings: tuple[tuple[str, str], ...] = WATCHED_SETTINGS
    contacts: bool = True
    alarms: bool = True
    dirs: tuple[str, ...] = WATCHED_DIRS
    stores: tuple[str, ...] = ()

    def store_names(self) -> tuple[str, ...]:
        names = [*self.stores]
        if self.contacts:
            names.append("contacts")
        if self.alarms:
            names.append("alarms")
        return tuple(dict.fromkeys(names))


def contact_key(name: str, phone: str) -> str:
    return f"{name.strip()}|{digits(phone)}"


def counted_keys(keys: Iterable[str]) -> list[str]:
    """Keys made unique in order: a repeat of ``k`` becomes ``k#2``, ``k#3``..."""
    seen: dict[str, int] = {}
    out = []
    for key in keys:
        seen[key] = seen.get(key, 0) + 1
        out.append(key if seen[key] == 1 else f"{key}#{seen[key]}")
    return out


def observe(state: DeviceState, watch: Watch = Watch()) -> dict[str, Any]:
    """A snapshot of what ``watch`` covers, for ``verifiers.check``: ``settings.<ns>.<key>``
    (value or None), ``files.<path>`` (name, folder, size, sha1) for the watched folders,
    and each watched store's records as the phone keys them."""
    snap: dict[str, Any] = {"settings": {}}
    for namespace, key in watch.settings:
        snap["settings"].setdefault(namespace, {})[key] = state.get_setting(namespace, key)
    for store in watch.store_names():
        snap[store] = dict(state.rows(store))
    if watch.dirs:
        files: dict[str, Any] = {}
        for folder in watch.dirs:
            folder = folder.rstrip("/")
            for name in sorted(state.list_dir(folder)):
                path = f"{folder}/{name}"
                data = state.read_file(path) or b""
                files[path] = {"name": name, "folder": folder, "size": len(data),
                               "sha1": hashlib.sha1(data).hexdigest()}
        snap["files"] = files
    return snap
