"""The virtual phone's SMS, call-log and calendar providers, ``dumpsys notification``,
``dumpsys account`` and ``cmd notification post``, checked against what AOSP prints."""

from __future__ import annotations

import re

import pytest

from phone_gym.virtual.commands.packages import installed
from phone_gym.virtual.phone import VirtualPhone

SMS = "content://sms"
CALLS = "content://call_log/calls"
CALENDAR = "content://com.android.calendar"
NOW_MS = 1792056600000  # the phone's clock: 2026-10-15 09:30:00 UTC


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone()


def run(phone: VirtualPhone, command: str) -> tuple[int, str, str]:
    code, out, err = phone.shell(command)
    return code, out.decode(), err.decode()


def out_of(phone: VirtualPhone, command: str) -> str:
    code, out, err = run(phone, command)
    assert code == 0, (command, out, err)
    return out


def provider_error(phone: VirtualPhone, command: str) -> str:
    """The exception line of a refused ``content`` command (AOSP ``Content``: ``Error while
    accessing provider:AUTHORITY`` then the exception)."""
    code, out, err = run(phone, command)
    assert code == 1 and out == "", (command, out, err)
    first, _, rest = err.partition("\n")
    assert first.startswith("Error while accessing provider:")
    return rest.strip()


# --- Telephony's SMS provider ----------------------------------------------------------------
def test_sms_columns_and_insert_rules(phone: VirtualPhone) -> None:
    """``Telephony.TextBasedSmsColumns``; ``SmsProvider.insert``: type from the URI or the
    ``type`` value (default inbox), no date: now, outside the inbox: read."""
    out_of(phone, f"content insert --uri {SMS} --bind address:s:555-0100 --bind 'body:s:hi there'")
    out_of(phone, f"content insert --uri {SMS}/sent --bind address:s:555-0100 --bind body:s:ok "
                  "--bind date:l:1792000000000 --bind read:i:0")
    out_of(phone, f"content insert --uri {SMS} --bind address:s:555-0199 --bind body:s:x "
                  "--bind type:i:4")
    assert out_of(phone, f"content query --uri {SMS} --sort '_id ASC'") == (
        f"Row: 0 _id=1, thread_id=1, address=555-0100, person=NULL, date={NOW_MS}, "
        "date_sent=0, read=0, seen=0, status=-1, type=1, subject=NULL, body=hi there\n"
        "Row: 1 _id=2, thread_id=1, address=555-0100, person=NULL, date=1792000000000, "
        "date_sent=0, read=1, seen=1, status=-1, type=2, subject=NULL, body=ok\n"
        f"Row: 2 _id=3, thread_id=2, address=555-0199, person=NULL, date={NOW_MS}, "
        "date_sent=0, read=1, seen=1, status=-1, type=4, subject=NULL, body=x\n")
    messages = phone.device.system.messages
    assert [(m.box, m.read, m.date) for m in messages] == [
        ("inbox", False, "2026-10-15T09:30:00"), ("sent", True, "2026-10-14T17:46:40"),
        ("outbox", True, "2026-10-15T09:30:00")]
    # Sms.DEFAULT_SORT_ORDER is "date DESC"; the box URIs select by type
    assert out_of(phone, f"content query --uri {SMS} --projection _id") == \
        "Row: 0 _id=1\nRow: 1 _id=3\nRow: 2 _id=2\n"
    assert out_of(phone, f"content query --uri {SMS}/sent --projection _id:body") == \
        "Row: 0 _id=2, body=ok\n"
    assert out_of(phone, f"content query --uri {SMS}/inbox --projection _id:body "
                         "--where \"body LIKE 'hi%'\"") == "Row: 0 _id=1, body=hi there\n"
    assert out_of(phone, f"content query --uri {SMS}/3 --projection type") == "Row: 0 type=4\n"
    assert out_of(phone, f"content query --uri {SMS}/draft") == "No result found.\n"


