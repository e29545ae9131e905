"""``WorldState``: the ``DeviceState`` phone facade over a PhoneWorld ``Device``.

Tasks write their initial state and read the final one through it, exactly as they do on a
real phone over adb (``real.state.AdbState``); PhoneWorld-only tasks may also reach an app's
own data with ``app``. Its ``snapshot`` is the whole phone (every store and every app's data),
so collateral damage anywhere is seen.

PhoneWorld's times are ISO strings in the phone's local time (its clock, ``system.now``, runs
in UTC, as the virtual adb device's ``persist.sys.timezone`` says). Writes follow the Android
providers' rules (``insert_message`` is Telephony's; the virtual device's ``content`` command
uses it too), so a PhoneWorld phone reads the same through ``WorldState`` and over adb.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, TypeVar

from ..verifiers.state import (
    CALL_KINDS,
    SHELL_PACKAGE,
    SMS_BOXES,
    STORE_NAMES,
    AccountRow,
    AlarmRow,
    CallRow,
    ContactRow,
    DeviceError,
    EventRow,
    MessageRow,
    NotificationRow,
    Watch,
    account_rows,
    alarm_rows,
    id_rows,
    iso_time,
    local_iso,
    notification_rows,
    parse_time,
)
from .app import App
from .data import to_plain
from .device import Device
from .manifest import Intent
from .system import Call, Event, File, Message, Notification, SystemState

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


R = TypeVar("R")


def by_id(records: Iterable[R]) -> list[R]:
    """Records in ``id`` order (what ``--sort "_id ASC"`` gives over adb)."""
    return sorted(records, key=lambda r: getattr(r, "id", 0))


def folder_files(paths: Any, folder: str) -> list[str]:
    """Names of the files directly in ``folder`` among ``paths``."""
    folder = sdcard_path(folder)
    return sorted(posixpath.basename(p) for p in paths if posixpath.dirname(p) == folder)


def insert_message(system: SystemState, address: str, body: str, box: str, date: str,
                   read: bool) -> Message:
    """Store an SMS as Telephony's ``SmsProvider.insert`` does: a draft replaces the other
    drafts of its thread (here: of its address); ``read`` as given (the provider marks every
    message inserted outside the inbox read: the caller decides, as it knows the URI)."""
    if box == "draft":
        for old in system.messages.where(address=address, box="draft"):
            system.messages.remove(old.id)
    return system.messages.new(address=address, body=body, date=date, box=box, read=read)


def package_of(device: Device, app: str) -> str:
    """The package of the app named ``app`` (a notification's poster), else ``app``."""
    found = device.app(app) if app else None
    return found.package if found is not None else app


def message_row(m: Message) -> MessageRow:
    return MessageRow(m.address, m.body, local_iso(m.date), m.box, m.read)


def call_row(c: Call) -> CallRow:
    return CallRow(c.number, c.kind, local_iso(c.date), c.duration, c.name)


def event_row(e: Event) -> EventRow:
    return EventRow(e.title, local_iso(e.start, day=e.all_day),
                    local_iso(e.end, day=e.all_day), e.location, e.description, e.all_day)


_CANONICAL = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}")


def _canonical(text: str) -> bool:
    """Whether ``text`` is a valid ``YYYY-MM-DDTHH:MM:SS`` (``iso_time`` of its own
    ``parse_time``)."""
    if type(text) is not str or _CANONICAL.fullmatch(text) is None:
        return False
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def event_times(start: str, end: str, all_day: bool) -> tuple[str, str]:
    """``add_event``'s start and end as stored: ISO (all day: midnights); no ``end`` is
    ``start`` (all day: the next midnight). ``DeviceError`` when one is not ISO."""
    if not all_day and _canonical(start) and (not end or _canonical(end)):
        return start, end or start  # (what the parsing below makes of them: themselves)
    first = parse_time(start)
    if first is None:
        raise DeviceError(f"add_event: start {start!r} is not an ISO date or time")
    if all_day:
        first = first.replace(hour=0, minute=0, second=0, microsecond=0)
    if not end:
        last = first + timedelta(days=1) if all_day else first
    else:
        parsed = parse_time(end)
        if parsed is None:
            raise DeviceError(f"add_event: end {end!r} is not an ISO date or time")
        last = parsed.replace(hour=0, minute=0, second=0, microsecond=0) if all_day else parsed
    return iso_time(first), iso_time(last)


