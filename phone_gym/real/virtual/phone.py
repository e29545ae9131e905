"""``VirtualPhone``: a PhoneWorld phone that answers like an Android device's shell.

The adb protocol server (``server.py``) and the in-process ``LocalBackend`` call it through
``shell``, ``stat``, ``list_dir``, ``read_file`` and ``write_file``. ``shell`` runs a small
POSIX-like interpreter (quotes, escapes, ``;``/``&&``/``||``/``|``, ``$?``, ``$VAR``,
``$(...)`` and backticks executed like a real shell, redirections) over Android-like
commands (``input``, ``am``, ``pm``, ``monkey``, ``screencap``, ``wm``, ``dumpsys``,
``uiautomator``, ``getprop``, ``settings``, ``content``) and toybox-like file commands.
Nothing is ever evaluated by Python or run on the host: every command is a method here.

Shared storage is one tree under ``/sdcard`` (also ``/storage/emulated/0``): UTF-8 files
live in ``device.system.files`` (so apps see them), other bytes in a private dict. Only
``/sdcard`` and ``/data/local/tmp`` are writable, as for Android's ``shell`` user.
"""

from __future__ import annotations

import math
import posixpath
import re
import threading
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from io import BytesIO
from typing import Any

import numpy as np
from PIL import Image

from ...actions import PhoneAction
from ...mockapps import APPS
from ...mockapps.clock.app import DAYS, next_ring
from ...mockapps.device_state import (
    CLOCK_PACKAGE,
    CONTACTS_PROVIDER,
    clear_app_data,
    clock_data,
    find_app,
    sdcard_path,
    set_alarm,
    stop_app,
)
from ...world import theme as T
from ...world.a11y import to_xml
from ...world.app import App
from ...world.device import IME_PACKAGE, LAUNCHER_PACKAGE, SYSTEMUI_PACKAGE, Device
from ...world.render import Renderer
from ...world.system import Contact

SH = "/system/bin/sh"
FEATURES = ["shell_v2", "cmd", "stat_v2", "ls_v2", "fixed_push_mkdir", "abb_exec"]
DENSITY = 420
FILE_MODE = 0o100644
DIR_MODE = 0o040755
#: Folders of shared storage on a fresh phone.
DEFAULT_DIRS = ("/sdcard", "/sdcard/Download", "/sdcard/Documents", "/sdcard/Pictures",
                "/sdcard/DCIM", "/data/local/tmp")
#: Read-only folders of the system image.
SYSTEM_DIRS = ("/", "/system", "/system/bin", "/vendor", "/data", "/data/local", "/storage",
               "/storage/emulated", "/proc", "/dev")
WRITABLE = ("/sdcard/", "/data/local/tmp/")
READ_ONLY_ROOTS = ("/system", "/vendor", "/product", "/apex")
#: Packages every phone has besides the mock apps.
SYSTEM_PACKAGES = ("android", "com.android.shell", "com.android.providers.settings",
                   CONTACTS_PROVIDER, "com.android.providers.media", LAUNCHER_PACKAGE,
                   SYSTEMUI_PACKAGE, IME_PACKAGE)
ENV = {"HOME": "/", "PATH": "/product/bin:/apex/com.android.runtime/bin:/system/bin:/system/xbin",
       "SHELL": SH, "USER": "shell", "HOSTNAME": "phoneworld", "TMPDIR": "/data/local/tmp",
       "EXTERNAL_STORAGE": "/sdcard", "ANDROID_DATA": "/data", "ANDROID_ROOT": "/system",
       "IFS": " \t\n"}
MAX_DEPTH = 20  # nested command substitutions


def default_properties(serial: str) -> dict[str, str]:
    """``getprop`` values of a PhoneWorld phone."""
    return {
        "ro.product.model": "PhoneWorld", "ro.product.manufacturer": "phone-gym",
        "ro.product.brand": "phone-gym", "ro.product.name": "phoneworld",
        "ro.product.device": "phoneworld", "ro.build.product": "phoneworld",
        "ro.build.version.release": "14", "ro.build.version.sdk": "34",
        "ro.build.id": "UP1A.231005.007", "ro.build.type": "user",
        "ro.build.fingerprint": "phone-gym/phoneworld/phoneworld:14/UP1A.231005.007/1:user/"
                                "release-keys",
        "ro.product.cpu.abi": "x86_64", "ro.serialno": serial, "ro.boot.serialno": serial,
        "ro.sf.lcd_density": str(DENSITY), "ro.debuggable": "0", "ro.secure": "1",
        "persist.sys.timezone": "UTC", "sys.boot_completed": "1", "init.svc.adbd": "running",
    }


# ==========================================================================================
# Shell syntax: words made of parts, simple commands, pipelines, and-or lists
# ==========================================================================================
class ShellSyntaxError(Exception):
    """A command line the shell cannot parse (the message follows ``syntax error:``)."""


@dataclass(frozen=True)
class Part:
    """A piece of a word: literal text, a parameter (``$NAME``) or a command substitution;
    ``quoted`` parts are not split into fields."""

    kind: str  # "lit", "var" or "sub"
    text: str
    quoted: bool


Word = tuple[Part, ...]


@dataclass(frozen=True)
class Redirect:
    fd: int
    op: str  # ">", ">>", "<", ">&" or "<&"
    target: Word


@dataclass
class Simple:
    words: list[Word] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)


@dataclass
class Pipeline:
    commands: list[Simple]
    negate: bool = False


@dataclass
class AndOr:
    first: Pipeline
    rest: list[tuple[str, Pipeline]] = field(default_factory=list)


Token = tuple[str, Any]  # ("word", Word), ("op", str) or ("redir", (fd, op))
OPERATORS = ("&&", "||", ";;", ";", "&", "|", "(", ")", "\n")
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
SPECIAL_PARAMS = "?$#!@*-0123456789"


class Lexer:
    """Splits a command line into words, operators and redirections."""

    def __init__(self, src: str) -> None:
        self.src = src
        self.i = 0
        self.tokens: list[Token] = []
        self.parts: list[Part] = []

    def lex(self) -> list[Token]:
        src = self.src
        while self.i < len(src):
            c = src[self.i]
            if c in " \t":
                self.end_word()
                self.i += 1
            elif c == "#" and not self.parts:
                end = src.find("\n", self.i)
                self.i = len(src) if end < 0 else end
            elif c == "\\":
                self.escape()
            elif c == "'":
                end = src.find("'", self.i + 1)
                if end < 0:
                    raise ShellSyntaxError("no closing quote")
                self.add(src[self.i + 1:end], quoted=True)
                self.i = end + 1
            elif c == '"':
                self.double_quoted()
            elif c == "`":
                self.parts.append(Part("sub", self.backtick(), False))
            elif c == "$":
                self.dollar(quoted=False)
            elif c in "<>":
                self.redirect()
            elif c in ";&|()\n":
                self.operator()
            else:
                self.add(c, quoted=False)
                self.i += 1
        self.end_word()
        return self.tokens

    def add(self, text: str, *, quoted: bool) -> None:
        last = self.parts[-1] if self.parts else None
        if last is not None and last.kind == "lit" and last.quoted == quoted:
            self.parts[-1] = Part("lit", last.text + text, quoted)
        else:
            self.parts.append(Part("lit", text, quoted))

    def end_word(self) -> None:
        if self.parts:
            self.tokens.append(("word", tuple(self.parts)))
            self.parts = []

    def escape(self) -> None:
        nxt = self.src[self.i + 1:self.i + 2]
        if nxt == "\n":
            pass  # line continuation
        elif nxt:
            self.add(nxt, quoted=True)
        else:
            self.add("\\", quoted=True)
        self.i += 2

    def double_quoted(self) -> None:
        src = self.src
        self.i += 1
        self.add("", quoted=True)  # "" is a word even when empty
        while True:
            if self.i >= len(src):
                raise ShellSyntaxError("no closing quote")
            c = src[self.i]
            if c == '"':
                self.i += 1
                return
            if c == "\\" and src[self.i + 1:self.i + 2] in ("$", "`", '"', "\\", "\n"):
                if src[self.i + 1] != "\n":
                    self.add(src[self.i + 1], quoted=True)
                self.i += 2
            elif c == "$":
                self.dollar(quoted=True)
            elif c == "`":
                self.parts.append(Part("sub", self.backtick(), True))
            else:
                self.add(c, quoted=True)
                self.i += 1

    def backtick(self) -> str:
        src, out = self.src, []
        i = self.i + 1
        while i < len(src) and src[i] != "`":
            if src[i] == "\\" and src[i + 1:i + 2] in ("`", "\\", "$"):
                i += 1
            out.append(src[i])
            i += 1
        if i >= len(src):
            raise ShellSyntaxError("no closing quote")
        self.i = i + 1
        return "".join(out)

    def dollar(self, *, quoted: bool) -> None:
        src, i = self.src, self.i
        nxt = src[i + 1:i + 2]
        if nxt == "(":
            if src[i + 2:i + 3] == "(":
                raise ShellSyntaxError("arithmetic expansion is not supported")
            end = matching_paren(src, i + 2)
            self.parts.append(Part("sub", src[i + 2:end], quoted))
            self.i = end + 1
        elif nxt == "{":
            end = src.find("}", i + 2)
            name = src[i + 2:end] if end >= 0 else ""
            if not (NAME.fullmatch(name) or (len(name) == 1 and name in SPECIAL_PARAMS)):
                raise ShellSyntaxError("bad substitution")
            self.parts.append(Part("var", name, quoted))
            self.i = end + 1
        elif nxt and nxt in SPECIAL_PARAMS:
            self.parts.append(Part("var", nxt, quoted))
            self.i = i + 2
        elif (m := NAME.match(src, i + 1)) is not None:
            self.parts.append(Part("var", m.group(), quoted))
            self.i = m.end()
        else:
            self.add("$", quoted=quoted)
            self.i = i + 1

    def redirect(self) -> None:
        fd = None
        if len(self.parts) == 1 and self.parts[0].kind == "lit" and not self.parts[0].quoted \
                and self.parts[0].text.isdigit():
            fd = int(self.parts[0].text)
            self.parts = []
        self.end_word()
        two = self.src[self.i:self.i + 2]
        op = two if two in (">>", ">&", "<&", ">|") else self.src[self.i]
        self.i += len(op)
        op = ">" if op == ">|" else op
        self.tokens.append(("redir", (fd if fd is not None else (0 if op[0] == "<" else 1), op)))

    def operator(self) -> None:
        self.end_word()
        two = self.src[self.i:self.i + 2]
        op = two if two in ("&&", "||", ";;") else self.src[self.i]
        self.i += len(op)
        self.tokens.append(("op", op))


def matching_paren(src: str, start: int) -> int:
    """The index of the ``)`` closing a ``$(`` whose body starts at ``start``."""
    depth, i = 1, start
    while i < len(src):
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            end = src.find("'", i + 1)
            if end < 0:
                raise ShellSyntaxError("no closing quote")
            i = end
        elif c == '"':
            i += 1
            while i < len(src) and src[i] != '"':
                i += 2 if src[i] == "\\" else 1
            if i >= len(src):
                raise ShellSyntaxError("no closing quote")
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ShellSyntaxError("missing )")


