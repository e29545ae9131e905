"""System state shared by every app: clock, clipboard, contacts, files, notifications,
settings. Cross-app tasks are verifiable because they meet here.

Settings use Android's namespaces and keys (``global``/``system``/``secure``), so the
same checks can read a real phone's ``settings get``.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

DEFAULT_START = datetime(2026, 10, 15, 9, 30, 0)


@dataclass
class Contact:
    """A row of the contacts provider."""

    id: int
    name: str
    phone: str = ""
    email: str = ""
    starred: bool = False


@dataclass
class Notification:
    """A posted notification."""

    id: int
    app: str
    title: str
    text: str = ""


def default_settings() -> dict[str, dict[str, str]]:
    """Android-like settings with their stock defaults: switches are "1"/"0", except
    ``secure.ui_night_mode`` ("1" light, "2" dark theme, as ``UiModeManager``) and
    ``global.zen_mode`` ("0" off, "1" Do Not Disturb); ``system.screen_brightness`` is
    0..255."""
    return {
        "global": {"wifi_on": "1", "bluetooth_on": "0", "airplane_mode_on": "0",
                   "auto_time": "1", "zen_mode": "0"},
        "system": {"screen_brightness": "128", "screen_off_timeout": "60000",
                   "time_12_24": "24"},
        "secure": {"location_mode": "3", "ui_night_mode": "1"},
    }


@dataclass
class SystemState:
    """What the phone's system keeps for all apps."""

    now: datetime = DEFAULT_START
    clipboard: str = ""
    contacts: list[Contact] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)
    notifications: list[Notification] = field(default_factory=list)
    settings: dict[str, dict[str, str]] = field(default_factory=default_settings)
    next_id: int = 1

    # --- updates -----------------------------------------------------------------------
    def new_id(self) -> int:
        """A fresh row id (shared counter, like a content provider's)."""
        value = self.next_id
        self.next_id += 1
        return value

    def add_contact(self, name: str, phone: str = "", email: str = "", *,
                    starred: bool = False) -> Contact:
        contact = Contact(self.new_id(), name, phone, email, starred)
        self.contacts.append(contact)
        return contact

    def contact(self, contact_id: int) -> Contact | None:
        return next((c for c in self.contacts if c.id == contact_id), None)

    def find_contact(self, name: str) -> Contact | None:
        return next((c for c in self.contacts if c.name == name), None)

    def delete_contact(self, contact_id: int) -> None:
        self.contacts = [c for c in self.contacts if c.id != contact_id]

    def notify(self, app: str, title: str, text: str = "") -> Notification:
        note = Notification(self.new_id(), app, title, text)
        self.notifications.append(note)
        return note

    def advance(self, seconds: float) -> None:
        self.now = self.now + timedelta(seconds=seconds)

    def get_setting(self, namespace: str, key: str) -> str | None:
        return self.settings.get(namespace, {}).get(key)

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        self.settings.setdefault(namespace, {})[key] = str(value)

    def set_airplane_mode(self, on: bool) -> None:
        """Switch airplane mode; turning it on also turns off Wi-Fi and Bluetooth (as
        Android does), turning it off leaves them off."""
        self.put_setting("global", "airplane_mode_on", "1" if on else "0")
        if on:
            self.put_setting("global", "wifi_on", "0")
            self.put_setting("global", "bluetooth_on", "0")

    def snapshot(self) -> dict[str, Any]:
        """Plain data for verifiers: records keyed by id, so diffs name what changed."""
        return {
            "now": self.now.isoformat(),
            "clipboard": self.clipboard,
            "contacts": keyed(self.contacts),
            "files": dict(self.files),
            "notifications": keyed(self.notifications),
            "settings": {ns: dict(values) for ns, values in self.settings.items()},
        }


def to_plain(value: Any) -> Any:
    """Dataclasses, lists and dicts to plain JSON-like data; lists of records with an
    ``id`` become ``{str(id): record}`` so that diffs name the record that changed."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if hasattr(value, "__dataclass_fields__") and not isinstance(value, type):
        out = {name: to_plain(getattr(value, name)) for name in _field_names(type(value))}
        for name in _record_lists(type(value)):
            if out.get(name) == []:
                out[name] = {}  # an empty record list is an empty table, not a value
        return out
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        if value and all(hasattr(v, "__dataclass_fields__") and hasattr(v, "id") for v in value):
            return keyed(list(value))
        return [to_plain(v) for v in value]
    if isinstance(value, datetime):
        return value.isoformat()
    return value


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


@functools.cache
def _record_lists(cls: type) -> tuple[str, ...]:
    """Fields of ``cls`` typed ``list[R]`` where R is a dataclass with an ``id``."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - unresolvable hints: treat lists as values
        return ()
    names = []
    for name, hint in hints.items():
        args = typing.get_args(hint)
        if (typing.get_origin(hint) is list and args and dataclasses.is_dataclass(args[0])
                and "id" in {f.name for f in dataclasses.fields(args[0])}):
            names.append(name)
    return tuple(names)


def keyed(records: list[Any]) -> dict[str, Any]:
    """Records with an ``id`` as ``{str(id): plain record}``."""
    return {str(r.id): to_plain(r) for r in records}
