"""The content providers behind the virtual phone's ``content`` command.

A ``Provider`` is one authority: it resolves a URI path to a ``Target`` (a table, plus the
rows a path like ``sms/inbox`` or ``events/7`` stands for), lists the table's rows (computed
from the PhoneWorld stores when asked), and carries out inserts and deletes on those stores.
Each one follows the AOSP provider it stands for:

- ``SmsProvider``: ``content://sms[/inbox|sent|draft|outbox|failed|queued|<id>]``, columns of
  ``Telephony.TextBasedSmsColumns``; inserts as AOSP ``SmsProvider.insert`` (the type from the
  URI or ``type``, default inbox; no ``date``: now; outside the inbox: read; a draft replaces
  its thread's draft); sorted ``date DESC`` unless asked (``Sms.DEFAULT_SORT_ORDER``).
- ``CallLogProvider``: ``content://call_log/calls[/<id>]``, columns of ``CallLog.Calls``;
  unknown columns refused as ``DbQueryUtils.checkForSupportedColumns`` does; ``date DESC``.
- ``CalendarProvider``: ``content://com.android.calendar/{calendars,events}[/<id>]``, columns
  of ``CalendarContract.Calendars``/``Events``; one local calendar (``_id`` 1, ``LOCAL``
  account); event inserts checked as ``CalendarProvider2.validateEventData`` and all-day times
  moved to UTC midnights as ``CalendarProvider2.fixAllDayTime``; events of a calendar that
  does not exist are stored by Android but never listed (``view_events`` joins
  ``Calendars``), so here they are dropped. Deleting a local event removes it (no sync id).

Times are epoch milliseconds; PhoneWorld keeps ISO local times, converted with the phone's
zone (``persist.sys.timezone``; all-day events in UTC, as the provider stores them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import timedelta, timezone, tzinfo
from typing import TYPE_CHECKING, Any, ClassVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ...verifiers.state import (
    CALL_KINDS,
    SMS_BOXES,
    from_millis,
    iso_time,
    local_iso,
    to_millis,
    type_code,
    type_name,
)
from ...world.state import insert_message
from ...world.system import SystemState

if TYPE_CHECKING:
    from ..phone import VirtualPhone


class ProviderError(Exception):
    """A content provider refused a request (the message is the Java exception line)."""


@dataclass(frozen=True)
class Target:
    """What a content URI names: a ``table``, the column values its path fixes (``sms/inbox``:
    ``type`` 1; ``events/7``: ``_id`` 7), and for SMS the message type the URI implies."""

    table: str
    match: dict[str, Any] = field(default_factory=dict)
    kind: int = 0


def unknown_url(uri: str) -> ProviderError:
    return ProviderError(f"java.lang.IllegalArgumentException: Unknown URL {uri}")


def no_column(table: str, column: str) -> ProviderError:
    return ProviderError(f"android.database.sqlite.SQLiteException: table {table} has no column "
                         f"named {column} (code 1 SQLITE_ERROR)")


def phone_zone(phone: VirtualPhone) -> tzinfo:
    """The phone's time zone (``persist.sys.timezone``; UTC when unset or unknown)."""
    name = phone.properties.get("persist.sys.timezone", "") or "UTC"
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return timezone.utc


def zone_name(zone: tzinfo) -> str:
    return getattr(zone, "key", None) or "UTC"


def row_id(path: str, prefix: str) -> int | None:
    """The id of ``<prefix>/<id>`` (None for another path)."""
    m = re.fullmatch(re.escape(prefix) + r"/(\d+)", path)
    return int(m.group(1)) if m else None


