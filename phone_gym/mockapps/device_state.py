"""``WorldState``: the ``DeviceState`` interface over a PhoneWorld ``Device`` (or a snapshot).

Also home to the few device operations that the virtual adb device (``phone_gym.virtual``)
shares with ``WorldState``, so both change a phone the same way: ``clear_app_data`` (what
``pm clear`` does), ``stop_app`` (``am force-stop``), ``set_alarm`` (the clock app's
``SET_ALARM`` intent) and ``sdcard_path`` (shared-storage path names).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..verifiers.state import AlarmRow, ContactRow, DeviceError
from ..world.app import App
from ..world.device import CONTACTS_PROVIDER, Device
from . import APPS
from .clock.app import Alarm, ClockApp, ClockData, add_alarm, ordered_days

#: The contacts provider: ``pm clear`` on it wipes every contact.
#: The package whose alarms ``alarms()`` reports.
CLOCK_PACKAGE = ClockApp.package
SDCARD = "/sdcard"
#: Other names of the shared storage root, mapped to ``/sdcard``.
SDCARD_ALIASES = ("/storage/emulated/0", "/storage/self/primary", "/mnt/sdcard")


# --- shared device operations ------------------------------------------------------------
def sdcard_path(path: str) -> str:
    """``path`` made absolute and normal, with shared storage spelled ``/sdcard``."""
    path = posixpath.normpath("/" + path.lstrip("/")) if path else "/"
    if path.startswith("//"):
        path = "/" + path.lstrip("/")
    for alias in SDCARD_ALIASES:
        if path == alias or path.startswith(alias + "/"):
            return SDCARD + path[len(alias):]
    return path


def find_app(device: Device, package: str) -> App | None:
    """The installed app with exactly this Android package."""
    return next((a for a in device.apps.values() if a.package == package), None)


def stop_app(device: Device, package: str) -> bool:
    """``am force-stop``: the app's transient UI goes (and it leaves the screen and recents),
    its data stays. False when no such app is installed. The clock does not move."""
    app = find_app(device, package)
    if app is None:
        return False
    before = device.screen_key()
    device._app_action("close_app", app.name)  # the device's own close_app, minus the tick
    if device.screen_key() != before:
        device.focus = None
        device.close_menu()
    device.invalidate()
    return True


def clear_app_data(device: Device, package: str) -> bool:
    """``pm clear``: stop the app and reset its data to a fresh install's; for the contacts
    provider, delete every contact. False when the package is unknown."""
    if package == CONTACTS_PROVIDER:
        device.system.contacts = []
        device.invalidate()
        return True
    app = find_app(device, package)
    if app is None:
        return False
    stop_app(device, package)
    app.data = app.initial_data()
    device.invalidate()
    return True


def clock_data(device: Device) -> ClockData | None:
    """The clock app's data (None when no clock app is installed)."""
    app = find_app(device, CLOCK_PACKAGE)
    return app.data if app is not None else None


def set_alarm(device: Device, hour: int, minute: int, label: str = "",
              days: Sequence[str] = ()) -> Alarm:
    """The clock app's ``SET_ALARM`` intent: like AOSP DeskClock, an existing alarm with the
    same time, label and days is switched on instead of duplicated."""
    data = clock_data(device)
    if data is None:
        raise DeviceError(f"no clock app ({CLOCK_PACKAGE}) is installed")
    wanted = ordered_days(days)
    for alarm in data.alarms:
        if (alarm.hour, alarm.minute, alarm.label, alarm.days) == (hour, minute, label, wanted):
            alarm.enabled = True
            device.invalidate()
            return alarm
    alarm = add_alarm(data, hour, minute, label, days=wanted)
    device.invalidate()
    return alarm


def alarm_rows(alarms: Iterable[tuple[int, int, bool]]) -> list[AlarmRow]:
    """Enabled ``(hour, minute, enabled)`` alarms as rows, earliest time of day first."""
    return [AlarmRow(h, m) for h, m, on in sorted(alarms) if on]


def folder_files(files: Iterable[str], folder: str) -> list[str]:
    """Names of the files directly in ``folder`` among the paths ``files``."""
    folder = sdcard_path(folder)
    return sorted(posixpath.basename(p) for p in files if posixpath.dirname(p) == folder)


