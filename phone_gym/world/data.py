"""Versioned phone data: records in tables, stores that hold them, and the journal of changes.

Every persistent piece of phone state, the system's shared stores and each app's own data,
is built from three parts:

- a **record**: a frozen dataclass with a key field (``id`` by default). Records never
  change in place: ``Table.update`` swaps in a changed copy, so nothing can edit a record
  behind the phone's back (an attempt raises ``FrozenInstanceError``).
- a ``Table``: the records of one kind by key, with ``add``/``new``/``update``/``remove``.
- a ``Store``: a dataclass holding tables and plain values; assigning one of its fields is
  recorded like a table change.

Every change bumps the ``Journal`` the table or store is attached to (one per phone), so the
phone knows its screen and its verdict are stale without anyone calling ``invalidate``.
Snapshots of a table are ``TableSnap`` mappings that share the unchanged part with the
previous snapshot, so taking one, diffing two and checking criteria cost in proportion to
what changed, not to how many records there are.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import heapq
import typing
import weakref
from bisect import bisect_left, insort
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from itertools import repeat
from operator import attrgetter, itemgetter
from typing import Any, ClassVar, Generic, TypeVar, overload

import numpy as np

from ..verifiers.snap import MISSING, SCALARS, Finder, FrozenDict, Rows, TableSnap

R = TypeVar("R")


#: A snapshot delta larger than this share of its base is folded into a new base.
FOLD_SHARE = 0.5
FOLD_MIN = 64


class Journal:
    """A phone's change counter: every table and store change bumps ``version``."""

    __slots__ = ("version",)

    def __init__(self) -> None:
        self.version = 0

    def bump(self) -> None:
        self.version += 1

    def __getstate__(self) -> int:
        return self.version

    def __setstate__(self, state: int) -> None:
        self.version = state


# --- plain data ------------------------------------------------------------------------------
def to_plain(value: Any) -> Any:
    """Records, stores, tables and containers as plain JSON-like data (tables as snapshots:
    ``{str(key): plain record}``)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (Table, Store)):
        return value.snapshot()
    plainer = getattr(type(value), "__plain__", None)
    if plainer is not None:
        return plainer(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {name: to_plain(getattr(value, name)) for name in field_names(type(value))}
        for name in record_lists(type(value)):
            if out.get(name) == []:
                out[name] = {}  # an empty record list is an empty table, not a value
        return out
    if isinstance(value, Mapping):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        if value and all(dataclasses.is_dataclass(v) and hasattr(v, "id") for v in value):
            return {str(v.id): to_plain(v) for v in value}
        return [to_plain(v) for v in value]
    if isinstance(value, datetime):
        return value.isoformat()
    return value


_SCALARS = (str, int, float, bool, type(None))
_SCALAR_TYPES = frozenset(_SCALARS)


def record_plain(record: Any) -> Any:
    """A record as a read-only plain dict (scalar fields copied as they are, the rest through
    ``to_plain``): the snapshot form of one table row."""
    kind: Any = type(record)
    plan = _plan(kind)
    if plan is None:
        value = to_plain(record)
        return FrozenDict(value) if isinstance(value, dict) else value
    names, values = plan[0], plan[1](record)
    if _SCALAR_TYPES.issuperset(map(type, values)):  # (the common case: one C-level pass)
        return FrozenDict(zip(names, values, strict=True))
    return FrozenDict({name: value if type(value) in _SCALARS else to_plain(value)
                       for name, value in zip(names, values, strict=True)})


@functools.cache
def _plan(kind: type) -> tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]] | None:
    """How ``record_plain`` reads records of ``kind``: its field names and a getter of their
    values as a tuple; None for a kind that is no dataclass or has its own ``__plain__``."""
    if not dataclasses.is_dataclass(kind) or getattr(kind, "__plain__", None):
        return None
    names = field_names(kind)
    if len(names) == 1:
        one = attrgetter(names[0])
        return names, lambda record: (one(record),)
    return names, attrgetter(*names) if names else (lambda record: ())


@functools.cache
def field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls) if not f.name.startswith("_"))


@functools.cache
def record_lists(cls: type) -> tuple[str, ...]:
    """Fields of ``cls`` typed ``list[R]`` where R is a dataclass with an ``id`` (plain
    record lists in apps that keep no ``Table``)."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - unresolvable hints: treat lists as values
        return ()
    names = []
    for name, hint in hints.items():
        args = typing.get_args(hint)
        if (typing.get_origin(hint) is list and args and dataclasses.is_dataclass(args[0])
                and "id" in {f.name for f in dataclasses.fields(args[0])}):
            names.append(name)
    return tuple(names)