class Provider:
    """One content provider (``authority``) of ``phone``."""

    authority: ClassVar[str] = ""

    def __init__(self, phone: VirtualPhone) -> None:
        self.phone = phone

    @property
    def system(self) -> SystemState:
        return self.phone.device.system

    def resolve(self, path: str) -> Target | None:
        """The target of URI path ``path`` (None: not a URI of this provider)."""
        raise NotImplementedError

    def columns(self, table: str) -> tuple[str, ...]:
        raise NotImplementedError

    def rows(self, table: str) -> list[dict[str, Any]]:
        """The rows ``table`` holds now."""
        raise NotImplementedError

    def default_sort(self, table: str) -> str | None:
        return None

    def insert(self, target: Target, values: dict[str, Any], uri: str) -> None:
        raise ProviderError(f"java.lang.UnsupportedOperationException: Cannot insert into URI: "
                            f"{uri}")

    def delete(self, target: Target, rows: list[dict[str, Any]], uri: str) -> None:
        raise ProviderError(f"java.lang.UnsupportedOperationException: Cannot delete from URI: "
                            f"{uri}")

    def check_columns(self, table: str, values: dict[str, Any]) -> None:
        """SQLite's refusal of a column the table does not have."""
        for column in values:
            if column not in self.columns(table):
                raise no_column(table, column)

    @property
    def zone(self) -> tzinfo:
        return phone_zone(self.phone)

    def millis(self, iso: str, zone: tzinfo | None = None) -> int:
        """An ISO local time as epoch milliseconds (0 when empty or not ISO)."""
        value = to_millis(iso, zone or self.zone) if iso else None
        return 0 if value is None else value

    def iso(self, millis: Any, zone: tzinfo | None = None) -> str:
        """Epoch milliseconds as an ISO local time ("" for NULL, 0 or not a number)."""
        value = as_long(millis)
        return "" if not value else from_millis(value, zone or self.zone)

    def now_millis(self) -> int:
        return self.millis(iso_time(self.system.now))


# --- Telephony: SMS --------------------------------------------------------------------------
SMS_COLUMNS = ("_id", "thread_id", "address", "person", "date", "date_sent", "read", "seen",
               "status", "type", "subject", "body")


class SmsProvider(Provider):
    """``content://sms`` (AOSP ``SmsProvider``)."""

    authority = "sms"

    def resolve(self, path: str) -> Target | None:
        if path == "":
            return Target("sms")
        if path in SMS_BOXES:
            code = SMS_BOXES.index(path) + 1
            return Target("sms", {"type": code}, code)
        if path.isdigit():
            return Target("sms", {"_id": int(path)}, -1)
        return None

    def columns(self, table: str) -> tuple[str, ...]:
        return SMS_COLUMNS

    def default_sort(self, table: str) -> str | None:
        return "date DESC"

    def rows(self, table: str) -> list[dict[str, Any]]:
        threads: dict[str, int] = {}
        out = []
        for m in sorted(self.system.messages, key=lambda m: m.id):
            thread = threads.setdefault(m.address, len(threads) + 1) if m.address else 0
            out.append({"_id": m.id, "thread_id": thread, "address": m.address,
                        "person": None, "date": self.millis(m.date), "date_sent": 0,
                        "read": int(m.read), "seen": int(m.read), "status": -1,
                        "type": sms_code(m.box), "subject": None, "body": m.body})
        return out

    def insert(self, target: Target, values: dict[str, Any], uri: str) -> None:
        if target.kind < 0:
            return  # SmsProvider.insert answers "Invalid request" with null: nothing stored
        self.check_columns("sms", values)
        uri_type = target.kind or as_long(values.get("type")) or 1
        box = type_name(SMS_BOXES, values.get("type", uri_type))
        date = values.get("date")
        date_iso = self.iso(self.now_millis() if "date" not in values else date)
        read = bool(values.get("read")) or uri_type != 1  # "Mark all non-inbox messages read"
        insert_message(self.system, str(values.get("address") or ""),
                       str(values.get("body") or ""), box, date_iso, read)

    def delete(self, target: Target, rows: list[dict[str, Any]], uri: str) -> None:
        if target.kind > 0:  # SmsProvider.delete knows sms and sms/#, not the boxes
            raise ProviderError("java.lang.IllegalArgumentException: Unknown URL")
        for row in rows:
            self.system.messages.remove(row["_id"])


def sms_code(box: str) -> int:
    try:
        return type_code(SMS_BOXES, box)
    except ValueError:
        return 0


