"""Declarative criteria over plain snapshots, and ``check``: criteria plus the
collateral-damage rule."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phone_gym.verifiers import (
    DEFAULT_IGNORE,
    Allow,
    Answer,
    Becomes,
    NoRecord,
    Record,
    Value,
    Verdict,
    check,
    contains,
    digits,
    lookup,
    normalize_text,
    same_phone,
    same_text,
)

STATE = {
    "now": "2026-10-15T09:30:00",
    "clipboard": "",
    "contacts": {
        "1": {"id": 1, "name": "Ann Lee", "phone": "+1 (555) 010-2000", "starred": False},
        "2": {"id": 2, "name": "Bob Roy", "phone": "555 0199", "starred": True},
        "3": {"id": 3, "name": "Bob Roy", "phone": "", "starred": False},
    },
    "settings": {"global": {"wifi_on": "1"}},
    "apps": {
        "Notes": {"notes": {"4": {"id": 4, "title": "Groceries", "body": "Milk\nEggs"}},
                  "next_id": 5},
        "Clock": {"alarms": {}},
    },
}


def state() -> dict:
    return copy.deepcopy(STATE)


# --- helpers -----------------------------------------------------------------------------------


def test_lookup_follows_dotted_paths() -> None:
    assert lookup(STATE, "settings.global.wifi_on") == "1"
    assert lookup(STATE, "apps.Notes.notes.4.title") == "Groceries"
    assert lookup(STATE, "apps.Clock.alarms") == {}
    assert lookup(STATE, "settings.global.nope") is None
    assert lookup(STATE, "apps.Notes.notes.4.title.deeper") is None  # through a string
    assert lookup({}, "a") is None


def test_normalize_text() -> None:
    assert normalize_text("  Hello,\n  World!  ") == "hello, world"
    assert normalize_text('"Quoted."') == "quoted"
    assert normalize_text("a\t\tb") == "a b"
    assert normalize_text(42) == "42"
    assert normalize_text("...") == ""


def test_digits() -> None:
    assert digits("+1 (555) 010-2000") == "15550102000"
    assert digits("none") == ""
    assert digits(5550199) == "5550199"


def test_matchers_and_their_names() -> None:
    assert same_text("Buy milk")("  buy MILK. ")
    assert not same_text("Buy milk")("Buy milk now")
    assert contains("MILK")("Buy milk now")
    assert not contains("bread")("Buy milk now")
    assert same_phone("555-0199")("555 0199")
    assert not same_phone("555-0199")("555 0198")
    assert not same_phone("")("")  # no digits never matches
    assert repr(same_text("x")) == "text like 'x'"
    assert repr(contains("x")) == "containing 'x'"
    assert repr(same_phone("1")) == "phone '1'"


@given(st.text(max_size=30))
def test_normalize_text_is_idempotent(text: str) -> None:
    once = normalize_text(text)
    assert normalize_text(once) == once
    assert same_text(text)(once)


@given(st.text(max_size=30))
def test_digits_are_only_digits(text: str) -> None:
    assert all(ch.isdigit() for ch in digits(text))
    assert digits(digits(text)) == digits(text)


# --- Record / NoRecord / Value / Answer ---------------------------------------------------


def test_record_found_with_expected_fields() -> None:
    crit = Record("contacts", {"name": "Ann Lee"}, {"phone": same_phone("15550102000")})
    assert crit.check(STATE, None) == (
        True, "contacts record with name='Ann Lee' is as expected")


def test_record_missing() -> None:
    ok, reason = Record("contacts", {"name": "Cy"}).check(STATE, None)
    assert not ok
    assert reason == "no contacts record with name='Cy'"


def test_record_where_takes_matchers() -> None:
    assert Record("contacts", {"name": same_text("ann lee.")}).check(STATE, None)[0]
    assert Record("contacts", {"name": contains("lee"), "starred": False}).check(
        STATE, None)[0]
    assert not Record("contacts", {"name": contains("lee"), "starred": True}).check(
        STATE, None)[0]


def test_record_expect_any_of_the_matches() -> None:
    # two "Bob Roy" records: the second one has the starred=False the criterion expects
    assert Record("contacts", {"name": "Bob Roy"}, {"starred": False}).check(
        STATE, None)[0]
    ok, reason = Record("contacts", {"name": "Bob Roy"},
                        {"phone": same_phone("1")}).check(STATE, None)
    assert not ok
    assert reason == ("contacts record with name='Bob Roy' has {'phone': '555 0199'}, "
                      "expected phone=phone '1'")


def test_record_count() -> None:
    assert Record("contacts", {"name": "Bob Roy"}, count=2).check(STATE, None)[0]
    ok, reason = Record("contacts", {"name": "Bob Roy"}, count=1).check(STATE, None)
    assert not ok
    assert reason == "2 of contacts record with name='Bob Roy', expected 1"


def test_record_in_a_missing_or_empty_collection() -> None:
    assert not Record("alarms", {"hour": 7}).check(STATE, None)[0]
    assert not Record("apps.Nope.items", {"id": 1}).check(STATE, None)[0]
    assert not Record("now", {"id": 1}).check(STATE, None)[0]  # not a table


def test_record_missing_fields_read_as_none() -> None:
    assert Record("contacts", {"email": None}, count=3).check(STATE, None)[0]


def test_no_record() -> None:
    assert NoRecord("contacts", {"name": "Cy"}).check(STATE, None) == (
        True, "record is gone")
    ok, reason = NoRecord("apps.Notes.notes", {"title": same_text("groceries")}).check(
        STATE, None)
    assert not ok
    assert reason == "apps.Notes.notes still has a record with title=text like 'groceries'"
    assert NoRecord("alarms", {}).check(STATE, None)[0]
    assert not NoRecord("contacts", {}).check(STATE, None)[0]


def test_value() -> None:
    assert Value("settings.global.wifi_on", "1").check(STATE, None) == (
        True, "settings.global.wifi_on is '1'")
    ok, reason = Value("settings.global.wifi_on", "0").check(STATE, None)
    assert not ok
    assert reason == "settings.global.wifi_on is '1', expected '0'"
    assert Value("apps.Notes.notes.4.body", contains("eggs")).check(STATE, None)[0]
    assert Value("missing", None).check(STATE, None)[0]


def test_answer_literal_compares_normalized_text() -> None:
    crit = Answer("Bob Roy")
    assert crit.check(STATE, " bob roy. ") == (True, "answer is correct")
    assert crit.check(STATE, "Bob") == (False, "answer 'Bob' is wrong")
    assert crit.check(STATE, None) == (False, "no answer was given")
    assert Answer(3).check(STATE, "3")[0]


def test_answer_matcher() -> None:
    assert Answer(same_phone("555-0199")).check(STATE, "555 0199")[0]
    assert not Answer(same_phone("555-0199")).check(STATE, "It is 555 0199")[0]  # a field
    assert not Answer(contains("milk")).check(STATE, "eggs")[0]
    assert not Answer(contains("milk")).check(STATE, None)[0]


# --- check ---------------------------------------------------------------------------------------


def test_check_passes_with_criteria_and_allowed_changes() -> None:
    final = state()
    final["contacts"]["1"]["starred"] = True
    verdict = check(STATE, final, [Value("contacts.1.starred", True)],
                    allowed=["contacts.1.starred"])
    assert verdict == Verdict(True, "contacts.1.starred is True", 1.0)
    assert verdict.score == 1.0


def test_check_without_criteria_or_changes() -> None:
    assert check(STATE, state(), []) == Verdict(True, "no change expected", 1.0)


def test_failing_criteria_give_their_share_and_the_first_reason() -> None:
    criteria = [
        Value("settings.global.wifi_on", "1"),
        Value("settings.global.wifi_on", "0"),
        NoRecord("contacts", {"name": "Ann Lee"}),
        Record("apps.Notes.notes", {"title": "Groceries"}),
    ]
    verdict = check(STATE, state(), criteria)
    assert not verdict.success
    assert verdict.progress == 0.5
    assert verdict.reason == "settings.global.wifi_on is '1', expected '0'"
    assert verdict.score == 0.0


def test_collateral_damage_fails() -> None:
    final = state()
    final["contacts"]["1"]["starred"] = True
    del final["contacts"]["3"]
    verdict = check(STATE, final, [Value("contacts.1.starred", True)])
    assert not verdict.success
    assert verdict.reason == (
        "unexpected change: contacts.1.starred changed from False to True (+1 more)")
    assert verdict.progress == 0.5
    verdict = check(STATE, final, [Value("contacts.1.starred", True)],
                    allowed=[Allow("contacts", "modified")])
    assert verdict.reason.startswith("unexpected change: contacts.3 removed")
    assert "more" not in verdict.reason
    with pytest.raises(ValueError, match="wildcard"):  # uncounted: refused
        check(STATE, final, [], allowed=["modified:contacts.*"])


def test_default_ignored_paths_do_not_count() -> None:
    assert DEFAULT_IGNORE == ("now", "foreground", "clipboard", "next_id", "*.next_id",
                              "apps.*.draft")
    final = state()
    final["now"] = "2026-10-15T09:31:00"
    final["foreground"] = "com.example.notes"  # the app on screen is not data
    final["clipboard"] = "copied"
    final["apps"]["Notes"]["next_id"] = 9
    assert check(STATE, final, []).success
    # but not when the caller replaces the ignore list
    verdict = check(STATE, final, [], ignore=())
    assert not verdict.success
    assert verdict.reason == ("unexpected change: now changed from "
                              "'2026-10-15T09:30:00' to '2026-10-15T09:31:00' (+3 more)")


def test_allowed_patterns_cover_additions_and_sub_paths() -> None:
    final = state()
    final["contacts"]["9"] = {"id": 9, "name": "Cy", "phone": "", "starred": False}
    final["apps"]["Notes"]["notes"]["4"]["body"] = "Milk"
    criteria = [Record("contacts", {"name": "Cy"}, count=1)]
    assert not check(STATE, final, criteria, allowed=[Allow("contacts", "added")]).success
    assert check(STATE, final, criteria,
                 allowed=[Allow("contacts", "added"), "apps.Notes.notes.4"]).success
    assert not check(STATE, final, criteria,
                     allowed=[Allow("contacts", "removed"), "apps.Notes.notes.4"]).success
    final["contacts"]["10"] = {"id": 10, "name": "Cy", "phone": "", "starred": False}
    assert not check(STATE, final, [Record("contacts", {"name": "Cy"})],  # one, by default
                     allowed=[Allow("contacts", "added"), "apps.Notes.notes.4"]).success
    assert check(STATE, final, [Record("contacts", {"name": "Cy"})],
                 allowed=[Allow("contacts", "added", max=2), "apps.Notes.notes.4"]).success


def test_becomes_allows_one_value_and_only_the_asked_one() -> None:
    final = state()
    final["contacts"]["1"]["starred"] = True
    assert check(STATE, final, [], allowed=[Becomes("contacts.1.starred", True)]).success
    assert not check(STATE, final, [],
                     allowed=[Becomes("contacts.1.starred", False)]).success
    with pytest.raises(ValueError, match="max"):
        Allow("contacts", "added", max=-1)
    with pytest.raises(ValueError, match="kind"):
        Allow("contacts", "changed")


def test_criteria_are_checked_against_the_answer() -> None:
    assert check(STATE, state(), [Answer("Bob Roy")], answer="bob roy").success
    verdict = check(STATE, state(), [Answer("Bob Roy")])
    assert verdict == Verdict(False, "no answer was given", 0.0)


@pytest.mark.parametrize("n_ok", [0, 1, 2, 3])
def test_progress_is_the_share_that_holds(n_ok: int) -> None:
    criteria = [Value("clipboard", "")] * n_ok + [Value("clipboard", "x")] * (
        3 - n_ok)
    verdict = check(STATE, state(), criteria)
    assert verdict.progress == (1.0 if n_ok == 3 else n_ok / 3)
    assert verdict.success == (n_ok == 3)


def test_naming_only_refuses_a_dump_of_every_candidate() -> None:
    from phone_gym.verifiers import naming_only

    m = naming_only("SF1234", ["SF1234", "YT5678", "ZTO999"])
    assert m.test("Your parcel is sf1234, arriving Friday")
    assert not m.test("SF1234 or YT5678 or ZTO999")
    assert not m.test("YT5678")
    # a rival inside the right value counts only outside its mentions
    part = naming_only("Harbor Park East", ["Harbor Park", "Lake Park"])
    assert part.test("I booked Harbor Park East")
    assert not part.test("Harbor Park East, or Harbor Park")
