"""Toybox-like text and file commands of the phone's shell.

Text: ``true``, ``false``, ``echo``, ``printf``, ``grep``, ``head``, ``tail``, ``wc`` and
``sort`` (over files or stdin). Files: ``cat``, ``ls``, ``rm``, ``mkdir``, ``touch``, ``mv``
and ``cp`` on the phone's ``Storage`` (``fs.py``), with toybox's messages.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from datetime import datetime, timezone

from ..fs import DIR_MODE
from ..sh import IO
from .base import Commands, split_flags


class Coreutils(Commands):
    """The text and file commands."""

    # --- text --------------------------------------------------------------------------
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

    def cmd_grep(self, args: list[str], io: IO) -> int:
        try:
            opts, pattern, files = grep_args(args)
            regex = grep_regex(pattern, opts)
        except (ValueError, re.error) as exc:
            return io.fail(f"grep: {exc}", 2)
        sources = self._sources(files, io, "-")
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

    def _sources(self, files: list[str], io: IO,
                 stdin_name: str) -> list[tuple[str, bytes | None, str]]:
        """``(name, bytes or None, why not)`` of each file argument, or of stdin if none."""
        if not files:
            return [(stdin_name, io.stdin, "")]
        return [(f, *self.fs.read_arg(f, io.cwd)) for f in files]

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
            data, reason = self.fs.read_arg(rest[0], io.cwd)
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
        sources = self._sources(files, io, "")
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
            read, reason = self.fs.read_arg(files[0], io.cwd)
            if read is None:
                return io.fail(f"sort: {files[0]}: {reason}")
            data = read
        lines = data.decode("utf-8", "replace").splitlines()
        if "u" in flags:
            lines = list(dict.fromkeys(lines))
        key = (lambda s: float(m.group()) if (m := re.match(r"\s*-?\d+(\.\d+)?", s)) else 0.0) \
            if "n" in flags else None
        for line in sorted(lines, key=key, reverse="r" in flags):  # type: ignore[arg-type]
            io.print(line)
        return 0

    # --- files -------------------------------------------------------------------------
    def cmd_cat(self, args: list[str], io: IO) -> int:
        paths = [a for a in args if a != "-u"]
        if not paths:
            io.out += io.stdin
            return 0
        status = 0
        for arg in paths:
            data, reason = (io.stdin, "") if arg == "-" else self.fs.read_arg(arg, io.cwd)
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
            path = self.fs.abspath(arg, io.cwd)
            if self.fs.file_bytes(path) is not None:
                files.append((arg, path))
            elif self.fs.is_dir(path):
                dirs.append((arg, path))
            else:
                status = io.fail(f"ls: {arg}: No such file or directory")
        long = "l" in flags
        for arg, path in files:
            io.print(self.ls_line(arg, path) if long else arg)
        for k, (arg, path) in enumerate(dirs):
            if len(paths) > 1:
                io.print(("\n" if k or files else "") + f"{arg}:")
            names = sorted(self.fs.children(path))
            entries = [(n, posixpath.join(path, n)) for n in names]
            if "a" in flags:
                entries = [(".", path), ("..", posixpath.dirname(path)), *entries]
            if long:
                io.print(f"total {len(entries)}")
            for name, child in entries:
                io.print(self.ls_line(name, child) if long else name)
        return status

    def ls_line(self, name: str, path: str) -> str:
        mode, size, mtime = self.fs.stat(path) or (DIR_MODE, 0, 0)
        kind = "d" if mode & 0o040000 else "-"
        perms = "".join(c if mode & (1 << (8 - i)) else "-" for i, c in enumerate("rwxrwxrwx"))
        owner = "root root" if self.fs.write_error(path) else "u0_a0 media_rw"
        when = datetime.fromtimestamp(mtime, timezone.utc).strftime("%Y-%m-%d %H:%M")
        return f"{kind}{perms} {2 if kind == 'd' else 1} {owner} {size:>5} {when} {name}"

    def cmd_rm(self, args: list[str], io: IO) -> int:
        flags, paths = split_flags(args)
        force, recursive = "f" in flags, bool(flags & {"r", "R"})
        if not paths and not force:
            return io.fail("rm: Needs 1 argument")
        status = 0
        for arg in paths:
            path = self.fs.abspath(arg, io.cwd)
            is_file, is_dir = self.fs.file_bytes(path) is not None, self.fs.is_dir(path)
            if not (is_file or is_dir):
                status = status if force else io.fail(f"rm: {arg}: No such file or directory")
            elif is_dir and not recursive:
                status = io.fail(f"rm: {arg}: Is a directory")
            elif (reason := self.fs.write_error(path)) is not None:
                status = io.fail(f"rm: {arg}: {reason}")
            else:
                self.fs.remove(path)
        return status

    def cmd_mkdir(self, args: list[str], io: IO) -> int:
        args = [a for k, a in enumerate(args) if a != "-m" and (k == 0 or args[k - 1] != "-m")]
        flags, paths = split_flags(args)
        status = 0
        for arg in paths:
            path = self.fs.abspath(arg, io.cwd)
            if self.fs.is_dir(path) or self.fs.file_bytes(path) is not None:
                if "p" not in flags or not self.fs.is_dir(path):
                    status = io.fail(f"mkdir: '{arg}': File exists")
            elif (reason := self.fs.write_error(path)) is not None:
                status = io.fail(f"mkdir: '{arg}': {reason}")
            elif not self.fs.is_dir(posixpath.dirname(path)) and "p" not in flags:
                status = io.fail(f"mkdir: '{arg}': No such file or directory")
            else:
                self.fs.make_dirs(path)
        return status

    def cmd_touch(self, args: list[str], io: IO) -> int:
        _, paths = split_flags(args)
        status = 0
        for arg in paths:
            path = self.fs.abspath(arg, io.cwd)
            if self.fs.is_dir(path) or self.fs.file_bytes(path) is not None:
                self.fs.touch(path)
            elif (reason := self.fs.create_file(path, truncate=False)) is not None:
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
        dest_path = self.fs.abspath(dest, io.cwd)
        into = self.fs.is_dir(dest_path)
        if len(sources) > 1 and not into:
            return io.fail(f"{name}: '{dest}' not directory")
        status = 0
        for src in sources:
            src_path = self.fs.abspath(src, io.cwd)
            target = posixpath.join(dest_path, posixpath.basename(src_path)) if into else dest_path
            error = self.fs.copy(src_path, target, move=move,
                                 recursive=move or bool(flags & {"r", "R", "a"}))
            if error is not None:
                status = io.fail(f"{name}: {src}: {error}")
        return status


def unescape(text: str) -> tuple[str, bool]:
    """``echo -e`` escapes; also whether ``\\c`` stopped the output."""
    table = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "a": "\a", "b": "\b", "f": "\f",
             "v": "\v", "e": "\x1b", "0": "\0"}
    out: list[str] = []
    i = 0
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
