"""``AdbState``: the ``DeviceState`` interface over any phone reached through a ``Backend``.

Only ``backend.shell`` (every argument quoted with ``shlex.quote``), ``pull``, ``push`` and
``list_dir`` are used:

- ``settings get|put`` (and, for a setting a system service owns, its ``cmd``: see
  ``real.settings``); ``pm clear``, ``am force-stop``, ``input keyevent 3``; closing an
  app without stopping it: ``am start -W --activity-clear-task`` of its launcher activity,
  else ``am kill`` (``close_app``);
- ``content query|insert`` on the contacts provider (``contacts``, ``raw_contacts``,
  ``data``), on Telephony's ``content://sms`` (``_id, address, body, date, type, read``), on
  ``content://call_log/calls`` (``_id, number, name, date, duration, type``) and on
  ``content://com.android.calendar/{calendars,events}`` (``_id, title, dtstart, dtend,
  eventLocation, description, allDay``; ``deleted=0`` rows only);
- alarms: ``am start -W -a android.intent.action.SHOW_ALARMS -p CLOCK``, the backend's UI
  dump (``Backend.dump_ui``: over adb ``uiautomator dump`` to a fresh file under
  ``/data/local/tmp``, ``cat`` and ``rm -f`` of it; over uiautomator2 its own hierarchy
  call), ``input swipe`` and
  ``input keyevent 3``; ``am start -a android.intent.action.SET_ALARM``; ``dumpsys alarm``
  (``next_alarm``, ``scheduled_alarms``);
- ``dumpsys notification --noredact`` and ``cmd notification post -t TITLE TAG TEXT``;
- ``dumpsys account``; ``getprop persist.sys.timezone`` and ``date +%s`` for times.

Output is parsed defensively: a non-zero exit or output of an unexpected shape raises
``DeviceError`` naming the command and the output. A free-text column is always the last of
its query's projection (a value may hold ``, column=``), one query per such column.

Times: the providers keep epoch milliseconds; the facade speaks ISO local times of the
phone's zone (``persist.sys.timezone``, read once), all-day events in UTC as
``CalendarContract.Events`` requires. A date of 0 or NULL reads as "".

Alarms live in the clock app's private database, which no shell command reads, so
``alarms()`` reads the clock's own alarm list from its screen: ``am start -W -a
android.intent.action.SHOW_ALARMS -p CLOCK`` (``AlarmClock.ACTION_SHOW_ALARMS``, which AOSP
DeskClock's ``HandleApiCalls.handleShowAlarms`` answers by selecting the alarms tab and
bringing DeskClock to the front), the backend's UI dump (one path per backend: a shell
``uiautomator dump`` would stop the uiautomator2 server's own UiAutomation), then,
when the list scrolls, ``input swipe`` up to its top and down page by page (a dump per page,
10 pages at most) until a swipe moves nothing; then home (``input keyevent 3``). Each row
gives the time, the on/off switch's ``checked`` state and the label (``real.alarms``: the
parser, and the AOSP layout it follows). Limits:

- the clock's UI must be readable (``uiautomator`` works, the screen is on and unlocked, no
  dialog over the clock); its times are read in any locale's 24- or 12-hour format
  (``real.alarms.time_of``: "07:30", "7:30 PM", "下午7:30", "오후 7:30", "7:30 nachm.");
- it opens the clock and leaves the phone on the home screen: it is for snapshots at the
  start and the end of an episode, not for every step (``verify_every_step`` and
  ``end_on_success`` read it after every action, and so close whatever the agent had open);
- it reads what a collapsed row shows: time, switch, label (a collapsed DeskClock row shows
  the label only when the alarm has one). Repeat days, ringtone and vibration are not read;
  an expanded row is read through the same ids (``edit_label``);
- an empty list is read again after ``settle`` seconds, twice (the list loads
  asynchronously); pages are joined where their rows overlap, so identical alarms (same
  time, label and state) side by side across a page break may be undercounted.

The alarm manager (``dumpsys alarm``) cannot stand in for that list. AOSP DeskClock
(``alarms.AlarmStateManager``) keeps no entry per alarm at its ring time: each enabled alarm
has one for its next state change (2 h before it rings, or 30 min before, or the ring, or a
snooze's end), and the next alarm overall one more, the ``setAlarmClock`` whose time is also
the "Next alarm clock" line: alarms at 07:00 and 09:15 read, at 04:00, as entries at 05:00,
07:00 and 07:15. Only that next-alarm time is faithful (``next_alarm``); the other entries
cannot be told apart from alarms, and switched-off alarms and labels are not there at all
(``scheduled_alarms`` returns the raw entry times, for diagnosis). So
``alarm_source="dumpsys"`` lists no alarms: ``alarms()`` (and so any snapshot of the alarms
store, and every task that watches it) raises ``Unsupported`` rather than verify from a
list that is wrong; read them with ``alarm_source="clock"`` (the default).

Resets keep the owner's alarms: ``am force-stop`` of the clock would cancel every alarm it has
set (AOSP ``ActivityManagerService.forceStopPackage`` sends ``ACTION_PACKAGE_RESTARTED``, on
which ``AlarmManagerService`` removes all the package's alarms, and leaves the app in the
stopped state, so not even a reboot sets them again until the app is opened). ``close_app``
closes an app without that: ``am start -W --activity-clear-task`` of its launcher activity
(``Intent.FLAG_ACTIVITY_CLEAR_TASK``: its task is cleared and it starts afresh on its start
screen; nothing is stopped), or, for a package with no launcher activity, ``am kill``
(``ActivityManagerService.killBackgroundProcesses``: background processes only, no stopped
state, alarms kept). ``force_stop`` stays for callers that mean it.

What a real phone may refuse the shell (the virtual device, like an emulator's shell, allows
it all):

- SMS writes: since Android 4.4 only the default SMS app may write ``content://sms``; other
  callers' inserts are dropped without an error (AppOps ``WRITE_SMS``). ``add_message``
  checks that a new row appeared and raises ``DeviceError`` when not.
- Call log and calendar: the shell needs ``READ/WRITE_CALL_LOG`` and ``READ/WRITE_CALENDAR``
  (granted to ``com.android.shell`` on AOSP builds, not on every vendor's); a refusal is a
  ``SecurityException`` and so a ``DeviceError``. ``add_event`` needs a calendar the shell
  may write (access level 500 or more): a phone without an account may have none.
- Notifications: ``cmd notification post`` exists from Android 10; what it posts belongs to
  ``com.android.shell``. ``dumpsys notification`` lists every app's notifications.
- Accounts cannot be added from the shell (``add_account`` raises ``Unsupported``); wallet
  and clipboard cannot be read (``Unsupported``).
"""

