"""The device-state interface that tasks are written against: one phone facade for PhoneWorld,
real phones over adb, and the virtual adb device.

A task's setup writes a phone's state and its verifier reads it only through ``DeviceState``:
the shared stores (settings, contacts, alarms, files, SMS messages, call log, calendar events,
notifications, accounts), plus app resets. Implementations: ``phone_gym.world.state.WorldState`` (a
PhoneWorld phone, read directly) and ``phone_gym.real.state.AdbState`` (any phone over adb:
``settings``, ``content``, ``dumpsys``, sync). ``observe`` turns what a task watches into a
snapshot with one key per store, records keyed as the phone reports them, that criteria and
``diff`` check the same way in every world. A store a phone cannot read raises
``Unsupported`` (and is missing from ``stores()``). ``Watch.for_stores`` watches every record of
the stores named (``real.watch`` derives a task's watch from its apps' manifests); alarms are
keyed ``HH:MM|label`` with ``enabled`` a field, so switching one off is a modification and
deleting it a removal.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone, tzinfo
from typing import Any, Protocol, runtime_checkable

from .criteria import digits
from .fields import content_digest


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
    """An alarm as the clock app lists it: its time, whether it is switched on, its label.
    Every alarm is listed, on or off (switching one off is not deleting it)."""

    hour: int
    minute: int
    enabled: bool = True
    label: str = ""


@dataclass(frozen=True)
class MessageRow:
    """An SMS as Telephony's ``content://sms`` lists it: ``date`` is an ISO time in the phone's
    local time ("" when unknown), ``box`` one of ``SMS_BOXES``."""

    address: str
    body: str
    date: str = ""
    box: str = "inbox"
    read: bool = True


@dataclass(frozen=True)
class CallRow:
    """A call-log entry (``content://call_log/calls``): ``kind`` one of ``CALL_KINDS``,
    ``duration`` in seconds, ``date`` an ISO local time ("" when unknown)."""

    number: str
    kind: str = "incoming"
    date: str = ""
    duration: int = 0
    name: str = ""


@dataclass(frozen=True)
class EventRow:
    """A calendar event (``content://com.android.calendar/events``): ISO local times; an
    all-day event's start and end are midnights of its first day and of the day after."""

    title: str
    start: str
    end: str = ""
    location: str = ""
    description: str = ""
    all_day: bool = False


@dataclass(frozen=True)
class NotificationRow:
    """A posted notification: the posting ``package``, its title and text."""

    package: str
    title: str = ""
    text: str = ""


@dataclass(frozen=True)
class AccountRow:
    """An account of the phone's ``AccountManager``: ``kind`` is its type (``com.google``)."""

    name: str
    kind: str


#: SMS boxes in the order of Telephony's ``TextBasedSmsColumns.TYPE`` (1 inbox ... 6 queued).
SMS_BOXES: tuple[str, ...] = ("inbox", "sent", "draft", "outbox", "failed", "queued")
#: Call kinds in the order of ``CallLog.Calls.TYPE`` (1 incoming ... 7 answered elsewhere).
CALL_KINDS: tuple[str, ...] = ("incoming", "outgoing", "missed", "voicemail", "rejected",
                               "blocked", "answered_externally")
#: The package of what the shell posts (``cmd notification post``; AOSP NotificationShellCmd).
SHELL_PACKAGE = "com.android.shell"


def type_name(names: Sequence[str], code: int | str | None) -> str:
    """The name of provider type ``code`` (1-based in ``names``), else the code as text."""
    text = "" if code is None else str(code).strip()
    if text.isdigit() and 1 <= int(text) <= len(names):
        return names[int(text) - 1]
    return text


def type_code(names: Sequence[str], name: str) -> int:
    """The provider code of ``name`` (its 1-based place in ``names``, or a number given as
    text); ``ValueError`` for anything else."""
    if name in names:
        return names.index(name) + 1
    if str(name).strip().isdigit():
        return int(name)
    raise ValueError(f"{name!r} is none of {', '.join(names)}")


# --- times: ISO local time <-> epoch milliseconds, as the providers store them ---------------
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def parse_time(text: str, zone: tzinfo = timezone.utc) -> datetime | None:
    """An ISO date or time as a naive local time of ``zone`` (one with an offset is moved
    into ``zone``), or None when ``text`` is empty or not ISO."""
    try:
        when = datetime.fromisoformat(str(text).strip())
    except ValueError:
        return None
    if when.tzinfo is not None:
        when = when.astimezone(zone).replace(tzinfo=None)
    return when.replace(microsecond=when.microsecond // 1000 * 1000)


def iso_time(when: datetime) -> str:
    """``when`` as ``YYYY-MM-DDTHH:MM:SS`` (with milliseconds when it has them)."""
    return when.isoformat(timespec="milliseconds" if when.microsecond else "seconds")


def local_iso(text: str, zone: tzinfo = timezone.utc, *, day: bool = False) -> str:
    """``text`` as ``iso_time`` does it ("" when not ISO); ``day``: its midnight."""
    when = parse_time(text, zone)
    if when is None:
        return ""
    return iso_time(when.replace(hour=0, minute=0, second=0, microsecond=0) if day else when)


def to_millis(text: str, zone: tzinfo) -> int | None:
    """An ISO local time of ``zone`` as epoch milliseconds (None when not ISO)."""
    when = parse_time(text, zone)
    if when is None:
        return None
    return (when.replace(tzinfo=zone) - EPOCH) // timedelta(milliseconds=1)


def from_millis(millis: int, zone: tzinfo) -> str:
    """Epoch milliseconds as an ISO local time of ``zone``."""
    when = (EPOCH + timedelta(milliseconds=millis)).astimezone(zone).replace(tzinfo=None)
    return iso_time(when)


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

    def alarms(self) -> list[AlarmRow]:
        """Every alarm of the clock app, on and off, earliest time of day first."""
        ...

    def add_alarm(self, hour: int, minute: int, label: str = "",
                  days: Sequence[str] = ()) -> None: ...

    def messages(self) -> list[MessageRow]:
        """SMS messages, oldest ``_id`` first."""
        ...

    def add_message(self, address: str, body: str, box: str = "inbox", date: str = "",
                    read: bool = True) -> None:
        """Store an SMS as Telephony's provider does (no date: now; a message not in the
        inbox is read; a draft replaces the thread's draft). Sends nothing."""
        ...

    def calls(self) -> list[CallRow]:
        """Call-log entries, oldest ``_id`` first."""
        ...

    def add_call(self, number: str, kind: str = "incoming", date: str = "", duration: int = 0,
                 name: str = "") -> None:
        """Log a call (no date: now)."""
        ...

    def events(self) -> list[EventRow]:
        """Calendar events (not deleted), oldest ``_id`` first."""
        ...

    def add_event(self, title: str, start: str, end: str = "", location: str = "",
                  description: str = "", all_day: bool = False) -> None:
        """Add an event to the phone's first writable calendar: ISO local times; no ``end``
        means ``start`` (all day: the next midnight)."""
        ...

    def notifications(self) -> list[NotificationRow]:
        """Posted notifications, in the order the phone ranks them (newest first)."""
        ...

    def now(self) -> datetime:
        """The phone's clock (its local time, naive)."""
        ...

    def set_clipboard(self, text: str) -> None:
        """Put ``text`` on the clipboard (PhoneWorld only: ``Unsupported`` over adb, where
        only the app in focus may write it)."""
        ...

    def post_notification(self, title: str, text: str, app: str = "") -> None:
        """Post a notification as the shell (``SHELL_PACKAGE``), or as the app named ``app``
        (PhoneWorld only: ``Unsupported`` over adb)."""
        ...

    def accounts(self) -> list[AccountRow]: ...

    def add_account(self, name: str, kind: str) -> None:
        """Add an account (PhoneWorld only: ``Unsupported`` over adb)."""
        ...

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


def has_file(state: DeviceState, path: str) -> bool:
    """Whether a regular file ``path`` exists (``list_dir`` of its folder)."""
    folder, _, name = path.rstrip("/").rpartition("/")
    return bool(name) and name in state.list_dir(folder or "/")


def file_text(state: DeviceState, path: str) -> str | None:
    """The text of file ``path`` (UTF-8, bad bytes replaced), or None when there is none."""
    data = state.read_file(path)
    return None if data is None else data.decode("utf-8", "replace")


#: Settings every real-device task watches for collateral damage (the quick settings of the
#: notification shade reach them from any app).
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
#: The folders of shared storage that a phone's Files app shows: the root and Android's
#: standard public folders (``Environment.DIRECTORY_*``, with the camera's and the
#: screenshots' folders). ``observe`` reads the files directly in each (not deeper).
SHARED_DIRS: tuple[str, ...] = (
    "/sdcard", "/sdcard/Alarms", "/sdcard/Audiobooks", "/sdcard/DCIM", "/sdcard/DCIM/Camera",
    "/sdcard/Documents", "/sdcard/Download", "/sdcard/Movies", "/sdcard/Music",
    "/sdcard/Notifications", "/sdcard/Pictures", "/sdcard/Pictures/Screenshots",
    "/sdcard/Podcasts", "/sdcard/Recordings", "/sdcard/Ringtones",
)


@dataclass(frozen=True)
class Watch:
    """What of a phone's state a task's snapshot covers: ``stores`` (besides settings and
    files), the ``settings`` keys, and the folders ``dirs`` of the files store (none: files
    are not watched). ``skipped`` names the stores a task's apps touch that this phone cannot
    read, each with the reason (``Unsupported``): recorded, not watched."""

    settings: tuple[tuple[str, str], ...] = WATCHED_SETTINGS
    contacts: bool = True
    alarms: bool = True
    dirs: tuple[str, ...] = WATCHED_DIRS
    stores: tuple[str, ...] = ()
    skipped: tuple[tuple[str, str], ...] = ()

    @classmethod
    def for_stores(cls, stores: Iterable[str], *,
                   settings: Iterable[tuple[str, str]] = WATCHED_SETTINGS,
                   dirs: Iterable[str] = SHARED_DIRS,
                   skipped: Iterable[tuple[str, str]] = ()) -> Watch:
        """Every record of ``stores`` (``STORE_NAMES``; ``files``: the folders ``dirs``) plus
        the ``settings`` keys; unknown store names raise ``ValueError``."""
        names = tuple(dict.fromkeys(stores))
        unknown = [s for s in names if s not in STORE_NAMES]
        if unknown:
            raise ValueError(f"no store {unknown[0]!r}; stores: {', '.join(STORE_NAMES)}")
        return cls(settings=tuple(dict.fromkeys(settings)), contacts="contacts" in names,
                   alarms="alarms" in names,
                   dirs=tuple(dict.fromkeys(dirs)) if "files" in names else (),
                   stores=tuple(s for s in names
                                if s not in ("settings", "files", "contacts", "alarms")),
                   skipped=tuple(skipped))

    def store_names(self) -> tuple[str, ...]:
        names = [*self.stores]
        if self.contacts:
            names.append("contacts")
        if self.alarms:
            names.append("alarms")
        return tuple(dict.fromkeys(names))


def contact_key(name: str, phone: str) -> str:
    return f"{name.strip()}|{digits(phone)}"


def id_rows(rows: Iterable[tuple[str, Any]]) -> dict[str, dict[str, Any]]:
    """``(_id, row dataclass)`` pairs as ``{_id: {"id": _id, **row}}``."""
    return {key: {"id": int(key) if key.isdigit() else key, **dataclasses.asdict(row)}
            for key, row in rows}


def alarm_rows(rows: Iterable[AlarmRow]) -> dict[str, dict[str, Any]]:
    """Alarms keyed ``HH:MM|label`` (``#2``... for repeats, in sorted order so the keys do not
    depend on the order the phone lists them in). ``enabled`` is a field, not part of the key:
    switching an alarm off modifies its record, deleting it removes the record."""
    ordered = sorted(rows, key=lambda a: (a.hour, a.minute, a.label, not a.enabled))
    keys = counted_keys(f"{a.hour:02d}:{a.minute:02d}|{a.label}" for a in ordered)
    return {k: dataclasses.asdict(a) for k, a in zip(keys, ordered, strict=True)}


def notification_rows(rows: Iterable[NotificationRow]) -> dict[str, dict[str, Any]]:
    """Notifications keyed ``package|title`` (``#2``... for repeats), in sorted order so
    the keys do not depend on how the phone ranks them."""
    ordered = sorted(rows, key=lambda n: (n.package, n.title, n.text))
    keys = counted_keys(f"{n.package}|{n.title}" for n in ordered)
    return {k: {"package": n.package, "title": n.title, "text": n.text}
            for k, n in zip(keys, ordered, strict=True)}


def account_rows(rows: Iterable[AccountRow]) -> dict[str, dict[str, Any]]:
    """Accounts keyed ``kind|name`` (``#2``... for repeats), sorted."""
    ordered = sorted(rows, key=lambda a: (a.kind, a.name))
    keys = counted_keys(f"{a.kind}|{a.name}" for a in ordered)
    return {k: {"name": a.name, "kind": a.kind} for k, a in zip(keys, ordered, strict=True)}


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
    (value or None), ``files.<path>`` (name, folder, size, sha1, text_sha1) for the watched
    folders, and each watched store's records as the phone keys them."""
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
                               "sha1": hashlib.sha1(data).hexdigest(),
                               "text_sha1": content_digest(data)}
        snap["files"] = files
    return snap
