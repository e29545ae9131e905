"""State diffs: dotted paths of added, removed and modified values, and the patterns that
allow them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phone_gym.verifiers.diff import Change, diff, matches, unexpected

# --- diff ----------------------------------------------------------------------------------


def test_equal_snapshots_have_no_changes() -> None:
    snap = {"system": {"clipboard": "", "contacts": {"1": {"name": "Ann"}}}, "apps": {}}
    assert diff(snap, {"system": {"clipboard": "", "contacts": {"1": {"name": "Ann"}}},
                       "apps": {}}) == []


def test_changes_are_reported_at_the_deepest_dict_level() -> None:
    before = {"apps": {"Notes": {"notes": {"3": {"title": "A", "body": "x"}}}}}
    after = {"apps": {"Notes": {"notes": {"3": {"title": "A", "body": "y"}}}}}
    assert diff(before, after) == [
        Change("apps.Notes.notes.3.body", "modified", before="x", after="y")
    ]


def test_added_and_removed_records_carry_the_whole_record() -> None:
    before = {"contacts": {"1": {"name": "Ann"}, "2": {"name": "Bob"}}}
    after = {"contacts": {"1": {"name": "Ann"}, "7": {"name": "Cy"}}}
    assert diff(before, after) == [
        Change("contacts.2", "removed", before={"name": "Bob"}),
        Change("contacts.7", "added", after={"name": "Cy"}),
    ]


def test_order_is_before_keys_then_new_keys() -> None:
    before = {"a": 1, "b": 2, "c": 3}
    after = {"z": 0, "c": 4, "a": 1, "y": 9}
    assert [(c.path, c.kind) for c in diff(before, after)] == [
        ("b", "removed"), ("c", "modified"), ("z", "added"), ("y", "added"),
    ]


def test_lists_and_type_changes_are_single_modifications() -> None:
    assert diff({"tags": [1, 2]}, {"tags": [1, 3]}) == [
        Change("tags", "modified", [1, 2], [1, 3])
    ]
    assert diff({"x": {"a": 1}}, {"x": None}) == [Change("x", "modified", {"a": 1}, None)]
    assert diff({"x": "1"}, {"x": {"a": 1}}) == [Change("x", "modified", "1", {"a": 1})]


def test_non_dict_roots_have_an_empty_path() -> None:
    assert diff(1, 2) == [Change("", "modified", 1, 2)]
    assert diff("same", "same") == []


def test_paths_use_str_of_keys() -> None:
    assert diff({1: {"a": 1}}, {1: {"a": 2}}) == [Change("1.a", "modified", 1, 2)]


def test_change_text_says_what_happened() -> None:
    assert str(Change("a.b", "added", after=1)) == "a.b added: 1"
    assert str(Change("a.b", "removed", before="x")) == "a.b removed (was 'x')"
    assert str(Change("a.b", "modified", 1, 2)) == "a.b changed from 1 to 2"


# --- properties ------------------------------------------------------------------------------

keys = st.text(alphabet="abcxyz019_", min_size=1, max_size=4)
leaves = st.none() | st.booleans() | st.integers() | st.text(max_size=5) | st.floats(
    allow_nan=False)
values = st.recursive(leaves, lambda kids: st.dictionaries(keys, kids, max_size=4)
                      | st.lists(kids, max_size=3), max_leaves=20)
snapshots = st.dictionaries(keys, values, max_size=5)


@given(snapshots)
def test_a_snapshot_does_not_differ_from_itself(snap: dict) -> None:
    assert diff(snap, snap) == []


@given(snapshots, keys, values)
def test_one_added_key_is_one_added_change(snap: dict, key: str, value: object) -> None:
    new_key = f"new_{key}"
    if new_key in snap:
        return
    grown = {**snap, new_key: value}
    assert diff(snap, grown) == [Change(new_key, "added", after=value)]
    assert diff(grown, snap) == [Change(new_key, "removed", before=value)]


@given(snapshots, snapshots)
def test_no_changes_exactly_when_equal(a: dict, b: dict) -> None:
    assert (diff(a, b) == []) == (a == b)


@given(snapshots, snapshots)
def test_added_and_removed_mirror_each_other(a: dict, b: dict) -> None:
    forward = {(c.path, c.kind) for c in diff(a, b)}
    mirror = {"added": "removed", "removed": "added", "modified": "modified"}
    assert {(c.path, mirror[c.kind]) for c in diff(b, a)} == forward


# --- matches and unexpected ------------------------------------------------------------------

ADDED = Change("system.contacts.7", "added", after={"name": "Cy"})
EDITED = Change("system.contacts.7.phone", "modified", "1", "2")
REMOVED = Change("apps.Notes.notes.3", "removed", before={"title": "A"})


def test_a_glob_covers_the_path_and_everything_below_it() -> None:
    assert matches(ADDED, "system.contacts.*")
    assert matches(EDITED, "system.contacts.*")
    assert matches(EDITED, "system.contacts.7")  # sub-path of the named one
    assert matches(EDITED, "system.contacts.7.phone")
    assert not matches(EDITED, "system.contacts.7.name")
    assert not matches(ADDED, "system.contacts.70")
    assert matches(ADDED, "system.contacts")
    assert matches(ADDED, "system")
    assert not matches(ADDED, "system.contact")


def test_a_pattern_does_not_cover_a_longer_key() -> None:
    assert not matches(Change("system.nowhere", "modified", 1, 2), "system.now")
    assert matches(Change("system.now", "modified", 1, 2), "system.now")


def test_a_kind_prefix_restricts_the_change_kind() -> None:
    assert matches(ADDED, "added:system.contacts.*")
    assert not matches(EDITED, "added:system.contacts.*")
    assert matches(EDITED, "modified:system.contacts.*.phone")
    assert not matches(ADDED, "removed:system.contacts.*")
    assert matches(REMOVED, "removed:apps.Notes.notes.3")
    assert not matches(REMOVED, "modified:apps.Notes.notes.3")


def test_a_colon_inside_the_path_is_not_a_kind_prefix() -> None:
    change = Change("system.files.alarm 07:30.txt", "added", after="ring")
    assert matches(change, "system.files.alarm 07:30.txt")
    assert matches(change, "system.files.*")
    assert matches(change, "added:system.files.alarm 07:30.txt")
    assert not matches(change, "removed:system.files.alarm 07:30.txt")


def test_unexpected_keeps_only_uncovered_changes_in_order() -> None:
    changes = [ADDED, EDITED, REMOVED]
    assert unexpected(changes, ()) == changes
    assert unexpected(changes, ["system.contacts.*"]) == [REMOVED]
    assert unexpected(changes, ("added:system.contacts.*",)) == [EDITED, REMOVED]
    assert unexpected(changes, ("system.*", "apps.Notes.notes.3")) == []


@pytest.mark.parametrize("pattern", ["*.next_id", "apps.*.next_id"])
def test_star_crosses_dots(pattern: str) -> None:
    assert matches(Change("apps.Notes.next_id", "modified", 4, 5), pattern)