from __future__ import annotations

import re
import shlex
import time
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..verifiers.state import (
    CALL_KINDS,
    SHELL_PACKAGE,
    SMS_BOXES,
    AccountRow,
    AlarmRow,
    CallRow,
    ContactRow,
    DeviceError,
    EventRow,
    MessageRow,
    NotificationRow,
    Unsupported,
    account_rows,
    alarm_rows,
    from_millis,
    id_rows,
    notification_rows,
    to_millis,
    type_code,
    type_name,
)
from ..world.state import event_times
from .alarms import AlarmPage, PageRow, merge_pages, page_rows, parse_alarm_page
from .base import Backend, ShellResult
from .settings import CONFIRM_SECONDS, put_setting, restore_settings

#: The clock of AOSP / Pixel phones (``RealPhoneEnv`` passes the one the manifests name).
DESKCLOCK = "com.google.android.deskclock"
#: The stores ``rows`` can read over adb (settings and files are read by ``observe``).
ADB_STORES = frozenset({"settings", "contacts", "alarms", "files", "messages", "calls",
                        "events", "notifications", "accounts"})
#: Why the other stores cannot be read over adb.
PHONEWORLD_ONLY = {
    "wallet": "a wallet's balance and transactions live in the wallet app's private data, "
              "which no shell command reads",
    "clipboard": "Android 10 and later let only the focused app or the default keyboard read "
                 "the clipboard, never the shell",
}

CONTACTS_URI = "content://com.android.contacts/contacts"
RAW_CONTACTS_URI = "content://com.android.contacts/raw_contacts"
DATA_URI = "content://com.android.contacts/data"
PHONES_URI = "content://com.android.contacts/data/phones"
EMAILS_URI = "content://com.android.contacts/data/emails"
MIME_NAME = "vnd.android.cursor.item/name"
MIME_PHONE = "vnd.android.cursor.item/phone_v2"
MIME_EMAIL = "vnd.android.cursor.item/email_v2"
SMS_URI = "content://sms"
CALLS_URI = "content://call_log/calls"
CALENDARS_URI = "content://com.android.calendar/calendars"
EVENTS_URI = "content://com.android.calendar/events"
#: ``CalendarContract.Calendars.CAL_ACCESS_CONTRIBUTOR``: the least access that may add events.
CAL_ACCESS_CONTRIBUTOR = 500
#: The tag prefix of what ``post_notification`` posts (a post with a used tag would replace).
POST_TAG = "phone_gym_"
SET_ALARM = "android.intent.action.SET_ALARM"
MAIN = "android.intent.action.MAIN"
LAUNCHER = "android.intent.category.LAUNCHER"
#: ``AlarmClock.ACTION_SHOW_ALARMS``: the clock shows its alarm list.
SHOW_ALARMS = "android.intent.action.SHOW_ALARMS"
#: How ``alarms`` reads alarms: the clock's own list ("clock") or the alarm manager's.
ALARM_SOURCES = ("clock", "dumpsys")
#: The most pages of the clock's alarm list ``alarms`` reads (more raises ``DeviceError``).
MAX_ALARM_PAGES = 10
#: Where the UI dumps of the alarm list go (writable by the shell, not shared storage).
DUMP_DIR = "/data/local/tmp"
#: How long a swipe over the alarm list lasts (ms): slow, so that it hardly flings.
SWIPE_MS = 1000
ALARM_EXTRA = "android.intent.extra.alarm."
#: Lines with which Android's shell tools report a failure (they often still exit 0).
ERROR_LINE = re.compile(
    r"^\s*(Error\b|\[ERROR\]|Exception\b|Failed\b|Failure\b|Unknown command|usage:|"
    r"Invalid\b|Bad\b|java\.\S+(Exception|Error)|android\.\S+Exception|\S+: inaccessible or "
    r"not found|/system/bin/sh: )", re.MULTILINE | re.IGNORECASE)
ALARM_HEADER = re.compile(r"^\s*(RTC_WAKEUP|RTC|ELAPSED_WAKEUP|ELAPSED\w*)\s+#\d+:\s+"
                          r"Alarm\{.*\s(\S+)\}\s*$")