# --- tables ---------------------------------------------------------------------------------
class Table(Generic[R]):
    """Records of one kind by key (``id`` by default), in insertion order.

    ``new(**fields)`` adds a record with the next free id; ``add(record)`` adds a ready one
    (an id of 0 or None gets the next free id). Records are frozen dataclasses: change one
    with ``update(key, **changes)``.

    The order is each key's number (``_seq``, given when the key comes in): the dict holds
    the keys in that order except those ``rewind`` put back (``_late``: at the dict's end,
    their marked number restored), merged into place when the whole table is read.
    """

    def __init__(self, records: Iterable[R] = (), *, key: str = "id",
                 kind: type[R] | None = None) -> None:
        self.key = key
        self.kind = kind
        self.next_id = 1
        self.version = 0
        self._rows: dict[Any, R] = {}
        self._seq: dict[Any, int] = {}  # each key's place in the order
        self._next_seq = 0
        self._late: dict[Any, None] = {}  # keys the dict holds after their place
        self._journal: Journal | None = None
        self._log: list[tuple[int, str]] = []  # (version after the change, str key)
        self._plain: dict[Any, tuple[R, dict[str, Any]]] = {}
        self._snap: TableSnap | None = None
        self._snap_version = -1
        self._indexes: dict[str, Listing[R] | Grouping[R]] = {}
        self._eq: dict[tuple[str, Any], FieldIndex] = {}  # verifiers' lookups by value
        #: ``mark``'s records, next id and places, and the keys written since (True: removed
        #: once)
        self._mark: tuple[dict[Any, R], int, dict[Any, int]] | None = None
        self._dirty: dict[Any, bool] = {}
        for record in records:
            self.add(record)

    # --- change tracking -------------------------------------------------------------------
    def attach(self, journal: Journal) -> None:
        """Report changes to ``journal`` (the phone's)."""
        self._journal = journal

    def index(self, name: str, order: Callable[[R], Any], text: Callable[[R], str] | None = None,
              keep: Callable[[R], bool] | None = None) -> Listing[R]:
        """A sorted, searchable ``Listing`` of this table kept up to date on every write
        (like a database index: writes pay for it, reads are cheap). Made on first call."""
        listing = self._indexes.get(name)
        if listing is None:
            listing = Listing(order, text, keep)
            listing.attach(self)
            self._indexes[name] = listing
        if not isinstance(listing, Listing):
            raise ValueError(f"index {name!r} is a Grouping, not a Listing")
        return listing

    def grouping(self, name: str, group: Callable[[R], Any],
                 order: Callable[[R], Any]) -> Grouping[R]:
        """A ``Grouping`` of this table (records by ``group``, each group in ``order``,
        the groups by their last record) kept up to date on every write. Made on first
        call."""
        found = self._indexes.get(name)
        if found is None:
            found = Grouping(group, order)
            found.attach(self)
            if self._mark is not None and not self._dirty:  # as at the table's mark
                found.mark()
            self._indexes[name] = found
        if not isinstance(found, Grouping):
            raise ValueError(f"index {name!r} is a Listing, not a Grouping")
        return found

    def _changed(self, key: Any, removed: bool = False) -> None:
        if self._mark is not None:
            self._dirty[key] = removed or self._dirty.get(key, False)
        for listing in self._indexes.values():
            listing.apply(key, self._rows.get(key))
        self._bump(key)

    def _bump(self, key: Any) -> None:
        """Keep the field indexes, the change log and the journal after ``key`` changed."""
        if self._eq or (self.kind in WANTED_FIELDS and len(self._rows) >= INDEX_MIN):
            self._keep_fields(key)
        self.version += 1
        self._log.append((self.version, str(key)))
        if len(self._log) > 4096 and self._snap is not None:
            self._fold()
        if self._journal is not None:
            self._journal.bump()

    def field_index(self, name: str, by: Callable[[Any], Any] | None = None,
                    ) -> FieldIndex | None:
        """The keys of the records by the value of field ``name`` (or by ``by(value)``),
        made on first call, then kept on every write (tables of the same kind made later
        keep it once they hold ``INDEX_MIN`` records). None for a name that is no record
        field, and while the table holds fewer than ``INDEX_MIN`` records (reading them all
        costs less than keeping an index)."""
        if name.startswith("_"):
            return None
        index = self._eq.get((name, by))
        if index is None:
            if self.kind is not None:  # asked for: kept by tables of this kind from now on
                WANTED_FIELDS.setdefault(self.kind, set()).add((name, by))
            if len(self._rows) < INDEX_MIN:
                return None
            index = self._eq[name, by] = FieldIndex(name, self._rows, by)
        return index

    def _keep_fields(self, key: Any) -> None:
        wanted = WANTED_FIELDS.get(self.kind) if self.kind is not None else None
        if wanted and len(wanted) > len(self._eq):  # (this kind's indexes are all wanted)
            for name, by in wanted:
                if (name, by) not in self._eq:
                    self._eq[name, by] = FieldIndex(name, self._rows, by)
        skey, record = str(key), self._rows.get(key)
        for index in self._eq.values():
            index.apply(skey, record)

    def _finder(self) -> Finder:
        """What a base snapshot made now searches with: the field indexes (which follow the
        table) and the keys changed since (``changes_since``), which are tested again."""
        ref, version = weakref.ref(self), self.version

        def find(name: str, value: Any, by: Callable[[Any], Any] | None) -> set[str] | None:
            table = ref()
            if table is None:
                return None
            index = table.field_index(name, by)
            changed = table.changes_since(version) if index is not None else None
            if index is None or changed is None:
                return None
            found = index.find(value)
            found.update(str(k) for k in changed)
            return found
        return find

    # --- reading -----------------------------------------------------------------------------
    def get(self, key: Any) -> R | None:
        return self._rows.get(key)

    def __getitem__(self, key: Any) -> R:
        return self._rows[key]

    def __contains__(self, key: object) -> bool:
        return key in self._rows

    def _in_order(self) -> dict[Any, R]:
        """The records by key, the dict in the table's order: keys a ``rewind`` put back
        at its end are first merged into their places (once; the cost of a read of all)."""
        late = self._late
        if late:
            rows, place = self._rows, self._seq.__getitem__
            if len(late) > 64:
                keys = sorted(rows, key=place)
            else:  # the others are in order: insert the few
                keys = [k for k in rows if k not in late]
                for key in late:
                    insort(keys, key, key=place)
            self._rows, self._late = {k: rows[k] for k in keys}, {}
        return self._rows

    def __iter__(self) -> Iterator[R]:
        return iter(list(self._in_order().values()))

    def __len__(self) -> int:
        return len(self._rows)

    def __bool__(self) -> bool:
        return bool(self._rows)

    def keys(self) -> list[Any]:
        return list(self._in_order())

    def values(self) -> list[R]:
        return list(self._in_order().values())

    def where(self, **fields: Any) -> list[R]:
        """Records whose fields equal the given values."""
        return [r for r in self._in_order().values()
                if all(getattr(r, k) == v for k, v in fields.items())]

    def first(self, **fields: Any) -> R | None:
        return next(iter(self.where(**fields)), None)

    def changes_since(self, version: int) -> set[Any] | None:
        """The keys changed after ``version`` (None when that is too long ago to tell)."""
        if version == self.version:
            return set()
        log = self._log
        if not log or log[0][0] > version + 1 or version > self.version:
            return None
        out: set[Any] = set()
        for v, skey in reversed(log):
            if v <= version:
                break
            out.add(self._key_of(skey))
        return out

    # --- changing ----------------------------------------------------------------------------
    def _check(self, record: Any) -> None:
        params = getattr(type(record), "__dataclass_params__", None)
        if params is None or not params.frozen:
            raise TypeError(f"{type(record).__name__} is not a frozen dataclass: table records "
                            "must be @dataclass(frozen=True); change them with Table.update")
        if self.kind is not None and not isinstance(record, self.kind):
            raise TypeError(f"expected a {self.kind.__name__}, got {type(record).__name__}")

    def add(self, record: R) -> R:
        """Add ``record`` (an ``id`` of 0 or None gets the next free id); return it."""
        self._check(record)
        key = getattr(record, self.key)
        if self.key == "id" and not key:
            record = dataclasses.replace(record, id=self.next_id)  # type: ignore[type-var]
            key = self.next_id
        if key in self._rows:
            raise KeyError(f"{type(record).__name__} {key!r} exists already")
        if isinstance(key, int):
            self.next_id = max(self.next_id, key + 1)
        self._rows[key] = record
        self._seq[key] = self._next_seq
        self._next_seq += 1
        self._changed(key)
        return record

    def extend(self, records: Iterable[R]) -> list[R]:
        """``add`` of each of ``records``, in order (the same ids, versions, change log,
        indexes and journal as one ``add`` each), with the per-record checks made once per
        kind: a seed of many records in one write. Returns the records added."""
        out: list[R] = []
        try:
            self._extend(records, out)
        finally:  # the listings take the records added in one go (``Listing.extend``)
            if self._indexes and out:
                for listing in self._indexes.values():
                    listing.extend([(getattr(r, self.key), r) for r in out])
        return out

    def _extend(self, records: Iterable[R], out: list[R]) -> None:
        """``extend``'s writes, each record added to ``out`` as it is written (the listings
        then take what was written, even when a record fails its check)."""
        checked: set[type] = set()
        rows, seq, log = self._rows, self._seq, self._log
        auto = self.key == "id"
        for record in records:
            kind = type(record)
            if kind not in checked:
                self._check(record)
                checked.add(kind)
            key = getattr(record, self.key)
            if auto and not key:
                record = dataclasses.replace(record, id=self.next_id)  # type: ignore[type-var]
                key = self.next_id
            if key in rows:
                raise KeyError(f"{kind.__name__} {key!r} exists already")
            if isinstance(key, int) and key >= self.next_id:
                self.next_id = key + 1
            rows[key] = record
            seq[key] = self._next_seq
            self._next_seq += 1
            if self._mark is not None:
                self._dirty[key] = self._dirty.get(key, False)
            if self._eq or (self.kind in WANTED_FIELDS and len(rows) >= INDEX_MIN):
                self._keep_fields(key)
            self.version += 1
            log.append((self.version, str(key)))
            if len(log) > 4096 and self._snap is not None:
                self._fold()
                log = self._log
            if self._journal is not None:
                self._journal.bump()
            out.append(record)

    def new(self, **fields: Any) -> R:
        """A new record of ``kind`` with the next free id."""
        if self.kind is None:
            raise TypeError("Table.new needs the table's kind: Table(kind=Record)")
        if self.key == "id":
            fields.setdefault("id", self.next_id)
        return self.add(self.kind(**fields))

    def put(self, record: R) -> R:
        """Add ``record``, or replace the record with its key."""
        self._check(record)
        key = getattr(record, self.key)
        old = self._rows.get(key)
        if old is record:
            return record
        if isinstance(key, int):
            self.next_id = max(self.next_id, key + 1)
        self._rows[key] = record
        if old is None:
            self._seq[key] = self._next_seq
            self._next_seq += 1
        self._changed(key)
        return record

    def update(self, key: Any, **changes: Any) -> R:
        """Replace the record ``key`` by a copy with ``changes``; return the new record."""
        old = self._rows[key]
        if all(getattr(old, k) == v for k, v in changes.items()):
            return old
        new = dataclasses.replace(old, **changes)  # type: ignore[type-var]
        self._rows[key] = new
        self._changed(key)
        return new

    def remove(self, key: Any) -> R | None:
        record = self._rows.pop(key, None)
        if record is not None:
            del self._seq[key]
            if self._late:
                self._late.pop(key, None)
            self._changed(key, removed=True)
        return record

    def clear(self) -> None:
        for key in list(self._in_order()):
            self.remove(key)

    def replace_all(self, records: Iterable[R]) -> None:
        """Make the table hold exactly ``records`` (by key), recording what changed."""
        wanted = {getattr(r, self.key): r for r in records}
        for key in [k for k in self._in_order() if k not in wanted]:
            self.remove(key)
        for record in wanted.values():
            self.put(record)

    # --- checkpoints -------------------------------------------------------------------------
    def mark(self) -> None:
        """Remember the records as they are now: ``rewind`` brings them back at the cost of
        what changed since (a large seed written once, shared by every episode)."""
        self._mark = (dict(self._in_order()), self.next_id, dict(self._seq))
        self._dirty = {}
        for index in self._indexes.values():
            index.mark()

    def rewind(self) -> None:
        """Put back the records ``mark`` saw (ValueError without a mark), in their order,
        with indexes, field indexes and the journal told as for any write. Costs what
        changed since: a record removed and put back keeps its marked place in the order
        (``_seq``), not its place in the dict."""
        if self._mark is None:
            raise ValueError("rewind needs a mark: call Table.mark() first")
        rows0, next_id, seq0 = self._mark
        later = [i for i in self._indexes.values() if isinstance(i, Grouping) and not i.marked]
        for key, removed in self._dirty.items():
            record, now = rows0.get(key), self._rows.get(key)
            if now is record and (not removed or record is None):
                continue  # as marked (a record added since and removed again: gone)
            if record is None:
                del self._rows[key]
                del self._seq[key]
                self._late.pop(key, None)
            else:
                self._rows[key] = record
                if removed:  # at the dict's end (now or put back): in its marked place
                    self._seq[key] = seq0[key]
                    self._late[key] = None
            for index in self._indexes.values():
                if isinstance(index, Grouping):
                    index.restore(key, record)
                else:
                    index.apply(key, record)
            self._bump(key)
        if len(self._late) > max(64, len(self._rows) // 8):
            self._in_order()  # (many put back: merged now, at the cost of what changed)
        self.next_id, self._dirty = next_id, {}
        for index in self._indexes.values():
            if isinstance(index, Grouping):
                if index in later:  # made after the mark: indexed again (once)
                    index.attach(self)
                    index.mark()
                else:
                    index.rewound()

    # --- snapshots ---------------------------------------------------------------------------
    def plain_record(self, key: Any) -> dict[str, Any]:
        record = self._rows[key]
        cached = self._plain.get(key)
        if cached is not None and cached[0] is record:
            return cached[1]
        value = record_plain(record)
        self._plain[key] = (record, value)
        return value

    def snapshot(self) -> TableSnap:
        """``{str(key): plain record}`` as a ``TableSnap``: the same object while nothing
        changes, and a delta over the previous base after changes."""
        if self._snap is not None and self._snap_version == self.version:
            return self._snap
        if self._snap is None:
            self._fold()
            assert self._snap is not None
            return self._snap
        start, base = self._snap_version, self._snap.base
        log, at = self._log, len(self._log)
        while at and log[at - 1][0] > start:
            at -= 1
        # in the order first changed (as the table holds new keys), the same in every run
        changed = dict.fromkeys(skey for _, skey in log[at:])
        delta = dict(self._snap.delta)
        for skey in changed:
            key = self._key_of(skey)
            value = self.plain_record(key) if key in self._rows else MISSING
            was = base.get(skey, MISSING)
            if was is value:
                delta.pop(skey, None)  # back as in the base
            elif was is not MISSING and value is not MISSING and was == value:
                delta.pop(skey, None)  # put back (``rewind``): the base's plain form again
                self._plain[key] = (self._rows[key], was)
            else:
                delta[skey] = value
        if len(delta) > max(FOLD_MIN, int(len(base) * FOLD_SHARE)):
            self._fold()
        else:
            self._snap = TableSnap(base, delta)
            self._snap_version = self.version
        assert self._snap is not None
        return self._snap

    def _key_of(self, skey: str) -> Any:
        """The table key whose ``str`` is ``skey`` (keys are ints or strings)."""
        if skey in self._rows:
            return skey
        try:
            return int(skey)
        except ValueError:
            return skey

    def _fold(self) -> None:
        """Materialize a fresh base snapshot (and forget the change log)."""
        if not self._rows:
            self._snap = TableSnap(Rows())
            self._snap_version = self.version
            self._log = []
            self._plain = {}
            return
        self._snap = TableSnap(Rows({str(k): self.plain_record(k) for k in self._in_order()}))
        if FAST_LOOKUPS:
            self._snap.base.finder = self._finder()
        self._snap_version = self.version
        self._log = []
        self._plain = {k: v for k, v in self._plain.items() if k in self._rows}

    # --- pickling ----------------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        """Records only: indexes are made again when next asked for."""
        return {"key": self.key, "kind": self.kind, "next_id": self.next_id,
                "version": self.version, "rows": list(self._in_order().values())}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(key=state["key"], kind=state["kind"])  # type: ignore[misc]
        for record in state["rows"]:
            self._rows[getattr(record, self.key)] = record
        self._seq = {k: i for i, k in enumerate(self._rows)}
        self._next_seq = len(self._seq)
        self.next_id = state["next_id"]
        self.version = state["version"]

    def __deepcopy__(self, memo: dict[int, Any]) -> Table[R]:
        out: Table[R] = Table(key=self.key, kind=self.kind)
        out._rows = dict(self._in_order())  # records are frozen: sharing them is safe
        out._seq = {k: i for i, k in enumerate(out._rows)}
        out._next_seq = len(out._seq)
        out.next_id, out.version = self.next_id, self.version
        return out

    def __repr__(self) -> str:
        return f"Table({list(self._in_order().values())!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Table):
            return self._rows == other._rows
        if isinstance(other, (list, tuple)):  # compares like the list of its records
            return list(self._in_order().values()) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


# --- lookups by value ------------------------------------------------------------------------
#: Record kinds and the fields (with the function of the value, if any) verifiers looked
#: their records up by (``Table.field_index``):
#: a new table of such a kind keeps those indexes from its first write, so the lookup at the
#: end of the next episode finds the index made (writes pay a few dict operations each).
WANTED_FIELDS: dict[type, set[tuple[str, Callable[[Any], Any] | None]]] = {}

#: Tables with fewer records than this keep no field index: a lookup reads them all.
INDEX_MIN = 256
#: Snapshots hand the verifiers a finder (indexed lookups plus the journal's changes); off,
#: every lookup reads every record (tests/verifiers/test_journal_verify.py proves both agree).
FAST_LOOKUPS = True

_NONE: Any = object()


@functools.cache
def _plain_field(kind: type, name: str) -> bool:
    """Whether records of ``kind`` show field ``name`` in their snapshots as it is (a
    dataclass field of theirs, with no ``__plain__`` of their own)."""
    return (dataclasses.is_dataclass(kind) and not getattr(kind, "__plain__", None)
            and name in field_names(kind))


class FieldIndex:
    """The keys (``str``) of a table's records by the value of one field (or by ``by`` of
    it), kept on write. Only scalar values are indexed (a snapshot holds them unchanged); a
    record whose value is anything else, or that has no such field, is ``wild``: a candidate
    for every value."""

    __slots__ = ("name", "by", "buckets", "of", "wild", "_kinds")

    def __init__(self, name: str, rows: Mapping[Any, Any],
                 by: Callable[[Any], Any] | None = None) -> None:
        self.name = name
        self.by = by
        self.buckets: dict[Any, str | set[str]] = {}  # one key as itself, more as a set
        self.of: dict[str, Any] = {}
        self.wild: set[str] = set()
        self._kinds: dict[type, bool] = {}  # record kind -> whether its field is indexable
        for key, record in rows.items():
            self.apply(str(key), record)

    def apply(self, skey: str, record: Any) -> None:
        """``skey`` now holds ``record`` (None: removed)."""
        if skey in self.of:
            old = self.of.pop(skey)
            bucket = self.buckets[old]
            if isinstance(bucket, str):
                del self.buckets[old]
            else:
                bucket.discard(skey)
                if len(bucket) == 1:
                    self.buckets[old] = next(iter(bucket))
        elif self.wild:
            self.wild.discard(skey)
        if record is None:
            return
        value = getattr(record, self.name, _NONE)
        kind: Any = type(record)
        ok = self._kinds.get(kind)
        if ok is None:
            ok = self._kinds[kind] = _plain_field(kind, self.name)
        if not ok or type(value) not in SCALARS:
            self.wild.add(skey)
            return
        if self.by is not None:
            try:
                value = self.by(value)
                hash(value)
            except Exception:  # noqa: BLE001 - a value the function refuses: test it later
                self.wild.add(skey)
                return
        self.of[skey] = value
        now = self.buckets.get(value)
        if now is None:
            self.buckets[value] = skey
        elif isinstance(now, str):
            self.buckets[value] = {now, skey}
        else:
            now.add(skey)

    def find(self, value: Any) -> set[str]:
        """The keys whose value may equal ``value`` (its own, and every wild one)."""
        try:
            bucket = self.buckets.get(value)
        except TypeError:  # unhashable: only wild records may hold it
            bucket = None
        found = set(self.wild)
        if isinstance(bucket, str):
            found.add(bucket)
        elif bucket is not None:
            found.update(bucket)
        return found


# --- sorted, searchable views -----------------------------------------------------------------
class Listing(Generic[R]):
    """A table's records in ``order`` (a sort key), searchable by ``text``, kept between
    frames and updated record by record when the table changes: an app's list of thousands
    is sorted once, not on every frame, and a search scans pre-folded text.

    ``view(table, query)`` returns the records ``keep`` accepts (all by default) in order,
    those whose text contains ``query`` (any case).
    """

    def __init__(self, order: Callable[[R], Any], text: Callable[[R], str] | None = None,
                 keep: Callable[[R], bool] | None = None) -> None:
        self.order = order
        self.text = text
        self.keep = keep
        self._table: Table[R] | None = None
        self._version = -1
        self._entries: list[tuple[Any, str]] = []  # (sort key, str key), sorted
        self._records: dict[str, R] = {}
        self._folded: dict[str, str] = {}
        self._sort_keys: dict[str, Any] = {}
        self._views: dict[Any, list[R]] = {}
        self._attached = False
        #: the search text: (entries it was built from, their str keys, the folded texts
        #: joined, where each starts), and the keys written since (tested one by one)
        self._blob: tuple[Any, list[str], str, Any] | None = None
        self._stale: set[str] = set()
        self._sums: dict[str, Any] = {}  # field -> its sum over the records (``total``)
        self._sum_of: dict[str, Callable[[R], Any]] = {}  # a total's value of a record

    def _entry(self, key: Any, record: R) -> tuple[Any, str]:
        skey = str(key)
        self._records[skey] = record
        if self.text is not None:
            self._folded[skey] = self.text(record).casefold()
        sort = (self.order(record), skey)
        self._sort_keys[skey] = sort
        return sort

    def attach(self, table: Table[R]) -> None:
        """Follow ``table``'s writes from now on (``Table.index`` does this)."""
        self._rebuild(table)
        self._table, self._version, self._views = table, table.version, {}
        self._attached = True

    def apply(self, key: Any, record: R | None) -> None:
        """``key`` now holds ``record`` (None: removed)."""
        skey = str(key)
        self._stale.add(skey)
        old = self._sort_keys.pop(skey, None)
        if old is not None:
            del self._entries[bisect_left(self._entries, old)]
            self._count(self._records.pop(skey, None), -1)
            self._folded.pop(skey, None)
        if record is not None and (self.keep is None or self.keep(record)):
            insort(self._entries, self._entry(key, record))
            self._count(record, 1)
        self._views = {}
        if self._table is not None:
            self._version = self._table.version + 1

    def extend(self, pairs: Sequence[tuple[Any, R]]) -> None:
        """``apply`` of each ``(key, record)`` of ``pairs`` (a table's records added in one
        write, ``Table.extend``), in order: keys not listed yet are sorted in once, not
        inserted one by one (the same entries, sums and views)."""
        if any(str(key) in self._sort_keys for key, _ in pairs):
            for key, record in pairs:
                self.apply(key, record)
            return
        keep, new = self.keep, []
        for key, record in pairs:
            self._stale.add(str(key))
            if keep is None or keep(record):
                new.append(self._entry(key, record))
                self._count(record, 1)
        if new:
            self._entries.extend(new)
            self._entries.sort()
        self._views = {}
        if self._table is not None:
            self._version = self._table.version  # (apply's ``version + 1``, bumped since)

    def _rebuild(self, table: Table[R]) -> None:
        self._records, self._folded, self._sort_keys, self._sums = {}, {}, {}, {}
        keep = self.keep
        self._entries = sorted(self._entry(k, r) for k, r in table._rows.items()
                               if keep is None or keep(r))

    def _sync(self, table: Table[R]) -> None:
        if self._table is table and (self._attached or self._version == table.version):
            return
        changed = table.changes_since(self._version) if self._table is table else None
        if changed is None or len(changed) > max(64, len(table) // 8):
            self._rebuild(table)
        else:
            for key in changed:
                skey = str(key)
                self._stale.add(skey)
                old = self._sort_keys.pop(skey, None)
                if old is not None:
                    i = bisect_left(self._entries, old)
                    del self._entries[i]
                    self._count(self._records.pop(skey, None), -1)
                    self._folded.pop(skey, None)
                record = table.get(key)
                if record is not None and (self.keep is None or self.keep(record)):
                    insort(self._entries, self._entry(key, record))
                    self._count(record, 1)
        self._table, self._version, self._views = table, table.version, {}

    def _count(self, record: R | None, sign: int) -> None:
        """Add (``sign`` 1) or take away (-1) ``record``'s fields from the kept sums."""
        if record is not None:
            of = self._sum_of
            for name in self._sums:
                value = of[name](record) if name in of else getattr(record, name)
                self._sums[name] += sign * value

    def total(self, name: str, of: Callable[[R], Any] | None = None) -> Any:
        """The sum of field ``name`` (or, with ``of``, of ``of(record)``, the total named
        ``name``) over the listed records: made on first call (ask at install, on an empty
        table, for it to cost nothing), then kept on every write."""
        if self._table is not None:
            self._sync(self._table)
        if name not in self._sums:
            if of is not None:
                self._sum_of[name] = of
            value = self._sum_of.get(name) or attrgetter(name)
            self._sums[name] = sum(map(value, self._records.values()))
        return self._sums[name]

    def view(self, table: Table[R], query: str = "", *, reverse: bool = False) -> Sequence[R]:
        """The records in order (a sequence: index it, ``len`` it), those whose text holds
        ``query`` when one is given; ``reverse``: in the opposite order."""
        self._sync(table)
        q = query.strip().casefold()
        if not q:
            return Ordered(self._entries, self._records, reverse, listing=self)
        found = self._views.get(q)
        if found is None:
            found = self._search(q)
            if len(self._views) > 16:
                self._views.clear()
            self._views[q] = found
        return found[::-1] if reverse else found

    def mark(self) -> None:
        """Make the search text now (``Table.mark``: after a large seed is written), not
        at the first search of an episode."""
        if self.text is not None and self._table is not None:
            self._sync(self._table)
            self._searchable()

    def _searchable(self) -> tuple[list[str], str, Any]:
        """The search text: the entries' str keys, their folded texts joined, where each
        starts; made again when the entries were rebuilt or many were written since."""
        if self._blob is None or self._blob[0] is not self._entries or \
                len(self._stale) > max(256, len(self._entries) // 16):
            # built with C-level maps: a few hundred microseconds for thousands of records
            skeys = list(map(itemgetter(1), self._entries))
            texts = list(map(self._folded.get, skeys, repeat("")))
            starts = np.zeros(len(texts) + 1, dtype=np.int64)
            np.cumsum(np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)) + 1,
                      out=starts[1:])
            self._blob = (self._entries, skeys, "\x00".join(texts), starts)
            self._stale = set()
        return self._blob[1:]

    def _search(self, q: str) -> list[R]:
        """Records whose folded text holds ``q``: one C-level ``find`` over all the texts
        joined, not a Python loop over every record. The joined text is kept across writes:
        the records written since it was made are skipped in it and tested one by one,
        then merged in by their sort keys."""
        skeys, blob, starts = self._searchable()
        stale = self._stale
        hits: list[str] = []
        at = blob.find(q)
        while at != -1:
            i = int(np.searchsorted(starts, at, side="right")) - 1
            if skeys[i] not in stale:
                hits.append(skeys[i])
            at = blob.find(q, int(starts[i + 1]))
        fresh = [skey for skey in stale
                 if skey in self._sort_keys and q in self._folded.get(skey, "")]
        if fresh:  # unchanged hits are in order already: merge the written ones in
            order = self._sort_keys
            hits = list(heapq.merge(hits, sorted(fresh, key=order.__getitem__),
                                    key=order.__getitem__))
        return [self._records[skey] for skey in hits]

    def __getstate__(self) -> dict[str, Any]:
        return {"order": self.order, "text": self.text, "keep": self.keep}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["order"], state["text"], state["keep"])  # type: ignore[misc]


