"""Snapshots of phone data as read-only mappings that share what did not change.

A table's snapshot is a ``TableSnap``: a materialized ``base`` (``Rows``, never changed once
built) plus a ``delta`` of the keys changed since. Two snapshots of one table that share a
base are diffed over their deltas only, and ``select`` finds matching records by scanning the
base once (memoized on it) and the delta afterwards: so verifying a phone with thousands of
records costs in proportion to what changed. Any other ``Mapping`` works too, at full cost.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from typing import Any

MISSING: Any = object()  # a key removed in a snapshot's delta


class FrozenDict(dict):  # type: ignore[type-arg]
    """A plain record in a snapshot: a dict that refuses changes (snapshots share records,
    so editing one would corrupt the next). Copies (``dict(r)``, ``copy.deepcopy``) are
    ordinary dicts; JSON and pickle see a plain dict."""

    __slots__ = ()

    def _frozen(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("snapshot records are read-only: copy them first (dict(record) or "
                        "copy.deepcopy(snapshot))")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = _frozen  # type: ignore[assignment]
    __ior__ = _frozen  # type: ignore[assignment]

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return {k: copy.deepcopy(v, memo) for k, v in self.items()}

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self),))


class FrozenList(list):  # type: ignore[type-arg]
    """A list that refuses changes (shared read-only data); copies and pickles are lists."""

    __slots__ = ()

    def _frozen(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("this list is read-only: copy it first (list(x) or copy.deepcopy(x))")

    __setitem__ = __delitem__ = append = extend = insert = pop = remove = clear = _frozen  # type: ignore[assignment]
    sort = reverse = __iadd__ = __imul__ = _frozen  # type: ignore[assignment]

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return [copy.deepcopy(v, memo) for v in self]

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))


def freeze(value: Any) -> Any:
    """``value`` with every dict and list made read-only (``FrozenDict``, ``FrozenList``):
    safe to hand out many times without copying."""
    if isinstance(value, dict):
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return FrozenList(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """A fresh plain copy of JSON-like data (dicts, lists, tuples as lists, scalars): what
    ``copy.deepcopy`` gives for such data, several times faster."""
    if isinstance(value, dict):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


def plain(value: Any) -> Any:
    """``value`` with every snapshot mapping turned into plain dicts (for JSON, or to edit)."""
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


# --- table snapshots -------------------------------------------------------------------------
class Rows(dict):  # type: ignore[type-arg]
    """The materialized part of table snapshots: never changed once built. ``memo`` caches
    what criteria computed over it (keys matching a query)."""

    __slots__ = ("memo",)

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.memo: dict[Any, Any] = {}


class TableSnap(Mapping[str, Any]):
    """A read-only snapshot of a table: ``base`` (shared, never changed) plus ``delta`` (the
    keys changed since: their plain record, or ``MISSING`` when removed)."""

    __slots__ = ("base", "delta", "_len")

    def __init__(self, base: Rows, delta: Mapping[str, Any] | None = None) -> None:
        self.base = base
        self.delta: dict[str, Any] = dict(delta or {})
        n = len(base)
        for key, value in self.delta.items():
            if key in base:
                n -= value is MISSING
            else:
                n += value is not MISSING
        self._len = n

    def __getitem__(self, key: str) -> Any:
        if key in self.delta:
            value = self.delta[key]
            if value is MISSING:
                raise KeyError(key)
            return value
        return self.base[key]

    def __contains__(self, key: object) -> bool:
        if key in self.delta:
            return self.delta[key] is not MISSING  # type: ignore[index]
        return key in self.base

    def __iter__(self) -> Iterator[str]:
        delta = self.delta
        for key in self.base:
            if key not in delta or delta[key] is not MISSING:
                yield key
        for key, value in delta.items():
            if key not in self.base and value is not MISSING:
                yield key

    def __len__(self) -> int:
        return self._len

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TableSnap) and other.base is self.base and other.delta == self.delta:
            return True
        if not isinstance(other, Mapping) or len(other) != len(self):
            return False
        return all(key in other and other[key] == value for key, value in self.items())

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(dict(self.items()))

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        """A deep copy is a plain dict (to edit, e.g. for a near-miss state)."""
        return {key: copy.deepcopy(value, memo) for key, value in self.items()}

    def __copy__(self) -> dict[str, Any]:
        return dict(self.items())

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self.items()),))

    def changed_keys(self, other: TableSnap) -> set[str] | None:
        """The keys that may differ between two snapshots of one table (None when they share
        no base and every key must be compared)."""
        if other.base is not self.base:
            return None
        return set(self.delta) | set(other.delta)


def select(rows: Mapping[str, Any], query: Any, test: Callable[[Mapping[str, Any]], bool],
           ) -> list[str]:
    """Keys of the records in ``rows`` for which ``test`` holds. On a ``TableSnap`` the base
    is scanned once per ``query`` (a hashable description of ``test``) and only the delta
    afterwards."""
    if isinstance(rows, TableSnap) and query is not None:
        base, delta = rows.base, rows.delta
        memo_key = ("select", query)
        hits = base.memo.get(memo_key)
        if hits is None:
            hits = frozenset(k for k, r in base.items() if isinstance(r, Mapping) and test(r))
            base.memo[memo_key] = hits
        found = [k for k in hits if k not in delta]
        found += [k for k, r in delta.items()
                  if r is not MISSING and isinstance(r, Mapping) and test(r)]
        return found
    return [k for k, r in rows.items() if isinstance(r, Mapping) and test(r)]
