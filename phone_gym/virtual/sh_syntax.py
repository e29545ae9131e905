"""The shell's syntax: a command line as words, simple commands, pipelines and and-or lists.

``parse(src)`` turns a command line into a list of ``AndOr`` nodes (run in order by ``sh.py``).
Words stay unexpanded: a ``Word`` is a tuple of ``Part``s (literal text, ``$NAME`` parameters
and ``$(...)``/backtick substitutions), each marked quoted or not, so that expansion can split
unquoted results into fields. Supported: quotes and escapes, comments, line continuations,
``;``/``&``/newline, ``&&``/``||``, ``|``, ``!``, ``${NAME}`` and redirections (``N>``,
``>>``, ``<``, ``>&N``, ``<&N``, ``>|``). Anything else is a ``ShellSyntaxError``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


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
