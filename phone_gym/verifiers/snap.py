"""Snapshots of phone data as read-only mappings that share what did not change.

A table's snapshot is a ``TableSnap``: a materialized ``base`` (``Rows``, never changed once
built) plus a ``delta`` of the keys changed since. Two snapshots of one table that share a
base are diffed over their deltas only, and ``select`` finds matching records by scanning the
base once (memoized on it) and the delta afterwards: so verifying a phone with thousands of
records costs in proportion to what changed. Any other ``Mapping`` works too, at full cost.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Mapping
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
        return FrozenDict({k: freeze(v) if isinstance(v, _NESTED) else v
                           for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return FrozenList([freeze(v) if isinstance(v, _NESTED) else v for v in value])
    return value


_NESTED = (dict, list, tuple)  # what ``freeze`` goes into (a call less for each scalar)


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
    what criteria computed over it (keys matching a query); ``finder``, when the phone that
    made it sets one, narrows a search by a field's value (``Finder``)."""

    __slots__ = ("memo", "finder", "_positions")

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.memo: dict[Any, Any] = {}
        self.finder: Finder | None = None
        self._positions: dict[str, int] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles keep the records, not the memo or the finder (a phone's)."""
        return (Rows, (dict(self),))

    def position(self, key: str) -> int:
        """Where ``key`` comes in this mapping's order (made on first use)."""
        if self._positions is None:
            self._positions = dict(zip(self, range(len(self)), strict=True))
        return self._positions[key]


#: ``finder(field, value, key)``: the keys of a base's records whose ``field`` may equal
#: ``value`` (with ``key``: whose ``key(field)`` may), a superset of those that do (each is
#: tested again), or None when it cannot tell. The phone that made the base answers from an
#: index it keeps on write and the journal of the keys changed since the base was made, so a
#: search costs what it finds and what changed.
Finder = Callable[[str, Any, "Callable[[Any], Any] | None"], Iterable[str] | None]

#: A ``Finder`` that names this many keys or fewer is not asked about further fields.
FEW = 8

#: Field values a ``Finder`` is asked about (others are compared by scanning).
SCALARS = (str, int, float, bool, type(None))


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
           by: Iterable[tuple[str, Any, Callable[[Any], Any] | None]] = ()) -> list[str]:
    """Keys of the records in ``rows`` for which ``test`` holds. On a ``TableSnap`` the base
    is searched once per ``query`` (a hashable description of ``test``) and only the delta
    afterwards. ``by``: ``(field, value, key)`` that ``test`` requires (the field, or its
    ``key``, equals ``value``): with a base whose ``finder`` knows one of them, only the
    records it names are tested, not every one."""
    if isinstance(rows, TableSnap) and query is not None:
        base, delta = rows.base, rows.delta
        memo_key = ("select", query)
        hits = base.memo.get(memo_key)
        if hits is None:
            candidates = _candidates(base, by)
            if candidates is None:
                hits = frozenset(k for k, r in base.items() if isinstance(r, Mapping) and test(r))
            else:
                hits = frozenset(k for k in candidates if k in base
                                 and isinstance(base[k], Mapping) and test(base[k]))
            base.memo[memo_key] = hits
        found = [k for k in hits if k not in delta]
        found += [k for k, r in delta.items()
                  if r is not MISSING and isinstance(r, Mapping) and test(r)]
        return found
    return [k for k, r in rows.items() if isinstance(r, Mapping) and test(r)]


def _candidates(base: Rows, by: Iterable[tuple[str, Any, Callable[[Any], Any] | None]],
                ) -> set[str] | None:
    """The fewest keys of ``base`` the finder names for one of ``by``, asked in turn until
    one names a few (None: no finder, or none of them is one it knows)."""
    if base.finder is None:
        return None
    best: set[str] | None = None
    for name, value, key in by:
        if type(value) not in SCALARS:
            continue
        found = base.finder(name, value, key)
        if found is not None:
            keys = set(found)
            if best is None or len(keys) < len(best):
                best = keys
            if len(best) <= FEW:
                break
    return best


def in_order(rows: Mapping[str, Any], keys: Iterable[str]) -> list[str]:
    """``keys`` of ``rows`` in the order ``rows`` iterates them (a ``TableSnap``'s base keys
    in base order, then those only its delta holds), without walking every key."""
    keys = list(keys)
    if len(keys) < 2:
        return keys
    if not isinstance(rows, TableSnap):
        wanted = set(keys)
        return [k for k in rows if k in wanted]
    base, delta = rows.base, rows.delta
    inside = sorted((k for k in keys if k in base), key=base.position)
    added = set(keys).difference(inside)
    return inside + [k for k in delta if k in added]
