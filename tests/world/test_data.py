"""Versioned data: tables of frozen records, the journal, snapshots that share unchanged
records, incremental diffs and selects, listings kept sorted on writes."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError, dataclass

import pytest

from phone_gym.verifiers import diff, matching
from phone_gym.verifiers.snap import TableSnap
from phone_gym.world.data import Journal, Listing, Store, Table


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