# --- WorldState ----------------------------------------------------------------------------
class WorldState:
    """``DeviceState`` of a PhoneWorld ``device``, read and written directly.

    Files are the text files of ``system.files``: writing bytes that are not UTF-8 raises
    ``DeviceError``. ``from_snapshot`` gives a read-only view of ``device.snapshot()`` data.
    """

    def __init__(self, device: Device) -> None:
        self.device: Device | None = device
        self._snapshot: Mapping[str, Any] | None = None
        self._clock_name: str | None = None

    @classmethod
    def from_snapshot(cls, snapshot: Mapping[str, Any], *,
                      clock_app: str | None = None) -> WorldState:
        """A read-only view of ``Device.snapshot()`` data; ``clock_app`` is the name the
        clock app's data is keyed by (default: the installed app with the clock package)."""
        state = cls.__new__(cls)
        state.device = None
        state._snapshot = snapshot
        state._clock_name = clock_app or _clock_name(snapshot)
        return state

    # --- plain reads: live device or snapshot --------------------------------------------
    def _live(self) -> Device:
        if self.device is None:
            raise DeviceError("this WorldState is a read-only view of a snapshot")
        return self.device

    def _system(self) -> Mapping[str, Any]:
        assert self._snapshot is not None
        return self._snapshot["system"]

    def _settings(self) -> Mapping[str, Mapping[str, str]]:
        return self.device.system.settings if self.device else self._system()["settings"]

    def _files(self) -> Mapping[str, str]:
        return self.device.system.files if self.device else self._system()["files"]

    def _contact_rows(self) -> list[tuple[int, str, str]]:
        if self.device is not None:
            return [(c.id, c.name, c.phone) for c in self.device.system.contacts]
        return [(int(key), c["name"], c.get("phone", ""))
                for key, c in self._system()["contacts"].items()]

    def _alarm_rows(self) -> list[tuple[int, int, bool]]:
        if self.device is not None:
            data = clock_data(self.device)
            return [(a.hour, a.minute, a.enabled) for a in (data.alarms if data else [])]
        apps = self._snapshot["apps"] if self._snapshot else {}
        alarms = apps.get(self._clock_name, {}).get("alarms", {}) if self._clock_name else {}
        return [(a["hour"], a["minute"], a["enabled"]) for a in alarms.values()]

    # --- DeviceState -----------------------------------------------------------------------
    def get_setting(self, namespace: str, key: str) -> str | None:
        return self._settings().get(namespace, {}).get(key)

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        device = self._live()
        device.system.put_setting(namespace, key, value)
        device.invalidate()

    def contacts(self) -> list[ContactRow]:
        return [ContactRow(name, phone) for _, name, phone in sorted(self._contact_rows())]

    def add_contact(self, name: str, phone: str = "") -> None:
        device = self._live()
        device.system.add_contact(name, phone)
        device.invalidate()

    def alarms(self) -> list[AlarmRow]:
        return alarm_rows(self._alarm_rows())

    def add_alarm(self, hour: int, minute: int, label: str = "") -> None:
        set_alarm(self._live(), hour, minute, label)

    def list_dir(self, path: str) -> list[str]:
        return folder_files(self._files(), path)

    def read_file(self, path: str) -> bytes | None:
        text = self._files().get(sdcard_path(path))
        return None if text is None else text.encode("utf-8")

    def write_file(self, path: str, data: bytes) -> None:
        device = self._live()
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DeviceError(f"write_file {path}: PhoneWorld keeps text files only "
                              "(UTF-8)") from exc
        device.system.files[sdcard_path(path)] = text
        device.invalidate()

    def remove_file(self, path: str) -> None:
        device = self._live()
        device.system.files.pop(sdcard_path(path), None)
        device.invalidate()

    def clear_app(self, package: str) -> None:
        if not clear_app_data(self._live(), package):
            raise DeviceError(f"pm clear {package}: Failed (no such package)")

    def force_stop(self, package: str) -> None:
        stop_app(self._live(), package)

    def home(self) -> None:
        device = self._live()
        device.press("home")
        device.invalidate()


def _clock_name(snapshot: Mapping[str, Any]) -> str | None:
    """The name the clock app's data is keyed by in a device snapshot."""
    names = [cls.name for cls in APPS if cls.package == CLOCK_PACKAGE]
    apps = snapshot.get("apps", {})
    return next((n for n in names if n in apps), None)
