"""The shell that runs parsed command lines: expansion, pipes, redirections and builtins.

``Shell(host, env).run(src, io)`` runs one ``sh -c`` command line (see ``sh_syntax.py``) the
way a POSIX shell does: parameters (``$?``, ``$VAR``) and command substitutions (``$(...)`` and
backticks, run in child shells) are expanded, unquoted results split into fields, pipelines
feed each command's output to the next, and redirections open files on the host. Builtins
are ``exit``, ``exec``, ``cd``, ``pwd``, ``export``, ``unset``, ``:`` and ``sh``; every other
command is looked up on the host. The shell knows nothing of phones: its ``Host`` supplies
the files and the commands, which are plain callables ``(args, io) -> exit status``.

Standard input is an ``Input``: bytes known in advance, or a stream read only when a command
reads it (``cat`` with no file waits for the end of the stream, as on a phone; ``ls`` never
waits). ``Shell.run_stream`` reads a script from an ``Input`` one line at a time and runs
each line before reading the next, as ``sh`` does with a script on its standard input (an
interactive ``adb shell``); the commands it runs read the rest of that same stream. A
command blocked on its input (or in ``sleep``) may be killed (``ShellKilled``), which ends
the whole shell with status 128 + the signal.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, MutableSequence, Sequence
from typing import TYPE_CHECKING, Any, Protocol, SupportsIndex

from .sh_syntax import NAME, AndOr, Part, Pipeline, Redirect, ShellSyntaxError, Simple, Word, parse

if TYPE_CHECKING:
    from typing_extensions import Buffer, Self

SH = "/system/bin/sh"
#: Folders whose commands may be named by their full path (``/system/bin/ls``).
BIN_DIRS = ("/system/bin", "/system/xbin", "/bin")
MAX_DEPTH = 20  # nested command substitutions
ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=")
FIELD_SEPARATORS = re.compile(r"[ \t\n]+")
#: Syntax errors of a line that only needs more lines (an open quote, a trailing ``&&``).
INCOMPLETE = ("no closing quote", "missing )", "unexpected EOF")


class ShellExit(Exception):
    """``exit N``: unwinds to the end of the running shell."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class ShellKilled(BaseException):
    """A signal killed the running command (its connection closed: SIGHUP; a time limit:
    SIGKILL): unwinds every shell of the command line, which then exits ``128 + signal``.
    Not an ``Exception``, so that no command's error handling swallows it."""

    def __init__(self, signal: int) -> None:
        super().__init__(signal)
        self.signal = signal


class Input:
    """A command's standard input: ``data`` known in advance, then what ``more`` gives
    (the next chunk, b"" at the end of the stream; it may block until input comes). Shared
    by the commands that read one stream, each taking what it reads."""

    def __init__(self, data: bytes = b"", more: Callable[[], bytes] | None = None) -> None:
        self._buf = bytearray(data)
        self._more = more

    def _fill(self) -> bool:
        """Read one more chunk into the buffer; False at the end of the stream."""
        if self._more is None:
            return False
        chunk = self._more()
        if not chunk:
            self._more = None
            return False
        self._buf += chunk
        return True

    def read(self) -> bytes:
        """Everything up to the end of the stream."""
        while self._fill():
            pass
        data = bytes(self._buf)
        self._buf.clear()
        return data

    def take(self, size: int) -> bytes:
        """The next ``size`` bytes (fewer at the end of the stream), without waiting for more
        (``pm install -S SIZE`` reads the APK so, on a stream that stays open)."""
        while len(self._buf) < size and self._fill():
            pass
        data = bytes(self._buf[:size])
        del self._buf[:size]
        return data

    def readline(self) -> bytes:
        """One line with its newline (the last may lack it); b"" at the end."""
        while b"\n" not in self._buf and self._fill():
            pass
        end = self._buf.find(b"\n") + 1 or len(self._buf)
        line = bytes(self._buf[:end])
        del self._buf[:end]
        return line


class IO:
    """A command's standard streams (``stdin`` in; ``out``/``err`` collected) and the
    shell's working directory. ``stdin`` is read from ``source`` when first asked for."""

    __slots__ = ("_stdin", "cwd", "env", "err", "out", "source")

    def __init__(self, stdin: bytes | Input = b"", out: bytearray | None = None,
                 err: bytearray | None = None, cwd: str = "/") -> None:
        self.source = stdin if isinstance(stdin, Input) else Input(stdin)
        self._stdin: bytes | None = None
        self.out = bytearray() if out is None else out
        self.err = bytearray() if err is None else err
        self.cwd = cwd
        #: The command's environment (the shell's variables and its own assignments).
        self.env: dict[str, str] = {}

    @property
    def stdin(self) -> bytes:
        """All of standard input (read on first use: a stream is waited for until it ends)."""
        if self._stdin is None:
            self._stdin = self.source.read()
        return self._stdin

    def print(self, text: str = "", end: str = "\n") -> None:
        self.out += (text + end).encode("utf-8", "replace")

    def error(self, text: str) -> None:
        self.err += (text + "\n").encode("utf-8", "replace")

    def fail(self, text: str, code: int = 1) -> int:
        """Print ``text`` to stderr and return ``code``."""
        self.error(text)
        return code

    def text_in(self) -> str:
        return self.stdin.decode("utf-8", "replace")