def total(rows: Sequence[Any], name: str) -> Any:
    """The sum of field ``name`` over ``rows``: kept on write for a listing's records
    (``Ordered.total``), read record by record for a search's or a filter's matches."""
    if isinstance(rows, Ordered):
        return rows.total(name)
    return sum(getattr(r, name) for r in rows)


class Ordered(Sequence[Any]):
    """A listing's records in order, read through its sorted entries (no copy)."""

    __slots__ = ("_entries", "_records", "_reverse", "_slot", "_listing")

    def __init__(self, entries: Sequence[tuple[Any, ...]], records: dict[str, Any],
                 reverse: bool = False, slot: int = 1, listing: Listing[Any] | None = None,
                 ) -> None:
        self._entries, self._records, self._reverse = entries, records, reverse
        self._slot = slot  # where an entry holds its record's str key
        self._listing = listing  # whose every record this is (``total`` reads its sums)

    def total(self, name: str) -> Any:
        """The sum of field ``name`` over the records (kept by the listing on write)."""
        if self._listing is not None:
            return self._listing.total(name)
        return sum(getattr(r, name) for r in self)

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))] if self._reverse else \
                [self._records[e[self._slot]] for e in self._entries[i]]
        if self._reverse:
            n = len(self._entries)
            if not -n <= i < n:
                raise IndexError("record out of range")
            i = n - 1 - i % n
        return self._records[self._entries[i][self._slot]]


