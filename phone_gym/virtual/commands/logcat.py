"""The log from the shell: ``logcat`` (AOSP ``system/logging/logcat/logcat.cpp``) and toybox
``log``, over the phone's log buffers (``logd``).

``logcat [OPTION]... [FILTERSPEC]...`` as Android 14's: ``-d`` dumps and exits, ``-t N`` (or
``-t 'MM-DD hh:mm:ss.mmm'``) prints the newest N lines (or those since) and exits, ``-T``
the same and goes on; without ``-d``/``-t`` it prints what is there and then each new entry
as it comes, until its connection closes (in process, where nothing can come while it runs,
it returns). ``-c``/``--clear`` empties the buffers, ``-b BUFFER`` picks them (main system
radio events crash default all; the default is main, system, crash and kernel), ``-g``
prints their sizes and ``-G SIZE`` sets them, ``-s`` silences every tag not named,
``-v FORMAT`` (brief long process raw tag thread threadtime time, with the adverbs year,
epoch, usec, UTC, zone; the others are accepted and change nothing), ``-D`` dividers,
``-e REGEX``, ``-m N``, ``--pid=PID``, ``--uid=UIDS``, ``-f FILE`` (appended), ``-L`` (the
last boot's log: none kept). Filter specs are ``TAG[:PRIORITY]`` (``V D I W E F S``; ``*``
for every tag; ``$ANDROID_LOG_TAGS`` when none is given, as ``adb logcat`` sets it), parsed
as ``android_log_addFilterString``; lines are formatted as ``android_log_formatLogLine``
formats them, a buffer's first line after ``--------- beginning of BUFFER``. Options that
need what the virtual phone does not keep (``-B``/``--proto`` binary output, ``-S``
statistics, ``-p``/``-P`` prune lists, ``-r``/``-n`` rotation) fail saying so. Errors are
logcat's (``error(3)``: ``logcat: ...``, exit 1).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ..fs import epoch
from ..logd import BUFFERS, MAX_PAYLOAD, PRIORITIES, SHELL_UID, Entry
from ..sh import IO
from .base import Commands

#: Short options that take a value (logcat's ``getopt_long`` string
#: ``:cdDhLt:T:gG:sQf:r:n:v:b:BSpP:m:e:``).
VALUED = frozenset("tTGfrnvbPme")
FLAGS = frozenset("cdDhLgsQBSp")
LONG = {"binary": "B", "buffer": "b", "buffer-size": "g", "clear": "c", "dividers": "D",
        "file": "f", "format": "v", "grep": "e", "head": "m", "help": "h", "last": "L",
        "max-count": "m", "prune": "p", "regex": "e", "rotate-count": "n",
        "rotate-kbytes": "r", "statistics": "S", "tail": "t"}
LONG_ONLY = frozenset({"pid", "uid", "print", "debug", "proto", "wrap", "id"})
DEFAULT_BUFFERS = ["main", "system", "crash", "kernel"]
FORMATS = frozenset({"brief", "long", "process", "raw", "tag", "thread", "threadtime", "time"})
ADVERBS = frozenset({"color", "descriptive", "epoch", "monotonic", "printable", "uid", "usec",
                     "UTC", "year", "zone"})
DELIMITERS = re.compile(r"[,:; \t\n\r\f]+")
UNMODELLED = {"B": "-B (binary output)", "proto": "--proto (binary output)",
              "S": "-S (statistics)", "p": "-p (prune lists)", "P": "-P (prune lists)",
              "r": "-r (log rotation)", "n": "-n (log rotation)"}
HELP = ("Usage: logcat [OPTION]... [FILTERSPEC]...\n"
        "  -b BUFFER  -c  -d  -D  -e REGEX  -f FILE  -g  -G SIZE  -L  -m N  -s\n"
        "  -t N|TIME  -T N|TIME  -v FORMAT  --pid=PID  --uid=UIDS\n"
        "  FILTERSPEC: <tag>[:priority], priority one of V D I W E F S; '*' for all tags")


class LogcatError(Exception):
    """What ``logcat`` exits 1 with (``error(EXIT_FAILURE, 0, ...)``)."""


@dataclass
class Options:
    """A ``logcat`` command line, parsed."""

    dump: bool = False
    dump_tail: bool = False  # -t (which implies -d)
    clear: bool = False
    tail: int = 0
    since: datetime | None = None
    buffers: list[str] = field(default_factory=list)
    formats: set[str] = field(default_factory=set)
    silent: bool = False
    dividers: bool = False
    regex: re.Pattern[str] | None = None
    max_count: int = 0
    pid: int = 0
    uids: set[int] = field(default_factory=set)
    file: str | None = None
    get_size: bool = False
    set_size: int = 0
    last: bool = False
    help: bool = False
    specs: list[str] = field(default_factory=list)


class Logcat(Commands):
    """``logcat`` and ``log``."""

    def cmd_log(self, args: list[str], io: IO) -> int:
        """toybox ``log [-p PRIORITY] [-t TAG] MESSAGE...``: one entry in ``main`` (priority
        ``v d i w e`` or ``f``, default ``i``; tag ``log``)."""
        priority, tag, words = "I", "log", []
        it = iter(args)
        for arg in it:
            if arg == "-p":
                value = next(it, "").upper()[:1]
                if value not in PRIORITIES:
                    return io.fail("log: -p: not one of v d i w e f", 1)
                priority = value
            elif arg == "-t":
                tag = next(it, "")
            else:
                words.append(arg)
        logd = self.phone.logd
        logd.write(priority, tag, " ".join(words), pid=logd.shell_pid(), uid=SHELL_UID)
        return 0

    def cmd_logcat(self, args: list[str], io: IO) -> int:
        try:
            return self._logcat(args, io)
        except LogcatError as exc:
            return io.fail(f"logcat: {exc}", 1)

    def _logcat(self, args: list[str], io: IO) -> int:
        opts = parse(args)
        if opts.help:
            io.print(HELP)
            return 0
        buffers = opts.buffers or DEFAULT_BUFFERS
        logd = self.phone.logd
        if opts.last:  # pstore holds the last boot's log: none is kept
            return 0
        if opts.file is not None and (opts.get_size or opts.set_size):
            raise LogcatError("-f is incompatible with -g/-G, -S, and -p/-P.")
        if opts.clear:
            if opts.file is not None:
                self.fs.save(self.fs.abspath(opts.file, io.cwd), b"")
                return 0
            logd.clear(buffers)
        if opts.set_size:
            failed = [b for b in buffers if not logd.resize(b, opts.set_size)]
            if failed:
                raise LogcatError(f"failed to set the '{','.join(failed)}' log size"
                                  f"{'s' if len(failed) > 1 else ''}.")
        if opts.get_size:
            for b in buffers:
                io.print(f"{b}: ring buffer is {size_text(logd.sizes[b])} "
                         f"({size_text(logd.used[b])} consumed, {size_text(logd.used[b])} "
                         f"readable), max entry is 5120 B, max payload is {MAX_PAYLOAD} B")
        if opts.clear or opts.get_size or opts.set_size:
            return 0
        rules = filter_rules(opts, io.env.get("ANDROID_LOG_TAGS"))
        printer = Printer(opts, rules)
        entries = [e for e in logd.read(buffers) if self._kept(e, opts)]
        if opts.since is not None:
            entries = [e for e in entries if e.time >= opts.since]
        if opts.tail:
            entries = entries[-opts.tail:]
        seen = [logd.last]  # the newest entry read
        out = self._output(io, opts)
        if printer.emit(entries, out) or opts.dump:
            return 0
        while self.phone.follow(lambda: logd.last > seen[0]):  # live: wait for more
            fresh = [e for e in logd.read(buffers) if e.seq > seen[0] and self._kept(e, opts)]
            seen[0] = logd.last
            if printer.emit(fresh, out):
                return 0
        return 0

    @staticmethod
    def _kept(entry: Entry, opts: Options) -> bool:
        return (not opts.pid or entry.pid == opts.pid) and (not opts.uids
                                                            or entry.uid in opts.uids)

    def _output(self, io: IO, opts: Options) -> _Output:
        if opts.file is None:
            return _Output(io, None, self)
        return _Output(io, self.fs.abspath(opts.file, io.cwd), self)


class _Output:
    """Where ``logcat`` writes: standard output, or appended to ``-f FILE``."""

    def __init__(self, io: IO, path: str | None, commands: Commands) -> None:
        self.io, self.path, self.commands = io, path, commands

    def write(self, text: str) -> None:
        if self.path is None:
            self.io.out += text.encode("utf-8", "replace")
            return
        fs = self.commands.fs
        before = fs.read(self.path) or b""
        reason = fs.save(self.path, before + text.encode("utf-8", "replace"))
        if reason is not None:
            raise LogcatError(f"couldn't open output file '{self.path}': {reason}")


class Printer:
    """Formats entries as ``android_log_formatLogLine``, with the dividers, the regex and the
    count of ``-m`` (``emit`` says when that count is reached)."""

    def __init__(self, opts: Options, rules: tuple[int, dict[str, int]]) -> None:
        self.opts, self.rules = opts, rules
        formats = opts.formats & FORMATS
        self.verb = next(iter(formats)) if formats else "threadtime"
        self.printed: set[str] = set()
        self.last: str | None = None
        self.count = 0

    def emit(self, entries: list[Entry], out: _Output) -> bool:
        """Print what passes the filters; True once ``-m`` lines were printed."""
        text: list[str] = []
        done = False
        for entry in entries:
            default, tags = self.rules
            if PRIORITIES.index(entry.priority) + 2 < tags.get(entry.tag, default):
                continue
            if self.opts.regex is not None and not self.opts.regex.search(entry.message):
                continue
            if entry.buffer != self.last:
                if entry.buffer not in self.printed or self.opts.dividers:
                    start = "switch to" if entry.buffer in self.printed else "beginning of"
                    text.append(f"--------- {start} {entry.buffer}\n")
                self.printed.add(entry.buffer)
                self.last = entry.buffer
            text.append(self.line(entry))
            self.count += 1
            if self.opts.max_count and self.count >= self.opts.max_count:
                done = True
                break
        if text:
            out.write("".join(text))
        return done

    def line(self, e: Entry) -> str:
        """One entry, each line of its message with the format's prefix."""
        adverbs = self.opts.formats
        when = self.time_text(e.time, adverbs)
        pri, tag = e.priority, e.tag
        prefix, suffix = {
            "brief": (f"{pri}/{tag:<8}({e.pid:5d}): ", "\n"),
            "tag": (f"{pri}/{tag:<8}: ", "\n"),
            "process": (f"{pri}({e.pid:5d}) ", f"  ({tag})\n"),
            "thread": (f"{pri}({e.pid:5d}:{e.tid:5d}) ", "\n"),
            "raw": ("", "\n"),
            "time": (f"{when} {pri}/{tag:<8}({e.pid:5d}): ", "\n"),
            "threadtime": (f"{when} {e.pid:5d} {e.tid:5d} {pri} {tag:<8}: ", "\n"),
            "long": (f"[ {when} {e.pid:5d}:{e.tid:5d} {pri}/{tag:<8} ]\n", "\n\n"),
        }[self.verb]
        if self.verb == "long":
            return prefix + e.message + suffix
        return "".join(prefix + part + suffix for part in e.message.split("\n"))

    @staticmethod
    def time_text(when: datetime, adverbs: set[str]) -> str:
        fraction = f"{when.microsecond:06d}" if "usec" in adverbs else \
            f"{when.microsecond // 1000:03d}"
        if "epoch" in adverbs:
            text = f"{epoch(when):5d}.{fraction}"
        else:
            stamp = "%Y-%m-%d %H:%M:%S" if "year" in adverbs else "%m-%d %H:%M:%S"
            text = f"{when.strftime(stamp)}.{fraction}"
        if "zone" in adverbs:
            text += " +0000"  # the phone's clock runs in UTC
        return text