ALARM_WHEN = re.compile(r"\b(?:origWhen|when)=\d{4}-\d\d-\d\d (\d\d):(\d\d):\d\d")
#: ``Alarm.dump`` of a ``setAlarmClock`` alarm: ``Alarm clock:`` then ``triggerTime=``.
ALARM_CLOCK_TIME = re.compile(r"^\s*triggerTime=\d{4}-\d\d-\d\d (\d\d):(\d\d):\d\d")
NOTIFICATION_RECORD = re.compile(r"^(\s*)NotificationRecord\(0x[0-9a-f]+: pkg=(\S+) .*?"
                                 r"\btag=(.*?) importance=")
EXTRA = re.compile(r"^(\s*)([\w.]+)=(.*)$")
INTEGER = re.compile(r"-?\d+")


def escape_bind(bind: str) -> str:
    """A ``content --bind`` ``COLUMN:TYPE:VALUE`` with ``\\`` and ``:`` in the value escaped
    by a backslash: modern Android's ``content`` (AOSP ``cmds/content`` ``Content.java``,
    ``Parser.splitWithEscaping``) splits the binding at every unescaped ``:``, wants exactly
    three parts and drops each ``\\`` before the character it escapes. (Older versions took
    everything after the second ``:`` as it is.)"""
    column, _, rest = bind.partition(":")
    kind, _, value = rest.partition(":")
    return f"{column}:{kind}:" + value.replace("\\", "\\\\").replace(":", "\\:")


#: What Android's dynamic linker writes to stderr before a program runs on some builds
#: (bionic ``linker``'s ``DL_WARN``: "WARNING: linker: ..." for unused DT entries, text
#: relocations and the like, on many Android 5-9 vendor builds).
LINKER_WARNING = re.compile(r"^WARNING: linker: .*(?:\n|$)", re.M)


def stdout_of(result: ShellResult) -> str:
    """A command's stdout: kept apart by the transport (shell protocol v2), else its joined
    output without the linker's warnings (``LINKER_WARNING``)."""
    if result.stdout is not None:
        return result.stdout
    return LINKER_WARNING.sub("", result.output)