class Grouping(Generic[R]):
    """A table's records in groups, kept up to date record by record on every write (a
    thread index: the messages of each conversation, the conversations newest first).

    ``group(record)`` names a record's group (None: in none); each group holds its records
    in ``order`` (a sort key; ties in the table's insertion order), and the groups are
    ranked by the sort key of their last record. Reading a group costs its size, ranking
    the groups costs nothing per read: writes pay (a bisect each).
    """

    def __init__(self, group: Callable[[R], Any], order: Callable[[R], Any]) -> None:
        self.group = group
        self.order = order
        self._members: dict[Any, list[tuple[Any, int, str]]] = {}  # sorted per group
        self._records: dict[str, R] = {}
        self._where: dict[str, tuple[Any, tuple[Any, int, str]]] = {}  # skey -> (group, entry)
        self._seq: dict[str, int] = {}  # insertion order of the table's keys
        self._next = 0
        self._ranked: list[tuple[Any, Any]] = []  # (last entry's sort key, group), sorted
        self._marked: tuple[dict[str, int], int] | None = None

    @property
    def marked(self) -> bool:
        return self._marked is not None

    def mark(self) -> None:
        """Remember each record's place in the table's order (``Table.mark``)."""
        self._marked = (dict(self._seq), self._next)

    def restore(self, key: Any, record: R | None) -> None:
        """``key`` holds ``record`` again as at the mark, in its marked place
        (``Table.rewind``)."""
        self.apply(key, None)
        if record is not None and self._marked is not None:
            seq = self._marked[0].get(str(key))
            if seq is not None:
                self._seq[str(key)] = seq
        self.apply(key, record)

    def rewound(self) -> None:
        """The table is back at its mark: new records are numbered from there."""
        if self._marked is not None:
            self._next = self._marked[1]

    def attach(self, table: Table[R]) -> None:
        """Index ``table``'s records (``Table.grouping`` does this; writes follow)."""
        self._members, self._records, self._where, self._seq = {}, {}, {}, {}
        self._ranked, self._next = [], 0
        for key, record in table._in_order().items():
            self.apply(key, record)

    def _rank(self, group: Any, old_last: tuple[Any, int] | None) -> None:
        """Move ``group`` in the ranking after its last entry was ``old_last``."""
        members = self._members.get(group)
        new_last = (members[-1][0], members[-1][1]) if members else None
        if new_last == old_last:
            return
        if old_last is not None:
            del self._ranked[bisect_left(self._ranked, (old_last, group))]
        if new_last is not None:
            insort(self._ranked, (new_last, group))

    def apply(self, key: Any, record: R | None) -> None:
        """``key`` now holds ``record`` (None: removed)."""
        skey = str(key)
        placed = self._where.pop(skey, None)
        if placed is not None:
            group, entry = placed
            members = self._members[group]
            old_last: tuple[Any, int] | None = (members[-1][0], members[-1][1])
            del members[bisect_left(members, entry)]
            if not members:
                del self._members[group]
            self._records.pop(skey, None)
            self._rank(group, old_last)
        if record is None:
            self._seq.pop(skey, None)
            return
        seq = self._seq.get(skey)
        if seq is None:
            seq = self._seq[skey] = self._next
            self._next += 1
        group = self.group(record)
        if group is None:
            return
        entry = (self.order(record), seq, skey)
        members = self._members.setdefault(group, [])
        old_last = (members[-1][0], members[-1][1]) if members else None
        insort(members, entry)
        self._records[skey] = record
        self._where[skey] = (group, entry)
        self._rank(group, old_last)

    def extend(self, pairs: Sequence[tuple[Any, R]]) -> None:
        """``apply`` of each ``(key, record)`` of ``pairs``, in order (``Table.extend``)."""
        for key, record in pairs:
            self.apply(key, record)

    def __len__(self) -> int:
        """How many groups."""
        return len(self._ranked)

    def __contains__(self, group: object) -> bool:
        return group in self._members

    def ranked(self, newest_first: bool = True) -> Sequence[Any]:
        """The groups by their last record's sort key (highest first by default)."""
        return Ranked(self._ranked, newest_first)

    def view(self, group: Any, *, reverse: bool = False) -> Sequence[R]:
        """The records of ``group`` in order (``reverse``: the opposite order), read in
        place (no copy): index it, ``len`` it."""
        return Ordered(self._members.get(group, []), self._records, reverse, slot=2)

    def members(self, group: Any) -> list[R]:
        """The records of ``group`` in order (empty for an unknown group)."""
        return [self._records[skey] for _, _, skey in self._members.get(group, ())]

    def last(self, group: Any) -> R | None:
        """The last record of ``group`` in order, if any."""
        members = self._members.get(group)
        return self._records[members[-1][2]] if members else None

    def __getstate__(self) -> dict[str, Any]:
        return {"group": self.group, "order": self.order}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["group"], state["order"])  # type: ignore[misc]


