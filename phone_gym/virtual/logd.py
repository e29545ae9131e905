"""logd: the phone's log buffers, and what the system writes to them.

``Logd`` keeps Android's ring buffers (``BUFFERS``: main, radio, events, system, crash...),
each bounded as logd bounds it: ``DEFAULT_SIZE`` bytes a buffer (logd's default, 256 KiB;
``logcat -G`` changes it within logd's ``MIN_SIZE``..``MAX_SIZE``), an entry counting its
header, tag and message as ``logger_entry`` does, the oldest entries pruned first. ``logcat``
reads them and ``log`` writes them (``commands.logcat``).

What the system logs, in Android 14's words:

- every activity start, from system_server's ActivityTaskManager (``ActivityStarter
  .executeRequest``): ``START u0 {INTENT} with LAUNCH_MULTIPLE from uid UID (BAL_...)
  result code=0``, the intent as ``Intent.toShortString`` prints it (``Uri.toSafeString``:
  ``tel:xxxxxxx``, ``https://host/...``), then ``Displayed PKG/.CLS for user 0: +Nms``
  (``ActivityMetricsLogger``). Starts from the shell (``am start``, ``monkey``), from the
  resolver (``resolver``) and from the launcher (an app that comes to the front with no
  start logged, ``observe``: a tap on its icon) are all logged;
- ``ActivityManager``'s ``Force stopping PKG appid=N user=0: REASON`` (``am force-stop``,
  ``pm clear``);
- what the apps log (``App.log``, as ``android.util.Log``): in ``main``, under the app's
  uid and the pid of its process, at the phone time they logged it;
- nothing in ``crash``: PhoneWorld's apps do not crash.

A reboot empties every buffer (logd keeps them in memory; the last boot's log in pstore,
``logcat -L``, is not kept).
"""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from ..world.device import LAUNCHER_PACKAGE
from .commands.packages import installed
from .commands.processes import processes

if TYPE_CHECKING:
    from .phone import VirtualPhone

#: The log buffers, in ``log_id_t`` order.
BUFFERS = ("main", "radio", "events", "system", "crash", "stats", "security", "kernel")
DEFAULT_SIZE = 256 * 1024  # logd's LOG_BUFFER_SIZE
MIN_SIZE, MAX_SIZE = 64 * 1024, 256 * 1024 * 1024  # LOG_BUFFER_MIN_SIZE, _MAX_SIZE
ENTRY_HEADER = 28  # sizeof(logger_entry) (v4)
MAX_PAYLOAD = 4068  # LOGGER_ENTRY_MAX_PAYLOAD (priority, tag, message): a longer one is cut
PRIORITIES = "VDIWEF"  # 2..7 (ANDROID_LOG_VERBOSE..FATAL)
SYSTEM_SERVER = 1120  # processes.DAEMONS
BINDER_TID = 1187  # the system_server thread that logs starts
SHELL_UID, SYSTEM_UID = 2000, 1000
LAUNCH_MS = 312  # what "Displayed" and ``am start -W`` report


@dataclass(frozen=True)
class Entry:
    """One log entry: its order of arrival, buffer, time, process, priority, tag, text."""

    seq: int
    buffer: str
    time: datetime
    pid: int
    tid: int
    uid: int
    priority: str
    tag: str
    message: str

    @property
    def size(self) -> int:
        """Bytes it takes in logd (header, priority, tag and message with their NULs)."""
        return ENTRY_HEADER + 1 + len(self.tag.encode()) + 1 + len(self.message.encode()) + 1


