"""Processes: ``ps`` (toybox) and ``pidof``, over the phone's process table.

The table (``processes(phone)``) has the system's daemons at fixed pids, the system apps
that always run (system UI, launcher, keyboard, providers) and one process per running mock
app: the foreground app and those in recents, as Android keeps them until they are
force-stopped. An app's pid is given when its process starts and kept until it stops, so a
restarted app has a new pid (as uiautomator2's ``Session`` expects); pids count up from
``FIRST_PID`` and wrap at ``PID_MAX`` like the kernel's.

``ps`` follows toybox ``ps.c``: Android's default fields ``USER,PID,PPID,VSIZE:10,RSS,
WCHAN:10,ADDR:10,S,NAME`` (``-o`` and ``-f`` too; ``-A``/``-e`` and plain ``ps`` list the
same, since an adb shell without a pty matches every tty-less process), widths from
``typos[]``, numbers right-aligned, the last field unpadded and wide output (no tty: ``-w``).
``pidof NAME...`` prints the matching pids on one line and fails when there are none.
"""

from __future__ import annotations

import weakref
import zlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from ..sh import IO
from .base import Commands
from .packages import SYSTEM, installed

if TYPE_CHECKING:
    from ..phone import VirtualPhone

FIRST_PID = 4200
PID_MAX = 32768  # /proc/sys/kernel/pid_max: 5-digit pids
RESERVED_PIDS = 300  # where the kernel's pid counter wraps to
ZYGOTE = 740
ADBD = 612
#: (user, pid, ppid, name) of the daemons: what ``ps -A`` shows before the apps.
DAEMONS: tuple[tuple[str, int, int, str], ...] = (
    ("root", 1, 0, "init"), ("root", 2, 0, "[kthreadd]"), ("root", 310, 1, "ueventd"),
    ("logd", 498, 1, "logd"), ("system", 520, 1, "servicemanager"),
    ("system", 521, 1, "hwservicemanager"), ("root", 560, 1, "vold"),
    ("shell", ADBD, 1, "adbd"), ("system", 690, 1, "surfaceflinger"),
    ("root", ZYGOTE, 1, "zygote64"), ("root", 741, 1, "zygote"),
    ("system", 1120, ZYGOTE, "system_server"),
)
#: System apps that always run, by process name (started right after system_server).
SYSTEM_APPS = ("com.android.systemui", "com.google.android.apps.nexuslauncher",
               "com.google.android.inputmethod.latin", "android.process.acore",
               "android.process.media")


@dataclass(frozen=True)
class Process:
    """One line of ``ps``."""

    user: str
    uid: int
    pid: int
    ppid: int
    name: str
    started: datetime
    state: str = "S"

    @property
    def kernel(self) -> bool:
        return self.name.startswith("[")


@dataclass
class Table:
    """The pids of one phone's app processes (see the module doc)."""

    apps: dict[str, tuple[int, datetime]] = field(default_factory=dict)
    next_pid: int = FIRST_PID

    def allocate(self, taken: set[int]) -> int:
        pid = self.next_pid
        while pid in taken:
            pid = pid + 1 if pid + 1 < PID_MAX else RESERVED_PIDS
        self.next_pid = pid + 1 if pid + 1 < PID_MAX else RESERVED_PIDS
        taken.add(pid)
        return pid


_TABLES: weakref.WeakKeyDictionary[VirtualPhone, Table] = weakref.WeakKeyDictionary()


def running_packages(phone: VirtualPhone) -> list[str]:
    """The mock apps whose process runs: the foreground one and those in recents."""
    device = phone.device
    out: list[str] = []
    for name in [device.foreground, *device.recents]:
        cls = device.apps.class_of(name) if name else None
        if cls is not None and cls.package not in out:
            out.append(cls.package)
    return out


