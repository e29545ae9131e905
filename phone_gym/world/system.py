"""System state shared by every app: the phone's data stores. Cross-app tasks are verifiable
because they meet here.

Each store is a ``Table`` of frozen records (contacts, messages, call log, calendar events,
files and media, notifications, alarms, accounts, wallet transactions) or a small value
(clipboard, settings, wallet balance). Apps declare in their manifest which stores they own
and read; the device exposes them to tasks (``WorldState``), to the virtual adb device (the
content providers, ``settings``, ``dumpsys``) and to verifiers (snapshots).

Settings use Android's namespaces and keys (``global``/``system``/``secure``), so the same
checks can read a real phone's ``settings get``.
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ..verifiers.criteria import national
from ..verifiers.fields import content_digest
from .data import Grouping, Journal, Store, Table, to_plain

DEFAULT_START = datetime(2026, 10, 15, 9, 30, 0)
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")

#: The stores of ``SystemState`` (snapshot keys), and the Android package that holds each
#: one's data on a phone (``pm clear`` of that package wipes it). Alarms belong to the app
#: whose manifest owns them (the clock).
STORES: dict[str, str] = {
    "contacts": "com.android.providers.contacts",
    "calls": "com.android.providers.contacts",
    "messages": "com.android.providers.telephony",
    "events": "com.android.providers.calendar",
    "files": "com.android.providers.media",
    "notifications": "com.android.systemui",
    "alarms": "",
    "accounts": "android",
    "wallet": "",
    "settings": "com.android.providers.settings",
    "clipboard": "android",
}


# --- records ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Contact:
    """A row of the contacts provider."""

    id: int
    name: str
    phone: str = ""
    email: str = ""
    starred: bool = False


@dataclass(frozen=True)
class Message:
    """An SMS: ``box`` is inbox, sent, draft or outbox (Telephony's ``type`` 1..4)."""

    id: int
    address: str
    body: str
    date: str = ""  # ISO time
    box: str = "inbox"
    read: bool = True


@dataclass(frozen=True)
class Call:
    """A call-log row: ``kind`` is incoming, outgoing, missed or rejected."""

    id: int
    number: str
    name: str = ""
    date: str = ""
    duration: int = 0  # seconds
    kind: str = "incoming"


@dataclass(frozen=True)
class Event:
    """A calendar event (times as ISO strings)."""

    id: int
    title: str
    start: str
    end: str = ""
    location: str = ""
    description: str = ""
    all_day: bool = False
    #: Repetition as an RFC 5545 rule ("FREQ=DAILY", "FREQ=WEEKLY;BYDAY=MO"); "" for none.
    rrule: str = ""


@dataclass(frozen=True)
class File:
    """A file in shared storage (``/sdcard/...``): text, or a media item described in text."""

    path: str
    content: str = ""
    mime: str = "text/plain"

    @property
    def name(self) -> str:
        return posixpath.basename(self.path)

    @property
    def folder(self) -> str:
        return posixpath.dirname(self.path)

    def __plain__(self) -> dict[str, Any]:
        """What a snapshot (and a phone read over adb) shows of a file: its bytes' SHA-1,
        and ``text_sha1``, its text's as checks compare it (``verifiers.fields``)."""
        data = self.content.encode("utf-8")
        return {"name": self.name, "folder": self.folder, "size": len(data), "mime": self.mime,
                "sha1": hashlib.sha1(data).hexdigest(), "text_sha1": content_digest(data)}


@dataclass(frozen=True)
class Notification:
    """A posted notification: ``app`` is the posting app's name (or a package, e.g. the
    shell's); ``tag`` the poster's tag (Android: a post with the same package, tag and id
    replaces the notification)."""

    id: int
    app: str
    title: str
    text: str = ""
    tag: str = ""


@dataclass(frozen=True)
class Alarm:
    """An alarm of the clock app (its owner): ``days`` in ``DAYS`` order; empty rings once."""

    id: int
    hour: int
    minute: int
    label: str = ""
    enabled: bool = True
    days: tuple[str, ...] = ()


@dataclass(frozen=True)
class Account:
    """An account on the phone (Android's ``AccountManager``)."""

    id: int
    kind: str  # account type, e.g. "com.google"
    name: str


@dataclass(frozen=True)
class Transaction:
    """A wallet transaction: ``amount`` in cents, negative for payments."""

    id: int
    amount: int
    counterparty: str
    date: str = ""
    memo: str = ""


def thread_key(address: str) -> str:
    """Which SMS thread an address belongs to: its national digits, else the address (as
    Telephony's ``threads`` table keys a thread by its canonical address)."""
    return national(address) or address.strip().casefold()


def message_thread(m: Message) -> str | None:
    """The thread a message shows in (drafts in none)."""
    return None if m.box == "draft" else thread_key(m.address)


def message_order(m: Message) -> tuple[str, int]:
    return (m.date, m.id)


def number_thread(c: Contact) -> str | None:
    """The thread a contact's number names (None without a number)."""
    return thread_key(c.phone) if c.phone else None


def file_folder(f: File) -> str:
    """The folder ``f`` is directly in, with its trailing slash (``/sdcard/Download/``)."""
    return f.path.rsplit("/", 1)[0] + "/"


def file_order(f: File) -> tuple[str, str]:
    """A folder's listing order: the name in any case, then the path."""
    return (f.path.rsplit("/", 1)[-1].casefold(), f.path)


def store_order(record: Any) -> int:
    """One sort key for all: a grouping's own (insertion) order decides."""
    return 0


def ordered_days(days: Any) -> tuple[str, ...]:
    """``days`` without repeats, in week order."""
    return tuple(d for d in DAYS if d in days)


def next_ring(alarm: Alarm, now: datetime) -> datetime:
    """When an (enabled) alarm rings next, after ``now``."""
    for offset in range(8):
        day = now + timedelta(days=offset)
        when = day.replace(hour=alarm.hour, minute=alarm.minute, second=0, microsecond=0)
        if when > now and (not alarm.days or DAYS[when.weekday()] in alarm.days):
            return when
    return now + timedelta(days=7)  # pragma: no cover - a week always has the day


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


class Settings:
    """Namespaced settings (``global``/``system``/``secure``) as strings; every put is
    recorded in the phone's journal."""

    def __init__(self, values: Mapping[str, Mapping[str, str]] | None = None) -> None:
        self._values = {ns: dict(v) for ns, v in (values or default_settings()).items()}
        self._journal: Journal | None = None

    def attach(self, journal: Journal) -> None:
        self._journal = journal

    def get(self, namespace: str, key: str) -> str | None:
        return self._values.get(namespace, {}).get(key)

    def put(self, namespace: str, key: str, value: str) -> None:
        values = self._values.setdefault(namespace, {})
        if values.get(key) == str(value):
            return
        values[key] = str(value)
        if self._journal is not None:
            self._journal.bump()

    def delete(self, namespace: str, key: str) -> bool:
        found = self._values.get(namespace, {}).pop(key, None) is not None
        if found and self._journal is not None:
            self._journal.bump()
        return found

    def namespace(self, namespace: str) -> dict[str, str]:
        """A copy of one namespace's settings."""
        return dict(self._values.get(namespace, {}))

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def snapshot(self) -> dict[str, dict[str, str]]:
        return {ns: dict(values) for ns, values in self._values.items()}

    __plain__ = snapshot

    def __getstate__(self) -> dict[str, Any]:
        return {"values": self._values}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._values, self._journal = state["values"], None


def _table(kind: type, key: str = "id") -> Any:
    return field(default_factory=lambda: Table(kind=kind, key=key))


@dataclass
class Wallet(Store):
    """A balance (cents) and its transactions."""

    balance: int = 0
    transactions: Table[Transaction] = _table(Transaction)


@dataclass
class SystemState(Store):
    """What the phone's system keeps for all apps (see ``STORES``)."""

    untracked = ("now", "locale")

    now: datetime = DEFAULT_START
    #: The phone's locale (``world.locale.LOCALES``): the language its screens speak.
    locale: str = "en-US"
    clipboard: str = ""
    contacts: Table[Contact] = _table(Contact)
    messages: Table[Message] = _table(Message)
    calls: Table[Call] = _table(Call)
    events: Table[Event] = _table(Event)
    files: Table[File] = _table(File, "path")
    notifications: Table[Notification] = _table(Notification)
    alarms: Table[Alarm] = _table(Alarm)
    accounts: Table[Account] = _table(Account)
    wallet: Wallet = field(default_factory=Wallet)
    settings: Settings = field(default_factory=Settings)

    # --- indexes -----------------------------------------------------------------------------
    def threads(self) -> Grouping[Message]:
        """The messages by thread (``thread_key``), kept on every write (as Telephony keeps
        its ``threads`` table): each thread in ``message_order``, the threads by their
        newest message. Made on first call (apps call it from ``index_system``)."""
        return self.messages.grouping("threads", message_thread, message_order)

    def numbers(self) -> Grouping[Contact]:
        """The contacts with a number by the thread it names, in the store's order."""
        return self.contacts.grouping("threads", number_thread, store_order)

    def folders(self) -> Grouping[File]:
        """The files by folder (``file_folder``), kept on every write: each folder by name
        (any case, then path), the folders by their last file."""
        return self.files.grouping("folders", file_folder, file_order)

    # --- contacts --------------------------------------------------------------------------
    def add_contact(self, name: str, phone: str = "", email: str = "", *,
                    starred: bool = False) -> Contact:
        return self.contacts.new(name=name, phone=phone, email=email, starred=starred)

    def contact(self, contact_id: int) -> Contact | None:
        return self.contacts.get(contact_id)

    def find_contact(self, name: str) -> Contact | None:
        return self.contacts.first(name=name)

    def delete_contact(self, contact_id: int) -> None:
        self.contacts.remove(contact_id)

    # --- other stores ----------------------------------------------------------------------
    def notify(self, app: str, title: str, text: str = "") -> Notification:
        return self.notifications.new(app=app, title=title, text=text)

    def add_alarm(self, hour: int, minute: int, label: str = "", *, enabled: bool = True,
                  days: Any = ()) -> Alarm:
        return self.alarms.new(hour=hour, minute=minute, label=label, enabled=enabled,
                               days=ordered_days(days))

    def write_file(self, path: str, content: str, mime: str = "text/plain") -> File:
        return self.files.put(File(path, content, mime))

    def advance(self, seconds: float) -> None:
        self.now = self.now + timedelta(seconds=seconds)

    # --- settings --------------------------------------------------------------------------
    def get_setting(self, namespace: str, key: str) -> str | None:
        return self.settings.get(namespace, key)

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        self.settings.put(namespace, key, value)

    def set_airplane_mode(self, on: bool) -> None:
        """Switch airplane mode; turning it on also turns off Wi-Fi and Bluetooth (as
        Android does), turning it off leaves them off."""
        self.put_setting("global", "airplane_mode_on", "1" if on else "0")
        if on:
            self.put_setting("global", "wifi_on", "0")
            self.put_setting("global", "bluetooth_on", "0")

    def snapshot(self) -> dict[str, Any]:
        """Plain data for verifiers: one key per store, records keyed by id (files by
        path), so diffs name what changed."""
        return {
            "clipboard": self.clipboard,
            "contacts": self.contacts.snapshot(),
            "messages": self.messages.snapshot(),
            "calls": self.calls.snapshot(),
            "events": self.events.snapshot(),
            "files": self.files.snapshot(),
            "notifications": self.notifications.snapshot(),
            "alarms": self.alarms.snapshot(),
            "accounts": self.accounts.snapshot(),
            "wallet": self.wallet.snapshot(),
            "settings": self.settings.snapshot(),
        }


def keyed(records: Any) -> dict[str, Any]:
    """Records with an ``id`` as ``{str(id): plain record}``."""
    return {str(r.id): to_plain(r) for r in records}


__all__ = [
    "DAYS", "DEFAULT_START", "STORES", "Account", "Alarm", "Call", "Contact", "Event", "File",
    "Message", "Notification", "Settings", "SystemState", "Transaction", "Wallet",
    "file_folder", "file_order", "keyed", "message_order", "message_thread", "next_ring",
    "number_thread", "ordered_days", "thread_key", "to_plain",
]
