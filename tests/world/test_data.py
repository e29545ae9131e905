"""Versioned data: tables of frozen records, the journal, snapshots that share unchanged
records, incremental diffs and selects, listings kept sorted on writes."""

from __future__ import annotations

import copy
import pickle
import tracemalloc
from dataclasses import FrozenInstanceError, dataclass
from datetime import datetime

import numpy as np
import pytest

from phone_gym.verifiers import diff, matching
from phone_gym.verifiers.snap import TableSnap
from phone_gym.world.data import (
    Journal,
    Listing,
    Store,
    Table,
    WatchedDict,
    mark_store,
    rewind_store,
)
from phone_gym.world.system import File, file_folder, file_order


@dataclass(frozen=True)
class Item:
    id: int
    name: str
    done: bool = False


@dataclass
class Data(Store):
    items: Table[Item]
    title: str = ""


def make(n: int = 5) -> tuple[Journal, Table[Item]]:
    journal = Journal()
    table: Table[Item] = Table(kind=Item)
    table.attach(journal)
    for i in range(n):
        table.new(name=f"item {i}")
    return journal, table


def test_records_are_frozen_and_changed_through_the_table() -> None:
    journal, table = make()
    item = table[1]
    with pytest.raises(FrozenInstanceError):
        item.name = "x"  # type: ignore[misc]
    before = journal.version
    assert table.update(1, name="first").name == "first" and table[1] is not item
    assert journal.version == before + 1
    assert table.update(1, name="first") is table[1] and journal.version == before + 1
    with pytest.raises(TypeError, match="frozen"):
        Table().add(Data(Table()))  # type: ignore[arg-type]
    assert table.new(name="new").id == 6 and table.add(Item(0, "auto")).id == 7
    with pytest.raises(KeyError):
        table.add(Item(1, "dup"))


def test_snapshots_share_what_did_not_change() -> None:
    _, table = make(1000)
    a = table.snapshot()
    assert table.snapshot() is a and isinstance(a, TableSnap) and len(a) == 1000
    table.update(3, done=True)
    table.remove(7)
    table.new(name="x")
    b = table.snapshot()
    assert b.base is a.base and set(b.delta) == {"3", "7", "1001"}
    assert len(b) == 1000 and "7" not in b and b["1001"]["name"] == "x"
    assert [str(c) for c in diff(a, b)] == [
        "3.done changed from False to True", "7 removed (was {'id': 7, 'name': 'item 6', "
        "'done': False})", "1001 added: {'id': 1001, 'name': 'x', 'done': False}"]
    with pytest.raises(TypeError, match="read-only"):
        b["3"]["done"] = False  # type: ignore[index]
    plain = copy.deepcopy(b)
    plain["3"]["done"] = False
    assert type(plain) is dict and table.snapshot()["3"]["done"] is True
    assert pickle.loads(pickle.dumps(b)) == dict(b.items())


def test_matching_scans_the_base_once() -> None:
    _, table = make(50)
    snap = table.snapshot()
    calls = []

    def named(value: object) -> bool:
        calls.append(value)
        return value == "item 4"

    state = {"items": snap}
    assert [r["id"] for r in matching(state, "items", {"name": named})] == [5]
    assert len(calls) == 50
    table.update(9, name="item 4")
    state = {"items": table.snapshot()}
    assert sorted(r["id"] for r in matching(state, "items", {"name": named})) == [5, 9]
    assert len(calls) == 51  # only the changed record was looked at again


def test_store_fields_are_tracked_and_pickle_without_the_journal() -> None:
    journal = Journal()
    data = Data(Table(kind=Item))
    data.attach(journal)
    data.title = "hello"
    data.items.new(name="a")
    assert journal.version == 2
    copy_ = pickle.loads(pickle.dumps(data))
    assert copy_.title == "hello" and len(copy_.items) == 1 and copy_._journal is None


def test_listing_index_stays_sorted_on_writes() -> None:
    _, table = make(0)
    index = table.index("by_name", lambda r: r.name, lambda r: r.name)
    for name in ["pear", "apple", "fig", "banana"]:
        table.new(name=name)
    assert [r.name for r in index.view(table)] == ["apple", "banana", "fig", "pear"]
    table.update(3, name="aardvark")
    table.remove(1)
    assert [r.name for r in index.view(table)] == ["aardvark", "apple", "banana"]
    assert [r.name for r in index.view(table, "AN")] == ["banana"]
    assert [r.name for r in index.view(table, "a")] == ["aardvark", "apple", "banana"]
    pulled = Listing(lambda r: -r.id)
    assert [r.id for r in pulled.view(table)] == [4, 3, 2]
    table.new(name="kiwi")
    assert [r.id for r in pulled.view(table)] == [5, 4, 3, 2]