# --- the call log ------------------------------------------------------------------------------
CALL_COLUMNS = ("_id", "number", "date", "duration", "type", "name", "new")


class CallLogProvider(Provider):
    """``content://call_log/calls`` (AOSP ``CallLogProvider``)."""

    authority = "call_log"

    def resolve(self, path: str) -> Target | None:
        if path == "calls":
            return Target("calls")
        call = row_id(path, "calls")
        return None if call is None else Target("calls", {"_id": call})

    def columns(self, table: str) -> tuple[str, ...]:
        return CALL_COLUMNS

    def default_sort(self, table: str) -> str | None:
        return "date DESC"

    def rows(self, table: str) -> list[dict[str, Any]]:
        return [{"_id": c.id, "number": c.number, "date": self.millis(c.date),
                 "duration": c.duration, "type": call_code(c.kind), "name": c.name or None,
                 "new": int(c.kind == "missed")}
                for c in sorted(self.system.calls, key=lambda c: c.id)]

    def insert(self, target: Target, values: dict[str, Any], uri: str) -> None:
        if target.match:
            raise unknown_url(uri)
        for column in values:  # DbQueryUtils.checkForSupportedColumns
            if column not in CALL_COLUMNS or column == "_id":
                raise ProviderError(f"java.lang.IllegalArgumentException: Column '{column}' "
                                    "is invalid.")
        kind = values.get("type")
        self.system.calls.new(number=str(values.get("number") or ""),
                              name=str(values.get("name") or ""),
                              date=self.iso(values.get("date")),
                              duration=as_long(values.get("duration")) or 0,
                              kind="" if kind is None else type_name(CALL_KINDS, kind))

    def delete(self, target: Target, rows: list[dict[str, Any]], uri: str) -> None:
        for row in rows:
            self.system.calls.remove(row["_id"])


def call_code(kind: str) -> int | None:
    try:
        return type_code(CALL_KINDS, kind)
    except ValueError:
        return None


# --- the calendar ------------------------------------------------------------------------------
CALENDAR_COLUMNS = ("_id", "account_name", "account_type", "name", "calendar_displayName",
                    "calendar_color", "calendar_access_level", "visible", "sync_events",
                    "ownerAccount", "calendar_timezone")
EVENT_COLUMNS = ("_id", "calendar_id", "title", "dtstart", "dtend", "duration",
                 "eventLocation", "description", "allDay", "eventTimezone", "deleted")
#: The virtual phone's one calendar (a local account's, as a phone without sync has).
LOCAL_CALENDAR = {"_id": 1, "account_name": "PhoneWorld", "account_type": "LOCAL",
                  "name": "PhoneWorld", "calendar_displayName": "PhoneWorld",
                  "calendar_color": -14069085, "calendar_access_level": 700, "visible": 1,
                  "sync_events": 1, "ownerAccount": "PhoneWorld"}
DURATION = re.compile(r"[+-]?P(?:(\d+)W)?(?:(\d+)D)?(?:(\d+)S)?(?:T(?:(\d+)H)?(?:(\d+)M)?"
                      r"(?:(\d+)S)?)?")


def parse_duration(text: str) -> timedelta | None:
    """An RFC 2445 duration (``P1D``, ``PT1H30M``, ``P3600S``) as the calendar stores them."""
    m = DURATION.fullmatch(text.strip())
    if m is None or not any(m.groups()):
        return None
    weeks, days, secs, hours, minutes, tsecs = (int(g or 0) for g in m.groups())
    return timedelta(weeks=weeks, days=days, hours=hours, minutes=minutes,
                     seconds=secs + tsecs)