def processes(phone: VirtualPhone, *, shell: bool = True) -> list[Process]:
    """The phone's processes by pid; ``shell`` adds the ``sh`` and ``ps`` of the caller
    (fresh pids each time, as every ``adb shell`` forks anew). Call under the phone's lock."""
    table = _TABLES.setdefault(phone, Table())
    boot = phone.boot.replace(microsecond=0)
    out = [Process(user, _uid(user), pid, ppid, name, boot) for user, pid, ppid, name in DAEMONS]
    packages = installed(phone)
    uids = {process: uid for uid, process, _ in SYSTEM.values() if process}
    for k, name in enumerate(SYSTEM_APPS):
        uid = uids[name]
        out.append(Process(_user(uid), uid, 1500 + 37 * k, ZYGOTE, name, boot))
    taken = {p.pid for p in out}
    alive = running_packages(phone)
    for package in list(table.apps):
        if package not in alive:
            del table.apps[package]
    taken |= {pid for pid, _ in table.apps.values()}
    for package in alive:
        if package not in table.apps:
            table.apps[package] = (table.allocate(taken), phone.device.system.now)
        pid, started = table.apps[package]
        uid = packages[package].uid if package in packages else 10100
        out.append(Process(_user(uid), uid, pid, ZYGOTE, package, started))
    if shell:
        sh = table.allocate(taken)
        ps = table.allocate(taken)
        now = phone.device.system.now
        out.append(Process("shell", 2000, sh, ADBD, "sh", now))
        out.append(Process("shell", 2000, ps, sh, "ps", now, "R"))
    return sorted(out, key=lambda p: p.pid)


def pid_of(phone: VirtualPhone, name: str) -> int | None:
    """The pid of the process called ``name`` (an app's package), or None."""
    return next((p.pid for p in processes(phone, shell=False) if p.name == name), None)


def _uid(user: str) -> int:
    return {"root": 0, "system": 1000, "shell": 2000, "logd": 1036}.get(user, 0)


def _user(uid: int) -> str:
    if uid >= 10000:
        return f"u0_a{uid - 10000}"
    return {0: "root", 1000: "system", 2000: "shell"}.get(uid, str(uid))


# --- ps fields ------------------------------------------------------------------------------
#: toybox ``typos[]``: the default width (negative: left-aligned) of each field.
WIDTHS = {"PID": 5, "PPID": 5, "PRI": 3, "NI": 3, "ADDR": 12, "SZ": 5, "RSS": 6, "VSZ": 7,
          "UID": 5, "USER": -12, "GID": 8, "GROUP": -8, "TTY": -8, "WCHAN": -6,
          "LABEL": -30, "COMM": -27, "NAME": -27, "COMMAND": -27, "CMDLINE": -27,
          "ARGS": -27, "CMD": -15, "TIME": 8, "STIME": 5, "C": 1, "S": -1, "F": 1}
ALIASES = {"VSIZE": "VSZ", "UNAME": "USER", "NICE": "NI"}
#: Android's default ``-o`` (no ``-f``/``-l``), and ``-f``'s.
DEFAULT_FIELDS = "USER,PID,PPID,VSIZE:10,RSS,WCHAN:10,ADDR:10,S,NAME"
FULL_FIELDS = "USER:12=UID,PID,PPID,C,STIME,TTY,TIME,ARGS=CMD"
NUMERIC = {"PID", "PPID", "PRI", "NI", "ADDR", "SZ", "RSS", "VSZ", "UID", "GID", "C", "F"}


def parse_fields(spec: str) -> list[tuple[str, str, int]]:
    """``-o`` fields: ``(field, title, width)`` each; ``ValueError`` names a bad one."""
    out = []
    for item in spec.split(","):
        if not item:
            continue
        name, eq, title = item.partition("=")
        name, colon, size = name.partition(":")
        key = ALIASES.get(name.upper(), name.upper())
        if key not in WIDTHS or (colon and not size.isdigit()):
            raise ValueError(item)
        width = WIDTHS[key]
        if colon:
            width = int(size) * (-1 if width < 0 else 1)
        out.append((key, title if eq else key, width))
    return out