class Parser:
    """Builds and-or lists from tokens (a list of ``AndOr`` run in order)."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.pos = 0

    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def is_op(self, *ops: str) -> bool:
        tok = self.peek()
        return tok is not None and tok[0] == "op" and tok[1] in ops

    def unexpected(self) -> ShellSyntaxError:
        tok = self.peek()
        if tok is None:
            return ShellSyntaxError("unexpected EOF")
        if tok[0] == "op":
            shown = "newline" if tok[1] == "\n" else tok[1]
        else:
            shown = tok[1][1] if tok[0] == "redir" else "".join(p.text for p in tok[1])
        return ShellSyntaxError(f"'{shown}' unexpected")

    def parse(self) -> list[AndOr]:
        script: list[AndOr] = []
        while self.peek() is not None:
            if self.is_op("\n"):
                self.pos += 1
                continue
            script.append(self.and_or())
            if self.peek() is None:
                break
            if not self.is_op(";", "&", "\n"):
                raise self.unexpected()
            self.pos += 1
        return script

    def skip_newlines(self) -> None:
        while self.is_op("\n"):
            self.pos += 1

    def and_or(self) -> AndOr:
        node = AndOr(self.pipeline())
        while self.is_op("&&", "||"):
            op = self.tokens[self.pos][1]
            self.pos += 1
            self.skip_newlines()
            node.rest.append((op, self.pipeline()))
        return node

    def pipeline(self) -> Pipeline:
        negate = False
        tok = self.peek()
        if tok is not None and tok[0] == "word" and tok[1] == (Part("lit", "!", False),):
            negate = True
            self.pos += 1
        commands = [self.simple()]
        while self.is_op("|"):
            self.pos += 1
            self.skip_newlines()
            commands.append(self.simple())
        return Pipeline(commands, negate)

    def simple(self) -> Simple:
        cmd = Simple()
        while (tok := self.peek()) is not None and tok[0] in ("word", "redir"):
            self.pos += 1
            if tok[0] == "word":
                cmd.words.append(tok[1])
                continue
            target = self.peek()
            if target is None or target[0] != "word":
                raise self.unexpected()
            self.pos += 1
            fd, op = tok[1]
            cmd.redirects.append(Redirect(fd, op, target[1]))
        if not cmd.words and not cmd.redirects:
            raise self.unexpected()
        return cmd


def parse(src: str) -> list[AndOr]:
    """Parse a command line; raises ``ShellSyntaxError``."""
    return Parser(Lexer(src).lex()).parse()


# ==========================================================================================
# Running command lines
# ==========================================================================================
class ShellExit(Exception):
    """``exit N``: unwinds to the end of the running shell."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


@dataclass
class IO:
    """A command's standard streams (``stdin`` in; ``out``/``err`` collected) and the
    shell's working directory."""

    stdin: bytes = b""
    out: bytearray = field(default_factory=bytearray)
    err: bytearray = field(default_factory=bytearray)
    cwd: str = "/"

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
    """A shell's own output stream, which also records into one time-ordered log."""

    def __init__(self, merged: bytearray) -> None:
        super().__init__()
        self.merged = merged

    def extend(self, data: Any) -> None:
        super().extend(data)
        self.merged.extend(data)

    def __iadd__(self, data: Any) -> Stream:  # type: ignore[override]
        self.extend(data)
        return self


Command = Callable[[list[str], IO], int]
V1_EXIT = re.compile(r";\s*echo X4EXIT:\$\?\s*$")
Target = tuple[Any, ...]  # ("buf", bytearray), ("file", path), ("data", bytes) or ("null",)
ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=")
FIELD_SEPARATORS = re.compile(r"[ \t\n]+")


class Shell:
    """One ``sh -c`` run over a ``VirtualPhone``: variables, ``$?`` and the working
    directory. Substitutions run in child shells, as in a real shell."""

    def __init__(self, phone: VirtualPhone, env: dict[str, str] | None = None, *,
                 depth: int = 0, cwd: str = "/") -> None:
        self.phone = phone
        self.vars = dict(ENV if env is None else env)
        self.status = 0
        self.depth = depth
        self.cwd = cwd
        self.sub_status: int | None = None
        self.builtins: dict[str, Command] = {
            "exit": self.b_exit, "cd": self.b_cd, "pwd": self.b_pwd, "export": self.b_export,
            "unset": self.b_unset, ":": lambda args, io: 0, "sh": self.b_sh,
        }

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

    def and_or(self, node: AndOr, io: IO) -> int:
        status = self.pipeline(node.first, io)
        for op, pipe in node.rest:
            self.status = status
            if (status == 0) == (op == "&&"):
                status = self.pipeline(pipe, io)
        return status

    def pipeline(self, pipe: Pipeline, io: IO) -> int:
        data, status, last = io.stdin, 0, len(pipe.commands) - 1
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
        cio = IO(fds[0][1] if fds[0][0] == "data" else b"", cwd=self.cwd)
        status = self.dispatch(argv, cio)
        self.route(fds, cio)
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
        child = Shell(self.phone, self.vars, depth=self.depth + 1, cwd=self.cwd)
        sub = IO(b"", bytearray(), io.err, self.cwd)
        self.sub_status = child.run(src, sub)
        return sub.out.decode("utf-8", "replace").rstrip("\n")

    # --- redirections --------------------------------------------------------------------
    def open_redirects(self, redirects: Sequence[Redirect], io: IO) -> dict[int, Target] | int:
        """The streams of a command after its redirections (files created now), or the
        exit status of a redirection that failed."""
        fds: dict[int, Target] = {0: ("data", io.stdin), 1: ("buf", io.out), 2: ("buf", io.err)}
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
            path = self.phone.abspath(target, self.cwd)
            if r.op == "<":
                data = self.phone.file_bytes(path)
                if data is None:
                    return io.fail(f"{SH}: can't open {target}: No such file or directory")
                fds[r.fd] = ("data", data)
            elif path in ("/dev/null", "/dev/tty"):
                fds[r.fd] = ("null",) if path == "/dev/null" else ("buf", io.out)
            else:
                reason = self.phone.create_file(path, truncate=r.op == ">")
                if reason is not None:
                    return io.fail(f"{SH}: can't create {target}: {reason}")
                fds[r.fd] = ("file", path)
        return fds

    def route(self, fds: dict[int, Target], cio: IO) -> None:
        """Send a finished command's output where its redirections point."""
        for fd, data in ((1, cio.out), (2, cio.err)):
            target = fds[fd]
            if target[0] == "buf":
                target[1].extend(data)
            elif target[0] == "file" and data:
                self.phone.append_file(target[1], bytes(data))

    # --- commands ------------------------------------------------------------------------
    def dispatch(self, argv: list[str], io: IO) -> int:
        self.phone.shell_log.append(list(argv))
        name = argv[0]
        if posixpath.dirname(name) in ("/system/bin", "/system/xbin", "/bin"):
            name = posixpath.basename(name)
        command = self.builtins.get(name) or self.phone.command(name)
        if command is None:
            return io.fail(f"{SH}: {argv[0]}: inaccessible or not found", 127)
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
        path = self.phone.abspath(args[0] if args else self.vars.get("HOME", "/"), self.cwd)
        if not self.phone.is_dir(path):
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

    def b_sh(self, args: list[str], io: IO) -> int:
        """``sh -c COMMAND``, or ``sh`` running the script on stdin."""
        if args[:1] == ["-c"]:
            if len(args) < 2:
                return io.fail(f"{SH}: -c: option requires an argument")
            src = args[1]
        else:
            src = io.text_in()
        child = Shell(self.phone, self.vars, depth=self.depth + 1, cwd=self.cwd)
        if child.depth > MAX_DEPTH:
            return io.fail(f"{SH}: nested too deeply")
        return child.run(src, IO(b"", io.out, io.err, self.cwd))


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


# ==========================================================================================
# The phone
# ==========================================================================================
def epoch(when: datetime) -> int:
    """Seconds since 1970 of the phone's clock (which runs in UTC)."""
    return int(when.replace(tzinfo=timezone.utc).timestamp())


def split_flags(args: Sequence[str]) -> tuple[set[str], list[str]]:
    """Single-letter flags (``-la`` is ``l`` and ``a``) and the other arguments."""
    flags: set[str] = set()
    rest: list[str] = []
    for k, arg in enumerate(args):
        if arg == "--":
            rest.extend(args[k + 1:])
            break
        if arg.startswith("-") and len(arg) > 1:
            flags.update(arg[1:])
        else:
            rest.append(arg)
    return flags, rest


