"""Declarative checks over a final state snapshot, and the task check that combines them
with the collateral-damage rule.

A criterion reads the snapshot (one key per store: ``contacts``, ``settings``, ``alarms``,
``files``, ..., and ``apps.<Name>`` for an app's own data) and the agent's answer, and says
whether it holds and why not. Field expectations are literal values or matchers (any
callable taking the value and returning a bool, with a readable ``repr``). ``Allow`` says
which changes a task may make, by record content and with a count (default one record:
exactly what a task asks), so the same task checks a PhoneWorld phone (records keyed by id)
and a real one (keyed as adb reports them); ``Becomes`` lets one value change, only to
what the task asks. Allowed changes are counted: a wildcard pattern is refused (an
uncounted "anything under here" is how a leftover first try slips through).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import mentions
from .diff import Change, diff, matches
from .snap import in_order, select
from .verdict import Verdict

#: Snapshot paths that never count as collateral damage: time passes, the app on screen, copying
#: is harmless, and an app's unsaved form (``draft``: Contacts' open new-contact form) is not data.
DEFAULT_IGNORE: tuple[str, ...] = ("now", "foreground", "clipboard", "next_id",
                                    "*.next_id", "apps.*.draft")


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


def rows(state: Mapping[str, Any], path: str) -> dict[str, Mapping[str, Any]]:
    """The records of the table at dotted ``path`` in a snapshot, by key (as strings); empty
    when there is no such table."""
    table = lookup(state, path)
    if not isinstance(table, Mapping):
        return {}
    return {str(k): v for k, v in table.items() if isinstance(v, Mapping)}


def normalize_text(value: Any) -> str:
    """Lower case, single spaces, no surrounding punctuation: for comparing free text."""
    text = re.sub(r"\s+", " ", str(value)).strip().lower()
    return text.strip(" .!?,;:\"'")


def digits(value: Any) -> str:
    """Only the digits of ``value`` (phone numbers compare this way)."""
    return re.sub(r"\D", "", str(value))


@dataclass(frozen=True)
class Matcher:
    """A named predicate over one field value; ``values``: the values it accepts, where they
    are a known finite set (e.g. every value Android stores for a switch's state)."""

    test: Callable[[Any], bool]
    description: str
    values: frozenset[str] | None = None
    #: ``(key, want)``: the matcher accepts only values ``v`` with ``key(v) == want``, so a
    #: phone that keeps an index of ``key`` over the field finds the candidates in it.
    index: tuple[Callable[[Any], Any], Any] | None = None

    def __call__(self, value: Any) -> bool:
        return bool(self.test(value))

    def __repr__(self) -> str:
        return self.description


def same_text(expected: str) -> Matcher:
    """Equal after ``normalize_text``."""
    want = normalize_text(expected)
    return Matcher(lambda v: normalize_text(v) == want, f"text like {expected!r}",
                   index=(normalize_text, want))


def contains(expected: str) -> Matcher:
    """Names ``expected`` as whole tokens, case and spacing aside (``mentions.names``:
    "EC 107" is not in "EC 1077")."""
    return Matcher(lambda v: mentions.names(v, expected), f"containing {expected!r}")


def naming_only(expected: str, others: Sequence[str]) -> Matcher:
    """Text naming ``expected`` (whole tokens, not negated: ``mentions.told``) and none of
    ``others`` (a message that lists every candidate fails); a rival that is part of
    ``expected`` is looked for outside its mentions only."""
    rivals = [o for o in others if normalize_text(o) != normalize_text(expected)]

    def test(value: Any) -> bool:
        return mentions.told(value, expected) and not mentions.rivals_named(value, expected,
                                                                           rivals)
    return Matcher(test, f"naming {expected!r} and no other of {len(rivals)}")


def national(number: str) -> str:
    """The digits of a phone number without a leading North American country code ``1``
    (``+1 415-555-0123`` and ``(415) 555-0123`` give the same) or China's ``86`` before a
    mobile number (``+86 138 0013 8000`` and ``13800138000`` give the same: the ten digits
    after the leading 1, as a NANP number gives)."""
    d = digits(number)
    if len(d) == 13 and d.startswith("861"):
        d = d[2:]
    return d[1:] if len(d) == 11 and d.startswith("1") else d


def same_phone(expected: str) -> Matcher:
    """A phone number field holding ``expected``: the same digits (a leading country code
    ``1`` optional on either side), formatting aside, and no words."""
    want = national(expected)

    def test(value: Any) -> bool:
        text = str(value)
        return want != "" and national(text) == want and not re.search(r"[A-Za-z]", text)
    return Matcher(test, f"phone {expected!r}", index=(national, want))


def field_ok(expected: Any, value: Any) -> bool:
    return expected(value) if callable(expected) else value == expected


def _records(state: Mapping[str, Any], collection: str) -> list[Mapping[str, Any]]:
    records = lookup(state, collection)
    if isinstance(records, Mapping):
        return [r for r in records.values() if isinstance(r, Mapping)]
    return []


def _hashable(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    return value


def query_key(where: Mapping[str, Any]) -> Any:
    """A hashable description of a ``where`` clause (None when a value cannot be hashed)."""
    try:
        key = tuple(sorted((k, _hashable(v)) for k, v in where.items()))
        hash(key)
    except TypeError:
        return None
    return key


def matching(state: Mapping[str, Any], collection: str,
             where: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The records of ``collection`` whose fields match ``where`` (literals or matchers)."""
    rows = lookup(state, collection)
    if not isinstance(rows, Mapping):
        return []
    return [rows[k] for k in _select(rows, where)]


def matching_keys(state: Mapping[str, Any], collection: str,
                  where: Mapping[str, Any]) -> list[str]:
    """The keys of the records of ``collection`` whose fields match ``where``, in the
    table's order (on a PhoneWorld snapshot: found through the phone's indexes by the
    literal fields of ``where``, not by reading every record)."""
    rows = lookup(state, collection)
    if not isinstance(rows, Mapping):
        return []
    return in_order(rows, _select(rows, where))


def _select(rows: Mapping[str, Any], where: Mapping[str, Any]) -> list[str]:
    by: list[tuple[str, Any, Any]] = []  # (field, value, key): what an index may find
    for name, value in where.items():  # literals first: their index costs no function
        if not callable(value):
            by.append((name, value, None))
    for name, value in where.items():
        if isinstance(value, Matcher) and value.index is not None:
            by.append((name, value.index[1], value.index[0]))
    return select(rows, query_key(where),
                  lambda r: all(field_ok(v, r.get(k)) for k, v in where.items()), by)


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
        found = matching(state, self.collection, self.where)
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
        if matching(state, self.collection, self.where):
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


@dataclass(frozen=True)
class Allow:
    """Changes a task may make to the records of one table (``collection``).

    A change is covered when it is at or below a record of ``collection`` and: its kind is
    ``kind`` (``added``, ``removed`` or ``modified``; None: any), the record (after the
    change; before it, for a removal) matches ``where``, only ``fields`` changed (for a
    modification), and the record's key is ``key`` (when given). At most ``max`` distinct
    records may be covered (default 1: one record, as most tasks ask): changes to more are
    collateral damage.
    """

    collection: str
    kind: str | None = None
    where: Mapping[str, Any] = field(default_factory=dict)
    fields: tuple[str, ...] | None = None
    key: str | None = None
    max: int = 1

    def __post_init__(self) -> None:
        if self.kind not in (None, "added", "removed", "modified"):
            raise ValueError(f"Allow kind={self.kind!r}; accepted: None, 'added', 'removed', "
                             "'modified'")
        if isinstance(self.max, bool) or not isinstance(self.max, int) or self.max < 0:
            raise ValueError(f"Allow max={self.max!r}; accepted: how many records may "
                             "change, an int >= 0")

    def record_of(self, change: Change, initial: Mapping[str, Any],
                  final: Mapping[str, Any]) -> tuple[str, str | None, Mapping[str, Any] | None,
                                                     str] | None:
        """``(key, field, record, kind)`` of the record ``change`` touches in this
        collection, or None when it is elsewhere."""
        prefix = self.collection + "."
        if not change.path.startswith(prefix):
            return None
        rest = change.path[len(prefix):]
        before, after = lookup(initial, self.collection), lookup(final, self.collection)
        before = before if isinstance(before, Mapping) else {}
        after = after if isinstance(after, Mapping) else {}
        key, sub = rest, None
        while key not in before and key not in after:
            if "." not in key:
                return None
            key, _, tail = key.rpartition(".")
            sub = tail if sub is None else f"{tail}.{sub}"
        if sub is None:
            kind = change.kind
        else:
            kind = "modified"
        record = after.get(key) if kind != "removed" else before.get(key)
        if not isinstance(record, Mapping):
            record = None
        return key, (sub.split(".")[0] if sub else None), record, kind

    def covers(self, change: Change, initial: Mapping[str, Any],
               final: Mapping[str, Any]) -> str | None:
        """The record key ``change`` is allowed for, or None."""
        found = self.record_of(change, initial, final)
        if found is None:
            return None
        key, fld, record, kind = found
        if self.kind is not None and kind != self.kind:
            return None
        if self.key is not None and key != self.key:
            return None
        if kind == "modified" and self.fields is not None and (fld is None
                                                               or fld not in self.fields):
            return None
        if self.where:
            if record is None or not all(field_ok(v, record.get(k))
                                         for k, v in self.where.items()):
                return None
        return key


@dataclass(frozen=True)
class Becomes:
    """The value at ``path`` may change, but only to ``value`` (a literal or a matcher):
    a setting the task sets, or one the phone changes along with it (airplane mode turns
    Wi-Fi off, never on)."""

    path: str
    value: Any

    def covers(self, change: Change, final: Mapping[str, Any]) -> bool:
        return change.path == self.path and field_ok(self.value, lookup(final, self.path))


#: What ``allowed`` lists: an exact snapshot path (any change of that one value), an
#: ``Allow`` (records of a table, counted) or a ``Becomes`` (one value, to what is asked).
Allowed = str | Allow | Becomes


def collateral(initial: Mapping[str, Any], final: Mapping[str, Any],
               allowed: Iterable[Allowed] = (),
               ignore: Iterable[str] = DEFAULT_IGNORE) -> list[Change]:
    """The changes from ``initial`` to ``final`` that neither ``allowed`` nor ``ignore``
    covers (an ``Allow`` covers at most ``max`` records). A string in ``allowed`` must be
    an exact path: a wildcard raises ``ValueError`` (count the records with ``Allow``)."""
    allowed = list(allowed)
    exact = [p for p in allowed if isinstance(p, str)]
    for path in exact:
        if "*" in path:
            raise ValueError(f"allowed pattern {path!r} is a wildcard: every allowed change is "
                             "counted; use Allow(collection, kind, where=..., max=N)")
    patterns = [*exact, *ignore]
    allows = [a for a in allowed if isinstance(a, Allow)]
    becomes = [b for b in allowed if isinstance(b, Becomes)]
    used: list[set[str]] = [set() for _ in allows]
    damage: list[Change] = []
    for change in diff(initial, final):
        if any(matches(change, p) for p in patterns):
            continue
        if any(b.covers(change, final) for b in becomes):
            continue
        for allow, keys in zip(allows, used, strict=True):
            key = allow.covers(change, initial, final)
            if key is None:
                continue
            if key not in keys and len(keys) >= allow.max:
                continue
            keys.add(key)
            break
        else:
            damage.append(change)
    return damage


def check(
    initial: Mapping[str, Any],
    final: Mapping[str, Any],
    criteria: Sequence[Criterion],
    *,
    allowed: Iterable[Allowed] = (),
    answer: str | None = None,
    ignore: Iterable[str] = DEFAULT_IGNORE,
) -> Verdict:
    """All ``criteria`` hold on ``final``, and every change from ``initial`` is allowed.

    ``allowed`` lists the changes the task asks for (exact paths, ``Allow`` rules with
    record conditions and counts, ``Becomes`` values); anything else that changed is collateral
    damage and fails the task (and is listed in ``Verdict.damage``). Progress is the share
    of criteria that hold.
    """
    results = [c.check(final, answer) for c in criteria]
    held = sum(ok for ok, _ in results)
    progress = held / len(results) if results else 1.0
    damage = tuple(collateral(initial, final, allowed, ignore))
    for ok, reason in results:
        if not ok:
            return Verdict(False, reason, progress, damage)
    if damage:
        more = f" (+{len(damage) - 1} more)" if len(damage) > 1 else ""
        return Verdict(False, f"unexpected change: {damage[0]}{more}", progress * 0.5, damage)
    return Verdict(True, "; ".join(reason for _, reason in results) or "no change expected",
                   1.0)