class WorldState:
    """``DeviceState`` of a PhoneWorld ``device``, read and written directly.

    Files are the text files of ``system.files``: writing bytes that are not UTF-8 raises
    ``DeviceError``.
    """

    def __init__(self, device: Device) -> None:
        self.device = device

    @property
    def locale(self) -> str:
        """The phone's locale (``world.locale``): fixtures seed its language's data."""
        return self.device.locale

    # --- the facade --------------------------------------------------------------------------
    def stores(self) -> frozenset[str]:
        return frozenset(STORE_NAMES)

    def rows(self, store: str) -> Mapping[str, Mapping[str, Any]]:
        """What a real phone would show of ``store`` over adb, so ``observe`` reads a
        PhoneWorld phone as ``AdbState`` reads the same phone through the virtual adb device:
        contacts, messages, calls and events by ``_id`` (times as ISO local times); every
        alarm (on or off, with its label) by ``HH:MM|label``; notifications by
        ``package|title``, accounts by ``kind|name`` (``#2``... for repeats). PhoneWorld
        only: ``wallet`` (transactions by id and ``balance``) and ``clipboard``.
        ``snapshot`` is the whole phone."""
        system = self.device.system
        if store == "contacts":
            return {str(c.id): {"id": c.id, "name": c.name, "phone": c.phone, "email": c.email,
                                "starred": c.starred} for c in system.contacts}
        if store == "alarms":
            return alarm_rows(self.alarms())
        if store == "messages":
            return id_rows((str(m.id), message_row(m)) for m in by_id(system.messages))
        if store == "calls":
            return id_rows((str(c.id), call_row(c)) for c in by_id(system.calls))
        if store == "events":
            return id_rows((str(e.id), event_row(e)) for e in by_id(system.events))
        if store == "notifications":
            return notification_rows(self.notifications())
        if store == "accounts":
            return account_rows(self.accounts())
        if store == "wallet":
            return {"balance": {"cents": system.wallet.balance},
                    **{str(t.id): to_plain(t) for t in system.wallet.transactions}}
        if store == "clipboard":
            return {"clipboard": {"text": system.clipboard}}
        raise DeviceError(f"no record store {store!r}; stores with records: "
                          f"{', '.join(s for s in STORE_NAMES if s not in ('settings', 'files'))}")

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
        """Every alarm of the clock's store, on and off, in the order the clock lists them
        (earliest time of day first)."""
        return [AlarmRow(a.hour, a.minute, a.enabled, a.label)
                for a in sorted(self.device.system.alarms, key=lambda a: (a.hour, a.minute, a.id))]

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

    # --- messages, calls, events ----------------------------------------------------------------
    def messages(self) -> list[MessageRow]:
        return [message_row(m) for m in by_id(self.device.system.messages)]

    def add_message(self, address: str, body: str, box: str = "inbox", date: str = "",
                    read: bool = True) -> None:
        if box not in SMS_BOXES:
            raise DeviceError(f"add_message: box {box!r} is none of {', '.join(SMS_BOXES)}")
        insert_message(self.device.system, address, body, box, self._time(date, "add_message"),
                       read or box != "inbox")

    def calls(self) -> list[CallRow]:
        return [call_row(c) for c in by_id(self.device.system.calls)]

    def add_call(self, number: str, kind: str = "incoming", date: str = "", duration: int = 0,
                 name: str = "") -> None:
        if kind not in CALL_KINDS:
            raise DeviceError(f"add_call: kind {kind!r} is none of {', '.join(CALL_KINDS)}")
        self.device.system.calls.new(number=number, kind=kind, date=self._time(date, "add_call"),
                                     duration=int(duration), name=name)

    def events(self) -> list[EventRow]:
        return [event_row(e) for e in by_id(self.device.system.events)]

    def add_event(self, title: str, start: str, end: str = "", location: str = "",
                  description: str = "", all_day: bool = False) -> None:
        first, last = event_times(start, end, all_day)
        self.device.system.events.new(title=title, start=first, end=last, location=location,
                                      description=description, all_day=bool(all_day))

    def add_events(self, events: Iterable[Sequence[Any]], *, stored: bool = False) -> None:
        """``add_event`` of each of ``events`` (``(title, start, end, location, description,
        all_day)``), in one write of the events table (``Table.extend``). ``stored``: the
        caller vouches that every event is timed (not all day) with start and end already as
        stored (``YYYY-MM-DDTHH:MM:SS``, what ``event_times`` returns for them), so they are
        not checked again."""
        table = self.device.system.events
        first = table.next_id
        if stored:
            table.extend(Event(first + i, title, start, end, location, description, False)
                         for i, (title, start, end, location, description, _)
                         in enumerate(events))
            return
        table.extend(Event(first + i, title, *event_times(start, end, all_day), location,
                           description, bool(all_day))
                     for i, (title, start, end, location, description, all_day)
                     in enumerate(events))

    def _time(self, date: str, verb: str) -> str:
        """``date`` as stored (ISO; empty: the phone's clock now)."""
        if not date:
            return iso_time(self.device.system.now)
        normal = local_iso(date)
        if not normal:
            raise DeviceError(f"{verb}: date {date!r} is not an ISO date or time")
        return normal

    # --- notifications, accounts ---------------------------------------------------------------
    def notifications(self) -> list[NotificationRow]:
        """Newest first (how Android ranks notifications of equal importance)."""
        return [self.notification_row(n)
                for n in reversed(self.device.system.notifications.values())]

    def notification_row(self, n: Notification) -> NotificationRow:
        return NotificationRow(package_of(self.device, n.app), n.title, n.text)

    def post_notification(self, title: str, text: str, app: str = "") -> None:
        """Posted by the shell package, as ``cmd notification post`` does (or by ``app``)."""
        self.device.system.notify(app or SHELL_PACKAGE, title, text)

    def now(self) -> datetime:
        return self.device.system.now

    @property
    def system(self) -> SystemState:
        """PhoneWorld's shared stores, for what only PhoneWorld can seed (an alarm that is
        off, the wallet, an app's private attachment with its MIME type). Tasks that run on
        phones too use the ``DeviceState`` methods; no task reaches the device itself."""
        return self.device.system

    def set_clipboard(self, text: str) -> None:
        self.device.system.clipboard = text

    def accounts(self) -> list[AccountRow]:
        return [AccountRow(a.name, a.kind) for a in by_id(self.device.system.accounts)]

    def add_account(self, name: str, kind: str) -> None:
        """Add an account (none when one of that name and type exists: ``AccountManager``
        refuses a second)."""
        if self.device.system.accounts.first(name=name, kind=kind) is None:
            self.device.system.accounts.new(name=name, kind=kind)

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