class Mapped(Sequence[R]):
    """``fn`` of each of ``items``, made when read: a screen's rows built only for those on
    screen (``Mapped(range(n), row)`` for rows made from their index)."""

    __slots__ = ("items", "fn")

    def __init__(self, items: Sequence[Any], fn: Callable[[Any], R]) -> None:
        self.items, self.fn = items, fn

    def __len__(self) -> int:
        return len(self.items)

    @overload
    def __getitem__(self, i: int) -> R: ...

    @overload
    def __getitem__(self, i: slice) -> list[R]: ...

    def __getitem__(self, i: int | slice) -> R | list[R]:
        if isinstance(i, slice):
            return [self.fn(x) for x in self.items[i]]
        return self.fn(self.items[i])


class Ranked(Sequence[Any]):
    """A grouping's group keys by rank, read through its sorted list (no copy)."""

    __slots__ = ("_ranked", "_reverse")

    def __init__(self, ranked: list[tuple[Any, Any]], reverse: bool) -> None:
        self._ranked, self._reverse = ranked, reverse

    def __len__(self) -> int:
        return len(self._ranked)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self._ranked)
        if not -n <= i < n:
            raise IndexError("rank out of range")
        i %= n
        return self._ranked[n - 1 - i if self._reverse else i][1]


# --- stores ----------------------------------------------------------------------------------
class Store:
    """Base class for a dataclass of phone data (the system's stores, an app's data).

    Assigning a field bumps the journal; its ``Table`` fields report their own changes once
    ``attach`` has given them the journal. ``untracked`` names fields that change without
    making the data count as changed (the clock's ``now``).
    """

    untracked: ClassVar[tuple[str, ...]] = ()
    _journal: Journal | None = None

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        journal = self.__dict__.get("_journal")
        if journal is not None and not name.startswith("_") and name not in self.untracked:
            if callable(getattr(value, "attach", None)) and not isinstance(value, type):
                value.attach(journal)
            journal.bump()

    def attach(self, journal: Journal) -> None:
        """Report changes (of fields, and of every table and store inside) to ``journal``."""
        object.__setattr__(self, "_journal", journal)
        names: tuple[str, ...] = field_names(type(self)) if dataclasses.is_dataclass(self) else ()
        for name in names:
            attach_all(getattr(self, name), journal)

    def snapshot(self) -> dict[str, Any]:
        """Plain data of every tracked field (tables as ``TableSnap``)."""
        assert dataclasses.is_dataclass(self)
        return {name: to_plain(getattr(self, name)) for name in field_names(type(self))
                if name not in self.untracked}

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_journal"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