def test_sms_drafts_and_deletes(phone: VirtualPhone) -> None:
    """A draft replaces its thread's draft; ``delete`` takes ``sms`` and ``sms/#`` only."""
    for body in ("first", "second"):
        out_of(phone, f"content insert --uri {SMS}/draft --bind address:s:555 "
                      f"--bind body:s:{body}")
    out_of(phone, f"content insert --uri {SMS}/draft --bind address:s:556 --bind body:s:other")
    assert out_of(phone, f"content query --uri {SMS}/draft --projection _id:address:body "
                         "--sort '_id ASC'") == \
        "Row: 0 _id=2, address=555, body=second\nRow: 1 _id=3, address=556, body=other\n"
    out_of(phone, f"content delete --uri {SMS}/2")
    out_of(phone, f"content delete --uri {SMS} --where \"address='556'\"")
    assert out_of(phone, f"content query --uri {SMS}") == "No result found.\n"
    assert provider_error(phone, f"content delete --uri {SMS}/inbox") == \
        "java.lang.IllegalArgumentException: Unknown URL"
    assert provider_error(phone, f"content insert --uri {SMS} --bind nope:s:x") == (
        "android.database.sqlite.SQLiteException: table sms has no column named nope "
        "(code 1 SQLITE_ERROR)")
    out_of(phone, f"content insert --uri {SMS}/7 --bind body:s:x")  # "Invalid request": null
    assert len(phone.device.system.messages) == 0
    assert provider_error(phone, f"content query --uri {SMS}/nope") == \
        f"java.lang.IllegalArgumentException: Unknown URL {SMS}/nope"


# --- the call log ------------------------------------------------------------------------------
def test_call_log(phone: VirtualPhone) -> None:
    """``CallLog.Calls``: type 1 incoming ... 6 blocked; ``date DESC`` unless sorted."""
    out_of(phone, f"content insert --uri {CALLS} --bind number:s:555-0100 --bind type:i:3 "
                  "--bind date:l:1792000000000 --bind duration:i:0 --bind 'name:s:Ada L'")
    out_of(phone, f"content insert --uri {CALLS} --bind number:s:555-0101 --bind type:i:2 "
                  f"--bind date:l:{NOW_MS} --bind duration:l:65")
    assert out_of(phone, f"content query --uri {CALLS}") == (
        f"Row: 0 _id=2, number=555-0101, date={NOW_MS}, duration=65, type=2, name=NULL, "
        "new=0\n"
        "Row: 1 _id=1, number=555-0100, date=1792000000000, duration=0, type=3, name=Ada L, "
        "new=1\n")
    calls = phone.device.system.calls
    assert [(c.kind, c.date, c.duration) for c in calls] == [
        ("missed", "2026-10-14T17:46:40", 0), ("outgoing", "2026-10-15T09:30:00", 65)]
    assert provider_error(phone, f"content insert --uri {CALLS} --bind foo:s:x") == \
        "java.lang.IllegalArgumentException: Column 'foo' is invalid."
    out_of(phone, f"content delete --uri {CALLS}/1")
    out_of(phone, f"content delete --uri {CALLS} --where 'duration>60'")
    assert out_of(phone, f"content query --uri {CALLS}") == "No result found.\n"


# --- the calendar ------------------------------------------------------------------------------
def test_calendar_has_one_local_calendar(phone: VirtualPhone) -> None:
    assert out_of(phone, f"content query --uri {CALENDAR}/calendars --projection "
                         "_id:account_type:calendar_access_level:calendar_timezone") == \
        "Row: 0 _id=1, account_type=LOCAL, calendar_access_level=700, calendar_timezone=UTC\n"
    assert provider_error(phone, f"content insert --uri {CALENDAR}/calendars "
                                 "--bind name:s:x").startswith(
        "java.lang.UnsupportedOperationException:")


