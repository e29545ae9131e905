"""Messages, calls, events, notifications and accounts: ``WorldState`` and ``AdbState`` (over
the virtual phone) read and write them alike; ``AdbState`` quotes and checks what it runs."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from phone_gym.mockapps import APPS
from phone_gym.real.base import ShellResult
from phone_gym.real.state import ADB_STORES, AdbState, parse_accounts, parse_notifications
from phone_gym.verifiers.state import (
    AccountRow,
    CallRow,
    DeviceError,
    DeviceState,
    EventRow,
    MessageRow,
    NotificationRow,
    Unsupported,
    Watch,
    observe,
)
from phone_gym.virtual import LocalBackend, VirtualPhone
from phone_gym.world import Device
from phone_gym.world.state import WorldState

NEW_STORES = ("messages", "calls", "events", "notifications", "accounts")
NASTY = "O'Brien \"x\"; reboot $(reboot) `reboot` \\ %s\nline 2"


def world() -> WorldState:
    return WorldState(Device(APPS))


def adb(phone: VirtualPhone | None = None) -> AdbState:
    return AdbState(LocalBackend(phone or VirtualPhone()))


def reads(state: DeviceState) -> tuple[object, ...]:
    # no alarms: reading them over adb presses home, and the virtual phone's clock (which
    # dates new messages) moves with every key press
    return (state.messages(), state.calls(), state.events(), state.notifications(),
            state.accounts(), observe(state, Watch(stores=NEW_STORES, alarms=False)))


STEPS: list[Callable[[DeviceState], None]] = [
    lambda s: s.add_message("555-0100", "Lunch at 12?", date="2026-10-14T08:00"),
    lambda s: s.add_message("555-0100", "Sure, see you", box="sent", read=False),
    lambda s: s.add_message("555-0199", "unread one", read=False),
    lambda s: s.add_message("555-0199", "draft 1", box="draft"),
    lambda s: s.add_message("555-0199", "draft 2", box="draft"),  # replaces the thread's draft
    lambda s: s.add_message("+1 555 0142", "body, date=1, type=2, read=0\nsecond line"),
    lambda s: s.add_message("555-0100", "offset", date="2026-10-14T10:00:00+02:00"),
    lambda s: s.add_call("555-0100", "missed", "2026-10-14T08:00:00", 0, "Ada Lovelace"),
    lambda s: s.add_call("555-0101", duration=42),
    lambda s: s.add_call("555-0102", "outgoing", "2026-10-13T19:45:30", 305, "Doe, Jane"),
    lambda s: s.add_event("Lunch", "2026-10-15T12:00", "2026-10-15T13:00", "Cafe, Main St",
                          "with Bob, title=x\nbring notes"),
    lambda s: s.add_event("Standup", "2026-10-16T09:15"),
    lambda s: s.add_event("Holiday", "2026-10-20", all_day=True),
    lambda s: s.add_event("Trip", "2026-10-21T08:00", "2026-10-23", all_day=True),
    lambda s: s.post_notification("Reminder", "Water the plants"),
    lambda s: s.post_notification("Reminder", "Water the plants"),  # a second one, not a swap
    lambda s: s.post_notification("Two\nlines", "text\n    android.text=String (fake)\nend)"),
    lambda s: s.post_notification("", ""),
]


def test_the_same_calls_give_the_same_reads() -> None:
    w, a = world(), adb()
    assert reads(w) == reads(a)
    for step in STEPS:
        step(w)
        step(a)
        assert reads(w) == reads(a), step
    for store in NEW_STORES:
        assert w.rows(store) == a.rows(store), store


def test_reads_after_setup() -> None:
    for state in (world(), adb()):
        for step in STEPS:
            step(state)
        assert state.messages() == [
            MessageRow("555-0100", "Lunch at 12?", "2026-10-14T08:00:00"),
            MessageRow("555-0100", "Sure, see you", "2026-10-15T09:30:00", "sent", True),
            MessageRow("555-0199", "unread one", "2026-10-15T09:30:00", read=False),
            MessageRow("555-0199", "draft 2", "2026-10-15T09:30:00", "draft"),
            MessageRow("+1 555 0142", "body, date=1, type=2, read=0\nsecond line",
                       "2026-10-15T09:30:00"),
            MessageRow("555-0100", "offset", "2026-10-14T08:00:00")]
        assert state.calls() == [
            CallRow("555-0100", "missed", "2026-10-14T08:00:00", 0, "Ada Lovelace"),
            CallRow("555-0101", "incoming", "2026-10-15T09:30:00", 42),
            CallRow("555-0102", "outgoing", "2026-10-13T19:45:30", 305, "Doe, Jane")]
        assert state.events() == [
            EventRow("Lunch", "2026-10-15T12:00:00", "2026-10-15T13:00:00", "Cafe, Main St",
                     "with Bob, title=x\nbring notes"),
            EventRow("Standup", "2026-10-16T09:15:00", "2026-10-16T09:15:00"),
            EventRow("Holiday", "2026-10-20T00:00:00", "2026-10-21T00:00:00", all_day=True),
            EventRow("Trip", "2026-10-21T00:00:00", "2026-10-23T00:00:00", all_day=True)]
        shell = "com.android.shell"
        assert state.notifications() == [  # newest first
            NotificationRow(shell), NotificationRow(shell, "Two\nlines",
                                                    "text\n    android.text=String (fake)\nend)"),
            NotificationRow(shell, "Reminder", "Water the plants"),
            NotificationRow(shell, "Reminder", "Water the plants")]
        rows = state.rows("notifications")
        assert sorted(rows) == [f"{shell}|", f"{shell}|Reminder", f"{shell}|Reminder#2",
                                f"{shell}|Two\nlines"]
        messages = state.rows("messages")
        assert list(messages) == ["1", "2", "3", "5", "6", "7"]  # draft 1 is gone
        assert messages["2"] == {"id": 2, "address": "555-0100", "body": "Sure, see you",
                                 "date": "2026-10-15T09:30:00", "box": "sent", "read": True}


def test_phoneworld_notifications_and_accounts_read_alike() -> None:
    """Notifications an app posted (its name mapped to its package) and accounts the phone
    has, read directly and over adb."""
    phone = VirtualPhone()
    w, a = WorldState(phone.device), adb(phone)
    system = phone.device.system
    system.notify("Files", "Download complete", "boarding-pass.pdf")
    system.notify("Clock", "Upcoming alarm", "Tomorrow 07:00")
    system.notify("Nope", "From an unknown app")
    w.add_account("ada@example.com", "com.google")
    w.add_account("ada@example.com", "com.google")  # AccountManager keeps one
    w.add_account("Ada, type=x", "com.example.mail")
    assert w.notifications() == a.notifications() == [
        NotificationRow("Nope", "From an unknown app"),
        NotificationRow("com.google.android.deskclock", "Upcoming alarm", "Tomorrow 07:00"),
        NotificationRow("com.google.android.documentsui", "Download complete",
                        "boarding-pass.pdf")]
    assert w.accounts() == a.accounts() == [AccountRow("ada@example.com", "com.google"),
                                            AccountRow("Ada, type=x", "com.example.mail")]
    assert w.rows("accounts") == a.rows("accounts")
    assert "com.google|ada@example.com" in a.rows("accounts")
    assert observe(w, Watch(stores=NEW_STORES)) == observe(a, Watch(stores=NEW_STORES))


EVENTS = [("Lunch", "2026-10-15T12:00:00", "2026-10-15T13:00:00", "Cafe", "", False),
          ("Standup", "2026-10-16T09:15", "", "", "notes", False),
          ("Call", "2026-10-16T09:15:00", "", "", "", False),
          ("Holiday", "2026-10-20", "", "", "", True),
          ("Trip", "2026-10-21T08:00:00", "2026-10-23", "", "", True),
          ("Leap", "2024-02-29T23:59:59", "2024-03-01T00:30:00.250", "", "", False),
          ("Zoned", "2026-10-15T12:00:00+02:00", "2026-10-15T13:00:00", "", "", False),
          ("Week", "2023-W41-7T10:00:00", "2023-10-15T11:00:00", "", "", False)]


def test_events_written_at_once_are_those_written_one_by_one() -> None:
    """``WorldState.add_events`` (one table write; times already as stored are not parsed
    again) stores what ``add_event`` of each does, and refuses what it refuses."""
    one, bulk = world(), world()
    for title, start, end, location, description, all_day in EVENTS:
        one.add_event(title, start, end, location, description, all_day)
    bulk.add_events(EVENTS)
    assert list(bulk.device.system.events) == list(one.device.system.events)
    assert bulk.events() == one.events() and bulk.device.journal.version == len(EVENTS)
    for bad in ("2023-02-29T10:00:00", "2023-10-15T24:00:00", "2023-1O-15T10:00:00", "soon"):
        with pytest.raises(DeviceError, match="not an ISO date or time"):
            world().add_events([("Bad", bad, "", "", "", False)])
    state = world()  # shaped like a stored time, but not one: parsed (an ISO week date)
    state.add_events([("Week", "2023-W41-7T10:00:00", "", "", "", False)])
    assert state.events()[0].start == "2023-10-15T10:00:00"


def test_times_use_the_phone_zone() -> None:
    """ISO local times are the phone's: the provider gets epoch milliseconds of that zone
    (all-day events: UTC midnights with ``eventTimezone`` UTC)."""
    phone = VirtualPhone()
    phone.properties["persist.sys.timezone"] = "Europe/Paris"
    state = adb(phone)
    state.add_event("Lunch", "2026-10-15T12:00", "2026-10-15T13:00")
    state.add_event("Holiday", "2026-10-20", all_day=True)
    state.add_message("555", "hi", date="2026-01-15T12:00")
    assert phone.device.system.events[1].start == "2026-10-15T12:00:00"
    out = phone.shell("content query --uri content://com.android.calendar/events "
                      "--projection dtstart:eventTimezone:allDay")[1].decode()
    assert out == ("Row: 0 dtstart=1792058400000, eventTimezone=Europe/Paris, allDay=0\n"
                   "Row: 1 dtstart=1792454400000, eventTimezone=UTC, allDay=1\n")
    sms = phone.shell("content query --uri content://sms --projection date")[1].decode()
    assert sms == "Row: 0 date=1768474800000\n"  # 11:00Z: Paris is UTC+1 in January
    assert state.events()[0] == EventRow("Lunch", "2026-10-15T12:00:00", "2026-10-15T13:00:00")
    assert state.messages()[0].date == "2026-01-15T12:00:00"


def test_adb_state_quotes_every_argument() -> None:
    state = adb()
    phone = state.backend.phone  # type: ignore[attr-defined]
    state.add_message(NASTY, NASTY, box="sent")
    state.add_call(NASTY, name=NASTY)
    state.add_event(NASTY, "2026-10-15T12:00", location=NASTY, description=NASTY)
    state.post_notification(NASTY, NASTY)
    state.post_notification("-t", "--help")  # options-looking text is posted as text
    assert state.messages() == [MessageRow(NASTY, NASTY, "2026-10-15T09:30:00", "sent")]
    assert state.calls() == [CallRow(NASTY, date="2026-10-15T09:30:00", name=NASTY)]
    assert state.events() == [EventRow(NASTY, "2026-10-15T12:00:00", "2026-10-15T12:00:00",
                                       NASTY, NASTY)]
    assert state.notifications() == [NotificationRow("com.android.shell", "-t", "--help"),
                                     NotificationRow("com.android.shell", NASTY, NASTY)]
    assert phone.reboots == 0 and ["reboot"] not in phone.shell_log
    assert ["cmd", "notification", "post", "-t", NASTY, "phone_gym_1", NASTY] in phone.shell_log
    assert {argv[0] for argv in phone.shell_log} <= {"content", "date", "getprop", "cmd",
                                                     "dumpsys"}


def test_stores_and_what_adb_cannot_do() -> None:
    state, w = adb(), world()
    assert set(NEW_STORES) <= state.stores() == ADB_STORES
    assert {"wallet", "clipboard"} <= w.stores()
    for store in ("wallet", "clipboard"):
        with pytest.raises(Unsupported, match="PhoneWorld only"):
            state.rows(store)
    with pytest.raises(Unsupported, match="cannot be added over adb"):
        state.add_account("ada@example.com", "com.google")
    w.device.system.clipboard = "copied"
    w.device.system.wallet.transactions.new(amount=-450, counterparty="Cafe")
    assert w.rows("clipboard") == {"clipboard": {"text": "copied"}}
    assert w.rows("wallet")["balance"] == {"cents": 0}
    assert w.rows("wallet")["1"]["counterparty"] == "Cafe"


@pytest.mark.parametrize("state", [world(), adb()], ids=["world", "adb"])
def test_bad_arguments(state: DeviceState) -> None:
    with pytest.raises(DeviceError, match="box"):
        state.add_message("1", "x", box="trash")
    with pytest.raises(DeviceError, match="not an ISO"):
        state.add_message("1", "x", date="yesterday")
    with pytest.raises(DeviceError, match="kind"):
        state.add_call("1", kind="dropped")
    with pytest.raises(DeviceError, match="not an ISO"):
        state.add_event("x", "soon")
    assert state.messages() == state.calls() == state.events() == []


class DropsSms:
    """A backend whose phone drops SMS inserts silently, as Android does for an app that is
    not the default SMS app."""

    def __init__(self) -> None:
        self.inner = LocalBackend(VirtualPhone())
        self.serial = self.inner.serial

    def shell(self, command: str, timeout: float | None = None) -> ShellResult:
        if command.startswith("content insert --uri content://sms "):
            return ShellResult(0, "")
        return self.inner.shell(command, timeout)


def test_an_ignored_sms_insert_raises() -> None:
    with pytest.raises(DeviceError, match="ignored the SMS insert"):
        AdbState(DropsSms()).add_message("555", "hi")  # type: ignore[arg-type]


def test_no_writable_calendar_raises() -> None:
    class NoCalendar(DropsSms):
        def shell(self, command: str, timeout: float | None = None) -> ShellResult:
            if "calendars" in command:
                return ShellResult(0, "Row: 0 _id=3, calendar_access_level=200\n")
            return self.inner.shell(command, timeout)

    with pytest.raises(DeviceError, match="no calendar to add events to"):
        AdbState(NoCalendar()).add_event("x", "2026-10-15T12:00")  # type: ignore[arg-type]


# --- AdbState against a phone that answers badly -------------------------------------------
class FakeBackend:
    """Answers every shell command with one scripted result and records the commands."""

    serial = "fake"

    def __init__(self, output: str, code: int = 0) -> None:
        self.result = ShellResult(code, output)
        self.commands: list[str] = []

    def shell(self, command: str, timeout: float | None = None) -> ShellResult:
        self.commands.append(command)
        return self.result


ROW = "Row: 0 _id=1, date=0, type=1, read=1, address=x\n"


@pytest.mark.parametrize(("call", "output", "code"), [
    (lambda s: s.messages(), "something else\n", 0),
    (lambda s: s.messages(), "Row: 0 _id=1, date=soon, type=1, read=1, address=x\n", 0),
    (lambda s: s.messages(), ROW, 0),  # the body query's rows are not that projection
    (lambda s: s.messages(), "", 1),
    (lambda s: s.add_message("1", "x"), "Error while accessing provider:sms\n", 0),
    (lambda s: s.add_message("1", "x", date="2026-10-15T12:00"), "Not a zone\n", 0),
    (lambda s: s.calls(), "Error while accessing provider:call_log\njava.lang."
                          "SecurityException: Permission Denial\n", 0),
    (lambda s: s.add_call("1"), "Thu Oct 15\n", 0),  # not what `date +%s` prints
    (lambda s: s.add_call("1", date="2026-10-15T12:00"), "", 255),
    (lambda s: s.events(), "Row: 0 _id=x\n", 0),
    (lambda s: s.add_event("x", "2026-10-15T12:00"),
     "Row: 0 _id=1, calendar_access_level=owner\n", 0),
    (lambda s: s.notifications(), "Can't find service: notification\n", 0),
    (lambda s: s.post_notification("t", "x"), "Current Notification Manager state:\n"
                                              "Unknown command: post\n", 0),
    (lambda s: s.post_notification("t", "x"), "Current Notification Manager state:\n", 0),
    (lambda s: s.accounts(), "Accounts: 2\n  Account {name=a, type=b}\n", 0),
    (lambda s: s.accounts(), "Permission Denial: can't dump AccountsManager\n", 0),
    (lambda s: s.accounts(), "", 1),
])
def test_adb_state_raises_on_bad_output(call: Callable[[AdbState], object], output: str,
                                        code: int) -> None:
    backend = FakeBackend(output, code)
    with pytest.raises(DeviceError) as info:
        call(AdbState(backend))  # type: ignore[arg-type]
    assert backend.commands[-1] in str(info.value)  # the message names the command...
    assert repr(output[:20])[1:-1] in str(info.value)  # ...and the output


# --- the dump parsers, on output as AOSP prints it -------------------------------------------
NOTIFICATION_DUMP = """\
Current Notification Manager state:
  Notification List:
    NotificationRecord(0x0f3a9d1c: pkg=com.google.android.gm user=UserHandle{0} id=7 tag=null \
importance=4 key=0|com.google.android.gm|7|null|10123: Notification(channel=mail shortcut=null \
contentView=null vibrate=null sound=null defaults=0x0 flags=0x10 color=0xffdb4437 vis=PRIVATE))
      uid=10123 userId=0
      opPkg=com.google.android.gm
      key=0|com.google.android.gm|7|null|10123
      notification=
            when=1792056600000
            tickerText=null
            extras={
                android.title=SpannableString (Ada Lovelace)
                android.reduced.images=Boolean (true)
                android.text=String (Notes (draft)
attached, see
    android.title=String (not a key))
                android.people.list=ArrayList (1)
                      [0] Person{name=Ada}
                android.subText=null
            }
      publicNotification=
            extras={
                android.title=String (1 new message)
            }
      mImportance=HIGH
    NotificationRecord(0x0a1b2c3d: pkg=com.android.shell user=UserHandle{0} id=1138 \
tag=phone_gym_4 importance=3 key=0|com.android.shell|1138|phone_gym_4|2000: \
Notification(channel=shellcmd shortcut=null contentView=null vibrate=null sound=null \
defaults=0x0 flags=0x0 color=0x00000000 vis=PRIVATE))
      uid=2000 userId=0
      notification=
            extras={
                android.text=String (only text)
            }

  Snoozed notifications:
    NotificationRecord(0x0bbbbbbb: pkg=com.snoozed user=UserHandle{0} id=1 tag=null \
importance=3 key=k: Notification(channel=x))
  mUseAttentionLight=true
