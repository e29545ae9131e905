"""``WorldState``: the ``DeviceState`` phone facade over a PhoneWorld ``Device``.

Tasks write their initial state and read the final one through it, exactly as they do on a
real phone over adb (``real.state.AdbState``); PhoneWorld-only tasks may also reach an app's
own data with ``app``. Its ``snapshot`` is the whole phone (every store and every app's data),
so collateral damage anywhere is seen.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from typing import Any

from ..verifiers.state import (
    STORE_NAMES,
    AlarmRow,
    ContactRow,
    DeviceError,
    Watch,
    counted_keys,
)
from .app import App
from .device import Device
from .manifest import Intent
from .system import File

SDCARD = "/sdcard"
#: Other names of the shared storage root, mapped to ``/sdcard``.
SDCARD_ALIASES = ("/storage/emulated/0", "/storage/self/primary", "/mnt/sdcard")


def sdcard_path(path: str) -> str:
    """``path`` made absolute and normal, with shared storage spelled ``/sdcard``."""
    path = posixpath.normpath("/" + path.lstrip("/")) if path else "/"
    if path.startswith("//"):
        path = "/" + path.lstrip("/")
    for alias in SDCARD_ALIASES:
        if path == alias or path.startswith(alias + "/"):
            return SDCARD + path[len(alias):]
    return path


def folder_files(paths: Any, folder: str) -> list[str]:
    """Names of the files directly in ``folder`` among ``paths``."""
    folder = sdcard_path(folder)
    return sorted(posixpath.basename(p) for p in paths if posixpath.dirname(p) == folder)


class WorldState:
    """``DeviceState`` of a PhoneWorld ``device``, read and written directly.

    Files are the text files of ``system.files``: writing bytes that are not UTF-8 raises
    ``DeviceError``.
    """

    def __init__(self, device: Device) -> None:
        self.device = device

    # --- the facade --------------------------------------------------------------------------
    def stores(self) -> frozenset[str]:
        return frozenset(STORE_NAMES)

    def rows(self, store: str) -> Mapping[str, Mapping[str, Any]]:
        """What a real phone would show of ``store`` over adb (contacts by id; enabled
        alarms by ``HH:MM``), so ``observe`` reads a PhoneWorld phone as ``AdbState`` reads
        the same phone through the virtual adb device; other stores whole. ``snapshot`` is
        the whole phone."""
        system = self.device.system
        if store == "contacts":
            return {str(c.id): {"id": c.id, "name": c.name, "phone": c.phone, "email": c.email,
                                "starred": c.starred} for c in system.contacts}
        if store == "alarms":
            alarms = self.alarms()
            keys = counted_keys(f"{a.hour:02d}:{a.minute:02d}" for a in alarms)
            return {k: {"hour": a.hour, "minute": a.minute}
                    for k, a in zip(keys, alarms, strict=True)}
        if store not in STORE_NAMES or store in ("settings", "clipboard", "wallet"):
            raise DeviceError(f"no record store {store!r}; stores: {', '.join(STORE_NAMES)}")
        return getattr(system, store).snapshot()

    def snapshot(self, watch: Watch | None = None) -> dict[str, Any]:
        """The whole phone (``watch`` matters on real phones, which cannot read it all)."""
        return self.device.snapshot()

    def app(self, name: str) -> App:
        """An installed app by name (PhoneWorld only: its own data, for fixtures)."""
        app = self.device.app(name)
        if app is None:
            raise DeviceError(self.device.unknown_app(name))
        return app

    # --- settings ----------------------------------------------------------------------------
    def get_setting(self, namespace: str, key: str) -> str | None:
        return self.device.system.get_setting(namespace, key)

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        self.device.system.put_setting(namespace, key, value)

    # --- contacts, alarms --------------------------------------------------------------------
    def contacts(self) -> list[ContactRow]:
        return [ContactRow(c.name, c.phone, c.email, c.starred)
                for c in self.device.system.contacts]

    def add_contact(self, name: str, phone: str = "", email: str = "",
                    starred: bool = False) -> None:
        self.device.system.add_contact(name, phone, email, starred=starred)

    def alarms(self) -> list[AlarmRow]:
        """Enabled alarms, earliest time of day first (what a phone's alarm manager shows)."""
        return [AlarmRow(a.hour, a.minute)
                for a in sorted(self.device.system.alarms, key=lambda a: (a.hour, a.minute))
                if a.enabled]

    def add_alarm(self, hour: int, minute: int, label: str = "",
                  days: Sequence[str] = ()) -> None:
        """The clock's ``SET_ALARM`` intent (in the background)."""
        extras: dict[str, Any] = {"android.intent.extra.alarm.HOUR": int(hour),
                                  "android.intent.extra.alarm.MINUTES": int(minute),
                                  "android.intent.extra.alarm.SKIP_UI": True}
        if label:
            extras["android.intent.extra.alarm.MESSAGE"] = label
        if days:
            order = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")  # Calendar.SUNDAY = 1
            extras["android.intent.extra.alarm.DAYS"] = [order.index(d) + 1 for d in days]
        try:
            self.device.start_intent(Intent("android.intent.action.SET_ALARM", extras=extras))
        except LookupError as exc:
            raise DeviceError(f"no clock app answers SET_ALARM: {exc}") from exc

    # --- files -------------------------------------------------------------------------------
    def list_dir(self, path: str) -> list[str]:
        return folder_files(self.device.system.files.keys(), path)

    def read_file(self, path: str) -> bytes | None:
        file = self.device.system.files.get(sdcard_path(path))
        return None if file is None else file.content.encode("utf-8")

    def write_file(self, path: str, data: bytes) -> None:
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DeviceError(f"write_file {path}: PhoneWorld keeps text files only "
                              "(UTF-8)") from exc
        self.device.system.files.put(File(sdcard_path(path), text))

    def remove_file(self, path: str) -> None:
        self.device.system.files.remove(sdcard_path(path))

    # --- apps --------------------------------------------------------------------------------
    def clear_app(self, package: str) -> None:
        if not self.device.clear_data(package):
            raise DeviceError(f"pm clear {package}: Failed (no such package)")

    def force_stop(self, package: str) -> None:
        self.device.force_stop(package)

    def home(self) -> None:
        self.device.press("home")