def test_calendar_events(phone: VirtualPhone) -> None:
    """``CalendarContract.Events``; inserts checked as ``CalendarProvider2.validateEventData``
    and all-day times moved to UTC midnights (``fixAllDayTime``)."""
    base = (f"content insert --uri {CALENDAR}/events --bind calendar_id:l:1 "
            "--bind 'title:s:Lunch, with Bob' --bind eventTimezone:s:UTC")
    out_of(phone, f"{base} --bind dtstart:l:1792065600000 --bind dtend:l:1792069200000 "
                  "--bind 'eventLocation:s:Cafe' --bind 'description:s:two\nlines'")
    out_of(phone, f"{base} --bind dtstart:l:1792065600000 --bind duration:s:PT1H30M")
    out_of(phone, f"{base} --bind dtstart:l:1792065600000 --bind dtend:l:1792069200000 "
                  "--bind allDay:i:1")
    out_of(phone, f"content insert --uri {CALENDAR}/events --bind calendar_id:l:9 "
                  "--bind title:s:Elsewhere --bind eventTimezone:s:UTC "
                  "--bind dtstart:l:0 --bind dtend:l:0")  # no such calendar: never listed
    assert out_of(phone, f"content query --uri {CALENDAR}/events --projection "
                         "_id:dtstart:dtend:allDay:eventTimezone:deleted:title") == (
        "Row: 0 _id=1, dtstart=1792065600000, dtend=1792069200000, allDay=0, "
        "eventTimezone=UTC, deleted=0, title=Lunch, with Bob\n"
        "Row: 1 _id=2, dtstart=1792065600000, dtend=1792071000000, allDay=0, "
        "eventTimezone=UTC, deleted=0, title=Lunch, with Bob\n"
        "Row: 2 _id=3, dtstart=1792022400000, dtend=1792022400000, allDay=1, "
        "eventTimezone=UTC, deleted=0, title=Lunch, with Bob\n")
    events = phone.device.system.events
    assert [(e.start, e.end, e.all_day) for e in events] == [
        ("2026-10-15T12:00:00", "2026-10-15T13:00:00", False),
        ("2026-10-15T12:00:00", "2026-10-15T13:30:00", False),
        ("2026-10-15T00:00:00", "2026-10-15T00:00:00", True)]
    assert events[1].description == "two\nlines" and events[2].description == ""
    for binds, message in [
        ("--bind title:s:x", "Event values must include a calendar_id"),
        ("--bind calendar_id:l:1", "Event values must include an eventTimezone"),
        ("--bind calendar_id:l:1 --bind eventTimezone:s:UTC", "DTSTART cannot be empty."),
        ("--bind calendar_id:l:1 --bind eventTimezone:s:UTC --bind dtstart:l:1",
         "DTEND and DURATION cannot both be null for an event."),
        ("--bind calendar_id:l:1 --bind eventTimezone:s:UTC --bind dtstart:l:1 "
         "--bind dtend:l:2 --bind duration:s:P1D",
         "Cannot have both DTEND and DURATION in an event"),
    ]:
        assert provider_error(phone, f"content insert --uri {CALENDAR}/events {binds}") == \
            f"java.lang.IllegalArgumentException: {message}"
    out_of(phone, f"content delete --uri {CALENDAR}/events/2")
    out_of(phone, f"content delete --uri {CALENDAR}/events --where 'allDay=1'")
    assert [e.id for e in events] == [1]


# --- notifications -----------------------------------------------------------------------------
NOTIFICATION_RECORD = re.compile(
    r"^    NotificationRecord\(0x[0-9a-f]{8}: pkg=(\S+) user=UserHandle\{0\} id=(\d+) "
    r"tag=(\S+) importance=\d key=0\|\1\|\2\|\3\|(\d+): Notification\(channel=(\S+) .*\)\)$",
    re.MULTILINE)