class AdbState:
    """``DeviceState`` of the phone behind ``backend``; ``clock_package`` is the clock app
    whose alarms ``alarms`` reads (from its list, or with ``alarm_source="dumpsys"`` from the
    alarm manager: see the module doc) and ``add_alarm`` asks to set one; ``settle`` is how
    long to wait before reading an empty alarm list again."""

    def __init__(self, backend: Backend, *, clock_package: str = DESKCLOCK,
                 timeout: float | None = None, zone: str | None = None,
                 alarm_source: str = "clock", settle: float = 0.5) -> None:
        if alarm_source not in ALARM_SOURCES:
            raise ValueError(f"alarm_source={alarm_source!r}; accepted: "
                             f"{', '.join(map(repr, ALARM_SOURCES))}")
        self.backend = backend
        self.clock_package = clock_package
        self.timeout = timeout
        self.alarm_source = alarm_source
        self.settle = settle
        self._zone: tuple[str, tzinfo] | None = None if zone is None else (zone, zone_of(zone))
        #: Settings ``put_setting`` changed on the side, and their values before
        #: (``restore_settings`` puts them back).
        self.restores: dict[tuple[str, str], str] = {}

    # --- shell -----------------------------------------------------------------------------
    def run(self, *argv: str, stdout_only: bool = False) -> str:
        """Run ``argv`` (each argument quoted); its output, or ``DeviceError`` on a non-zero
        exit; the dynamic linker's warnings (``LINKER_WARNING``) left out. ``stdout_only``:
        without anything that went to stderr (see ``stdout_of``)."""
        command = " ".join(shlex.quote(str(a)) for a in argv)
        result = self.backend.shell(command, self.timeout)
        output = LINKER_WARNING.sub("", result.output.replace("\r\n", "\n"))  # noise
        if not result.ok:
            raise DeviceError(f"`{command}` on {self.backend.serial} exited with "
                              f"{result.returncode}: {output[:500]!r}")
        return stdout_of(result).replace("\r\n", "\n") if stdout_only else output

    def run_checked(self, *argv: str) -> str:
        """``run``, also raising ``DeviceError`` when the output reports an error."""
        output = self.run(*argv)
        if ERROR_LINE.search(output):
            raise self.unexpected(argv, output)
        return output

    def unexpected(self, argv: tuple[str, ...], output: str) -> DeviceError:
        command = " ".join(shlex.quote(str(a)) for a in argv)
        return DeviceError(f"unexpected output of `{command}` on {self.backend.serial}: "
                           f"{output[:500]!r}")

    def query(self, uri: str, projection: list[str], *, sort: str | None = None,
              where: str | None = None, numbers: Sequence[str] = ("_id",),
              ) -> list[dict[str, str | None]]:
        """``content query`` rows as ``{column: value}`` (``NULL`` is None); the columns
        ``numbers`` must hold integers or NULL."""
        argv = ["content", "query", "--uri", uri, "--projection", ":".join(projection)]
        if where is not None:
            argv += ["--where", where]
        if sort is not None:
            argv += ["--sort", sort]
        output = self.run(*argv)
        rows = parse_rows(output, projection)
        if rows is None or any(row.get(c) is not None and not INTEGER.fullmatch(row[c] or "")
                               for row in rows for c in numbers if c in row):
            raise self.unexpected(tuple(argv), output)
        return rows

    def query_texts(self, uri: str, numbers: list[str], texts: list[str], *,
                    where: str | None = None) -> list[dict[str, str | None]]:
        """Rows of ``uri`` (by ``_id``) with the integer columns ``numbers`` and the free-text
        columns ``texts``, each text last in its own query (a value may hold ``, col=``)."""
        for _ in range(3):
            rows = self.query(uri, ["_id", *numbers, texts[0]], sort="_id ASC", where=where,
                              numbers=["_id", *numbers])
            ids = [r["_id"] for r in rows]
            for text in texts[1:]:
                more = self.query(uri, ["_id", text], sort="_id ASC", where=where)
                if [r["_id"] for r in more] != ids:
                    break  # a row came or went between the queries: read again
                for row, extra in zip(rows, more, strict=True):
                    row[text] = extra[text]
            else:
                return rows
        raise DeviceError(f"{uri} on {self.backend.serial} kept changing while it was read")

    def insert(self, uri: str, *binds: str) -> None:
        """``content insert --uri URI --bind B ...`` (``COLUMN:TYPE:VALUE``, the value
        escaped: ``escape_bind``)."""
        self.run_checked("content", "insert", "--uri", uri,
                         *(arg for b in binds for arg in ("--bind", escape_bind(b))))

    # --- times ------------------------------------------------------------------------------
    def zone(self) -> tuple[str, tzinfo]:
        """The phone's time zone (``persist.sys.timezone``; read once): name and zone."""
        if self._zone is None:
            argv = ("getprop", "persist.sys.timezone")
            output = self.run(*argv)
            name = output.strip() or "UTC"
            try:
                self._zone = (name, zone_of(name))
            except DeviceError:
                raise self.unexpected(argv, output) from None
        return self._zone

    def local(self, millis: str | None, *, utc: bool = False) -> str:
        """Epoch milliseconds as an ISO local time ("" for NULL or 0)."""
        if millis is None or int(millis) == 0:
            return ""
        return from_millis(int(millis), timezone.utc if utc else self.zone()[1])

    def millis(self, iso: str, verb: str, *, utc: bool = False) -> int:
        """An ISO local time as epoch milliseconds (``DeviceError`` when not ISO)."""
        value = to_millis(iso, timezone.utc if utc else self.zone()[1])
        if value is None:
            raise DeviceError(f"{verb}: {iso!r} is not an ISO date or time")
        return value

    def now_millis(self) -> int:
        """The phone's clock (``date +%s``) in milliseconds."""
        argv = ("date", "+%s")
        output = self.run(*argv)
        if not INTEGER.fullmatch(output.strip()):
            raise self.unexpected(argv, output)
        return int(output.strip()) * 1000

    # --- stores ----------------------------------------------------------------------------
    def stores(self) -> frozenset[str]:
        return ADB_STORES

    def rows(self, store: str) -> Mapping[str, Mapping[str, Any]]:
        """Records of ``store`` as adb reports them: contacts, messages, calls and events by
        ``_id``; alarms by ``HH:MM|label`` (``#2`` for a second one), on or off;
        notifications by ``package|title``, accounts by ``kind|name``."""
        if store == "messages":
            return id_rows(self._message_rows())
        if store == "calls":
            return id_rows(self._call_rows())
        if store == "events":
            return id_rows(self._event_rows())
        if store == "notifications":
            return notification_rows(self.notifications())
        if store == "accounts":
            return account_rows(self.accounts())
        if store in PHONEWORLD_ONLY:
            raise Unsupported(f"{store!r} cannot be read over adb: {PHONEWORLD_ONLY[store]} "
                              "(PhoneWorld only)")
        if store == "contacts":
            return {key: {"id": int(key) if key.isdigit() else key, "name": c.name,
                          "phone": c.phone, "email": c.email, "starred": c.starred}
                    for key, c in self._contact_rows()}
        if store == "alarms":
            return alarm_rows(self.alarms())
        raise Unsupported(f"{store!r} cannot be read over adb here; readable stores: "
                          f"{', '.join(sorted(ADB_STORES))}")

    # --- settings --------------------------------------------------------------------------
    def get_setting(self, namespace: str, key: str) -> str | None:
        argv = ("settings", "get", namespace, key)
        output = self.run(*argv, stdout_only=True)  # a warning on stderr is not the value
        if not output.endswith("\n") or ERROR_LINE.match(output):
            raise self.unexpected(argv, output)
        value = output[:-1]
        return None if value == "null" else value

    #: Seconds a written setting has to read back as asked (``real.settings``).
    confirm_timeout = CONFIRM_SECONDS

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        """Switch the setting with the command Android honours and wait until it reads back
        as asked (``real.settings.put_setting``: ``cmd wifi``... for the settings a service
        owns; brightness in manual mode); ``DeviceError`` when it does not."""
        put_setting(self, namespace, key, value, timeout=self.confirm_timeout)

    def restore_settings(self) -> None:
        """Put back what ``put_setting`` changed on the side (the brightness mode)."""
        restore_settings(self)

    # --- contacts --------------------------------------------------------------------------
    def _contact_rows(self) -> list[tuple[str, ContactRow]]:
        people = self.query(CONTACTS_URI, ["_id", "starred", "display_name"], sort="_id ASC")
        phones: dict[str | None, str] = {}
        for row in self.query(PHONES_URI, ["contact_id", "data1"], sort="_id ASC"):
            phones.setdefault(row["contact_id"], row["data1"] or "")
        emails: dict[str | None, str] = {}
        for row in self.query(EMAILS_URI, ["contact_id", "data1"], sort="_id ASC"):
            emails.setdefault(row["contact_id"], row["data1"] or "")
        return [(str(row["_id"]), ContactRow(row["display_name"] or "",
                                             phones.get(row["_id"], ""),
                                             emails.get(row["_id"], ""),
                                             row.get("starred") == "1"))
                for row in people]

    def contacts(self) -> list[ContactRow]:
        return [row for _, row in self._contact_rows()]

    def add_contact(self, name: str, phone: str = "", email: str = "",
                    starred: bool = False) -> None:
        """A raw contact (no account; starred when asked), then its name, phone and e-mail
        data rows."""
        self.run_checked("content", "insert", "--uri", RAW_CONTACTS_URI,
                         "--bind", "account_type:s:", "--bind", "account_name:s:",
                         *(("--bind", "starred:i:1") if starred else ()))
        rows = self.query(RAW_CONTACTS_URI, ["_id"], sort="_id DESC")
        raw_id = rows[0]["_id"] if rows else None
        if raw_id is None or not raw_id.isdigit():
            raise DeviceError(f"no raw contact found after inserting one on "
                              f"{self.backend.serial}: {rows[:3]!r}")
        self.insert_data(raw_id, MIME_NAME, name)
        if phone:
            self.insert_data(raw_id, MIME_PHONE, phone, "--bind", "data2:i:2")
        if email:
            self.insert_data(raw_id, MIME_EMAIL, email, "--bind", "data2:i:1")

    def insert_data(self, raw_id: str, mimetype: str, value: str, *extra: str) -> None:
        self.run_checked("content", "insert", "--uri", DATA_URI,
                         "--bind", f"raw_contact_id:i:{raw_id}", "--bind", f"mimetype:s:{mimetype}",
                         "--bind", escape_bind(f"data1:s:{value}"), *extra)

    # --- messages ----------------------------------------------------------------------------
    def _message_rows(self) -> list[tuple[str, MessageRow]]:
        rows = self.query_texts(SMS_URI, ["date", "type", "read"], ["address", "body"])
        return [(str(r["_id"]), MessageRow(r["address"] or "", r["body"] or "",
                                           self.local(r["date"]),
                                           type_name(SMS_BOXES, r["type"]), r["read"] == "1"))
                for r in rows]

    def messages(self) -> list[MessageRow]:
        return [row for _, row in self._message_rows()]

    def add_message(self, address: str, body: str, box: str = "inbox", date: str = "",
                    read: bool = True) -> None:
        """Insert into ``content://sms`` (no ``date``: the provider's clock), then check a
        new row is there: a phone drops the writes of an app that is not the default SMS
        app without an error."""
        try:
            code = type_code(SMS_BOXES, box)
        except ValueError as exc:
            raise DeviceError(f"add_message: box {exc}") from None
        binds = [f"address:s:{address}", f"body:s:{body}", f"type:i:{code}",
                 f"read:i:{int(bool(read))}"]
        if date:
            binds.append(f"date:l:{self.millis(date, 'add_message')}")
        where = f"address={sql_text(address)} AND body={sql_text(body)}"
        before = {r["_id"] for r in self.query(SMS_URI, ["_id"], where=where)}
        self.insert(SMS_URI, *binds)
        after = {r["_id"] for r in self.query(SMS_URI, ["_id"], where=where)}
        if not after - before:
            raise DeviceError(f"add_message: {self.backend.serial} ignored the SMS insert "
                              "(only the default SMS app may write SMS since Android 4.4)")

    # --- calls -------------------------------------------------------------------------------
    def _call_rows(self) -> list[tuple[str, CallRow]]:
        rows = self.query_texts(CALLS_URI, ["date", "duration", "type"], ["number", "name"])
        return [(str(r["_id"]), CallRow(r["number"] or "", type_name(CALL_KINDS, r["type"]),
                                        self.local(r["date"]), int(r["duration"] or 0),
                                        r["name"] or ""))
                for r in rows]

    def calls(self) -> list[CallRow]:
        return [row for _, row in self._call_rows()]

    def add_call(self, number: str, kind: str = "incoming", date: str = "", duration: int = 0,
                 name: str = "") -> None:
        """Insert into ``content://call_log/calls`` (no ``date``: the phone's clock now)."""
        try:
            code = type_code(CALL_KINDS, kind)
        except ValueError as exc:
            raise DeviceError(f"add_call: kind {exc}") from None
        when = self.millis(date, "add_call") if date else self.now_millis()
        binds = [f"number:s:{number}", f"type:i:{code}", f"date:l:{when}",
                 f"duration:l:{int(duration)}"]
        if name:
            binds.append(f"name:s:{name}")
        self.insert(CALLS_URI, *binds)

    # --- events ------------------------------------------------------------------------------
    def _event_rows(self) -> list[tuple[str, EventRow]]:
        rows = self.query_texts(EVENTS_URI, ["dtstart", "dtend", "allDay"],
                                ["title", "eventLocation", "description"], where="deleted=0")
        out = []
        for r in rows:
            all_day = r["allDay"] == "1"
            out.append((str(r["_id"]), EventRow(
                r["title"] or "", self.local(r["dtstart"], utc=all_day),
                self.local(r["dtend"], utc=all_day), r["eventLocation"] or "",
                r["description"] or "", all_day)))
        return out

    def events(self) -> list[EventRow]:
        return [row for _, row in self._event_rows()]

    def calendar_id(self) -> str:
        """The first calendar the shell may add events to (access level 500 or more)."""
        rows = self.query(CALENDARS_URI, ["_id", "calendar_access_level"], sort="_id ASC",
                          numbers=["_id", "calendar_access_level"])
        for row in rows:
            if int(row["calendar_access_level"] or 0) >= CAL_ACCESS_CONTRIBUTOR:
                return str(row["_id"])
        raise DeviceError(f"add_event: {self.backend.serial} has no calendar to add events to "
                          f"(calendars: {len(rows)}); add an account with a calendar")

    def add_event(self, title: str, start: str, end: str = "", location: str = "",
                  description: str = "", all_day: bool = False) -> None:
        """Insert into ``content://com.android.calendar/events`` of ``calendar_id()``, with
        the phone's zone (all day: UTC midnights and ``eventTimezone`` UTC, as
        ``CalendarContract.Events`` requires)."""
        first, last = event_times(start, end, all_day)
        calendar = self.calendar_id()
        zone = "UTC" if all_day else self.zone()[0]
        self.insert(EVENTS_URI, f"calendar_id:l:{calendar}", f"title:s:{title}",
                    f"dtstart:l:{self.millis(first, 'add_event', utc=all_day)}",
                    f"dtend:l:{self.millis(last, 'add_event', utc=all_day)}",
                    f"eventTimezone:s:{zone}", f"allDay:i:{int(bool(all_day))}",
                    f"eventLocation:s:{location}", f"description:s:{description}")

    # --- notifications -------------------------------------------------------------------------
    def _notification_dump(self) -> list[tuple[NotificationRow, str]]:
        argv = ("dumpsys", "notification", "--noredact")
        output = self.run(*argv)
        if "Current Notification Manager state" not in output:
            raise self.unexpected(argv, output)
        return parse_notifications(output)

    def notifications(self) -> list[NotificationRow]:
        return [row for row, _ in self._notification_dump()]

    def now(self) -> datetime:
        """The phone's clock in its own time zone (naive, as ``WorldState.now``)."""
        return datetime.fromtimestamp(self.now_millis() / 1000, self.zone()[1]).replace(
            tzinfo=None)

    def set_clipboard(self, text: str) -> None:
        raise Unsupported("set_clipboard: the shell cannot write the clipboard (Android lets "
                          "only the app in focus or the IME do so)")

    def post_notification(self, title: str, text: str, app: str = "") -> None:
        """``cmd notification post -t TITLE TAG TEXT`` with a tag the shell has not used
        (the same tag would replace that notification); only as the shell (``app`` empty)."""
        if app:
            raise Unsupported(f"post_notification as {app!r}: the shell posts only as itself")
        used = [int(tag[len(POST_TAG):]) for row, tag in self._notification_dump()
                if row.package == SHELL_PACKAGE and tag.startswith(POST_TAG)
                and tag[len(POST_TAG):].isdigit()]
        argv = ("cmd", "notification", "post", "-t", title, f"{POST_TAG}{max(used, default=0) + 1}",
                text)
        output = self.run_checked(*argv)
        if not output.startswith("posting:"):
            raise self.unexpected(argv, output)

    # --- accounts ------------------------------------------------------------------------------
    def accounts(self) -> list[AccountRow]:
        argv = ("dumpsys", "account")
        output = self.run(*argv)
        rows = parse_accounts(output)
        if rows is None:
            raise self.unexpected(argv, output)
        return rows

    def add_account(self, name: str, kind: str) -> None:
        raise Unsupported("add_account: accounts cannot be added over adb (no shell command adds "
                          "one: AccountManager.addAccountExplicitly is for the account type's "
                          "own app); add it on the phone (Settings > Accounts)")

    # --- alarms ----------------------------------------------------------------------------
    def alarms(self) -> list[AlarmRow]:
        """Every alarm, on and off, with its label, as the clock lists them (its screen: see
        the module doc). With ``alarm_source="dumpsys"``: ``Unsupported`` (the alarm manager
        does not list alarms; see the module doc)."""
        if self.alarm_source == "dumpsys":
            raise Unsupported(
                "alarms cannot be listed from `dumpsys alarm` (alarm_source='dumpsys'): the "
                "clock schedules each alarm's next state change (2 h or 30 min before it "
                "rings), not its ring time, and switched-off alarms are not there; only the "
                "next alarm is known (AdbState.next_alarm). Use alarm_source='clock' (the "
                "clock's own alarm list) for tasks that check alarms")
        argv = ("am", "start", "-W", "-a", SHOW_ALARMS, "-p", self.clock_package)
        output = self.run_checked(*argv)
        if "Starting: Intent" not in output:
            raise self.unexpected(argv, output)
        try:
            return self._read_alarm_list()
        finally:
            self.home()

    def _alarm_dump(self) -> str:
        output = self.run("dumpsys", "alarm")
        if "alarm manager" not in output.lower() and "pending alarm" not in output.lower():
            raise self.unexpected(("dumpsys", "alarm"), output)
        return output

    def scheduled_alarms(self) -> list[AlarmRow]:
        """The wall-clock times of the clock package's pending entries in ``dumpsys alarm``,
        sorted: not its alarms (DeskClock schedules state changes 2 h and 30 min before each
        alarm, plus the next alarm's ``setAlarmClock``: see the module doc), for diagnosis."""
        return sorted(parse_alarms(self._alarm_dump(), self.clock_package),
                      key=lambda a: (a.hour, a.minute))

    def next_alarm(self) -> AlarmRow | None:
        """The clock's next alarm (hour and minute; on, no label) from its ``setAlarmClock``
        entry in ``dumpsys alarm``, or None when it has none (no alarm on, or its alarms
        cancelled by a force-stop)."""
        return parse_next_alarm_clock(self._alarm_dump(), self.clock_package)

    def _read_alarm_list(self) -> list[AlarmRow]:
        """The rows of the alarm list on screen, scrolled through from its top."""
        page = self._alarm_page(wait=True)
        if page.scroll is None:
            return [r.alarm for r in page.rows]
        for _ in range(MAX_ALARM_PAGES):  # up to the top
            self._swipe(page.scroll, down=False)
            again = self._alarm_page()
            if again.same(page):
                break
            page = again
        else:
            raise DeviceError(f"the alarm list of {self.clock_package} on "
                              f"{self.backend.serial} kept scrolling up for "
                              f"{MAX_ALARM_PAGES} pages")
        rows: list[PageRow] = []
        seen: list[PageRow] | None = None
        for _ in range(MAX_ALARM_PAGES):
            if page.scroll is not None:
                self._swipe(page.scroll, down=True)
            after = self._alarm_page() if page.scroll is not None else page
            last = after.same(page)
            whole = page_rows(page, first=seen is None, last=last)
            rows += whole if seen is None else merge_pages(seen, whole)
            if last:
                return [r.alarm for r in rows]
            seen, page = whole, after
        raise DeviceError(f"the alarm list of {self.clock_package} on {self.backend.serial} "
                          f"is longer than {MAX_ALARM_PAGES} pages")

    def _alarm_page(self, *, wait: bool = False) -> AlarmPage:
        """The alarm rows on screen; ``wait``: an empty list (or another app) is read again
        after ``settle`` seconds, twice."""
        for attempt in range(3 if wait else 1):
            if attempt:
                time.sleep(self.settle)
            page = parse_alarm_page(self.dump_ui(), self.clock_package)
            if page.package_shown and page.rows:
                return page
        if not page.package_shown:
            raise DeviceError(f"the alarm list of {self.clock_package} is not on the screen of "
                              f"{self.backend.serial} after `am start -a {SHOW_ALARMS}` (is the "
                              "screen on and unlocked? is that the phone's clock app?)")
        return page

    def dump_ui(self) -> str:
        """The screen's UI dump through the backend's own dump (one path per backend: over
        adb ``uiautomator dump`` to a fresh file, checked and retried, see
        ``AdbBackend.dump_ui``; over uiautomator2 its ``dump_hierarchy``, as a shell
        ``uiautomator dump`` would stop the u2 server's own UiAutomation)."""
        return self.backend.dump_ui()

    def _swipe(self, rect: tuple[int, int, int, int], *, down: bool) -> None:
        """Swipe over half of the list at ``rect`` (down: to see what is below)."""
        x0, y0, x1, y1 = rect
        x, low, high = x0 + (x1 - x0) // 4, y0 + (y1 - y0) * 3 // 4, y0 + (y1 - y0) // 4
        start, end = (low, high) if down else (high, low)
        self.run_checked("input", "swipe", str(x), str(start), str(x), str(end), str(SWIPE_MS))

    def add_alarm(self, hour: int, minute: int, label: str = "",
                  days: Sequence[str] = ()) -> None:
        argv = ["am", "start", "-W", "-a", SET_ALARM, "-p", self.clock_package,
                "--ei", ALARM_EXTRA + "HOUR", str(int(hour)),
                "--ei", ALARM_EXTRA + "MINUTES", str(int(minute))]
        if label:
            argv += ["--es", ALARM_EXTRA + "MESSAGE", label]
        if days:  # java.util.Calendar's day numbers: Sunday is 1
            order = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")
            argv += ["--eial", ALARM_EXTRA + "DAYS",
                     ",".join(str(order.index(d) + 1) for d in days)]
        argv += ["--ez", ALARM_EXTRA + "SKIP_UI", "true"]
        output = self.run_checked(*argv)
        if "Starting: Intent" not in output:
            raise self.unexpected(tuple(argv), output)

    # --- files -----------------------------------------------------------------------------
    def list_dir(self, path: str) -> list[str]:
        return self.backend.list_dir(path)

    def read_file(self, path: str) -> bytes | None:
        return self.backend.pull(path)

    def write_file(self, path: str, data: bytes) -> None:
        self.backend.push(data, path)

    def remove_file(self, path: str) -> None:
        self.run_checked("rm", "-f", path)

    # --- apps ------------------------------------------------------------------------------
    def clear_app(self, package: str) -> None:
        output = self.run_checked("pm", "clear", package)
        if "Success" not in output.split():
            raise self.unexpected(("pm", "clear", package), output)

    def force_stop(self, package: str) -> None:
        """``am force-stop``: also cancels the package's alarms and leaves it stopped (see the
        module doc); resets use ``close_app``."""
        self.run_checked("am", "force-stop", package)

    def close_app(self, package: str) -> None:
        """Close ``package`` keeping its data, alarms and jobs (see the module doc): its
        launcher activity started afresh with ``--activity-clear-task``, or, when it has none,
        ``am kill`` of its background processes; the caller goes home afterwards."""
        argv = ("am", "start", "-W", "--activity-clear-task", "-a", MAIN, "-c", LAUNCHER,
                "-p", package)
        try:
            output = self.run(*argv)
        except DeviceError:
            output = "Error"  # `am start` exits 1 on newer Androids when nothing resolves
        if "Starting: Intent" in output and not ERROR_LINE.search(output):
            return
        self.home()  # `am kill` spares the foreground app
        self.run_checked("am", "kill", package)

    def home(self) -> None:
        self.run_checked("input", "keyevent", "3")