class VirtualPhone:
    """A PhoneWorld phone behind an Android-like shell and file system (see the module doc).

    ``shell_log`` holds the argv of every simple command run, in order; ``last_input_error``
    the device's complaint about the last ``input`` command (``input`` still exits 0, as on
    Android); ``reboots`` counts ``reboot`` commands (which reset nothing).
    """

    def __init__(self, serial: str = "emulator-5554", *, device: Device | None = None,
                 apps: Sequence[type[App]] | None = None) -> None:
        self.serial = serial
        self.device = device if device is not None else Device(list(APPS if apps is None
                                                                     else apps))
        self.properties: dict[str, str] = default_properties(serial)
        self.features: list[str] = list(FEATURES)
        self.shell_log: list[list[str]] = []
        self.last_input_error: str | None = None
        self.reboots = 0
        self.lock = threading.RLock()
        self._renderer: Renderer | None = None
        self._clear_storage()

    def reset(self) -> None:
        """Factory reset: a fresh device, storage, log and properties."""
        with self.lock:
            self.device.reset()
            self.properties = default_properties(self.serial)
            self.shell_log = []
            self.last_input_error = None
            self.reboots = 0
            self._clear_storage()

    def _clear_storage(self) -> None:
        self._blobs: dict[str, bytes] = {}
        self._dirs: set[str] = set(DEFAULT_DIRS)
        self._mtimes: dict[str, int] = {}
        self._boot = self.device.system.now - timedelta(hours=1)

    # --- the server's interface ---------------------------------------------------------
    def shell(self, command: str) -> tuple[int, bytes, bytes]:
        """Run a command line: ``(exit status, stdout, stderr)``.

        A line ending in adbutils' ``; echo X4EXIT:$?`` comes from a v1 (pty) shell, where
        stderr and stdout are one stream: it gets both merged in time order, as stdout.
        """
        with self.lock:
            merged = bytearray()
            io = IO(out=Stream(merged), err=Stream(merged))
            status = Shell(self).run(command, io) & 0xFF
            if V1_EXIT.search(command):
                return status, bytes(merged), b""
            return status, bytes(io.out), bytes(io.err)

    def stat(self, path: str) -> tuple[int, int, int] | None:
        """``(st_mode, size, mtime)`` or None when nothing is there."""
        with self.lock:
            path = sdcard_path(path)
            data = self.file_bytes(path)
            if data is not None:
                return FILE_MODE, len(data), self.mtime(path)
            return (DIR_MODE, 4096, self.mtime(path)) if self.is_dir(path) else None

    def list_dir(self, path: str) -> list[tuple[str, int, int, int]] | None:
        """``(name, mode, size, mtime)`` of a folder's entries (no ``.``/``..``), or None
        when ``path`` is not a folder."""
        with self.lock:
            path = sdcard_path(path)
            if not self.is_dir(path):
                return None
            out = []
            for name in sorted(self.children(path)):
                st = self.stat(posixpath.join(path, name))
                if st is not None:
                    out.append((name, *st))
            return out

    def read_file(self, path: str) -> bytes | None:
        with self.lock:
            return self.file_bytes(sdcard_path(path))

    def write_file(self, path: str, data: bytes, mode: int, mtime: int) -> str | None:
        """Sync push: create the file (and missing folders); an error message or None."""
        with self.lock:
            path = sdcard_path(path)
            reason = "Is a directory" if self.is_dir(path) else self.write_error(path)
            if reason is not None:
                return f"couldn't create file: {reason}"
            self.make_dirs(posixpath.dirname(path))
            self.store(path, bytes(data))
            if mtime > 0:
                self._mtimes[path] = int(mtime)
            return None

    # --- file system ---------------------------------------------------------------------
    def abspath(self, path: str, cwd: str = "/") -> str:
        return sdcard_path(posixpath.join(cwd, path))

    def _special(self, path: str) -> bytes | None:
        if path == "/dev/null":
            return b""
        if path == "/system/build.prop":
            return "".join(f"{k}={v}\n" for k, v in sorted(self.properties.items())
                           if k.startswith("ro.")).encode()
        return None

    def file_bytes(self, path: str) -> bytes | None:
        """The bytes of the file at normalized ``path`` (None if no such file)."""
        if path in self._blobs:
            return self._blobs[path]
        text = self.device.system.files.get(path)
        return text.encode("utf-8") if text is not None else self._special(path)

    def all_files(self) -> list[str]:
        shared = [p for p in self.device.system.files if p.startswith("/sdcard/")]
        return [*shared, *self._blobs, "/dev/null", "/system/build.prop"]

    def is_dir(self, path: str) -> bool:
        if path in SYSTEM_DIRS or path in self._dirs:
            return True
        prefix = path.rstrip("/") + "/"
        return any(p.startswith(prefix) for p in self.all_files())

    def children(self, path: str) -> dict[str, bool]:
        """The entries of folder ``path``: name -> is a folder."""
        prefix = "/" if path == "/" else path + "/"
        out: dict[str, bool] = {}
        for p in self.all_files():
            if p.startswith(prefix):
                name, sep, _ = p[len(prefix):].partition("/")
                out[name] = out.get(name, False) or bool(sep)
        for p in (*SYSTEM_DIRS, *self._dirs):
            if p != path and p.startswith(prefix):
                out[p[len(prefix):].partition("/")[0]] = True
        return out

    def mtime(self, path: str) -> int:
        return self._mtimes.get(path, epoch(self._boot))

    def write_error(self, path: str) -> str | None:
        """Why the shell user may not create, change or delete ``path`` (None: it may)."""
        if path.startswith(WRITABLE):
            return None
        if path.startswith(READ_ONLY_ROOTS) or posixpath.dirname(path) == "/":
            return "Read-only file system"
        return "Permission denied"

    def make_dirs(self, path: str) -> None:
        while not self.is_dir(path):
            self._dirs.add(path)
            path = posixpath.dirname(path)

    def store(self, path: str, data: bytes) -> None:
        """Write a file (allowed, its folder exists): UTF-8 under /sdcard goes to
        ``system.files``, anything else to the private store."""
        files = self.device.system.files
        try:
            text = data.decode("utf-8") if path.startswith("/sdcard/") else None
        except UnicodeDecodeError:
            text = None
        if text is not None:
            files[path] = text
            self._blobs.pop(path, None)
        else:
            self._blobs[path] = data
            files.pop(path, None)
        self._mtimes[path] = epoch(self.device.system.now)
        self.device.invalidate()

    def remove(self, path: str) -> None:
        """Delete a file, or a folder and everything in it."""
        prefix = path + "/"
        for p in [p for p in self.all_files() if p == path or p.startswith(prefix)]:
            self.device.system.files.pop(p, None)
            self._blobs.pop(p, None)
            self._mtimes.pop(p, None)
        self._dirs = {d for d in self._dirs if d != path and not d.startswith(prefix)}
        self.device.invalidate()

    def create_file(self, path: str, *, truncate: bool) -> str | None:
        """Open ``path`` for writing as a shell redirection does; an error or None."""
        if self.is_dir(path):
            return "Is a directory"
        reason = self.write_error(path)
        if reason is not None:
            return reason
        if not self.is_dir(posixpath.dirname(path)):
            return "No such file or directory"
        if truncate or self.file_bytes(path) is None:
            self.store(path, b"")
        return None

    def append_file(self, path: str, data: bytes) -> None:
        self.store(path, (self.file_bytes(path) or b"") + data)

    def read_arg(self, arg: str, io: IO) -> tuple[bytes | None, str]:
        """The bytes of file ``arg`` (relative to the shell's folder), or None and why not."""
        path = self.abspath(arg, io.cwd)
        data = self.file_bytes(path)
        if data is not None:
            return data, ""
        return None, "Is a directory" if self.is_dir(path) else "No such file or directory"

    # --- commands --------------------------------------------------------------------------
    def command(self, name: str) -> Command | None:
        """The method that runs command ``name`` (None: not found)."""
        if not re.fullmatch(r"[a-z][a-z0-9_-]*", name):
            return None
        return getattr(self, "cmd_" + name.replace("-", "_"), None)

    # --- text and process commands -------------------------------------------------------
    def cmd_true(self, args: list[str], io: IO) -> int:
        return 0

    def cmd_false(self, args: list[str], io: IO) -> int:
        return 1

    def cmd_echo(self, args: list[str], io: IO) -> int:
        newline, escapes = True, False
        while args and re.fullmatch(r"-[neE]+", args[0]):
            flags = args.pop(0)
            newline = newline and "n" not in flags
            escapes = ("e" in flags) or (escapes and "E" not in flags)
        text = " ".join(args)
        if escapes:
            text, stop = unescape(text)
            newline = newline and not stop
        io.print(text, end="\n" if newline else "")
        return 0

    def cmd_printf(self, args: list[str], io: IO) -> int:
        if not args:
            return io.fail("printf: Needs 1 argument")
        io.print(printf(args[0], args[1:]), end="")
        return 0

    def cmd_sleep(self, args: list[str], io: IO) -> int:
        if not args:
            return io.fail("sleep: Needs 1 argument")
        m = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)([smhd]?)", args[0])
        if m is None:
            return io.fail(f"sleep: bad number '{args[0]}'")
        seconds = float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]
        self.advance(seconds)
        return 0

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` of phone time pass at once."""
        device = self.device
        device.system.advance(seconds)
        if device.toast_text is not None and device.system.now >= device.toast_until:
            device.toast_text = None
        device.invalidate()

    def cmd_date(self, args: list[str], io: IO) -> int:
        now = self.device.system.now
        formats = [a for a in args if a.startswith("+")]
        if any(a in ("-s", "--set") for a in args):
            return io.fail("date: cannot set date: Operation not permitted")
        fmt = formats[0][1:] if formats else "%a %b %d %H:%M:%S UTC %Y"
        io.print(now.strftime(fmt.replace("%s", str(epoch(now))).replace("%Z", "UTC")))
        return 0

    def cmd_id(self, args: list[str], io: IO) -> int:
        io.print("uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),"
                 "1011(adb),1015(sdcard_rw),1028(sdcard_r),3001(net_bt_admin),3002(net_bt),"
                 "3003(inet),3006(net_bw_stats) context=u:r:shell:s0")
        return 0

    def cmd_whoami(self, args: list[str], io: IO) -> int:
        io.print("shell")
        return 0

    def cmd_uname(self, args: list[str], io: IO) -> int:
        io.print("Linux localhost 6.1.23-android14 #1 SMP PREEMPT x86_64 Toybox"
                 if "-a" in args else "Linux")
        return 0

    def cmd_reboot(self, args: list[str], io: IO) -> int:
        self.reboots += 1  # recorded only: the phone keeps running
        return 0

    def cmd_grep(self, args: list[str], io: IO) -> int:
        try:
            opts, pattern, files = grep_args(args)
            regex = grep_regex(pattern, opts)
        except (ValueError, re.error) as exc:
            return io.fail(f"grep: {exc}", 2)
        sources: list[tuple[str, bytes | None, str]] = (
            [(f, *self.read_arg(f, io)) for f in files] if files else [("-", io.stdin, "")])
        found, status = 0, 0
        for name, data, reason in sources:
            if data is None:
                status = io.fail(f"grep: {name}: {reason}", 2)
                continue
            found += self._grep_one(name, data, regex, opts, len(sources) > 1, io)
        if status:
            return status
        return 0 if found else 1

    def _grep_one(self, name: str, data: bytes, regex: re.Pattern[str], opts: set[str],
                  many: bool, io: IO) -> int:
        lines = data.decode("utf-8", "replace").splitlines()
        hits = [(n, line) for n, line in enumerate(lines, 1)
                if (regex.search(line) is not None) != ("v" in opts)]
        if "q" in opts:
            return len(hits)
        prefix = f"{name}:" if many else ""
        if "l" in opts:
            if hits:
                io.print(name)
        elif "c" in opts:
            io.print(f"{prefix}{len(hits)}")
        else:
            for n, line in hits:
                io.print(prefix + (f"{n}:" if "n" in opts else "") + line)
        return len(hits)

    def _lines_in(self, args: list[str], io: IO, name: str) -> tuple[list[str], int] | int:
        """Lines of the file argument (or stdin) and the ``-n N``/``-N`` count."""
        count, rest = 10, []
        it = iter(args)
        for arg in it:
            if arg == "-n":
                arg = "-" + next(it, "")
            if re.fullmatch(r"-n?\d+", arg):
                count = int(arg.lstrip("-n"))
            else:
                rest.append(arg)
        if rest:
            data, reason = self.read_arg(rest[0], io)
            if data is None:
                return io.fail(f"{name}: {rest[0]}: {reason}")
        else:
            data = io.stdin
        return data.decode("utf-8", "replace").splitlines(keepends=True), count

    def cmd_head(self, args: list[str], io: IO) -> int:
        got = self._lines_in(args, io, "head")
        if isinstance(got, int):
            return got
        lines, count = got
        io.print("".join(lines[:count]), end="")
        return 0

    def cmd_tail(self, args: list[str], io: IO) -> int:
        got = self._lines_in(args, io, "tail")
        if isinstance(got, int):
            return got
        lines, count = got
        io.print("".join(lines[-count:] if count else []), end="")
        return 0

    def cmd_wc(self, args: list[str], io: IO) -> int:
        flags, files = split_flags(args)
        flags = (flags & set("lwc")) or set("lwc")
        sources = [(f, *self.read_arg(f, io)) for f in files] if files else [("", io.stdin, "")]
        status = 0
        for name, data, reason in sources:
            if data is None:
                status = io.fail(f"wc: {name}: {reason}")
                continue
            counts = {"l": data.count(b"\n"), "w": len(data.split()), "c": len(data)}
            values = [str(counts[k]) for k in "lwc" if k in flags]
            io.print(" ".join(values + ([name] if name else [])))
        return status

    def cmd_sort(self, args: list[str], io: IO) -> int:
        flags, files = split_flags(args)
        data = io.stdin
        if files:
            data, reason = self.read_arg(files[0], io)
            if data is None:
                return io.fail(f"sort: {files[0]}: {reason}")
        lines = data.decode("utf-8", "replace").splitlines()
        if "u" in flags:
            lines = list(dict.fromkeys(lines))
        key = (lambda s: float(m.group()) if (m := re.match(r"\s*-?\d+(\.\d+)?", s)) else 0.0) \
            if "n" in flags else None
        for line in sorted(lines, key=key, reverse="r" in flags):  # type: ignore[arg-type]
            io.print(line)
        return 0

    # --- file commands ---------------------------------------------------------------------
    def cmd_cat(self, args: list[str], io: IO) -> int:
        paths = [a for a in args if a != "-u"]
        if not paths:
            io.out += io.stdin
            return 0
        status = 0
        for arg in paths:
            data, reason = (io.stdin, "") if arg == "-" else self.read_arg(arg, io)
            if data is None:
                status = io.fail(f"cat: {arg}: {reason}")
            else:
                io.out += data
        return status

    def cmd_ls(self, args: list[str], io: IO) -> int:
        flags, paths = split_flags(args)
        paths = paths or ["."]
        files, dirs, status = [], [], 0
        for arg in paths:
            path = self.abspath(arg, io.cwd)
            if self.file_bytes(path) is not None:
                files.append((arg, path))
            elif self.is_dir(path):
                dirs.append((arg, path))
            else:
                status = io.fail(f"ls: {arg}: No such file or directory")
        long = "l" in flags
        for arg, path in files:
            io.print(self.ls_line(arg, path) if long else arg)
        for k, (arg, path) in enumerate(dirs):
            if len(paths) > 1:
                io.print(("\n" if k or files else "") + f"{arg}:")
            names = sorted(self.children(path))
            entries = [(n, posixpath.join(path, n)) for n in names]
            if "a" in flags:
                entries = [(".", path), ("..", posixpath.dirname(path)), *entries]
            if long:
                io.print(f"total {len(entries)}")
            for name, child in entries:
                io.print(self.ls_line(name, child) if long else name)
        return status

    def ls_line(self, name: str, path: str) -> str:
        mode, size, mtime = self.stat(path) or (DIR_MODE, 0, 0)
        kind = "d" if mode & 0o040000 else "-"
        perms = "".join(c if mode & (1 << (8 - i)) else "-" for i, c in enumerate("rwxrwxrwx"))
        owner = "root root" if self.write_error(path) else "u0_a0 media_rw"
        when = datetime.fromtimestamp(mtime, timezone.utc).strftime("%Y-%m-%d %H:%M")
        return f"{kind}{perms} {2 if kind == 'd' else 1} {owner} {size:>5} {when} {name}"

    def cmd_rm(self, args: list[str], io: IO) -> int:
        flags, paths = split_flags(args)
        force, recursive = "f" in flags, bool(flags & {"r", "R"})
        if not paths and not force:
            return io.fail("rm: Needs 1 argument")
        status = 0
        for arg in paths:
            path = self.abspath(arg, io.cwd)
            is_file, is_dir = self.file_bytes(path) is not None, self.is_dir(path)
            if not (is_file or is_dir):
                status = status if force else io.fail(f"rm: {arg}: No such file or directory")
            elif is_dir and not recursive:
                status = io.fail(f"rm: {arg}: Is a directory")
            elif (reason := self.write_error(path)) is not None:
                status = io.fail(f"rm: {arg}: {reason}")
            else:
                self.remove(path)
        return status

    def cmd_mkdir(self, args: list[str], io: IO) -> int:
        args = [a for k, a in enumerate(args) if a != "-m" and (k == 0 or args[k - 1] != "-m")]
        flags, paths = split_flags(args)
        status = 0
        for arg in paths:
            path = self.abspath(arg, io.cwd)
            if self.is_dir(path) or self.file_bytes(path) is not None:
                if "p" not in flags or not self.is_dir(path):
                    status = io.fail(f"mkdir: '{arg}': File exists")
            elif (reason := self.write_error(path)) is not None:
                status = io.fail(f"mkdir: '{arg}': {reason}")
            elif not self.is_dir(posixpath.dirname(path)) and "p" not in flags:
                status = io.fail(f"mkdir: '{arg}': No such file or directory")
            else:
                self.make_dirs(path)
        return status

    def cmd_touch(self, args: list[str], io: IO) -> int:
        _, paths = split_flags(args)
        status = 0
        for arg in paths:
            path = self.abspath(arg, io.cwd)
            if self.is_dir(path) or self.file_bytes(path) is not None:
                if self.write_error(path) is None:
                    self._mtimes[path] = epoch(self.device.system.now)
            elif (reason := self.create_file(path, truncate=False)) is not None:
                status = io.fail(f"touch: '{arg}': {reason}")
        return status

    def cmd_mv(self, args: list[str], io: IO) -> int:
        return self._transfer("mv", args, io, move=True)

    def cmd_cp(self, args: list[str], io: IO) -> int:
        return self._transfer("cp", args, io, move=False)

    def _transfer(self, name: str, args: list[str], io: IO, *, move: bool) -> int:
        flags, paths = split_flags(args)
        if len(paths) < 2:
            return io.fail(f"{name}: Needs 2 arguments")
        *sources, dest = paths
        dest_path = self.abspath(dest, io.cwd)
        into = self.is_dir(dest_path)
        if len(sources) > 1 and not into:
            return io.fail(f"{name}: '{dest}' not directory")
        status = 0
        for src in sources:
            src_path = self.abspath(src, io.cwd)
            target = posixpath.join(dest_path, posixpath.basename(src_path)) if into else dest_path
            error = self._copy(src_path, target, move=move,
                               recursive=move or bool(flags & {"r", "R", "a"}))
            if error is not None:
                status = io.fail(f"{name}: {src}: {error}")
        return status

    def _copy(self, src: str, dest: str, *, move: bool, recursive: bool) -> str | None:
        """Copy (or move) a file or folder; an error or None."""
        is_dir = self.is_dir(src)
        if self.file_bytes(src) is None and not is_dir:
            return "No such file or directory"
        if is_dir and not recursive:
            return "Is a directory"
        if dest == src or dest.startswith(src + "/"):
            return "Invalid argument"
        reason = self.write_error(dest) or (self.write_error(src) if move else None)
        if reason is None and not self.is_dir(posixpath.dirname(dest)):
            reason = "No such file or directory"
        if reason is not None:
            return reason
        if is_dir:
            prefix = src + "/"
            for p in [p for p in self.all_files() if p.startswith(prefix)]:
                self.make_dirs(posixpath.dirname(dest + p[len(src):]))
                self.store(dest + p[len(src):], self.file_bytes(p) or b"")
            for d in [d for d in self._dirs if d == src or d.startswith(prefix)]:
                self.make_dirs(dest + d[len(src):])
        else:
            self.store(dest, self.file_bytes(src) or b"")
        if move:
            self.remove(src)
        return None

    # --- input -----------------------------------------------------------------------------
    def cmd_input(self, args: list[str], io: IO) -> int:
        args = list(args)
        if args and args[0] in INPUT_SOURCES:
            args.pop(0)
        if len(args) >= 2 and args[0] == "-d":
            del args[:2]
        if not args:
            return io.fail(INPUT_USAGE)
        sub, rest = args[0], args[1:]
        handlers: dict[str, Callable[[list[str]], None]] = {
            "tap": self._tap, "swipe": self._swipe, "draganddrop": self._swipe,
            "text": self._text, "keyevent": self._keyevent, "press": lambda a: None,
            "roll": lambda a: None, "motionevent": lambda a: None}
        handler = handlers.get(sub)
        if handler is None:
            return io.fail(f"Error: Unknown command: {sub}\n{INPUT_USAGE}")
        try:
            handler(rest)
        except (ValueError, OverflowError) as exc:
            detail = f": {exc}" if str(exc) else ""
            return io.fail(f"Error: Invalid arguments for command: {sub}{detail}")
        return 0

    def _act(self, action: PhoneAction, **points: Any) -> None:
        self.last_input_error = self.device.step(action, **points)

    def _touch(self, kind: str, px: tuple[int, int], px2: tuple[int, int] | None = None) -> None:
        """A pointer action at screen pixels (the action's own coordinates are dummies)."""
        if kind == "drag":
            self._act(PhoneAction("drag", x=0, y=0, x2=0, y2=0), px=clamp(px), px2=clamp(px2))
        else:
            self._act(PhoneAction(kind, x=0, y=0), px=clamp(px))

    def _tap(self, args: list[str]) -> None:
        x, y = numbers(args, 2)
        self._touch("click", (x, y))

    def _swipe(self, args: list[str]) -> None:
        """A swipe: a drag, or a tap or long press when the finger hardly moves."""
        if len(args) not in (4, 5):
            raise ValueError("expected X1 Y1 X2 Y2 [DURATION(ms)]")
        x1, y1, x2, y2 = numbers(args[:4], 4)
        duration = numbers(args[4:], 1)[0] if len(args) == 5 else 300
        if math.hypot(x2 - x1, y2 - y1) <= TOUCH_SLOP:
            self._touch("long_press" if duration >= LONG_PRESS_MS else "click", (x1, y1))
        else:
            self._touch("drag", (x1, y1), (x2, y2))

    def _text(self, args: list[str]) -> None:
        if not args:
            raise ValueError("expected TEXT")
        text = input_text(args[0])
        for start in range(0, len(text), MAX_TEXT):
            self._act(PhoneAction("type", text=text[start:start + MAX_TEXT]))

    def _keyevent(self, args: list[str]) -> None:
        keys = [a for a in args if not a.startswith("--")]
        codes = [keycode(a) for a in keys]
        if not keys or None in codes:
            bad = [k for k, c in zip(keys, codes, strict=True) if c is None]
            raise ValueError(f"unknown keycode {bad[0]}" if bad else "expected KEYCODE")
        for code in codes:
            self._key(int(code or 0))

    def _key(self, code: int) -> None:
        buttons = {3: "home", 4: "back", 111: "back", 66: "enter", 160: "enter", 187: "recents"}
        if code in buttons:
            self._act(PhoneAction("press", button=buttons[code]))
        elif code == 67:
            self._delete_char()
        elif code in KEY_CHARS:
            self._act(PhoneAction("type", text=KEY_CHARS[code]))

    def _delete_char(self) -> None:
        """KEYCODE_DEL: tap the soft keyboard's delete key, if a keyboard is shown."""
        for placed in reversed(self.device.frame().items):
            if placed.node.kind == "key" and placed.node.id == "key_delete":
                x0, y0, x1, y1 = placed.rect
                self._touch("click", ((x0 + x1) // 2, (y0 + y1) // 2))
                return

    # --- activities ----------------------------------------------------------------------
    def navigate(self, change: Callable[[], None]) -> None:
        """Change the screen as the device's own navigation does (no clock tick)."""
        device = self.device
        before = device.screen_key()
        change()
        if device.screen_key() != before:
            device.focus = None
            device.close_menu()
        device.invalidate()

    def open_app(self, app: App) -> None:
        self.navigate(lambda: self.device.open(app.name))

    def go_home(self) -> None:
        self.navigate(lambda: self.device.press("home"))

    def cmd_am(self, args: list[str], io: IO) -> int:
        if not args:
            return io.fail("usage: am [start|force-stop|broadcast|kill] ...", 255)
        sub, rest = args[0], args[1:]
        if sub in ("start", "start-activity"):
            return self._am_start(rest, io)
        if sub == "force-stop":
            for package in strip_user(rest):
                stop_app(self.device, package)
            return 0
        if sub in ("kill", "kill-all"):
            return 0
        if sub == "broadcast":
            try:
                intent = Intent.parse(rest)
            except ValueError as exc:
                return io.fail(f"Error: {exc}", 255)
            io.print(f"Broadcasting: Intent {{ {intent.describe()} }}")
            io.print("Broadcast completed: result=0")
            return 0
        return io.fail(f"Error: Unknown command: {sub}", 255)

    def _am_start(self, args: list[str], io: IO) -> int:
        try:
            intent = Intent.parse(args)
        except ValueError as exc:
            return io.fail(f"Error: {exc}", 255)
        io.print(f"Starting: Intent {{ {intent.describe()} }}")
        try:
            package = self._launch(intent)
        except LaunchError as exc:
            return io.fail(str(exc))
        if package is None:
            io.print("Warning: Activity not started, intent has been delivered to currently "
                     "running top-most instance.")
        elif intent.wait:
            io.print(f"Status: ok\nLaunchState: COLD\nActivity: {package}/.MainActivity\n"
                     "TotalTime: 312\nWaitTime: 318\nComplete")
        return 0

    def _launch(self, intent: Intent) -> str | None:
        """Carry out an activity intent: the package shown (None if it was on top already).
        Raises ``LaunchError`` when nothing handles it."""
        package = intent.package
        if intent.component is not None:
            package, _, cls = intent.component.partition("/")
            if not cls:
                raise LaunchError(f"Error: Bad component name: {intent.component}")
            if package != LAUNCHER_PACKAGE and find_app(self.device, package) is None:
                full = package + cls if cls.startswith(".") else cls
                raise LaunchError(f"Error type 3\nError: Activity class {{{package}/{full}}} "
                                  "does not exist.")
        if intent.action == SET_ALARM and package in (None, CLOCK_PACKAGE):
            return self._set_alarm_intent(intent)
        if intent.action is not None and intent.action.startswith("android.settings."):
            package = package or "com.android.settings"
        home = "android.intent.category.HOME" in intent.categories
        if package == LAUNCHER_PACKAGE or (home and package is None):
            self.go_home()
            return LAUNCHER_PACKAGE
        app = find_app(self.device, package) if package else None
        action = intent.action or MAIN
        if app is None or not (action == MAIN or action.startswith("android.settings.")):
            raise LaunchError(f"Error: Activity not started, unable to resolve Intent "
                              f"{{ {intent.describe()} }}")
        if self.device.current_app is app and not self.device.shade_open:
            return None
        self.open_app(app)
        return app.package

    def _set_alarm_intent(self, intent: Intent) -> str:
        """``android.intent.action.SET_ALARM`` as the clock app handles it."""
        app = find_app(self.device, CLOCK_PACKAGE)
        if app is None:
            raise LaunchError(f"Error: Activity not started, unable to resolve Intent "
                              f"{{ {intent.describe()} }}")
        extras = intent.extras
        hour, minute = extras.get(EXTRA + "HOUR"), extras.get(EXTRA + "MINUTES", 0)
        valid = isinstance(hour, int) and isinstance(minute, int) and 0 <= hour <= 23 \
            and 0 <= minute <= 59
        if valid:
            days = [DAYS[(int(d) - 2) % 7] for d in extras.get(EXTRA + "DAYS") or []]
            set_alarm(self.device, int(hour), int(minute), str(extras.get(EXTRA + "MESSAGE")
                                                                or ""), days)
        if not (valid and extras.get(EXTRA + "SKIP_UI") is True):
            self.open_app(app)
        return app.package

    def cmd_monkey(self, args: list[str], io: IO) -> int:
        packages, count = [], 1
        it = iter(args)
        for arg in it:
            if arg == "-p":
                packages.append(next(it, ""))
            elif arg in ("-c", "--throttle", "-s", "--pct-touch", "--pct-motion"):
                next(it, None)
            elif arg.isdigit():
                count = int(arg)
        app = next((a for p in packages if (a := find_app(self.device, p)) is not None), None)
        if app is None:
            return io.fail("** No activities found to run, monkey aborted.", 252)
        self.open_app(app)
        for arg in args:
            io.print(f"  bash arg: {arg}")
        io.print(f"Events injected: {count}")
        io.print("## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)")
        return 0

    # --- packages --------------------------------------------------------------------------
    def packages(self) -> list[str]:
        """Installed packages: the mock apps and the system ones."""
        apps = [a.package for a in self.device.apps.values()]
        return list(dict.fromkeys([*SYSTEM_PACKAGES, *apps]))

    def package_path(self, package: str) -> str:
        if find_app(self.device, package) is not None:
            return f"/data/app/~~phonegym==/{package}-1/base.apk"
        name = package.rsplit(".", 1)[-1].capitalize()
        return f"/system/priv-app/{name}/{name}.apk"

    def cmd_pm(self, args: list[str], io: IO) -> int:
        if not args:
            return io.fail("usage: pm [list|path|clear] ...", 255)
        sub, rest = args[0], strip_user(args[1:])
        if sub == "list" and rest[:1] == ["packages"]:
            return self._pm_list(rest[1:], io)
        if sub == "path" and rest:
            if rest[0] not in self.packages():
                return 1
            io.print(f"package:{self.package_path(rest[0])}")
            return 0
        if sub == "clear" and rest:
            package = rest[0]
            if clear_app_data(self.device, package) or package in SYSTEM_PACKAGES:
                io.print("Success")
                return 0
            return io.fail("Failed")
        return io.fail(f"Error: unknown or incomplete command: pm {' '.join(args)}", 255)

    def _pm_list(self, args: list[str], io: IO) -> int:
        flags, rest = split_flags(args)
        mock = {a.package for a in self.device.apps.values()}
        for package in sorted(self.packages()):
            if rest and rest[0] not in package:
                continue
            if ("3" in flags and package not in mock) or ("s" in flags and package in mock):
                continue
            path = f"{self.package_path(package)}=" if "f" in flags else ""
            io.print(f"package:{path}{package}")
        return 0

    # --- screen ------------------------------------------------------------------------------
    def screenshot(self) -> np.ndarray:
        """The current frame as a ``2400 x 1080 x 3`` uint8 array."""
        if self._renderer is None:
            self._renderer = Renderer(T.SCREEN_W, T.SCREEN_H)
        return self._renderer.render(self.device.frame())

    def cmd_screencap(self, args: list[str], io: IO) -> int:
        args = [a for k, a in enumerate(args) if a != "-d" and (k == 0 or args[k - 1] != "-d")]
        flags, files = split_flags(args)
        image = self.screenshot()
        path = files[0] if files else None
        if "p" in flags or (path is not None and path.endswith(".png")):
            buf = BytesIO()
            Image.fromarray(image).save(buf, format="PNG", compress_level=1)
            data = buf.getvalue()
        else:
            h, w = image.shape[:2]
            rgba = np.dstack([image, np.full((h, w), 255, np.uint8)])
            data = np.array([w, h, 1, 0], "<u4").tobytes() + rgba.tobytes()
        if path is None:
            io.out += data
            return 0
        target = self.abspath(path, io.cwd)
        reason = self.create_file(target, truncate=True)
        if reason is not None:
            return io.fail(f"Error opening file: {path} ({reason})")
        self.store(target, data)
        return 0

    def cmd_wm(self, args: list[str], io: IO) -> int:
        if args == ["size"]:
            io.print(f"Physical size: {T.SCREEN_W}x{T.SCREEN_H}")
        elif args == ["density"]:
            io.print(f"Physical density: {DENSITY}")
        else:
            return io.fail(f"Error: not supported on this phone: wm {' '.join(args)}", 255)
        return 0

    def cmd_uiautomator(self, args: list[str], io: IO) -> int:
        if not args or args[0] != "dump":
            return io.fail("Usage: uiautomator dump [--compressed] [FILE]", 1)
        files = [a for a in args[1:] if not a.startswith("--")]
        path = files[0] if files else "/sdcard/window_dump.xml"
        xml = to_xml(self.device.frame())
        if path == "/dev/tty":
            io.print(xml, end="")
        else:
            target = self.abspath(path, io.cwd)
            reason = self.create_file(target, truncate=True)
            if reason is not None:
                return io.fail(f"ERROR: could not write {path}: {reason}")
            self.store(target, xml.encode("utf-8"))
        io.print(f"UI hierchary dumped to: {path}")
        return 0

    # --- properties and settings -----------------------------------------------------------
    def cmd_getprop(self, args: list[str], io: IO) -> int:
        if not args:
            for key, value in sorted(self.properties.items()):
                io.print(f"[{key}]: [{value}]")
        else:
            io.print(self.properties.get(args[0], args[1] if len(args) > 1 else ""))
        return 0

    def cmd_setprop(self, args: list[str], io: IO) -> int:
        if len(args) != 2:
            return io.fail("setprop: need 2 arguments")
        if args[0].startswith("ro."):
            return io.fail(f"Failed to set property '{args[0]}' to '{args[1]}'.")
        self.properties[args[0]] = args[1]
        return 0

    def cmd_settings(self, args: list[str], io: IO) -> int:
        args = strip_user(args)
        verb = args[0] if args else ""
        if verb not in ("get", "put", "delete", "list") or len(args) < 2:
            return io.fail(SETTINGS_USAGE, 255)
        namespace, rest = args[1], args[2:]
        if namespace not in NAMESPACES:
            return io.fail(f"Invalid namespace '{namespace}'\n{SETTINGS_USAGE}", 255)
        system = self.device.system
        table = system.settings.setdefault(namespace, {})
        if verb == "list":
            for key, value in sorted(table.items()):
                io.print(f"{key}={value}")
        elif verb == "get" and rest:
            value = table.get(rest[0])
            io.print("null" if value is None else value)
        elif verb == "put" and len(rest) >= 2:
            system.put_setting(namespace, rest[0], rest[1])
            self.device.invalidate()
        elif verb == "delete" and rest:
            io.print(f"Deleted {int(table.pop(rest[0], None) is not None)} rows")
            self.device.invalidate()
        else:
            return io.fail(SETTINGS_USAGE, 255)
        return 0

    def cmd_svc(self, args: list[str], io: IO) -> int:
        keys = {"wifi": "wifi_on", "bluetooth": "bluetooth_on"}
        if len(args) != 2 or args[0] not in keys or args[1] not in ("enable", "disable"):
            return io.fail("usage: svc wifi|bluetooth enable|disable", 1)
        self.device.system.put_setting("global", keys[args[0]], "1" if args[1] == "enable"
                                       else "0")
        self.device.invalidate()
        return 0

    def cmd_cmd(self, args: list[str], io: IO) -> int:
        """``cmd SERVICE ...``: package, settings, activity, input and statusbar."""
        services: dict[str, Command] = {"package": self.cmd_pm, "settings": self.cmd_settings,
                                        "activity": self.cmd_am, "input": self.cmd_input,
                                        "statusbar": self._statusbar}
        if not args or args[0] not in services:
            return io.fail(f"cmd: Can't find service: {args[0] if args else ''}", 20)
        return services[args[0]](args[1:], io)

    def _statusbar(self, args: list[str], io: IO) -> int:
        if args[:1] in (["expand-notifications"], ["expand-settings"]):
            self.navigate(lambda: setattr(self.device, "shade_open", True))
        elif args[:1] == ["collapse"]:
            self.navigate(lambda: setattr(self.device, "shade_open", False))
        else:
            return io.fail("usage: cmd statusbar expand-notifications|expand-settings|collapse")
        return 0

    # --- dumpsys ---------------------------------------------------------------------------
    def cmd_dumpsys(self, args: list[str], io: IO) -> int:
        services: dict[str, Callable[[], str]] = {
            "window": self.dump_window, "activity": self.dump_activities,
            "alarm": self.dump_alarm, "input_method": self.dump_input_method,
            "display": self.dump_display, "power": self.dump_power,
            "battery": self.dump_battery,
        }
        if not args:
            io.print("Currently running services:\n" + "".join(f"  {s}\n" for s in services),
                     end="")
            return 0
        if args[:2] == ["activity", "top"]:
            io.print(self.dump_top(), end="")
            return 0
        dump = services.get(args[0])
        if dump is None:
            return io.fail(f"Can't find service: {args[0]}", 0)
        io.print(dump(), end="")
        return 0

    def focus(self) -> tuple[str, str]:
        """The focused window's package and title (``PKG/PKG.MainActivity``)."""
        device = self.device
        if device.shade_open:
            return SYSTEMUI_PACKAGE, "NotificationShade"
        app = device.current_app
        package = app.package if app is not None else LAUNCHER_PACKAGE
        return package, f"{package}/{package}.MainActivity"

    def task_id(self, package: str) -> int:
        names = [a.package for a in self.device.apps.values()]
        return 10 + names.index(package) if package in names else 1

    def record(self, package: str) -> str:
        """An ``ActivityRecord{...}`` of the package's main activity."""
        return (f"ActivityRecord{{{hexid(package + 'r')} u0 {package}/.MainActivity "
                f"t{self.task_id(package)}}}")

    def top_package(self) -> str:
        app = self.device.current_app
        return app.package if app is not None else LAUNCHER_PACKAGE

    def dump_window(self) -> str:
        package, title = self.focus()
        window = f"Window{{{hexid(title)} u0 {title}}}"
        lines = ["WINDOW MANAGER WINDOWS (dumpsys window windows)",
                 f"  Window #0 {window}:",
                 f"    mDisplayId=0 rootTaskId={self.task_id(package)} package={package}",
                 f"    mFrame=[0,0][{T.SCREEN_W},{T.SCREEN_H}]"]
        if self.device.keyboard_shown:
            lines.append(f"  Window #1 Window{{{hexid(IME_PACKAGE)} u0 InputMethod}}:")
            lines.append(f"    package={IME_PACKAGE}")
        lines += ["", f"  init={T.SCREEN_W}x{T.SCREEN_H} {DENSITY}dpi cur={T.SCREEN_W}x"
                      f"{T.SCREEN_H} app={T.SCREEN_W}x{T.SCREEN_H - T.NAV_H}",
                  "  mTopFocusedDisplayId=0",
                  f"  mCurrentFocus={window}",
                  f"  mFocusedApp={self.record(self.top_package())}"]
        return "\n".join(lines) + "\n"

    def dump_activities(self) -> str:
        top = self.top_package()
        lines = ["ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)",
                 "Display #0 (activities from top to bottom):"]
        tasks = [top] + [self.device.apps[n].package for n in self.device.recents]
        for package in dict.fromkeys([*tasks, LAUNCHER_PACKAGE]):
            lines.append(f"  * Task{{{hexid(package + 't')} #{self.task_id(package)} "
                         f"type=standard A=10100:{package} U=0 visible={package == top}}}")
            lines.append(f"    * Hist  #0: {self.record(package)}")
        lines += ["", f"  mResumedActivity: {self.record(top)}",
                  f"  topResumedActivity={self.record(top)}",
                  f"  ResumedActivity:{self.record(top)}"]
        return "\n".join(lines) + "\n"

    def dump_top(self) -> str:
        """``dumpsys activity top``: the top activity with a pid."""
        top = self.top_package()
        return (f"TASK {top} id={self.task_id(top)} userId=0\n"
                f"  ACTIVITY {top}/.MainActivity {hexid(top + 'a')} pid={1000 + self.task_id(top)}"
                "\n")

    def dump_display(self) -> str:
        w, h = T.SCREEN_W, T.SCREEN_H
        return (f"DISPLAY MANAGER (dumpsys display)\n  mViewports=[DisplayViewport{{type=INTERNAL,"
                f" valid=true, isActive=true, displayId=0, uniqueId='local:0', "
                f"physicalPort=0, orientation=0, logicalFrame=Rect(0, 0 - {w}, {h}), "
                f"physicalFrame=Rect(0, 0 - {w}, {h}), deviceWidth={w}, deviceHeight={h}}}]\n"
                f"  mCurrentOrientation=0\n")

    def dump_power(self) -> str:
        return ("POWER MANAGER (dumpsys power)\n  mWakefulness=Awake\n"
                "  mHoldingDisplaySuspendBlocker=true\n  Display Power: state=ON\n")

    def dump_battery(self) -> str:
        return ("Current Battery Service state:\n  AC powered: false\n  USB powered: true\n"
                "  Wireless powered: false\n  status: 5\n  health: 2\n  present: true\n"
                "  level: 100\n  scale: 100\n  voltage: 4300\n  temperature: 250\n"
                "  technology: Li-ion\n")

    def dump_input_method(self) -> str:
        return (f"Input method service state:\n  mCurId={IME_PACKAGE}/.LatinIME\n"
                f"  mInputShown={str(self.device.keyboard_shown).lower()}\n")

    def dump_alarm(self) -> str:
        """``dumpsys alarm``: one RTC_WAKEUP block for each enabled clock alarm (at its next
        ring time) among the system's own alarms, soonest first."""
        now = self.device.system.now
        entries = [(now.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1),
                    "RTC", SYSTEMUI_PACKAGE, "*alarm*:android.intent.action.DATE_CHANGED")]
        data = clock_data(self.device)
        for alarm in data.alarms if data is not None else []:
            if alarm.enabled:
                entries.append((next_ring(alarm, now), "RTC_WAKEUP", CLOCK_PACKAGE,
                                "*walarm*:com.android.deskclock.ALARM_ALERT"))
        entries.sort(key=lambda e: e[0])
        lines = ["Current Alarm Manager state:", "  Settings:", "    min_futurity=+5s0ms", "",
                 f"  nowRTC={epoch(now) * 1000}={stamp(now)} "
                 f"nowELAPSED={duration(now - self._boot)}", "",
                 f"  Pending alarms: {len(entries)}"]
        for k, (when, kind, package, tag) in enumerate(entries):
            lines += self._alarm_block(k, when, kind, package, tag, now)
        clocks = [e for e in entries if e[2] == CLOCK_PACKAGE]
        lines += ["", "  Next alarm clock information: "]
        if clocks:
            when = clocks[0][0]
            lines.append(f"    user:0 pendingSend:false time:{epoch(when) * 1000} = "
                         f"{when:%Y-%m-%d %H:%M:%S} = {duration(when - now)}")
        return "\n".join(lines) + "\n"

    def _alarm_block(self, k: int, when: datetime, kind: str, package: str, tag: str,
                     now: datetime) -> list[str]:
        millis, ahead = epoch(when) * 1000, duration(when - now)
        elapsed = int((when - self._boot).total_seconds() * 1000)
        return [
            f"    {kind} #{k}: Alarm{{{hexid(tag + str(millis))} type "
            f"{0 if kind == 'RTC_WAKEUP' else 1} origWhen {millis} whenElapsed {elapsed} "
            f"{package}}}",
            f"      tag={tag}",
            f"      type={kind} origWhen={stamp(when)} window=0 exactAllowReason=policy_permission"
            " repeatInterval=0 count=0 flags=0x3",
            f"      policyWhenElapsed: requester={ahead} app_standby=-- device_idle=-- "
            "battery_saver=--",
            f"      whenElapsed={ahead} maxWhenElapsed={ahead}",
            f"      operation=PendingIntent{{{hexid(tag + str(k))}: PendingIntentRecord{{"
            f"{hexid(package)} {package} broadcastIntent}}}}",
        ]

    # --- content providers -----------------------------------------------------------------
    def cmd_content(self, args: list[str], io: IO) -> int:
        verb = args[0] if args else ""
        if verb not in ("query", "insert", "delete"):
            return io.fail(CONTENT_USAGE)
        try:
            opts = ContentArgs.parse(args[1:])
        except ValueError as exc:
            return io.fail(f"Error: {exc}")
        if not opts.uri:
            return io.fail("[ERROR] Content provider URI not specified. Did you specify "
                           "--uri argument?")
        authority = opts.uri.partition("://")[2].partition("/")[0]
        table = provider_table(opts.uri)
        try:
            if table is None:
                raise ProviderError(f"java.lang.IllegalArgumentException: Unknown URL {opts.uri}")
            getattr(self, f"_content_{verb}")(table, opts, io)
        except ProviderError as exc:
            return io.fail(f"Error while accessing provider:{authority}\n{exc}")
        return 0

    def table_rows(self, table: str) -> list[dict[str, Any]]:
        """The rows a provider table holds now (computed from the device's state)."""
        system = self.device.system
        if table.startswith("settings/"):
            values = sorted(system.settings.get(table.partition("/")[2], {}).items())
            return [{"_id": k + 1, "name": name, "value": value}
                    for k, (name, value) in enumerate(values)]
        if table == "contacts":
            return [{"_id": c.id, "display_name": c.name or None, "starred": int(c.starred),
                     "has_phone_number": int(bool(c.phone))} for c in system.contacts]
        if table == "raw_contacts":
            return [{"_id": c.id, "contact_id": c.id, "display_name": c.name or None,
                     "account_type": None, "account_name": None, "deleted": 0,
                     "starred": int(c.starred)} for c in system.contacts]
        rows = [row for c in system.contacts for row in data_rows(c)]
        kind = {"data/phones": MIME_PHONE, "data/emails": MIME_EMAIL}.get(table)
        return [r for r in rows if kind is None or r["mimetype"] == kind]

    def _select(self, table: str, where: str | None) -> list[dict[str, Any]]:
        rows = self.table_rows(table)
        if not where:
            return rows
        predicate = Where(where, table_columns(table)).parse()
        return [r for r in rows if predicate(r)]

    def _content_query(self, table: str, opts: ContentArgs, io: IO) -> None:
        columns = table_columns(table)
        projection = opts.projection or list(columns)
        bad = [c for c in projection if c not in columns]
        if bad:
            raise ProviderError(f"java.lang.IllegalArgumentException: Invalid column {bad[0]}")
        rows = sort_rows(self._select(table, opts.where), opts.sort, columns)
        if not rows:
            io.print("No result found.")
        for k, row in enumerate(rows):
            io.print(f"Row: {k} " + ", ".join(f"{c}={cell(row.get(c))}" for c in projection))

    def _content_insert(self, table: str, opts: ContentArgs, io: IO) -> None:
        system, values = self.device.system, opts.binds
        if table.startswith("settings/"):
            if not values.get("name"):
                raise ProviderError("java.lang.IllegalArgumentException: name must not be empty")
            value = values.get("value")
            system.put_setting(table.partition("/")[2], str(values["name"]),
                               "" if value is None else str(value))
        elif table == "raw_contacts":
            system.contacts.append(Contact(system.new_id(), "",
                                           starred=bool(values.get("starred"))))
        elif table == "data":
            self._insert_data(values)
        else:
            raise ProviderError(f"java.lang.UnsupportedOperationException: Cannot insert into "
                                f"URI: {opts.uri}")
        self.device.invalidate()

    def _insert_data(self, values: dict[str, Any]) -> None:
        raw = values.get("raw_contact_id")
        contact = self.device.system.contact(int(raw)) if isinstance(raw, int) else None
        if contact is None:
            raise ProviderError(f"java.lang.IllegalArgumentException: raw_contact_id {raw} "
                                "does not exist")
        mime, value = values.get("mimetype"), values.get("data1")
        if mime is None:
            raise ProviderError("java.lang.IllegalArgumentException: mimetype is required")
        if mime == MIME_NAME:
            parts = [str(values[k]) for k in ("data4", "data2", "data5", "data3", "data6")
                     if values.get(k)]
            contact.name = str(value) if value else " ".join(parts)
        elif mime == MIME_PHONE:
            contact.phone = "" if value is None else str(value)
        elif mime == MIME_EMAIL:
            contact.email = "" if value is None else str(value)

    def _content_delete(self, table: str, opts: ContentArgs, io: IO) -> None:
        system = self.device.system
        rows = self._select(table, opts.where)
        if table.startswith("settings/"):
            namespace = system.settings.get(table.partition("/")[2], {})
            for row in rows:
                namespace.pop(row["name"], None)
        elif table in ("contacts", "raw_contacts"):
            ids = {row["_id"] for row in rows}
            system.contacts = [c for c in system.contacts if c.id not in ids]
        else:
            fields = {MIME_NAME: "name", MIME_PHONE: "phone", MIME_EMAIL: "email"}
            for row in rows:
                contact = system.contact(row["raw_contact_id"])
                if contact is not None:
                    setattr(contact, fields[row["mimetype"]], "")
        self.device.invalidate()


# ==========================================================================================
# Helpers of the commands
# ==========================================================================================
INPUT_SOURCES = frozenset({"touchscreen", "touchpad", "mouse", "keyboard", "dpad", "gamepad",
                           "joystick", "stylus", "trackball", "touchnavigation",
                           "rotaryencoder"})
INPUT_USAGE = ("Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n"
               "  text <string> | keyevent <key code>... | tap <x> <y> | "
               "swipe <x1> <y1> <x2> <y2> [duration(ms)] | draganddrop <x1> <y1> <x2> <y2>")
TOUCH_SLOP = 20  # px: a swipe shorter than this is a tap or a long press
LONG_PRESS_MS = 500
MAX_TEXT = 500  # PhoneAction's longest text
#: Key codes by name (``KEYCODE_`` prefix optional on the command line).
KEYCODES: dict[str, int] = {
    "HOME": 3, "BACK": 4, "CALL": 5, "ENDCALL": 6, "STAR": 17, "POUND": 18, "DPAD_UP": 19,
    "DPAD_DOWN": 20, "DPAD_LEFT": 21, "DPAD_RIGHT": 22, "DPAD_CENTER": 23, "VOLUME_UP": 24,
    "VOLUME_DOWN": 25, "POWER": 26, "CAMERA": 27, "COMMA": 55, "PERIOD": 56, "TAB": 61,
    "SPACE": 62, "ENTER": 66, "DEL": 67, "MINUS": 69, "EQUALS": 70, "AT": 77, "MENU": 82,
    "NOTIFICATION": 83, "SEARCH": 84, "MEDIA_PLAY_PAUSE": 85, "ESCAPE": 111,
    "FORWARD_DEL": 112, "MOVE_HOME": 122, "MOVE_END": 123, "NUMPAD_ENTER": 160,
    "APP_SWITCH": 187, "SLEEP": 223, "WAKEUP": 224,
    **{str(d): 7 + d for d in range(10)},
    **{chr(ord("A") + k): 29 + k for k in range(26)},
}
#: Key codes that type a character into the focused field.
KEY_CHARS: dict[int, str] = {
    **{7 + d: str(d) for d in range(10)}, **{29 + k: chr(ord("a") + k) for k in range(26)},
    55: ",", 56: ".", 62: " ", 69: "-", 70: "=", 77: "@", 17: "*", 18: "#",
}
MAIN = "android.intent.action.MAIN"
SET_ALARM = "android.intent.action.SET_ALARM"
EXTRA = "android.intent.extra.alarm."
NAMESPACES = ("global", "system", "secure")
SETTINGS_USAGE = ("usage:  settings [--user <USER_ID>] get|put|delete|list NAMESPACE "
                  "[KEY [VALUE]]\n  NAMESPACE is one of {system, secure, global}.")
CONTENT_USAGE = ("usage: adb shell content [subcommand] [options]\n"
                 "  content query|insert|delete --uri <URI> [--projection <PROJECTION>] "
                 "[--where <WHERE>] [--sort <SORT_ORDER>] [--bind <COL>:<TYPE>:<VALUE>]")
MIME_NAME = "vnd.android.cursor.item/name"
MIME_PHONE = "vnd.android.cursor.item/phone_v2"
MIME_EMAIL = "vnd.android.cursor.item/email_v2"
DATA_COLUMNS = ("_id", "raw_contact_id", "contact_id", "mimetype", "display_name", "data1",
                "data2")
CONTACT_COLUMNS: dict[str, tuple[str, ...]] = {
    "contacts": ("_id", "display_name", "starred", "has_phone_number"),
    "raw_contacts": ("_id", "contact_id", "display_name", "account_type", "account_name",
                     "deleted", "starred"),
    "data": DATA_COLUMNS, "data/phones": DATA_COLUMNS, "data/emails": DATA_COLUMNS,
}


class LaunchError(Exception):
    """``am start`` could not start anything (the message is what ``am`` prints)."""


class ProviderError(Exception):
    """A content provider refused a request (the message is the Java exception line)."""


def hexid(text: str) -> str:
    """A stable identity hash (as Android prints object ids) for ``text``."""
    return f"{zlib.crc32(text.encode()) & 0xFFFFFFF:x}"


def stamp(when: datetime) -> str:
    return when.strftime("%Y-%m-%d %H:%M:%S.") + f"{when.microsecond // 1000:03d}"


def duration(delta: timedelta) -> str:
    """Android's ``TimeUtils.formatDuration``: ``+1d2h3m4s5ms``."""
    ms = int(delta.total_seconds() * 1000)
    sign, ms = ("+" if ms >= 0 else "-"), abs(ms)
    out, started = [], False
    for unit, size in (("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000)):
        value, ms = divmod(ms, size)
        started = started or value > 0
        if started:
            out.append(f"{value}{unit}")
    return sign + "".join(out) + f"{ms}ms"


def clamp(px: tuple[int, int] | None) -> tuple[int, int] | None:
    if px is None:
        return None
    return max(0, min(T.SCREEN_W - 1, px[0])), max(0, min(T.SCREEN_H - 1, px[1]))


def numbers(args: Sequence[str], count: int) -> list[int]:
    """``count`` numeric arguments (floats are accepted and truncated, as Android does)."""
    if len(args) != count:
        raise ValueError("")
    return [int(float(a)) for a in args]


def input_text(text: str) -> str:
    """What ``input text`` types: ``%s`` becomes a space (Android's own loop)."""
    buff, escape, i = list(text), False, 0
    while i < len(buff):
        if escape:
            escape = False
            if buff[i] == "s":
                buff[i] = " "
                i -= 1
                del buff[i]
        if buff[i] == "%":
            escape = True
        i += 1
    return "".join(buff)


def keycode(arg: str) -> int | None:
    if arg.isdigit():
        return int(arg)
    name = arg.upper().removeprefix("KEYCODE_")
    return KEYCODES.get(name)


def strip_user(args: Sequence[str]) -> list[str]:
    """``args`` without ``--user N`` (every command here acts for user 0)."""
    out: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--user":
            skip = True
        else:
            out.append(arg)
    return out


@dataclass
class Intent:
    """An intent as ``am start``/``am broadcast`` parse it."""

    action: str | None = None
    categories: list[str] = field(default_factory=list)
    component: str | None = None
    package: str | None = None
    data: str | None = None
    mime: str | None = None
    flags: str | None = None
    extras: dict[str, Any] = field(default_factory=dict)
    wait: bool = False

    @classmethod
    def parse(cls, args: Sequence[str]) -> Intent:
        """Raises ``ValueError`` with ``am``'s complaint."""
        intent, it = cls(), iter(args)
        for arg in it:
            if arg in VALUE_OPTIONS:
                value = next(it, None)
                if value is None:
                    raise ValueError(f"No argument for option {arg}")
                intent.option(arg, value, it)
            elif arg == "-W":
                intent.wait = True
            elif arg in FLAG_OPTIONS or arg.startswith(("--activity-", "--receiver-",
                                                        "--grant-")):
                continue
            elif arg.startswith("-"):
                raise ValueError(f"Unknown option: {arg}")
            elif "/" in arg and "://" not in arg:
                intent.component = arg
            else:
                intent.data = arg
        return intent

    def option(self, name: str, value: str, it: Iterator[str]) -> None:
        simple = {"-a": "action", "-n": "component", "-p": "package", "-d": "data",
                  "-t": "mime", "-f": "flags"}
        if name in simple:
            setattr(self, simple[name], value)
        elif name == "-c":
            self.categories.append(value)
        elif name == "--esn":
            self.extras[value] = None
        elif name in EXTRA_TYPES:
            raw = next(it, None)
            if raw is None:
                raise ValueError(f"No argument for option {name}")
            self.extras[value] = extra_value(name, raw)

    def describe(self) -> str:
        """``Intent.toShortString``: ``act=... cat=[...] pkg=... cmp=... (has extras)``."""
        parts = []
        for key, value in (("act", self.action), ("cat", self.categories and
                                                  f"[{','.join(self.categories)}]"),
                           ("dat", self.data), ("typ", self.mime), ("flg", self.flags),
                           ("pkg", self.package), ("cmp", self.short_component())):
            if value:
                parts.append(f"{key}={value}")
        if self.extras:
            parts.append("(has extras)")
        return " ".join(parts)

    def short_component(self) -> str | None:
        if self.component is None:
            return None
        package, _, cls = self.component.partition("/")
        return f"{package}/{cls[len(package):]}" if cls.startswith(package + ".") else \
            self.component


VALUE_OPTIONS = frozenset({"-a", "-c", "-n", "-p", "-d", "-t", "-f", "--user", "--display",
                           "--windowingMode", "--activityType", "-R", "-P", "--task",
                           "--start-profiler", "--sampling", "--attach-agent", "--esn",
                           "--es", "--ez", "--ei", "--el", "--ef", "--ed", "--eu", "--ecn",
                           "--eia", "--ela", "--efa", "--esa"})
FLAG_OPTIONS = frozenset({"-D", "-N", "-S", "--streaming", "--track-allocation",
                          "--debug-log-resolution", "--exclude-stopped-packages",
                          "--include-stopped-packages", "--dismiss-keyguard"})
EXTRA_TYPES = frozenset({"--es", "--ez", "--ei", "--el", "--ef", "--ed", "--eu", "--ecn",
                         "--eia", "--ela", "--efa", "--esa"})


def extra_value(option: str, raw: str) -> Any:
    """An ``--e?`` extra's value; ``ValueError`` when it does not parse."""
    try:
        if option == "--ez":
            if raw.lower() not in ("true", "false", "t", "f", "0", "1"):
                raise ValueError(raw)
            return raw.lower() in ("true", "t", "1")
        if option in ("--ei", "--el"):
            return int(raw)
        if option in ("--ef", "--ed"):
            return float(raw)
        if option in ("--eia", "--ela"):
            return [int(v) for v in raw.split(",") if v]
        if option == "--efa":
            return [float(v) for v in raw.split(",") if v]
        if option == "--esa":
            return raw.split(",")
    except ValueError:
        raise ValueError(f"Invalid value for {option}: {raw}") from None
    return raw


def unescape(text: str) -> tuple[str, bool]:
    """``echo -e`` escapes; also whether ``\\c`` stopped the output."""
    table = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "a": "\a", "b": "\b", "f": "\f",
             "v": "\v", "e": "\x1b", "0": "\0"}
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt == "c":
                return "".join(out), True
            out.append(table.get(nxt, "\\" + nxt))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out), False


PRINTF_SPEC = re.compile(r"%([-+ 0#]*)(\d*)(?:\.(\d+))?([sdicxXoufeEgGb%])")


def printf(fmt: str, args: list[str]) -> str:
    """``printf FORMAT ARGS``: the format repeats while arguments remain."""
    fmt, _ = unescape(fmt)
    out, queue = [], list(args)
    while True:
        used = False

        def spec(m: re.Match[str]) -> str:
            nonlocal used
            flags, width, precision, conv = m.groups()
            if conv == "%":
                return "%"
            used = True
            arg = queue.pop(0) if queue else ""
            if conv == "b":
                return unescape(arg)[0]
            pct = f"%{flags}{width}" + (f".{precision}" if precision else "")
            if conv in "dicxXou":
                number = int(float(arg)) if arg.strip() else 0
                return (pct + ("d" if conv in "iu" else conv)) % (
                    ord(arg[0]) if conv == "c" and arg else number) if conv != "c" else arg[:1]
            if conv in "feEgG":
                return (pct + conv) % (float(arg) if arg.strip() else 0.0)
            return (pct + "s") % arg

        out.append(PRINTF_SPEC.sub(spec, fmt))
        if not used or not queue:
            return "".join(out)


def grep_args(args: Sequence[str]) -> tuple[set[str], str, list[str]]:
    """``grep`` flags, the pattern and the files."""
    flags: set[str] = set()
    patterns: list[str] = []
    rest: list[str] = []
    it = iter(args)
    for arg in it:
        if arg == "-e":
            patterns.append(next(it, ""))
        elif arg.startswith("-") and len(arg) > 1 and not rest:
            flags.update(arg[1:])
        else:
            rest.append(arg)
    if not patterns:
        if not rest:
            raise ValueError("no pattern")
        patterns.append(rest.pop(0))
    return flags, "|".join(f"(?:{p})" if len(patterns) > 1 else p for p in patterns), rest


def grep_regex(pattern: str, flags: set[str]) -> re.Pattern[str]:
    if "F" in flags:
        pattern = re.escape(pattern)
    elif "E" not in flags:
        pattern = basic_regex(pattern)
    if "w" in flags:
        pattern = rf"\b(?:{pattern})\b"
    return re.compile(pattern, re.IGNORECASE if "i" in flags else 0)


def basic_regex(pattern: str) -> str:
    """A POSIX basic regular expression in Python's syntax (``\\(`` groups, ``+`` literal)."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            out.append(nxt if nxt in "+?|(){}" else "\\" + nxt)
            i += 2
            continue
        out.append("\\" + c if c in "+?|(){}" else c)
        i += 1
    return "".join(out)


# --- content providers ---------------------------------------------------------------------
@dataclass
class ContentArgs:
    """The options of ``content query|insert|delete``."""

    uri: str = ""
    projection: list[str] | None = None
    where: str | None = None
    sort: str | None = None
    binds: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def parse(cls, args: Sequence[str]) -> ContentArgs:
        opts, it = cls(), iter(args)
        for arg in it:
            value = next(it, None)
            if value is None:
                raise ValueError(f"Missing argument for {arg}")
            if arg == "--uri":
                opts.uri = value
            elif arg == "--projection":
                opts.projection = [c for c in value.split(":") if c]
            elif arg == "--where":
                opts.where = value
            elif arg == "--sort":
                opts.sort = value
            elif arg == "--bind":
                column, bound = parse_bind(value)
                opts.binds[column] = bound
            elif arg != "--user":
                raise ValueError(f"Unsupported argument: {arg}")
        return opts


def parse_bind(text: str) -> tuple[str, Any]:
    """``COLUMN:TYPE:VALUE`` (types s, i, l, f, d, b, n) as ``(column, value)``."""
    column, sep1, rest = text.partition(":")
    kind, sep2, value = rest.partition(":")
    if not (column and sep1 and sep2) and kind != "n":
        raise ValueError(f"Invalid binding: {text}")
    try:
        if kind == "s":
            return column, value
        if kind in ("i", "l"):
            return column, int(value)
        if kind in ("f", "d"):
            return column, float(value)
        if kind == "b":
            return column, int(value.lower() == "true")
        if kind == "n":
            return column, None
    except ValueError:
        pass
    raise ValueError(f"Invalid binding value: {text}")


def provider_table(uri: str) -> str | None:
    """The table a content URI names (``contacts``, ``data/phones``, ``settings/global``...)."""
    m = re.fullmatch(r"content://([\w.]+)/([\w/]+?)/?", uri)
    if m is None:
        return None
    authority, path = m.groups()
    if authority == "com.android.contacts" and path in CONTACT_COLUMNS:
        return path
    if authority == "settings" and path in NAMESPACES:
        return f"settings/{path}"
    return None


def table_columns(table: str) -> tuple[str, ...]:
    return ("_id", "name", "value") if table.startswith("settings/") else CONTACT_COLUMNS[table]


def data_rows(contact: Contact) -> list[dict[str, Any]]:
    """The contacts provider's data rows of one contact: name, phone, email."""
    base = {"raw_contact_id": contact.id, "contact_id": contact.id,
            "display_name": contact.name or None, "data2": None}
    rows = []
    for k, (mime, value, kind) in enumerate(((MIME_NAME, contact.name, None),
                                             (MIME_PHONE, contact.phone, 2),
                                             (MIME_EMAIL, contact.email, 1)), 1):
        if value:
            rows.append({**base, "_id": contact.id * 10 + k, "mimetype": mime, "data1": value,
                         "data2": kind})
    return rows


def cell(value: Any) -> str:
    return "NULL" if value is None else str(value)


def number(value: Any) -> float | None:
    """``value`` as a number when SQLite would compare it as one."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value)
    return float(value) if re.fullmatch(r"\s*-?\d+(\.\d+)?\s*", str(value)) else None


def sort_key(value: Any) -> tuple[int, float, str]:
    """SQLite's order: NULL, then numbers, then text."""
    if value is None:
        return (0, 0.0, "")
    n = number(value)
    return (1, n, "") if n is not None else (2, 0.0, str(value))


def sort_rows(rows: list[dict[str, Any]], sort: str | None,
              columns: Sequence[str]) -> list[dict[str, Any]]:
    """Rows in ``--sort`` order (``col [ASC|DESC], ...``)."""
    if not sort:
        return rows
    for term in reversed([t.split() for t in sort.split(",")]):
        if not term or term[0] not in columns:
            raise ProviderError(f"android.database.sqlite.SQLiteException: no such column: "
                                f"{term[0] if term else sort}")
        desc = term[-1].upper() == "DESC"
        rows = sorted(rows, key=lambda r, c=term[0]: sort_key(r.get(c)), reverse=desc)
    return rows


WHERE_TOKEN = re.compile(
    r"""\s*(?:(?P<str>'(?:[^']|'')*')|(?P<dq>"(?:[^"]|"")*")|(?P<num>-?\d+(?:\.\d+)?)(?![\w.])"""
    r"""|(?P<op><=|>=|!=|<>|==|=|<|>|\(|\)|,)|(?P<word>[A-Za-z_][A-Za-z0-9_.]*))""")
Predicate = Callable[[dict[str, Any]], bool]
Operand = Callable[[dict[str, Any]], Any]


class Where:
    """A small SQL ``WHERE`` clause: comparisons, ``LIKE``, ``IS [NOT] NULL``, ``IN``,
    ``AND``/``OR``/``NOT`` and parentheses."""

    def __init__(self, text: str, columns: Sequence[str]) -> None:
        self.text = text
        self.columns = columns
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        while pos < len(text.rstrip()):
            m = WHERE_TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                raise self.error(text[pos:].strip())
            kind = m.lastgroup or ""
            self.tokens.append((kind, m.group(kind)))
            pos = m.end()
        self.pos = 0

    def error(self, near: str) -> ProviderError:
        return ProviderError(f'android.database.sqlite.SQLiteException: near "{near[:20]}": '
                             f"syntax error (code 1 SQLITE_ERROR): , while compiling: "
                             f"{self.text}")

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ("", "")

    def keyword(self, word: str) -> bool:
        kind, value = self.peek()
        if kind == "word" and value.upper() == word:
            self.pos += 1
            return True
        return False

    def symbol(self, *ops: str) -> str | None:
        kind, value = self.peek()
        if kind == "op" and value in ops:
            self.pos += 1
            return value
        return None

    def parse(self) -> Predicate:
        predicate = self.disjunction()
        if self.pos < len(self.tokens):
            raise self.error(self.peek()[1])
        return predicate

    def disjunction(self) -> Predicate:
        terms = [self.conjunction()]
        while self.keyword("OR"):
            terms.append(self.conjunction())
        return terms[0] if len(terms) == 1 else (lambda row: any(t(row) for t in terms))

    def conjunction(self) -> Predicate:
        terms = [self.factor()]
        while self.keyword("AND"):
            terms.append(self.factor())
        return terms[0] if len(terms) == 1 else (lambda row: all(t(row) for t in terms))

    def factor(self) -> Predicate:
        if self.keyword("NOT"):
            inner = self.factor()
            return lambda row: not inner(row)
        if self.symbol("("):
            inner = self.disjunction()
            if not self.symbol(")"):
                raise self.error(self.peek()[1] or "end")
            return inner
        return self.comparison()

    def comparison(self) -> Predicate:
        left = self.operand()
        if self.keyword("IS"):
            negate = self.keyword("NOT")
            if not self.keyword("NULL"):
                raise self.error(self.peek()[1] or "end")
            return lambda row: (left(row) is None) != negate
        negate = self.keyword("NOT")
        if self.keyword("LIKE"):
            right = self.operand()
            return lambda row: like(left(row), right(row)) != negate
        if self.keyword("IN"):
            values = self.value_list()
            return lambda row: any(compare(left(row), v(row), "=") for v in values) != negate
        op = self.symbol("=", "==", "!=", "<>", "<", ">", "<=", ">=")
        if op is None or negate:
            raise self.error(self.peek()[1] or "end")
        right = self.operand()
        return lambda row: compare(left(row), right(row), op)

    def value_list(self) -> list[Operand]:
        if not self.symbol("("):
            raise self.error(self.peek()[1] or "end")
        values = [self.operand()]
        while self.symbol(","):
            values.append(self.operand())
        if not self.symbol(")"):
            raise self.error(self.peek()[1] or "end")
        return values

    def operand(self) -> Operand:
        kind, text = self.peek()
        self.pos += 1
        if kind == "str":
            value: Any = text[1:-1].replace("''", "'")
        elif kind == "num":
            value = float(text) if "." in text else int(text)
        elif kind == "dq" and text[1:-1] in self.columns:
            return lambda row, c=text[1:-1]: row.get(c)
        elif kind == "dq":
            value = text[1:-1].replace('""', '"')
        elif kind == "word" and text.upper() == "NULL":
            value = None
        elif kind == "word" and text in self.columns:
            return lambda row: row.get(text)
        elif kind == "word":
            raise ProviderError(f"android.database.sqlite.SQLiteException: no such column: "
                                f"{text} (code 1 SQLITE_ERROR)")
        else:
            self.pos -= 1
            raise self.error(text or "end")
        return lambda row: value


def compare(a: Any, b: Any, op: str) -> bool:
    """SQL comparison (NULL compares false; numbers as numbers, else text)."""
    if a is None or b is None:
        return False
    na, nb = number(a), number(b)
    x, y = (na, nb) if na is not None and nb is not None else (str(a), str(b))
    if op in ("=", "=="):
        return x == y
    if op in ("!=", "<>"):
        return x != y
    return {"<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y}[op]  # type: ignore[operator]


def like(value: Any, pattern: Any) -> bool:
    """SQL ``LIKE``: ``%`` and ``_`` wildcards, ASCII case-insensitive."""
    if value is None or pattern is None:
        return False
    regex = "".join(".*" if c == "%" else "." if c == "_" else re.escape(c) for c in str(pattern))
    return re.fullmatch(regex, str(value), re.IGNORECASE | re.DOTALL) is not None