def parse(args: list[str]) -> Options:
    """A ``logcat`` command line (``getopt_long`` with its permutation: options and filter
    specs in any order, ``--`` ends the options); ``LogcatError`` for a bad one."""
    opts = Options()
    words = iter(args)
    for arg in words:
        if arg == "--":
            opts.specs += list(words)
            break
        if arg.startswith("--"):
            name, eq, value = arg[2:].partition("=")
            if name in LONG_ONLY:
                long_only(opts, name, value if eq else None, arg)
                continue
            letter = LONG.get(name)
            if letter is None:
                raise LogcatError(f"Unknown option '{arg}'.")
            if letter in VALUED and not eq:
                value = _next(words, arg)
            option(opts, letter, value if (eq or letter in VALUED) else None)
            continue
        if not arg.startswith("-") or arg == "-":
            opts.specs.append(arg)
            continue
        for k, letter in enumerate(arg[1:], 1):
            if letter in VALUED:
                value = arg[k + 1:] or _next(words, arg)
                option(opts, letter, value)
                break
            if letter not in FLAGS:
                raise LogcatError(f"Unknown option '{arg}'.")
            option(opts, letter, None)
    if opts.max_count and opts.dump_tail:
        raise LogcatError("Cannot use -m (--max-count) and -t together.")
    return opts