def parse_rows(output: str, projection: list[str]) -> list[dict[str, str | None]] | None:
    """Rows of ``content query`` output (``Row: 0 a=1, b=x``; a value may hold newlines),
    or None when the output has another shape."""
    text = output.strip("\n")
    if text == "No result found.":
        return []
    pattern = re.compile(r"Row: \d+ " + ", ".join(re.escape(c) + "=(.*?)" for c in projection),
                         re.DOTALL)
    rows = []
    for chunk in re.split(r"\n(?=Row: \d+ )", text):
        m = pattern.fullmatch(chunk)
        if m is None:
            return None
        rows.append({c: None if v == "NULL" else v
                     for c, v in zip(projection, m.groups(), strict=True)})
    return rows


def zone_of(name: str) -> tzinfo:
    """The time zone ``name`` (``DeviceError`` when unknown here)."""
    if name in ("UTC", "GMT", "Etc/UTC", "Etc/GMT"):
        return timezone.utc
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise DeviceError(f"unknown time zone {name!r}: {exc}") from None


def sql_text(text: str) -> str:
    """``text`` as an SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def parse_notifications(output: str) -> list[tuple[NotificationRow, str]]:
    """The notifications of ``dumpsys notification --noredact``'s ``Notification List``
    (AOSP ``NotificationRecord.dump``): package, ``android.title`` and ``android.text`` of
    the notification's first ``extras={...}`` (values may span lines), and each one's tag."""
    lines = output.split("\n")
    k = next((i for i, line in enumerate(lines) if line.strip() == "Notification List:"), None)
    if k is None:
        return []
    depth = len(lines[k]) - len(lines[k].lstrip())
    records: list[dict[str, str]] = []
    extras_at: int | None = None  # the indentation of the extras={ being read
    key = ""
    for line in lines[k + 1:]:
        indent = len(line) - len(line.lstrip())
        if extras_at is not None:
            m = EXTRA.match(line)
            if line.strip() == "}" and indent == extras_at:
                extras_at = None
            elif m is not None and len(m.group(1)) == extras_at + 4:
                key = m.group(2)
                records[-1][key] = m.group(3)
            elif key:  # a value that spans lines
                records[-1][key] += "\n" + line
            continue
        if line.strip() and indent <= depth:
            break  # the end of the Notification List
        header = NOTIFICATION_RECORD.match(line)
        if header is not None:
            records.append({"package": header.group(2), "tag": header.group(3), "": ""})
        elif records and line.strip() == "extras={" and not records[-1][""]:
            records[-1][""], extras_at, key = "read", indent, ""
    return [notification_of(r) for r in records]


def notification_of(fields: dict[str, str]) -> tuple[NotificationRow, str]:
    return (NotificationRow(fields["package"], extra_text(fields.get("android.title")),
                            extra_text(fields.get("android.text"))), fields["tag"])


def extra_text(value: str | None) -> str:
    """The text of an extra as ``NotificationRecord.dump`` prints it: ``String (text)`` (any
    ``CharSequence`` class), ``null``."""
    if value is None or value == "null":
        return ""
    m = re.fullmatch(r"\w+ \((.*)\)", value, re.DOTALL)
    return m.group(1) if m else value


def parse_accounts(output: str) -> list[AccountRow] | None:
    """The first user's accounts in ``dumpsys account`` (AOSP ``AccountManagerService``:
    ``Accounts: N`` then N ``Account {name=..., type=...}`` lines), or None when the output
    has another shape."""
    lines = output.splitlines()
    k = next((i for i, line in enumerate(lines) if re.fullmatch(r"\s*Accounts: \d+", line)),
             None)
    if k is None:
        return None
    count = int(lines[k].split(":")[1])
    rows = []
    for line in lines[k + 1:k + 1 + count]:
        text = line.strip()
        if not (text.startswith("Account {name=") and text.endswith("}")):
            return None
        name, sep, kind = text[len("Account {name="):-1].rpartition(", type=")
        if not sep:
            return None
        rows.append(AccountRow(name, kind))
    return rows if len(rows) == count else None


def parse_alarms(output: str, package: str) -> list[AlarmRow]:
    """Hour and minute of each wall-clock (RTC, RTC_WAKEUP) entry of ``package`` in ``dumpsys
    alarm`` (``origWhen=``; ``when=`` on Android 11 and older): the times the alarm manager
    wakes the app, which for a clock are not its alarms' times (see the module doc)."""
    rows: list[AlarmRow] = []
    current: tuple[str, str] | None = None
    for line in output.splitlines():
        header = ALARM_HEADER.match(line)
        if header is not None:
            current = (header.group(1), header.group(2))
            continue
        when = ALARM_WHEN.search(line)
        if when is not None and current is not None and current[0].startswith("RTC") \
                and current[1] == package:
            rows.append(AlarmRow(int(when.group(1)), int(when.group(2))))
            current = None
    return rows


def parse_next_alarm_clock(output: str, package: str) -> AlarmRow | None:
    """The ``triggerTime`` of ``package``'s ``setAlarmClock`` entry in ``dumpsys alarm``
    (``Alarm.dump`` prints ``Alarm clock:`` and ``triggerTime=...`` under it; DeskClock keeps
    one, for its next alarm), or None when it has none."""
    owner: str | None = None
    clock_lines = False
    for line in output.splitlines():
        header = ALARM_HEADER.match(line)
        if header is not None:
            owner, clock_lines = header.group(2), False
        elif line.strip() == "Alarm clock:":
            clock_lines = owner == package
        elif clock_lines and (m := ALARM_CLOCK_TIME.match(line)) is not None:
            return AlarmRow(int(m.group(1)), int(m.group(2)))
    return None