class Logd:
    """The log buffers of one phone (see the module doc)."""

    def __init__(self, phone: VirtualPhone) -> None:
        self.phone = phone
        self.entries: dict[str, deque[Entry]] = {b: deque() for b in BUFFERS}
        self.sizes: dict[str, int] = dict.fromkeys(BUFFERS, DEFAULT_SIZE)
        self.used: dict[str, int] = dict.fromkeys(BUFFERS, 0)
        self._seq = itertools.count(1)
        self.last = 0  # the seq of the newest entry
        self._front: str | None = None  # the package seen in front at the last look
        self._started: str | None = None  # a package whose start is logged, not yet seen

    # --- the store ---------------------------------------------------------------------
    def write(self, priority: str, tag: str, message: str, *, buffer: str = "main",
              pid: int = SYSTEM_SERVER, tid: int | None = None, uid: int = SYSTEM_UID,
              at: datetime | None = None) -> None:
        """Log one entry now (the phone's clock), or at ``at``."""
        room = MAX_PAYLOAD - 3 - len(tag.encode())  # the priority, tag and NULs fill the rest
        entry = Entry(next(self._seq), buffer, at or self.phone.device.system.now, pid,
                      pid if tid is None else tid, uid, priority, tag,
                      message.encode()[:max(0, room)].decode("utf-8", "ignore"))
        self.last = entry.seq
        kept = self.entries[buffer]
        kept.append(entry)
        self.used[buffer] += entry.size
        while self.used[buffer] > self.sizes[buffer] and kept:
            self.used[buffer] -= kept.popleft().size

    def read(self, buffers: list[str]) -> list[Entry]:
        """The entries of ``buffers``, in the order they came."""
        return sorted((e for b in buffers for e in self.entries[b]), key=lambda e: e.seq)

    def clear(self, buffers: list[str] | None = None) -> None:
        for buffer in BUFFERS if buffers is None else buffers:
            self.entries[buffer].clear()
            self.used[buffer] = 0

    def resize(self, buffer: str, size: int) -> bool:
        """``logcat -G``: False when logd refuses the size."""
        if not MIN_SIZE <= size <= MAX_SIZE:
            return False
        self.sizes[buffer] = size
        kept = self.entries[buffer]
        while self.used[buffer] > size and kept:
            self.used[buffer] -= kept.popleft().size
        return True

    def boot(self) -> None:
        """A reboot: logd starts with empty buffers of its default sizes."""
        self.clear()
        self.sizes = dict.fromkeys(BUFFERS, DEFAULT_SIZE)
        self._front = self._started = None

    # --- what the system logs ----------------------------------------------------------
    def started(self, intent: str, package: str, cls: str, *, uid: int = SHELL_UID,
                to_top: bool = False) -> None:
        """An activity start (``to_top``: delivered to the activity already on top, which
        draws nothing new: result code 3, ``START_DELIVERED_TO_TOP``, and no "Displayed")."""
        bal = {SHELL_UID: "BAL_ALLOW_PERMISSION", SYSTEM_UID: "BAL_ALLOW_ALLOWLISTED_UID"}.get(
            uid, "BAL_ALLOW_VISIBLE_WINDOW")
        self.write("I", "ActivityTaskManager",
                   f"START u0 {{{intent}}} with LAUNCH_MULTIPLE from uid {uid} ({bal}) "
                   f"result code={3 if to_top else 0}", buffer="system", tid=BINDER_TID)
        if not to_top:
            self.write("I", "ActivityTaskManager",
                       f"Displayed {short_component(package, cls)} for user 0: "
                       f"+{LAUNCH_MS}ms", buffer="system", tid=BINDER_TID)
            self._started = package

    def force_stopped(self, package: str, reason: str) -> None:
        """``ActivityManagerService.forceStopPackageLocked``'s line."""
        info = installed(self.phone).get(package)
        appid = info.uid if info is not None else 0
        self.write("I", "ActivityManager",
                   f"Force stopping {package} appid={appid} user=0: {reason}", buffer="system",
                   tid=BINDER_TID)

    def drain_apps(self) -> None:
        """Move what the apps logged since the last read into ``main`` (``Device.app_log``),
        each line under its app's uid and pid."""
        lines = self.phone.device.app_log
        if not lines:
            return
        packages = installed(self.phone)
        pids = {p.name: p.pid for p in processes(self.phone, shell=False)}
        while lines:
            line = lines.popleft()
            info = packages.get(line.package)
            pid = pids.get(line.package, SYSTEM_SERVER)
            self.write(line.priority, line.tag, line.message, pid=pid,
                       uid=info.uid if info is not None else SYSTEM_UID, at=line.time)

    def observe(self) -> None:
        """Log the start of an app that came to the front with none logged (the launcher
        started it: a tap on its icon or in recents), and what the apps logged."""
        self.drain_apps()
        device = self.phone.device
        name = None if device.shade_open or device.show_recents else device.foreground
        cls = device.apps.class_of(name) if name else None
        package = cls.package if cls is not None else None
        if package == self._front:
            return
        self._front = package
        if package is not None and package != self._started:
            launcher = self.launcher_uid()
            self.started("act=android.intent.action.MAIN cat=[android.intent.category."
                         f"LAUNCHER] flg=0x10200000 cmp={package}/.MainActivity", package,
                         f"{package}.MainActivity", uid=launcher)
        self._started = None

    def launcher_uid(self) -> int:
        info = installed(self.phone).get(LAUNCHER_PACKAGE)
        return info.uid if info is not None else SYSTEM_UID

    def shell_pid(self) -> int:
        """The pid a shell command logs with (its ``sh``'s, a fresh one per command)."""
        return next(p.pid for p in processes(self.phone) if p.name == "sh")


def short_component(package: str, cls: str) -> str:
    """``ComponentName.flattenToShortString``."""
    return f"{package}/{cls[len(package):]}" if cls.startswith(package + ".") else \
        f"{package}/{cls}"
