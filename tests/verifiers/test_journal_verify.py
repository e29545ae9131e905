"""Verification that costs what changed: lookups on a PhoneWorld snapshot go through the
table's field indexes and the journal of changed keys (``Rows.finder``), and give the same
keys, in the same order, and the same verdicts as a full scan and a full diff of plain data."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phone_gym.verifiers import (
    Allow,
    Criterion,
    NoRecord,
    Record,
    Value,
    check,
    matching,
    matching_keys,
    plain,
    same_text,
)
from phone_gym.verifiers.snap import TableSnap, select
from phone_gym.world import data
from phone_gym.world.data import Table

NAMES = ("Ann", "Bob", "Cy", "Dee", "ann")
GROUPS = ("home", "work", None)


@dataclass(frozen=True)
class Rec:
    id: int = 0
    name: str = ""
    group: str | None = None
    rank: int = 0
    tags: tuple[str, ...] = field(default_factory=tuple)  # not a scalar: never indexed


records = st.builds(Rec, name=st.sampled_from(NAMES), group=st.sampled_from(GROUPS),
                    rank=st.integers(0, 3),
                    tags=st.lists(st.sampled_from(NAMES), max_size=2).map(tuple))
edits = st.lists(st.tuples(st.sampled_from(("add", "update", "remove", "put")),
                           st.integers(0, 40), records), max_size=30)
wheres = st.sampled_from([
    {"name": "Ann"}, {"name": "ann"}, {"group": None}, {"group": "work", "rank": 2},
    {"rank": 1}, {"rank": True}, {"name": same_text("ann")}, {"tags": ("Bob",)},
    {"name": same_text(" ANN. "), "rank": 0}, {"group": same_text("Work")},
    {"name": "Bob", "group": "home"}, {"nick": None}, {"name": "Zed"},
])


def apply(table: Table[Rec], ops: list[tuple[str, int, Rec]]) -> None:
    keys = table.keys()
    for op, i, rec in ops:
        key = keys[i % len(keys)] if keys else None
        if op == "add" or key is None:
            table.add(rec)
        elif op == "update":
            table.update(key, name=rec.name, group=rec.group, rank=rec.rank)
        elif op == "remove":
            table.remove(key)
        else:
            table.put(Rec(key, rec.name, rec.group, rec.rank, rec.tags))
        keys = table.keys()


def scan(state: dict[str, Any], where: dict[str, Any]) -> list[str]:
    """The slow truth: every record of the plain data, in order."""
    rows = plain(state)["recs"]
    return [k for k, r in rows.items()
            if all(v(r.get(f)) if callable(v) else r.get(f) == v for f, v in where.items())]


@pytest.fixture(autouse=True)
def _fast_lookups() -> Any:
    """These tests are about the fast path (``FAST_LOOKUPS``, on in the world too)."""
    assert data.FAST_LOOKUPS
    yield


@settings(max_examples=300, deadline=None)
@given(start=st.lists(records, min_size=1, max_size=25), first=edits, second=edits,
       where=wheres, index_early=st.booleans())
def test_indexed_lookups_and_verdicts_equal_the_full_scan_and_diff(
        start: list[Rec], first: list[tuple[str, int, Rec]],
        second: list[tuple[str, int, Rec]], where: dict[str, Any], index_early: bool) -> None:
    with patch.object(data, "INDEX_MIN", 0):  # small tables too: the fast path throughout
        lookups_and_verdicts_equal_the_full_scan(start, first, second, where, index_early)


def lookups_and_verdicts_equal_the_full_scan(
        start: list[Rec], first: list[tuple[str, int, Rec]],
        second: list[tuple[str, int, Rec]], where: dict[str, Any], index_early: bool) -> None:
    table: Table[Rec] = Table(start, kind=Rec)
    if index_early:  # indexes made before the snapshot, kept through the edits
        table.field_index("name"), table.field_index("rank")
    initial = {"recs": table.snapshot()}
    apply(table, first)
    middle = {"recs": table.snapshot()}
    apply(table, second)
    final = {"recs": table.snapshot()}
    for state in (initial, middle, final):
        assert isinstance(state["recs"], TableSnap)
        assert matching_keys(state, "recs", where) == scan(state, where)
        assert sorted(map(id, matching(state, "recs", where))) == sorted(
            id(state["recs"][k]) for k in scan(state, where))
    keys = scan(initial, where)
    criteria: list[Criterion] = [Record("recs", where, count=len(scan(final, where)) or None),
                NoRecord("recs", {"name": "Zed"}),
                *(Value(f"recs.{k}.rank", 2) for k in keys[:1])]
    allowed = [Allow("recs", "modified", where=where, fields=("rank", "group"), max=2),
               Allow("recs", "added", where={"name": "Ann"}),
               Allow("recs", "removed", where=where, max=len(keys))]
    for before, after in ((initial, final), (initial, middle), (middle, final)):
        fast = check(before, after, criteria, allowed=allowed)
        slow = check(plain(before), plain(after), criteria, allowed=allowed)
        assert (fast.success, fast.progress) == (slow.success, slow.progress)
        # which of two like changes an Allow's count takes first follows the diff's order
        # (a snapshot's delta is unordered): the damage is the same in number and kind
        assert sorted(c.kind for c in fast.damage) == sorted(c.kind for c in slow.damage)


def test_the_diff_of_two_snapshots_meets_changes_in_the_full_diffs_order() -> None:
    """Which of two records an Allow's count takes first follows the order of the records,
    so the delta diff must meet them as a full diff does (it sorted them by number: here,
    record "a" took the one allowed slot and both of "b"'s changes became damage)."""
    @dataclass(frozen=True)
    class Tag:
        id: str = ""
        group: str | None = None
        rank: int = 0

    table: Table[Tag] = Table([Tag("b"), Tag("a")], kind=Tag)
    before = {"tags": table.snapshot()}
    table.update("b", group="work", rank=1)
    table.update("a", rank=1)
    after = {"tags": table.snapshot()}
    assert isinstance(after["tags"], TableSnap) and after["tags"].base is before["tags"].base
    allowed = [Allow("tags", "modified", fields=("rank", "group"))]
    fast = check(before, after, [], allowed=allowed)
    slow = check(plain(before), plain(after), [], allowed=allowed)
    assert [c.path for c in fast.damage] == [c.path for c in slow.damage] == ["tags.a.rank"]


def test_a_snapshot_lists_new_records_in_the_order_they_were_added() -> None:
    """Not in a set's order, which changes with the process's hash seed."""
    table: Table[Rec] = Table([Rec(name="Ann")], kind=Rec)
    table.snapshot()
    for i in range(30):
        table.new(name=f"n{i}")
    table.update(5, rank=2)
    assert list(table.snapshot()) == [str(k) for k in table.keys()]


def test_a_lookup_tests_only_what_the_index_names_and_what_changed() -> None:
    table: Table[Rec] = Table(kind=Rec)
    for i in range(2000):
        table.new(name=f"person {i + 1}", rank=i % 4)
    initial = {"recs": table.snapshot()}
    table.update(5, name="person 7")
    table.remove(9)
    tested: list[str] = []

    def test(record: Any) -> bool:
        tested.append(record["name"])
        return record["name"] == "person 7"

    rows = initial["recs"]
    assert sorted(select(rows, ("t", 1), test, [("name", "person 7", None)])) == ["7"]
    assert len(tested) <= 3  # record 7, and the two changed since the snapshot (5 and 9)
    assert matching_keys({"recs": table.snapshot()}, "recs", {"name": "person 7"}) == ["5", "7"]
    tested.clear()
    assert len(select(rows, ("t", 2), test)) == 1  # no value to look up by: every record
    assert len(tested) == 2000


def test_a_snapshot_older_than_the_change_log_is_searched_in_full() -> None:
    table: Table[Rec] = Table([Rec(name="Ann")], kind=Rec)
    initial = {"recs": table.snapshot()}
    for i in range(5000):  # more changes than the log keeps: the table folds a new base
        table.new(name=f"n{i}")
    table.update(1, name="Bob")
    assert initial["recs"].base.finder is not None
    assert initial["recs"].base.finder("name", "Ann", None) is None
    assert matching_keys(initial, "recs", {"name": "Ann"}) == ["1"]
    assert matching_keys({"recs": table.snapshot()}, "recs", {"name": "Ann"}) == []


def test_tables_of_a_kind_looked_up_by_a_field_keep_its_index_from_the_first_write() -> None:
    @dataclass(frozen=True)
    class Pet:
        id: int = 0
        name: str = ""

    first: Table[Pet] = Table([Pet(name="Rex")], kind=Pet)
    assert first.field_index("name") is None  # too few records to be worth an index
    assert matching_keys({"pets": first.snapshot()}, "pets", {"name": "Rex"}) == ["1"]
    assert data.WANTED_FIELDS[Pet] == {("name", None)}  # but asked for: learned
    for i in range(data.INDEX_MIN):
        first.new(name=f"pet {i}")
    assert first.field_index("name") is not None
    second: Table[Pet] = Table(kind=Pet)
    for i in range(data.INDEX_MIN - 1):
        second.new(name=f"pet {i}")
    assert ("name", None) not in second._eq  # small tables keep none
    second.new(name="Tom")  # made when the table grows to INDEX_MIN, not at the next lookup
    assert ("name", None) in second._eq
    tom = str(data.INDEX_MIN)
    assert second.field_index("name").find("Tom") == {tom}  # type: ignore[union-attr]
    second.update(int(tom), name="Tim")
    assert second.field_index("name").find("Tom") == set()  # type: ignore[union-attr]
    assert second.field_index("_private") is None


def test_a_text_matcher_is_looked_up_in_an_index_of_normalized_text() -> None:
    table: Table[Rec] = Table(kind=Rec)
    for i in range(500):
        table.new(name=f"Person {i}")
    table.new(name="  ann! ")
    initial = {"recs": table.snapshot()}
    table.new(name="ANN")
    tested: list[str] = []
    matcher = same_text("Ann")
    assert matcher.index is not None

    def test(record: Any) -> bool:
        tested.append(record["name"])
        return bool(matcher(record["name"]))

    assert select(initial["recs"], ("ann",), test, [("name", "Ann", None),
                                                    ("name", "ann", matcher.index[0])]) == []
    assert tested == []  # no record is named "Ann" exactly: nothing to test
    assert matching_keys(initial, "recs", {"name": matcher}) == ["501"]
    assert matching_keys({"recs": table.snapshot()}, "recs", {"name": matcher}) == ["501", "502"]


def test_a_base_pickles_and_copies_without_its_finder() -> None:
    table: Table[Rec] = Table([Rec(name="Ann"), Rec(name="Bob")], kind=Rec)
    base = table.snapshot().base
    assert base.finder is not None
    again = pickle.loads(pickle.dumps(base))
    assert again == base and again.finder is None
    assert matching_keys({"recs": TableSnap(again)}, "recs", {"name": "Bob"}) == ["2"]