def test_extend_is_an_add_of_each_record() -> None:
    """A seed written in one ``extend`` leaves the table, its listing, its change log,
    snapshot, mark and journal as one ``add`` each does; a key held already raises."""
    tables = []
    for bulk in (False, True):
        journal, table = make(2)
        index = table.index("by_name", lambda r: r.name, lambda r: r.name)
        table.snapshot()
        table.mark()
        records = [Item(0, "pear"), Item(7, "apple", True), Item(0, "fig")]
        if bulk:
            added = table.extend(records)
        else:
            added = [table.add(r) for r in records]
        assert [r.id for r in added] == [3, 7, 8]
        tables.append((journal.version, table.version, table.next_id, table.keys(),
                       list(table), [r.name for r in index.view(table, "p")],
                       dict(table.snapshot()), table.changes_since(0), dict(table._dirty)))
        table.rewind()
        assert table.keys() == [1, 2] and table.next_id == 3
    assert tables[0] == tables[1]
    _, table = make(2)
    with pytest.raises(KeyError, match="exists already"):
        table.extend([Item(5, "a"), Item(2, "b")])
    with pytest.raises(TypeError, match="expected a Item"):
        table.extend([File("/sdcard/a.txt")])  # type: ignore[list-item]


def test_a_listing_sorts_an_extend_in_once_as_an_apply_of_each() -> None:
    """``Table.extend`` hands its listings and groupings the records in one go: the same
    entries, sums, views and groups as an ``add`` each, also when a key held raises."""
    names = ["pear", "apple", "fig", "kiwi", "banana", "apple", "date", "cherry"]
    states = []
    for bulk in (False, True):
        _, table = make(3)
        index = table.index("by_name", lambda r: r.name, lambda r: r.name,
                            keep=lambda r: r.name != "fig")
        assert index.total("id") == 6  # (a sum kept from now on)
        groups = table.grouping("by_done", lambda r: r.done, lambda r: r.name)
        records = [Item(0, n, i % 3 == 0) for i, n in enumerate(names)] + [Item(2, "dup")]
        with pytest.raises(KeyError, match="exists already"):
            if bulk:
                table.extend(records)
            else:
                for r in records:
                    table.add(r)
        states.append((list(index._entries), index.total("id"), index._version,
                       [r.name for r in index.view(table)],
                       [r.name for r in index.view(table, "an")],
                       list(groups.ranked()), [[r.name for r in groups.members(g)]
                                               for g in groups.ranked()]))
    assert states[0] == states[1]
    assert states[1][3] == ["apple", "apple", "banana", "cherry", "date", "item 0", "item 1",
                            "item 2", "kiwi", "pear"]
    listing: Listing[Item] = Listing(lambda r: r.name)  # unattached: pairs out of order
    listing.extend([(3, Item(3, "c")), (1, Item(1, "a")), (2, Item(2, "b"))])
    assert [k for _, k in listing._entries] == ["1", "2", "3"]
    listing.extend([(2, Item(2, "z")), (4, Item(4, "d"))])  # a key listed: one by one
    assert [k for _, k in listing._entries] == ["1", "3", "4", "2"]


@dataclass(frozen=True)
class Mixed:
    id: int
    when: datetime
    tags: tuple[str, ...]
    size: float = 1.5
    _cache: str = ""


def test_record_plain_copies_scalars_and_converts_the_rest() -> None:
    from phone_gym.world.data import record_plain, to_plain
    plain = record_plain(Mixed(1, datetime(2023, 10, 15, 9, 30), ("a", "b")))
    assert plain == {"id": 1, "when": "2023-10-15T09:30:00", "tags": ["a", "b"], "size": 1.5}
    assert record_plain(Item(2, "x")) == {"id": 2, "name": "x", "done": False}
    with pytest.raises(TypeError, match="read-only"):
        plain["id"] = 3  # type: ignore[index]
    assert to_plain(Item(2, "x")) == dict(record_plain(Item(2, "x")))


def test_rewinding_a_rename_keeps_the_order_and_copies_no_table() -> None:
    """A rename (the record out, and in at the end under its new key) undone by ``rewind``
    puts the record back in its marked place without copying the table (issue 29: the
    files store's reset was a copy of all 20,000 entries): what the rewind allocates does
    not grow with the table."""
    peaks = []
    for n in (2_000, 20_000):
        files: Table[File] = Table(kind=File, key="path")
        for i in range(n):
            files.put(File(f"/sdcard/Download/f{i:05d}.txt", f"n{i}"))
        files.snapshot()
        files.mark()
        order = files.keys()
        old = f"/sdcard/Download/f{n // 2:05d}.txt"
        record = files.remove(old)
        assert record is not None
        files.put(File("/sdcard/Download/renamed.txt", record.content))
        files.update("/sdcard/Download/f00003.txt", content="edited")
        tracemalloc.start()
        files.rewind()
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert files.keys() == order and files[old] is record
        assert [f.path for f in files] == order and not files.snapshot().delta
        files.put(File("/sdcard/Download/new.txt", ""))  # after the rewind: at the end
        assert files.keys() == [*order, "/sdcard/Download/new.txt"]
    assert peaks[1] < 64_000 and peaks[1] < 3 * peaks[0] + 16_000, peaks