class Stream(bytearray):
    """A shell's own output stream: what is written also goes to ``sink`` (a time-ordered
    log of stdout and stderr, or a connection); with ``keep=False`` nothing stays here, so
    a long session's output does not pile up."""

    def __init__(self, sink: Callable[[bytes], Any], *, keep: bool = True) -> None:
        super().__init__()
        self.sink = sink
        self.keep = keep

    def extend(self, data: Any) -> None:
        data = bytes(data)
        if self.keep:
            super().extend(data)
        self.sink(data)

    def __iadd__(self, data: Buffer | Iterable[SupportsIndex]) -> Self:
        self.extend(data)
        return self


Command = Callable[[list[str], IO], int]
Target = tuple[Any, ...]  # ("buf", bytearray), ("file", path), ("in", Input) or ("null",)


class Files(Protocol):
    """The file system redirections and ``cd`` use (paths absolute and normal)."""

    def abspath(self, path: str, cwd: str = "/") -> str: ...
    def is_dir(self, path: str) -> bool: ...
    def file_bytes(self, path: str) -> bytes | None: ...
    def create_file(self, path: str, *, truncate: bool) -> str | None: ...
    def append_file(self, path: str, data: bytes) -> None: ...


class Host(Protocol):
    """The machine a shell runs on: its files, its commands and a log of the commands run
    (a bounded one, such as a ``deque`` with a ``maxlen``)."""

    @property
    def shell_log(self) -> MutableSequence[list[str]]: ...
    @property
    def fs(self) -> Files: ...
    def command(self, name: str) -> Command | None: ...


