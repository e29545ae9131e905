"""``AdbState``: the ``DeviceState`` interface over any phone reached through a ``Backend``.

Only ``backend.shell`` (every argument quoted with ``shlex.quote``), ``pull``, ``push`` and
``list_dir`` are used: ``settings get|put``, ``content query|insert`` on the contacts
provider, ``dumpsys alarm``, ``am start -a android.intent.action.SET_ALARM``, ``pm clear``,
``am force-stop`` and ``input keyevent 3``. Output is parsed defensively: a non-zero exit or
output of an unexpected shape raises ``DeviceError`` naming the command and the output.

Alarms: ``alarms()`` reports one row per RTC/RTC_WAKEUP alarm that the clock package has
pending in ``dumpsys alarm``, at the wall-clock time of its ``origWhen=`` (or ``when=`` on
Android 11 and older). That assumes the clock app keeps one alarm-manager alarm per enabled
alarm, at its ring time, which is what the virtual phone reports. Check it on a real phone's
clock app before relying on it: one that schedules only its next alarm, or schedules
reminders ahead of the ring time, shows fewer rows or other times.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from ..verifiers.state import AlarmRow, ContactRow, DeviceError, Unsupported, counted_keys
from .base import Backend

#: The clock of AOSP / Pixel phones (``RealPhoneEnv`` passes the one the manifests name).
DESKCLOCK = "com.google.android.deskclock"
#: The stores ``rows`` can read over adb.
ADB_STORES = frozenset({"settings", "contacts", "alarms", "files"})

CONTACTS_URI = "content://com.android.contacts/contacts"
RAW_CONTACTS_URI = "content://com.android.contacts/raw_contacts"
DATA_URI = "content://com.android.contacts/data"
PHONES_URI = "content://com.android.contacts/data/phones"
EMAILS_URI = "content://com.android.contacts/data/emails"
MIME_NAME = "vnd.android.cursor.item/name"
MIME_PHONE = "vnd.android.cursor.item/phone_v2"
MIME_EMAIL = "vnd.android.cursor.item/email_v2"
SET_ALARM = "android.intent.action.SET_ALARM"
ALARM_EXTRA = "android.intent.extra.alarm."
#: Lines with which Android's shell tools report a failure (they often still exit 0).
ERROR_LINE = re.compile(
    r"^\s*(Error\b|\[ERROR\]|Exception\b|Failed\b|Failure\b|Unknown command|usage:|"
    r"Invalid\b|Bad\b|java\.\S+(Exception|Error)|android\.\S+Exception|\S+: inaccessible or "
    r"not found|/system/bin/sh: )", re.MULTILINE | re.IGNORECASE)
ALARM_HEADER = re.compile(r"^\s*(RTC_WAKEUP|RTC|ELAPSED_WAKEUP|ELAPSED\w*)\s+#\d+:\s+"
                          r"Alarm\{.*\s(\S+)\}\s*$")
ALARM_WHEN = re.compile(r"\b(?:origWhen|when)=\d{4}-\d\d-\d\d (\d\d):(\d\d):\d\d")


class AdbState:
    """``DeviceState`` of the phone behind ``backend``; ``clock_package`` is the clock app
    whose alarms ``alarms`` reads and ``add_alarm`` asks to set one."""

    def __init__(self, backend: Backend, *, clock_package: str = DESKCLOCK,
                 timeout: float | None = None) -> None:
        self.backend = backend
        self.clock_package = clock_package
        self.timeout = timeout

    # --- shell -----------------------------------------------------------------------------
    def run(self, *argv: str) -> str:
        """Run ``argv`` (each argument quoted); its output, or ``DeviceError`` on a non-zero
        exit."""
        command = " ".join(shlex.quote(str(a)) for a in argv)
        result = self.backend.shell(command, self.timeout)
        output = result.output.replace("\r\n", "\n")
        if not result.ok:
            raise DeviceError(f"`{command}` on {self.backend.serial} exited with "
                              f"{result.returncode}: {output[:500]!r}")
        return output

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
              ) -> list[dict[str, str | None]]:
        """``content query`` rows as ``{column: value}`` (``NULL`` is None)."""
        argv = ["content", "query", "--uri", uri, "--projection", ":".join(projection)]
        if sort is not None:
            argv += ["--sort", sort]
        output = self.run(*argv)
        rows = parse_rows(output, projection)
        if rows is None:
            raise self.unexpected(tuple(argv), output)
        return rows

    # --- stores ----------------------------------------------------------------------------
    def stores(self) -> frozenset[str]:
        return ADB_STORES

    def rows(self, store: str) -> Mapping[str, Mapping[str, Any]]:
        """Records of ``store`` as adb reports them: contacts by ``_id``; alarms by
        ``HH:MM`` (``HH:MM#2`` for a second one at that time)."""
        if store == "contacts":
            return {key: {"id": int(key) if key.isdigit() else key, "name": c.name,
                          "phone": c.phone, "email": c.email, "starred": c.starred}
                    for key, c in self._contact_rows()}
        if store == "alarms":
            alarms = self.alarms()
            keys = counted_keys(f"{a.hour:02d}:{a.minute:02d}" for a in alarms)
            return {k: {"hour": a.hour, "minute": a.minute}
                    for k, a in zip(keys, alarms, strict=True)}
        raise Unsupported(f"{store!r} cannot be read over adb here; readable stores: "
                          f"{', '.join(sorted(ADB_STORES))}")

    # --- settings --------------------------------------------------------------------------
    def get_setting(self, namespace: str, key: str) -> str | None:
        argv = ("settings", "get", namespace, key)
        output = self.run(*argv)
        if not output.endswith("\n") or ERROR_LINE.match(output):
            raise self.unexpected(argv, output)
        value = output[:-1]
        return None if value == "null" else value

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        argv = ("settings", "put", namespace, key, value)
        output = self.run(*argv)
        if output.strip():
            raise self.unexpected(argv, output)

    # --- contacts --------------------------------------------------------------------------
    def _contact_rows(self) -> list[tuple[str, ContactRow]]:
        people = self.query(CONTACTS_URI, ["_id", "display_name", "starred"], sort="_id ASC")
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
                         "--bind", f"data1:s:{value}", *extra)

    # --- alarms ----------------------------------------------------------------------------
    def alarms(self) -> list[AlarmRow]:
        output = self.run("dumpsys", "alarm")
        if "alarm manager" not in output.lower() and "pending alarm" not in output.lower():
            raise self.unexpected(("dumpsys", "alarm"), output)
        return sorted(parse_alarms(output, self.clock_package), key=lambda a: (a.hour, a.minute))

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
        self.run_checked("am", "force-stop", package)

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


def parse_alarms(output: str, package: str) -> list[AlarmRow]:
    """Hour and minute of each wall-clock (RTC) alarm of ``package`` in ``dumpsys alarm``."""
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
