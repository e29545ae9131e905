"""Declarative checks over a final state snapshot, and the task check that combines them
with the collateral-damage rule.

A criterion reads the plain snapshot (``{"system": ..., "apps": ...}``) and the agent's
answer, and says whether it holds and why not. Field expectations are literal values or
matchers (any callable taking the value and returning a bool, with a readable ``repr``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .diff import Change, diff, unexpected
from .verdict import Verdict

#: Snapshot paths that never count as collateral damage (time passes, copying is harmless).
DEFAULT_IGNORE: tuple[str, ...] = ("system.now", "system.clipboard", "*.next_id")


class Criterion(Protocol):
    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]: ...


def lookup(state: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted path, or None."""
    value: Any = state
    for part in path.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def normalize_text(value: Any) -> str:
    """Lower case, single spaces, no surrounding punctuation: for comparing free text."""
    text = re.sub(r"\s+", " ", str(value)).strip().lower()
    return text.strip(" .!?,;:\"'")


def digits(value: Any) -> str:
    """Only the digits of ``value`` (phone numbers compare this way)."""
    return re.sub(r"\D", "", str(value))


@dataclass(frozen=True)
class Matcher:
    """A named predicate over one field value."""

    test: Callable[[Any], bool]
    description: str

    def __call__(self, value: Any) -> bool:
        return bool(self.test(value))

    def __repr__(self) -> str:
        return self.description


def same_text(expected: str) -> Matcher:
    """Equal after ``normalize_text``."""
    return Matcher(lambda v: normalize_text(v) == normalize_text(expected),
                   f"text like {expected!r}")


def contains(expected: str) -> Matcher:
    """Contains ``expected``, case-insensitively."""
    return Matcher(lambda v: normalize_text(expected) in normalize_text(v),
                   f"containing {expected!r}")


def same_phone(expected: str) -> Matcher:
    """The same digits as ``expected``."""
    return Matcher(lambda v: digits(v) == digits(expected) != "", f"phone {expected!r}")


def field_ok(expected: Any, value: Any) -> bool:
    return expected(value) if callable(expected) else value == expected


def _records(state: Mapping[str, Any], collection: str) -> list[Mapping[str, Any]]:
    records = lookup(state, collection)
    if isinstance(records, Mapping):
        return [r for r in records.values() if isinstance(r, Mapping)]
    return []


def _describe(where: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in where.items())


@dataclass(frozen=True)
class Record:
    """Some record in ``collection`` matches ``where`` and has the ``expect`` fields."""

    collection: str
    where: Mapping[str, Any]
    expect: Mapping[str, Any] = field(default_factory=dict)
    count: int | None = None  # exact number of matching records, when set

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        found = [r for r in _records(state, self.collection)
                 if all(field_ok(v, r.get(k)) for k, v in self.where.items())]
        label = f"{self.collection} record with {_describe(self.where)}"
        if not found:
            return False, f"no {label}"
        if self.count is not None and len(found) != self.count:
            return False, f"{len(found)} of {label}, expected {self.count}"
        for record in found:
            if all(field_ok(v, record.get(k)) for k, v in self.expect.items()):
                return True, f"{label} is as expected"
        wrong = {k: found[0].get(k) for k in self.expect}
        return False, f"{label} has {wrong}, expected {_describe(self.expect)}"


@dataclass(frozen=True)
class NoRecord:
    """No record in ``collection`` matches ``where``."""

    collection: str
    where: Mapping[str, Any]

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        found = [r for r in _records(state, self.collection)
                 if all(field_ok(v, r.get(k)) for k, v in self.where.items())]
        if found:
            return False, f"{self.collection} still has a record with {_describe(self.where)}"
        return True, "record is gone"


@dataclass(frozen=True)
class Value:
    """The value at ``path`` is (or matches) ``expected``."""

    path: str
    expected: Any

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        value = lookup(state, self.path)
        if field_ok(self.expected, value):
            return True, f"{self.path} is {value!r}"
        return False, f"{self.path} is {value!r}, expected {self.expected!r}"


@dataclass(frozen=True)
class Answer:
    """The agent answered, and the answer matches ``expected`` (a literal compared with
    ``normalize_text``, or a matcher)."""

    expected: Any

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        if answer is None:
            return False, "no answer was given"
        ok = (self.expected(answer) if callable(self.expected)
              else normalize_text(answer) == normalize_text(self.expected))
        if ok:
            return True, "answer is correct"
        return False, f"answer {answer!r} is wrong"


def check(
    initial: Mapping[str, Any],
    final: Mapping[str, Any],
    criteria: Sequence[Criterion],
    *,
    allowed: Iterable[str] = (),
    answer: str | None = None,
    ignore: Iterable[str] = DEFAULT_IGNORE,
) -> Verdict:
    """All ``criteria`` hold on ``final``, and every change from ``initial`` is allowed.

    ``allowed`` lists the changes the task asks for (``diff.matches`` patterns); anything
    else that changed is collateral damage and fails the task. Progress is the share of
    criteria that hold.
    """
    results = [c.check(final, answer) for c in criteria]
    held = sum(ok for ok, _ in results)
    progress = held / len(results) if results else 1.0
    for ok, reason in results:
        if not ok:
            return Verdict(False, reason, progress)
    damage: list[Change] = unexpected(diff(initial, final), (*allowed, *ignore))
    if damage:
        more = f" (+{len(damage) - 1} more)" if len(damage) > 1 else ""
        return Verdict(False, f"unexpected change: {damage[0]}{more}", progress * 0.5)
    return Verdict(True, "; ".join(reason for _, reason in results) or "no change expected",
                   1.0)
