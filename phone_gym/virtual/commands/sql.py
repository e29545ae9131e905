"""The little SQL the ``content`` command's ``--where`` and ``--sort`` take, as SQLite reads it.

``Where(text, columns).parse()`` turns a ``WHERE`` clause into a predicate over rows (dicts):
comparisons, ``LIKE``, ``IS [NOT] NULL``, ``IN (...)``, ``AND``/``OR``/``NOT`` and parentheses,
with SQLite's loose typing (numbers compare as numbers, NULL compares false). ``sort_rows``
orders rows by ``col [ASC|DESC], ...`` (NULL, then numbers, then text). A clause SQLite would
reject raises ``SQLiteError`` with the line Android prints.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any


class SQLiteError(Exception):
    """SQLite refused a clause (the message is the Java exception line)."""


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
            raise SQLiteError(f"android.database.sqlite.SQLiteException: no such column: "
                                f"{term[0] if term else sort}")
        desc = term[-1].upper() == "DESC"
        rows = sorted(rows, key=column_key(term[0]), reverse=desc)
    return rows


def column_key(column: str) -> Callable[[dict[str, Any]], tuple[int, float, str]]:
    """A sort key: a row's ``column`` in SQLite's order."""
    return lambda row: sort_key(row.get(column))


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

    def error(self, near: str) -> SQLiteError:
        return SQLiteError(f'android.database.sqlite.SQLiteException: near "{near[:20]}": '
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
            column = text[1:-1]
            return lambda row: row.get(column)
        elif kind == "dq":
            value = text[1:-1].replace('""', '"')
        elif kind == "word" and text.upper() == "NULL":
            value = None
        elif kind == "word" and text in self.columns:
            return lambda row: row.get(text)
        elif kind == "word":
            raise SQLiteError(f"android.database.sqlite.SQLiteException: no such column: "
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