"""


def test_parse_notifications() -> None:
    assert parse_notifications(NOTIFICATION_DUMP) == [
        (NotificationRow("com.google.android.gm", "Ada Lovelace",
                         "Notes (draft)\nattached, see\n    android.title=String (not a key)"),
         "null"),
        (NotificationRow("com.android.shell", "", "only text"), "phone_gym_4")]
    assert parse_notifications("Current Notification Manager state:\n  mSystemReady=true\n") \
        == []


def test_post_notification_picks_an_unused_tag() -> None:
    backend = FakeBackend(NOTIFICATION_DUMP)
    with pytest.raises(DeviceError):  # the scripted answer to `post` is the dump again
        AdbState(backend).post_notification("t", "x")  # type: ignore[arg-type]
    assert backend.commands[-1] == "cmd notification post -t t phone_gym_5 x"


def test_parse_accounts() -> None:
    """Android 14: one block per user (AOSP ``AccountManagerService.dump``); the first is
    user 0."""
    dump = """\
User UserInfo{0:Owner:4c13}:
  Accounts: 2
    Account {name=ada@gmail.com, type=com.google}
    Account {name=Ada, type=Lovelace, type=com.example}

  Accounts History
  Active Sessions: 0

User UserInfo{10:Work profile:1030}:
  Accounts: 1
    Account {name=ada@work.example, type=com.google}
"""
    assert parse_accounts(dump) == [AccountRow("ada@gmail.com", "com.google"),
                                    AccountRow("Ada, type=Lovelace", "com.example")]
    assert parse_accounts("Accounts: 0\n\nActive Sessions: 0\n") == []  # before Android 4.2
    assert parse_accounts("Accounts: 1\n  Account {name=x}\n") is None