def _next(words: Iterator[str], arg: str) -> str:
    value = next(words, None)
    if value is None:
        raise LogcatError(f"Option '{arg}' needs an argument.")
    return value


def option(opts: Options, letter: str, value: str | None) -> None:
    """One short option (a long one mapped to its letter)."""
    if letter in UNMODELLED:
        raise LogcatError(f"{UNMODELLED[letter]} is not modelled by the virtual device")
    if letter == "c":
        opts.clear = True
    elif letter == "d":
        opts.dump = True
    elif letter == "D":
        opts.dividers = True
    elif letter == "h":
        opts.help = True
    elif letter == "L":
        opts.last = True
    elif letter == "s":
        opts.silent = True
    elif letter == "g":
        if value:
            opts.set_size = byte_count(value, "-G must be specified as <num><multiplier>.")
        else:
            opts.get_size = True
    elif letter == "G":
        opts.set_size = byte_count(value or "", "-G must be specified as <num><multiplier>.")
    elif letter in "tT":
        tail(opts, letter, value or "")
    elif letter == "b":
        for name in DELIMITERS.split(value or ""):
            if name == "default":
                opts.buffers += ["main", "system", "crash"]
            elif name == "all":
                opts.buffers += list(BUFFERS)
            elif name in BUFFERS:
                opts.buffers.append(name)
            elif name:
                raise LogcatError(f"Unknown -b buffer '{name}'.")
        opts.buffers = list(dict.fromkeys(opts.buffers))
    elif letter == "v":
        for verb in DELIMITERS.split(value or ""):
            if verb and verb not in FORMATS | ADVERBS:
                raise LogcatError(f"Invalid -v '{verb}'.")
            opts.formats.add(verb)
    elif letter == "e":
        try:
            opts.regex = re.compile(value or "")
        except re.error as exc:
            raise LogcatError(f"invalid regex '{value}': {exc}") from None
    elif letter == "m":
        if not (value or "").isdigit() or int(value or "0") < 1:
            raise LogcatError(f"-m '{value}' isn't an integer greater than zero.")
        opts.max_count = int(value or "0")
    elif letter == "f":
        opts.file = value


