"""Near misses derived from criteria: wrong end states close to a solved one.

Given the criteria of a task and the end state an oracle reached, ``derive_negatives`` makes
states a verifier must reject: each checked field of the satisfying record changed, an extra
copy of it (when a count is required), the record removed, a deleted record back, a checked
value changed, a wrong answer. Tests run every template's verifier on them; a derived
negative that passes is a verifier too loose to trust.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .criteria import Answer, Criterion, NoRecord, Record, Value, field_ok, lookup, matching


@dataclass(frozen=True)
class NearMiss:
    """A wrong end state (and answer, and ``finish`` status), and why it is wrong."""

    state: Mapping[str, Any]
    answer: str | None
    why: str
    status: str | None = None


def shift_text(text: str) -> str:
    """Every letter and digit moved one on (``a``→``b``, ``z``→``a``, ``9``→``0``): the same
    shape, different content."""
    out = []
    for ch in text:
        if "a" <= ch <= "z":
            out.append(chr((ord(ch) - 97 + 1) % 26 + 97))
        elif "A" <= ch <= "Z":
            out.append(chr((ord(ch) - 65 + 1) % 26 + 65))
        elif "0" <= ch <= "9":
            out.append(chr((ord(ch) - 48 + 1) % 10 + 48))
        else:
            out.append(ch)
    return "".join(out)


def perturb(value: Any) -> Any:
    """A clearly different value of the same type."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + max(10, abs(value) // 2)
    if isinstance(value, float):
        return value * 1.5 + 10.0
    if isinstance(value, str):
        shifted = shift_text(value)
        return shifted if shifted != value else value + " x"
    if isinstance(value, list):
        return value[:-1] if value else ["x"]
    if value is None:
        return "x"
    return None


def rejected(expected: Any, value: Any) -> Any:
    """A changed ``value`` that ``expected`` rejects: ``perturb``'s, or for a matcher that
    accepts that one too (a size above 0 accepts another size) the first of 0, -1 and ""
    it rejects; None when none is (no sure negative)."""
    changed = perturb(value)
    if not callable(expected) or changed is None:
        return changed
    for candidate in (changed, 0, -1, ""):
        if not expected(candidate):
            return candidate
    return None


def table_at(state: Mapping[str, Any], collection: str) -> dict[str, Any] | None:
    """The dict at ``collection`` (a dotted path) in ``state``, or None."""
    node: Any = state
    for part in collection.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node if isinstance(node, dict) else None


def _satisfying(c: Record, state: Mapping[str, Any]) -> list[str]:
    rows = lookup(state, c.collection)
    if not isinstance(rows, Mapping):
        return []
    hits = {id(r) for r in matching(state, c.collection, c.where)
            if all(field_ok(v, r.get(k)) for k, v in c.expect.items())}
    return [k for k, r in rows.items() if id(r) in hits]


def _record_negatives(c: Record, final: Mapping[str, Any],
                      answer: str | None) -> list[NearMiss]:
    keys = _satisfying(c, final)
    if len(keys) != 1:
        return []  # another record would still satisfy it: no sure negative
    key = keys[0]
    out = []
    wanted = {**c.where, **c.expect}
    for name in wanted:
        state = copy.deepcopy(final)
        table = table_at(state, c.collection)
        assert table is not None
        record = dict(table[key])
        if name not in record:
            continue
        changed = rejected(wanted[name], record[name])
        if changed is None:
            continue
        record[name] = changed
        table[key] = record
        out.append(NearMiss(state, answer, f"{c.collection}.{key}.{name} changed to "
                                           f"{changed!r}"))
    state = copy.deepcopy(final)
    table = table_at(state, c.collection)
    assert table is not None
    if c.count is not None:
        extra = dict(table[key])
        new_key = f"{key}_copy"
        if "id" in extra:
            extra["id"] = new_key
        table[new_key] = extra
        out.append(NearMiss(state, answer, f"an extra copy of {c.collection}.{key}"))
        state = copy.deepcopy(final)
        table = table_at(state, c.collection)
        assert table is not None
    del table[key]
    out.append(NearMiss(state, answer, f"{c.collection}.{key} removed"))
    return out


def _no_record_negatives(c: NoRecord, initial: Mapping[str, Any],
                         final: Mapping[str, Any], answer: str | None) -> list[NearMiss]:
    before = lookup(initial, c.collection)
    if not isinstance(before, Mapping):
        return []
    out = []
    for key, record in before.items():
        if isinstance(record, Mapping) and all(field_ok(v, record.get(k))
                                               for k, v in c.where.items()):
            state = copy.deepcopy(final)
            table = table_at(state, c.collection)
            if table is None:
                continue
            table[key] = copy.deepcopy(dict(record))
            out.append(NearMiss(state, answer, f"{c.collection}.{key} kept"))
            break
    return out


def _value_negatives(c: Value, final: Mapping[str, Any], answer: str | None) -> list[NearMiss]:
    parent_path, _, leaf = c.path.rpartition(".")
    state = copy.deepcopy(final)
    root = state if isinstance(state, dict) else None  # a deep copy of a snapshot is a dict
    parent = table_at(state, parent_path) if parent_path else root
    if parent is None or leaf not in parent:
        return []
    changed = perturb(parent[leaf])
    if changed is None:
        return []
    parent[leaf] = changed
    return [NearMiss(state, answer, f"{c.path} changed to {changed!r}")]


def derive_negatives(criteria: Sequence[Criterion], initial: Mapping[str, Any],
                     final: Mapping[str, Any], answer: str | None) -> list[NearMiss]:
    """Near misses of the solved state ``final`` (and ``answer``) for ``criteria``."""
    out: list[NearMiss] = []
    for c in criteria:
        if isinstance(c, Record):
            out += _record_negatives(c, final, answer)
        elif isinstance(c, NoRecord):
            out += _no_record_negatives(c, initial, final, answer)
        elif isinstance(c, Value):
            out += _value_negatives(c, final, answer)
        elif isinstance(c, Answer) and answer is not None:
            wrong = shift_text(answer)
            if wrong != answer:
                out.append(NearMiss(final, wrong, f"answer {wrong!r}"))
            out.append(NearMiss(final, None, "no answer"))
    return out