def attach_all(value: Any, journal: Journal) -> None:
    """Attach every ``Table`` and ``Store`` reachable through the fields of ``value`` (an
    app's data, which may be a plain dataclass holding tables)."""
    attach = getattr(value, "attach", None)
    if callable(attach) and not isinstance(value, type):
        attach(journal)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for name in field_names(type(value)):
            attach_all(getattr(value, name), journal)


class WatchedDict(dict):  # type: ignore[type-arg]
    """A dict that notes the keys written (set, deleted) since ``mark_store``: a store's
    large untracked mapping (Delivery's order times) is put back by ``rewind_store`` at the
    cost of what changed, not copied whole at every reset."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.written: set[Any] = set()

    def __setitem__(self, key: Any, value: Any) -> None:
        self.written.add(key)
        super().__setitem__(key, value)

    def __delitem__(self, key: Any) -> None:
        self.written.add(key)
        super().__delitem__(key)

    def pop(self, key: Any, *default: Any) -> Any:
        self.written.add(key)
        return super().pop(key, *default)

    def popitem(self) -> tuple[Any, Any]:
        key, value = super().popitem()
        self.written.add(key)
        return key, value

    def setdefault(self, key: Any, default: Any = None) -> Any:
        self.written.add(key)
        return super().setdefault(key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def clear(self) -> None:
        self.written.update(self)
        super().clear()

    def __ior__(self, other: Any) -> WatchedDict:  # type: ignore[misc]
        self.update(other)
        return self

    def __reduce__(self) -> Any:  # pickles and copies as a WatchedDict of its items
        return (WatchedDict, (dict(self),))


@dataclasses.dataclass
class _DictMark:
    """``mark_store``'s note of a ``WatchedDict``: the live one and a copy of its items."""

    live: WatchedDict
    items: dict[Any, Any]