def field_value(p: Process, key: str) -> str:
    """One field of one process, as toybox ``string_field`` prints it."""
    seed = zlib.crc32(p.name.encode())
    app = p.uid >= 10000 or p.name in ("system_server", "zygote64", "zygote")
    if key in ("PID", "PPID", "UID"):
        return str({"PID": p.pid, "PPID": p.ppid, "UID": p.uid}[key])
    if key == "GID":
        return str(p.uid)
    if key in ("USER", "GROUP"):
        return p.user
    if key == "VSZ":
        return "0" if p.kernel else str((14_500_000 if app else 10_800_000) + seed % 900_000)
    if key == "SZ":
        return "0" if p.kernel else str(((14_500_000 if app else 10_800_000) + seed % 900_000)
                                        // 4)
    if key == "RSS":
        return "0" if p.kernel else str((90_000 if app else 3_000) + seed % 60_000)
    if key == "WCHAN":
        return "0" if p.state == "R" else ("kthreadd" if p.kernel else "do_epoll_wait")
    if key in ("ADDR", "C", "F", "NI"):
        return "0"
    if key == "PRI":
        return "19"
    if key == "S":
        return p.state
    if key == "TTY":
        return "?"
    if key == "TIME":
        return "00:00:00" if p.user == "shell" and p.ppid != 1 else f"00:00:{seed % 50 + 1:02d}"
    if key == "STIME":
        return f"{p.started:%H:%M}"
    if key == "LABEL":
        return "u:r:shell:s0" if p.user == "shell" else (
            "u:r:untrusted_app:s0" if p.uid >= 10000 else "u:r:system:s0")
    if key == "CMD":  # the thread name: Linux keeps the last 15 bytes of an app's name
        return p.name.strip("[]")[-15:]
    if key in ("COMM", "COMMAND"):
        if p.kernel:
            return p.name
        exe = "/system/bin/app_process64" if p.ppid == ZYGOTE else f"/system/bin/{p.name}"
        return exe.rsplit("/", 1)[-1] if key == "COMM" else exe
    return p.name  # NAME, ARGS, CMDLINE


def format_table(rows: list[Process], fields: list[tuple[str, str, int]]) -> list[str]:
    """The header and one line a process, padded as toybox ``show_ps`` does without a tty
    (``-w``: nothing is cut; a field that overflows takes the slack of later ones)."""
    header = " ".join(f"{title:<{-w}}" if w < 0 else f"{title:>{w}}" for _, title, w in fields)
    lines = [header]
    for p in rows:
        parts, extra = [], 0
        for k, (key, _, width) in enumerate(fields):
            out, size, left = field_value(p, key), abs(width), width < 0
            if len(out) > size:
                extra += len(out) - size
                size = len(out)
            elif extra and len(out) < size:
                unused = min(size - len(out), extra)
                size -= unused
                extra -= unused
            if k == len(fields) - 1 and left:
                parts.append(out)
            else:
                parts.append(f"{out:<{size}}" if left else f"{out:>{size}}")
        lines.append(" ".join(parts))
    return lines


class Processes(Commands):
    """``ps`` and ``pidof``."""

    def cmd_ps(self, args: list[str], io: IO) -> int:
        specs: list[str] = []
        pids: set[int] = set()
        full = False
        it = iter(args)
        for arg in it:
            if arg in ("-o", "-p", "--pid") or (arg.startswith("-o") and len(arg) > 2):
                value = arg[2:] if arg.startswith("-o") and len(arg) > 2 else next(it, None)
                if value is None:
                    return io.fail('ps: Needs 1 argument\n(see "ps --help")')
                if arg.startswith("-o"):
                    specs.append(value)
                elif not _pids(value, pids):
                    return io.fail(f"ps: bad -p {value}")
            elif arg.startswith("-") and len(arg) > 1:
                for flag in arg[1:]:
                    if flag == "f":
                        full = True
                    elif flag not in "AaedwMnZ":
                        return io.fail(f"ps: Unknown option '{flag}'\n(see \"ps --help\")")
            elif not _pids(arg, pids):  # extra arguments are more -p
                return io.fail(f"ps: bad {arg}")
        try:
            fields = parse_fields(",".join(specs) or (FULL_FIELDS if full else DEFAULT_FIELDS))
        except ValueError as exc:
            return io.fail(f"ps: bad -o {exc}\n(see \"ps --help\")")
        rows = [p for p in processes(self.phone) if not pids or p.pid in pids]
        for line in format_table(rows, fields):
            io.print(line)
        return 0

    def cmd_pidof(self, args: list[str], io: IO) -> int:
        single, omit, names = False, set[int](), list[str]()
        it = iter(args)
        for arg in it:
            if arg == "-s":
                single = True
            elif arg == "-o":
                _pids(next(it, ""), omit)
            elif arg.startswith("-o") and len(arg) > 2:
                _pids(arg[2:], omit)
            else:
                names.append(arg)
        found = [p.pid for p in processes(self.phone, shell=False)
                 if p.name in names and p.pid not in omit]
        if not found:
            return 1
        io.print(" ".join(map(str, found[:1] if single else found)))
        return 0


def _pids(text: str, into: set[int]) -> bool:
    """Add a comma-separated list of pids to ``into``; False if one is not a number."""
    for part in text.split(","):
        if not part.isdigit():
            return False
        into.add(int(part))
    return True