class CalendarProvider(Provider):
    """``content://com.android.calendar`` (AOSP ``CalendarProvider2``)."""

    authority = "com.android.calendar"

    def resolve(self, path: str) -> Target | None:
        for table in ("calendars", "events"):
            if path == table:
                return Target(table)
            found = row_id(path, table)
            if found is not None:
                return Target(table, {"_id": found})
        return None

    def columns(self, table: str) -> tuple[str, ...]:
        return CALENDAR_COLUMNS if table == "calendars" else EVENT_COLUMNS

    def rows(self, table: str) -> list[dict[str, Any]]:
        zone = self.zone
        if table == "calendars":
            return [{**LOCAL_CALENDAR, "calendar_timezone": zone_name(zone)}]
        out = []
        for e in sorted(self.system.events, key=lambda e: e.id):
            at = timezone.utc if e.all_day else zone
            end = local_iso(e.end, day=e.all_day)
            out.append({"_id": e.id, "calendar_id": 1, "title": e.title,
                        "dtstart": self.millis(local_iso(e.start, day=e.all_day), at),
                        "dtend": self.millis(end, at) if end else None, "duration": None,
                        "eventLocation": e.location, "description": e.description,
                        "allDay": int(e.all_day),
                        "eventTimezone": "UTC" if e.all_day else zone_name(zone), "deleted": 0})
        return out

    def insert(self, target: Target, values: dict[str, Any], uri: str) -> None:
        if target.table == "calendars" or target.match:
            raise ProviderError(f"java.lang.UnsupportedOperationException: the virtual phone's "
                                f"calendars are fixed (one local calendar); cannot insert into "
                                f"{uri}")
        self.check_columns("Events", values)
        start, end = validate_event(values)
        if values["calendar_id"] != 1 and str(values["calendar_id"]) != "1":
            return  # stored by Android, but never listed: view_events joins Calendars
        all_day = bool(values.get("allDay"))
        at = timezone.utc if all_day else self.zone
        first = self.iso(start, at)
        if end is None:  # a duration instead: the end it implies
            span = parse_duration(str(values.get("duration") or "")) or timedelta(0)
            last = self.iso(start + span // timedelta(milliseconds=1), at)
        else:
            last = self.iso(end, at)
        if all_day:  # CalendarProvider2.fixAllDayTime: UTC midnights
            first, last = local_iso(first, day=True), local_iso(last, day=True)
        self.system.events.new(title=str(values.get("title") or ""), start=first, end=last,
                               location=str(values.get("eventLocation") or ""),
                               description=str(values.get("description") or ""),
                               all_day=all_day)

    def delete(self, target: Target, rows: list[dict[str, Any]], uri: str) -> None:
        if target.table == "calendars":
            raise ProviderError(f"java.lang.UnsupportedOperationException: the virtual phone's "
                                f"calendars are fixed (one local calendar); cannot delete from "
                                f"{uri}")
        for row in rows:  # a local event (no _sync_id) is deleted, not marked deleted=1
            self.system.events.remove(row["_id"])


def validate_event(values: dict[str, Any]) -> tuple[int, int | None]:
    """``dtstart`` and ``dtend`` of an event insert, checked as AOSP
    ``CalendarProvider2.validateEventData`` does."""
    def fail(message: str) -> ProviderError:
        return ProviderError(f"java.lang.IllegalArgumentException: {message}")

    if values.get("calendar_id") in (None, ""):
        raise fail("Event values must include a calendar_id")
    if not values.get("eventTimezone"):
        raise fail("Event values must include an eventTimezone")
    start, end = as_long(values.get("dtstart")), as_long(values.get("dtend"))
    has_duration = bool(values.get("duration"))
    if start is None:
        raise fail("DTSTART cannot be empty.")
    if end is None and not has_duration:
        raise fail("DTEND and DURATION cannot both be null for an event.")
    if end is not None and has_duration:
        raise fail("Cannot have both DTEND and DURATION in an event")
    return start, end


def as_long(value: Any) -> int | None:
    """``ContentValues.getAsLong``: a number, or text that is one; else None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return int(value)
    text = str(value).strip()
    return int(text) if re.fullmatch(r"-?\d+", text) else None


#: The providers the virtual phone has besides contacts and settings (see ``content.py``).
PROVIDERS: tuple[type[Provider], ...] = (SmsProvider, CallLogProvider, CalendarProvider)