def test_cmd_notification_post(phone: VirtualPhone) -> None:
    """AOSP ``NotificationShellCmd``: posts as ``com.android.shell`` (id 1138, channel
    ``shellcmd``); the same tag replaces; the status is 0 even for usage and errors."""
    out = out_of(phone, "cmd notification post -t 'Hello there' greeting 'some text'")
    assert out == ("posting:\n  Notification(channel=shellcmd shortcut=null contentView=null "
                   "vibrate=null sound=null defaults=0x0 flags=0x0 color=0x00000000 "
                   "vis=PRIVATE)\n")
    out_of(phone, "cmd notification post -tAgain greeting 'new text'")  # -tX is -t X
    out_of(phone, "cmd notification post -- -tag -text")  # "--" ends the options
    notes = phone.device.system.notifications
    assert [(n.app, n.tag, n.title, n.text) for n in notes] == [
        ("com.android.shell", "greeting", "Again", "new text"),
        ("com.android.shell", "-tag", "", "-text")]
    verbose = out_of(phone, "cmd notification post -v -t T v text")
    assert "\nposted: \n  NotificationRecord(0x" in verbose
    assert out_of(phone, "cmd notification post onlytag").startswith(
        "usage: cmd notification post [flags] <tag> <text>")
    assert out_of(phone, "cmd notification post --help x y").startswith("usage:")
    assert out_of(phone, "cmd notification post -S fancy t x") == \
        "Error occurred. Check logcat for details. unrecognized notification style: fancy\n"
    assert out_of(phone, "cmd notification post --line a t x") == \
        "Error occurred. Check logcat for details. --line requires --style inbox\n"
    assert out_of(phone, "cmd notification post -i bogus t x") == "error: invalid icon: bogus\n"
    assert run(phone, "cmd notification frobnicate") == (255, "Unknown command: frobnicate\n",
                                                        "")
    assert len(notes) == 3


def test_dumpsys_notification(phone: VirtualPhone) -> None:
    """``NotificationManagerService.dumpImpl``: the ``Notification List`` of
    ``NotificationRecord.dump`` blocks, newest first; text extras redacted to
    ``String [length=N]`` unless ``--noredact``."""
    assert out_of(phone, "dumpsys notification").startswith(
        "Current Notification Manager state:\n  mUseAttentionLight=")  # no list when empty
    phone.device.system.notify("Files", "Download complete", "boarding-pass.pdf")
    out_of(phone, "cmd notification post -t Reminder plants 'Water the plants'")
    dump = out_of(phone, "dumpsys notification --noredact")
    assert dump.startswith("Current Notification Manager state:\n  Notification List:\n")
    assert NOTIFICATION_RECORD.findall(dump) == [
        ("com.android.shell", "1138", "plants", "2000", "shellcmd"),
        ("com.google.android.documentsui", "1", "null",
         str(installed(phone)["com.google.android.documentsui"].uid), "miscellaneous")]
    extras = [x.strip() for x in dump.splitlines() if x.startswith(" " * 16 + "android.t")]
    assert extras == ["android.title=String (Reminder)", "android.text=String (Water the plants)",
                      "android.title=String (Download complete)",
                      "android.text=String (boarding-pass.pdf)"]
    assert "\n            extras={\n" in dump and "\n            }\n" in dump
    redacted = out_of(phone, "dumpsys notification")
    assert "android.title=String [length=8]" in redacted and "Reminder)" not in redacted


# --- accounts ------------------------------------------------------------------------------------
def test_dumpsys_account(phone: VirtualPhone) -> None:
    """``AccountManagerService.dump``: per user, ``Accounts: N`` and ``Account.toString``."""
    assert out_of(phone, "dumpsys account").startswith(
        "User UserInfo{0:Owner:c13}:\n  Accounts: 0\n\n")
    phone.device.system.accounts.new(kind="com.google", name="ada@example.com")
    phone.device.system.accounts.new(kind="com.example", name="Ada")
    assert out_of(phone, "dumpsys account").startswith(
        "User UserInfo{0:Owner:c13}:\n  Accounts: 2\n"
        "    Account {name=ada@example.com, type=com.google}\n"
        "    Account {name=Ada, type=com.example}\n\n")
    assert "  account\n" in out_of(phone, "dumpsys")  # the services list names it