def mark_store(store: Store) -> dict[str, Any]:
    """What ``rewind_store`` needs to bring ``store`` back to now: its tables marked
    (``Table.mark``), its stores marked in turn, a copy of every other field."""
    saved: dict[str, Any] = {}
    kind: Any = type(store)
    for name in field_names(kind):
        value = getattr(store, name)
        if isinstance(value, Table):
            value.mark()
            saved[name] = value
        elif isinstance(value, Store):
            saved[name] = (value, mark_store(value))
        elif isinstance(value, WatchedDict):
            value.written = set()
            saved[name] = _DictMark(value, copy.deepcopy(dict(value)))
        else:
            saved[name] = copy.deepcopy(value)
    return saved


def rewind_store(store: Store, saved: Mapping[str, Any]) -> None:
    """Bring ``store`` back to its ``mark_store`` (at the cost of what changed since: the
    tables put back only their changed records)."""
    for name, value in saved.items():
        if isinstance(value, Table):
            if getattr(store, name) is not value:
                setattr(store, name, value)
            value.rewind()
        elif isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], Store):
            if getattr(store, name) is not value[0]:
                setattr(store, name, value[0])
            rewind_store(value[0], value[1])
        elif isinstance(value, _DictMark):
            live = getattr(store, name)
            if live is not value.live:  # replaced: a copy, followed from now on
                value.live = WatchedDict(copy.deepcopy(value.items))
                setattr(store, name, value.live)
                continue
            for key in live.written:  # (the values are plain data: copied as written)
                if key in value.items:
                    dict.__setitem__(live, key, copy.deepcopy(value.items[key]))
                else:
                    dict.pop(live, key, None)
            live.written = set()
        elif getattr(store, name) != value or type(value) not in SCALARS:
            setattr(store, name, copy.deepcopy(value))