def long_only(opts: Options, name: str, value: str | None, arg: str) -> None:
    if name == "proto":
        raise LogcatError(f"{UNMODELLED['proto']} is not modelled by the virtual device")
    if name == "pid":
        if not (value or "").isdigit() or int(value or "0") < 1:
            raise LogcatError(f"pid '{value}' out of range.")
        opts.pid = int(value or "0")
    elif name == "uid":
        for part in DELIMITERS.split(value or ""):
            if not part.isdigit():
                raise LogcatError(f"Unable to parse UID '{part}'")
            opts.uids.add(int(part))
    elif value is None and name in ("id",):
        raise LogcatError(f"Option '{arg}' needs an argument.")


def tail(opts: Options, letter: str, value: str) -> None:
    """``-t``/``-T``: a count (below 1: 1, with logcat's warning) or a time."""
    if letter == "t":
        opts.dump = opts.dump_tail = True
    if value.isdigit():
        opts.tail = max(1, int(value))
        return
    for fmt in ("%m-%d %H:%M:%S.%f", "%Y-%m-%d %H:%M:%S.%f"):
        try:
            parsed = datetime.strptime(value, fmt)
        except ValueError:
            continue
        opts.since = parsed if "%Y" in fmt else parsed.replace(year=datetime.now().year)
        return
    try:
        opts.since = datetime(1970, 1, 1) + timedelta(seconds=float(value))
    except ValueError:
        raise LogcatError(f"-{letter} '{value}' not in time format.") from None


def byte_count(text: str, error: str) -> int:
    """``android::base::ParseByteCount``: a number with an optional K, M or G."""
    found = re.fullmatch(r"(\d+)([kKmMgG]?)[bB]?", text)
    if found is None or int(found.group(1)) < 1:
        raise LogcatError(error)
    scale = {"": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3}[found.group(2).lower()]
    return int(found.group(1)) * scale


def filter_rules(opts: Options, env_tags: str | None) -> tuple[int, dict[str, int]]:
    """(the default minimum priority, tag -> minimum), as ``android_log_addFilterString``
    builds them from ``-s``, the specs or ``$ANDROID_LOG_TAGS`` (levels 2 V .. 8 S)."""
    default, tags = 2, {}
    if opts.silent:
        default = 8
    specs = opts.specs if opts.specs else ([env_tags] if env_tags else [])
    for spec in specs:
        for rule in re.split(r"[ \t,]+", spec.strip()):
            if not rule:
                continue
            tag, colon, pri = rule.partition(":")
            level = priority_level(pri) if colon else (3 if tag == "*" else 2)
            if level is None or not tag:
                raise LogcatError(f"Invalid filter expression '{spec}'." if opts.specs else
                                  f"Invalid filter expression '{spec}' in ANDROID_LOG_TAGS.")
            if tag == "*":
                default = level
            else:
                tags[tag] = level
    return default, tags


def priority_level(text: str) -> int | None:
    """``filterCharToPri``: a letter (``*`` is the default, V) or a digit."""
    if len(text) != 1:
        return None
    c = text.lower()
    if c == "*":
        return 2
    if c.isdigit():
        return min(int(c), 8) if int(c) >= 2 else 2
    return {"v": 2, "d": 3, "i": 4, "w": 5, "e": 6, "f": 7, "s": 8}.get(c)


def size_text(value: int) -> str:
    """``format_of_size``: the value in B, KiB, MiB or GiB (rounded down)."""
    unit = 0
    while value >= 1024 and unit < 3:
        value //= 1024
        unit += 1
    return f"{value} {['', 'Ki', 'Mi', 'Gi'][unit]}B"
