"""``verifiers.mentions``: a value named as whole tokens and numbers, negation, rivals; and the
matchers built on it (``naming_only``, ``contains``, ``crossapp.common.holds`` and
``holding``), which issue 26 found to take near misses, negations and dumps."""

from __future__ import annotations

import pytest

from phone_gym.crossapp.common import holding, holds
from phone_gym.verifiers import contains, naming_only
from phone_gym.verifiers.mentions import blank, names, negated, number_spans, spans, told


@pytest.mark.parametrize(("text", "value", "named"), [
    ("Train EC 107 leaves at 9", "EC 107", True),
    ("the ec 107!", "EC 107", True),
    ("EC 1077", "EC 107", False),  # a longer number
    ("EC 107.5", "EC 107", False),  # a decimal
    ("Room 12", "Room 12", True),
    ("Room 120", "Room 12", False),
    ("Room 12.", "Room 12", True),  # a sentence's full stop
    ("3,120 steps", "120", False),
    ("North Gate Garages", "North Gate Garage", False),  # a longer word
    ("Copper Kettle's menu", "Copper Kettle", True),
    ("车牌京BAFKDA", "京BAFKDA", True),  # no word boundary between Chinese characters
    ("京BAFKDAX", "京BAFKDA", False),
    ("", "x", False),
])
def test_a_value_is_named_as_whole_tokens(text: str, value: str, named: bool) -> None:
    assert names(text, value) is named


def test_spans_are_in_the_folded_text() -> None:
    assert spans("Go  to EC 107,  then EC 107", "ec 107") == [(6, 12), (19, 25)]
    assert spans("x", "") == []


@pytest.mark.parametrize(("text", "negative"), [
    ("not EC 107", True),
    ("It isn't EC 107", True),
    ("EC 107, not the other one", False),  # the negation has a clause of its own
    ("Never EC 107", True),
    ("It is no longer EC 107", True),
    ("Don't worry: EC 107", False),
    ("EC 107 is not late", True),  # it shares the clause
])
def test_a_negation_in_the_clause_negates_the_mention(text: str, negative: bool) -> None:
    assert told(text, "EC 107") is not negative
    found = spans(text, "EC 107")
    assert negated(text.lower(), found) is negative


def test_blank_keeps_the_clause_going() -> None:
    # a mention taken out leaves neither a word nor a clause end, so "it isn't" still
    # reaches the time after it
    assert blank("It isn't The Quiet Letters at 18:00", ["The Quiet Letters"]) \
        == "it isn't  ·  at 18:00"


@pytest.mark.parametrize(("text", "found"), [
    ("ID 802 4412 0438", [(3, 16)]),
    ("ID 802-4412-0438.", [(3, 16)]),
    ("80244120438", [(0, 11)]),
    ("802 4412 04387", []),  # inside a longer number
    ("1802 4412 0438", []),
    ("ID 802 4412 0438 for 10 people", [(3, 16)]),
])
def test_numbers_stand_whole(text: str, found: list[tuple[int, int]]) -> None:
    assert number_spans(text, "802 4412 0438") == found
    assert number_spans("$12.50", "12") == []


def test_naming_only_compares_whole_tokens_and_refuses_negations() -> None:
    m = naming_only("EC 107", ["EC 1077", "IC 20"])
    assert m("Train EC 107 at 10:00")
    for wrong in ("EC 1077", "not EC 107", "It isn't EC 107", "EC 107, IC 20", "EC107 5"):
        assert not m(wrong), wrong
    room = naming_only("Room 12", ["Room 120"])
    assert room("Room 12") and not room("Room 120") and not room("Room 12 or Room 120")


def test_contains_compares_whole_tokens() -> None:
    assert contains("EC 107")("Booked: ec 107")
    assert not contains("EC 107")("Booked: EC 1077")


def test_holds_names_decoys_and_value() -> None:
    m = holds("money", 26.99, names=["Ember Stock Pot"],
              decoys=["Ember Stock Pot Pro", "Stock", "Kettle"])
    assert m("Ember Stock Pot - $26.99")
    for wrong in ("Ember Stock Potx - $26.99",  # a near miss of the name
                  "not Ember Stock Pot - $26.99",  # the name negated
                  "Ember Stock Pot - not $26.99",  # the value negated
                  "Ember Stock Pot Pro - $26.99",  # a decoy holding the name
                  "Ember Stock Pot - $26.99, Kettle",  # a decoy
                  "Ember Stock Pot - $26.99 Stock"):  # a decoy inside the name, outside it
        assert not m(wrong), wrong
    time = holds("time", "18:00", mention=["The Quiet Letters"])
    assert time("The Quiet Letters starts at 18:00")
    assert not time("It isn't The Quiet Letters at 18:00")


def test_holding_names_every_part() -> None:
    m = holding("802 4412 0438", "nwEqqU")
    assert m("Meeting ID 802 4412 0438, passcode nwEqqU")
    assert not m("Meeting ID 802 4412 04387, passcode nwEqqU")
    assert not m("Meeting ID 802 4412 0438, passcode nwEqqUx")
    assert not m("Meeting ID 802 4412 0438, passcode not nwEqqU")