class Shell:
    """One ``sh -c`` run on a ``Host``: variables, ``$?`` and the working directory.
    Substitutions run in child shells, as in a real shell."""

    def __init__(self, host: Host, env: dict[str, str], *, depth: int = 0,
                 cwd: str = "/") -> None:
        self.host = host
        self.vars = dict(env)
        self.status = 0
        self.depth = depth
        self.cwd = cwd
        self.sub_status: int | None = None
        self.builtins: dict[str, Command] = {
            "exit": self.b_exit, "cd": self.b_cd, "pwd": self.b_pwd, "export": self.b_export,
            "unset": self.b_unset, ":": lambda args, io: 0, "sh": self.b_sh,
            "exec": self.b_exec,
        }

    def child(self) -> Shell:
        """A child shell (substitutions, ``sh -c``): a copy of the variables and folder."""
        return Shell(self.host, self.vars, depth=self.depth + 1, cwd=self.cwd)

    def run(self, src: str, io: IO) -> int:
        """Parse and run ``src``; the exit status of the last command."""
        try:
            script = parse(src)
        except ShellSyntaxError as exc:
            return io.fail(f"{SH}: syntax error: {exc}")
        try:
            for node in script:
                self.status = self.and_or(node, io)
        except ShellExit as exc:
            self.status = exc.code & 0xFF
        return self.status

    def run_stream(self, stdin: Input, io: IO, *, interactive: bool = False,
                   prompt: Callable[[Shell], None] | None = None) -> int:
        """Run the script on ``stdin`` one line at a time, each before the next is read (a
        line that leaves a quote open reads the next one too), until its end or ``exit``:
        ``sh`` reading its standard input. The commands read the rest of ``stdin``. A
        syntax error ends a script but not an ``interactive`` shell (which calls ``prompt``
        before reading each line, as mksh prints ``PS1`` on a terminal)."""
        try:
            while True:
                if prompt is not None:
                    prompt(self)
                src = stdin.readline().decode("utf-8", "replace")
                if not src:
                    break
                script = None
                while script is None:
                    try:
                        script = parse(src)
                    except ShellSyntaxError as exc:
                        more = stdin.readline() if str(exc) in INCOMPLETE else b""
                        if more:
                            src += more.decode("utf-8", "replace")
                            continue
                        self.status = io.fail(f"{SH}: <stdin>: syntax error: {exc}")
                        if not interactive:
                            return self.status
                        script = []
                for node in script:
                    self.status = self.and_or(node, IO(stdin, io.out, io.err, self.cwd))
        except ShellExit as exc:
            self.status = exc.code & 0xFF
        return self.status

    def and_or(self, node: AndOr, io: IO) -> int:
        status = self.pipeline(node.first, io)
        for op, pipe in node.rest:
            self.status = status
            if (status == 0) == (op == "&&"):
                status = self.pipeline(pipe, io)
        return status

    def pipeline(self, pipe: Pipeline, io: IO) -> int:
        data: bytes | Input = io.source
        status, last = 0, len(pipe.commands) - 1
        for k, cmd in enumerate(pipe.commands):
            part = IO(data, io.out if k == last else bytearray(), io.err, self.cwd)
            if last == 0:
                status = self.simple(cmd, part)
            else:
                try:  # each command of a real pipeline runs in its own subshell
                    status = self.simple(cmd, part)
                except ShellExit as exc:
                    status = exc.code & 0xFF
            data = bytes(part.out)
        return int(status == 0) if pipe.negate else status

    def simple(self, cmd: Simple, io: IO) -> int:
        words = list(cmd.words)
        assigns: list[tuple[str, Word]] = []
        while words and (found := assignment(words[0])) is not None:
            assigns.append(found)
            words.pop(0)
        self.sub_status = None
        argv = [f for w in words for f in self.expand(w, io)]
        values = {name: self.joined(value, io) for name, value in assigns}
        fds = self.open_redirects(cmd.redirects, io)
        if isinstance(fds, int):
            return fds
        if not argv:
            self.vars.update(values)
            return self.sub_status or 0
        written: list[tuple[int, bytes]] = []  # output to files, in the order written

        def sink(fd: int) -> Callable[[bytes], None]:
            """Where the command's ``fd`` goes: the shell's own streams at once (a command
            that runs until killed, ``logcat``, is seen as it writes), files at its end."""
            def write(data: bytes) -> None:
                if fds[fd][0] == "buf":
                    fds[fd][1].extend(data)
                else:
                    written.append((fd, data))
            return write

        cio = IO(fds[0][1] if fds[0][0] == "in" else b"", Stream(sink(1), keep=False),
                 Stream(sink(2), keep=False), cwd=self.cwd)
        cio.env = {**self.vars, **values}
        status = self.dispatch(argv, cio)
        self.route(fds, written)
        if argv[0] == "exec" and len(argv) > 1:  # the command took the shell's place
            raise ShellExit(status & 0xFF)
        return status

    # --- expansion ---------------------------------------------------------------------
    def expand(self, word: Word, io: IO) -> list[str]:
        """Fields of ``word``: parameters and substitutions expanded, unquoted results split
        on blanks, quotes removed."""
        fields: list[str] = []
        cur: list[str] = []
        started = False
        for part in word:
            if part.kind == "lit" or part.quoted:
                cur.append(part.text if part.kind == "lit" else self.value(part, io))
                started = True
                continue
            pieces = FIELD_SEPARATORS.split(self.value(part, io))
            cur.append(pieces[0])
            started = started or bool(pieces[0])
            if len(pieces) > 1:
                if started:
                    fields.append("".join(cur))
                fields.extend(pieces[1:-1])
                cur, started = [pieces[-1]], bool(pieces[-1])
        if started:
            fields.append("".join(cur))
        return fields

    def joined(self, word: Word, io: IO) -> str:
        """``word`` expanded without field splitting (assignments, redirection targets)."""
        return "".join(p.text if p.kind == "lit" else self.value(p, io) for p in word)

    def value(self, part: Part, io: IO) -> str:
        if part.kind == "sub":
            return self.substitute(part.text, io)
        name = part.text
        if name == "?":
            return str(self.status)
        if name == "$":
            return "4242"
        if name == "#":
            return "0"
        if name == "0":
            return SH
        return self.vars.get(name, "") if NAME.fullmatch(name) else ""

    def substitute(self, src: str, io: IO) -> str:
        """Run ``src`` in a child shell; its output without trailing newlines."""
        if self.depth >= MAX_DEPTH:
            io.error(f"{SH}: command substitution nested too deeply")
            self.sub_status = 1
            return ""
        child = self.child()
        sub = IO(io.source, bytearray(), io.err, self.cwd)
        self.sub_status = child.run(src, sub)
        return sub.out.decode("utf-8", "replace").rstrip("\n")

    # --- redirections --------------------------------------------------------------------
    def open_redirects(self, redirects: Sequence[Redirect], io: IO) -> dict[int, Target] | int:
        """The streams of a command after its redirections (files created now), or the
        exit status of a redirection that failed."""
        fds: dict[int, Target] = {0: ("in", io.source), 1: ("buf", io.out), 2: ("buf", io.err)}
        for r in redirects:
            target = self.joined(r.target, io)
            if r.op in (">&", "<&"):
                if target == "-":
                    fds[r.fd] = ("null",)
                elif target.isdigit() and int(target) in fds:
                    fds[r.fd] = fds[int(target)]
                else:
                    return io.fail(f"{SH}: {target}: bad file descriptor")
                continue
            path = self.host.fs.abspath(target, self.cwd)
            if r.op == "<":
                data = self.host.fs.file_bytes(path)
                if data is None:
                    return io.fail(f"{SH}: can't open {target}: No such file or directory")
                fds[r.fd] = ("in", Input(data))
            elif path in ("/dev/null", "/dev/tty"):
                fds[r.fd] = ("null",) if path == "/dev/null" else ("buf", io.out)
            else:
                reason = self.host.fs.create_file(path, truncate=r.op == ">")
                if reason is not None:
                    return io.fail(f"{SH}: can't create {target}: {reason}")
                fds[r.fd] = ("file", path)
        return fds

    def route(self, fds: dict[int, Target], written: list[tuple[int, bytes]]) -> None:
        """Send a finished command's output (``(fd, data)`` in the order written) where its
        redirections point."""
        for fd, data in written:
            target = fds[fd]
            if target[0] == "buf":
                target[1].extend(data)
            elif target[0] == "file" and data:
                self.host.fs.append_file(target[1], bytes(data))

    # --- commands ------------------------------------------------------------------------
    def dispatch(self, argv: list[str], io: IO) -> int:
        self.host.shell_log.append(list(argv))
        name = argv[0]
        if posixpath.dirname(name) in BIN_DIRS:
            name = posixpath.basename(name)
        builtin = self.builtins.get(name)
        command = builtin or self.host.command(name)
        if command is None:
            return io.fail(f"{SH}: {argv[0]}: inaccessible or not found", 127)
        warning = getattr(self.host, "linker_warning", None)
        if warning and builtin is None:  # the linker loads every program, not the builtins
            io.error(warning)
        try:
            return command(argv[1:], io)
        except ShellExit:
            raise
        except Exception as exc:  # noqa: BLE001 - a command's bug must not kill the server
            return io.fail(f"{name}: {type(exc).__name__}: {exc}")

    def b_exit(self, args: list[str], io: IO) -> int:
        code = self.status
        if args:
            if not args[0].lstrip("-").isdigit():
                return io.fail(f"{SH}: exit: {args[0]}: bad number")
            code = int(args[0])
        raise ShellExit(code & 0xFF)

    def b_cd(self, args: list[str], io: IO) -> int:
        path = self.host.fs.abspath(args[0] if args else self.vars.get("HOME", "/"), self.cwd)
        if not self.host.fs.is_dir(path):
            return io.fail(f"{SH}: cd: {args[0] if args else path}: No such file or directory"
                           , 2)
        self.cwd = path
        return 0

    def b_pwd(self, args: list[str], io: IO) -> int:
        io.print(self.cwd)
        return 0

    def b_export(self, args: list[str], io: IO) -> int:
        for arg in args:
            name, sep, value = arg.partition("=")
            if sep and NAME.fullmatch(name):
                self.vars[name] = value
        return 0

    def b_unset(self, args: list[str], io: IO) -> int:
        for name in args:
            self.vars.pop(name, None)
        return 0

    def b_exec(self, args: list[str], io: IO) -> int:
        """``exec COMMAND [ARG...]``: the command runs in the shell's place, so the shell
        ends with its status (``simple`` ends it once the output is routed); ``exec``
        alone does nothing here (mksh would keep its redirections for the shell)."""
        return self.dispatch(args, io) if args else 0

    def b_sh(self, args: list[str], io: IO) -> int:
        """``sh -c COMMAND``, or ``sh`` running the script on stdin line by line."""
        child = self.child()
        if child.depth > MAX_DEPTH:
            return io.fail(f"{SH}: nested too deeply")
        if args[:1] != ["-c"]:
            return child.run_stream(io.source, IO(io.source, io.out, io.err, self.cwd))
        if len(args) < 2:
            return io.fail(f"{SH}: -c: option requires an argument")
        return child.run(args[1], IO(io.source, io.out, io.err, self.cwd))


def assignment(word: Word) -> tuple[str, Word] | None:
    """``NAME=value`` as ``(NAME, value)`` when ``word`` is an assignment."""
    first = word[0]
    if first.kind != "lit" or first.quoted:
        return None
    m = ASSIGNMENT.match(first.text)
    if m is None:
        return None
    rest = first.text[m.end():]
    value = ((Part("lit", rest, False),) if rest else ()) + word[1:]
    return m.group(1), value