def test_rewound_tables_keep_the_order_of_a_copy_of_the_mark() -> None:
    """Random writes, renames, records put back and rewinds (reads now and then, so that
    records put back by several rewinds wait together): every read, copy, pickle,
    snapshot and grouping sees the order of a plain dict that ``rewind`` replaces by a
    copy of the one ``mark`` saw."""
    rng = np.random.default_rng(29)
    table: Table[File] = Table(kind=File, key="path")
    ref: dict[str, File] = {}

    def put(record: File) -> None:
        table.put(record)
        ref[record.path] = record

    for i in range(300):
        put(File(f"/sdcard/{('Download', 'DCIM')[i % 2]}/f{i:03d}.txt", f"n{i}"))
    folders = table.grouping("folders", file_folder, file_order)
    table.snapshot()
    table.mark()
    marked, made = dict(ref), 300
    for step in range(800):
        op, keys = rng.random(), list(ref)
        key = keys[int(rng.integers(len(keys)))] if keys else None
        if op < 0.25 and key is not None:  # a rename
            record = table.remove(key)
            del ref[key]
            assert record is not None
            put(File(f"/sdcard/Download/r{made:04d}.txt", record.content))
            made += 1
        elif op < 0.4 and key is not None:  # out and back in: at the end
            record = table.remove(key)
            del ref[key]
            assert record is not None
            put(record)
        elif op < 0.55 and key is not None:
            table.remove(key)
            del ref[key]
        elif op < 0.7 and key is not None:
            put(File(key, f"edit {step}"))
        elif op < 0.78:
            put(File(f"/sdcard/DCIM/a{made:04d}.txt", ""))
            made += 1
        elif op < 0.8:  # many renamed (merged at the rewind: more than 64 put back)
            for key in keys[:int(rng.integers(40, 90))]:
                record = table.remove(key)
                del ref[key]
                assert record is not None
                put(File(f"/sdcard/DCIM/r{made:04d}.txt", record.content))
                made += 1
        else:
            table.rewind()
            ref = dict(marked)
        if rng.random() < 0.1:
            want = list(ref)
            assert table.keys() == want, step
            assert [r.path for r in table] == want and list(table) == list(ref.values())
            assert pickle.loads(pickle.dumps(table)).keys() == want
            assert copy.deepcopy(table).keys() == want
            assert list(copy.deepcopy(table).snapshot()) == want
            assert diff(table.snapshot(), dict(copy.deepcopy(table).snapshot())) == []
            fresh: Table[File] = Table(ref.values(), kind=File, key="path")
            again = fresh.grouping("folders", file_folder, file_order)
            assert list(folders.ranked()) == list(again.ranked())
            for folder in again.ranked():
                assert folders.members(folder) == again.members(folder), step


@dataclass
class Times(Store):
    """A store with a large untracked mapping (as Delivery's order times)."""

    times: dict[int, str]
    note: str = ""

    untracked = ("times",)


def test_a_watched_dict_is_put_back_at_the_cost_of_what_changed() -> None:
    """``rewind_store`` puts back the keys of a ``WatchedDict`` written since ``mark_store``
    (set, deleted, popped, updated, cleared), and a dict put in its place whole; pickles and
    copies stay ``WatchedDict``s of the same items."""
    rng = np.random.default_rng(3)
    store = Times(WatchedDict({i: f"t{i}" for i in range(200)}))
    marked = dict(store.times)
    saved = mark_store(store)
    for round_ in range(30):
        times = store.times
        for _ in range(int(rng.integers(1, 6))):
            key, op = int(rng.integers(260)), rng.random()
            if op < 0.4:
                times[key] = f"new{round_}"
            elif op < 0.55:
                times.pop(key, None)
            elif op < 0.7 and key in times:
                del times[key]
            elif op < 0.8:
                times.update({key: "u", key + 1: "v"})
            elif op < 0.85:
                times.setdefault(key, "d")
            elif op < 0.88:
                times.clear()
            elif op < 0.9:
                store.times = WatchedDict({1: "replaced"})
        rewind_store(store, saved)
        assert store.times == marked and isinstance(store.times, WatchedDict), round_
        assert len(store.times.written) == 0
    for copied in (copy.deepcopy(store.times), pickle.loads(pickle.dumps(store.times))):
        assert isinstance(copied, WatchedDict) and copied == marked
        copied[5] = "x"
        assert copied.written == {5} and store.times[5] == "t5"
