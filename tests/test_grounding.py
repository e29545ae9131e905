"""The grounding audit (``phone_gym.testing.grounding``): it catches an oracle that types,
answers or reads what the agent never had, accepts what the screen showed, and every
template passes it on seeds 0-2 except those ``ungrounded.txt`` still lists (each of which
must still fail: the list only shrinks). Routes, reasons and step instructions too."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import REGISTRY, Episode
from phone_gym.mockapps.notes.tasks import NotesCreateNote
from phone_gym.tasks.driver import Driver, step_instruction
from phone_gym.testing.grounding import Seen, audit_grounding, routes, tokens, value_seen
from phone_gym.world import Device

#: Templates whose oracles still use inputs the agent lacks, one per line ("Id  # why").
UNGROUNDED = {line.split("#")[0].strip()
              for line in (Path(__file__).with_name("ungrounded.txt")
                           .read_text(encoding="utf-8").splitlines())
              if line.split("#")[0].strip()}


def test_tokens_are_words_and_canonical_numbers() -> None:
    assert tokens("Paid $1,234.50 at Café Olé") == {"paid", "1234.5", "at", "café", "olé"}
    assert tokens("09:05") == {"9", "5"}
    assert tokens("京A12345") == {"京", "a", "12345"}


def test_a_value_is_seen_when_all_its_scalars_are() -> None:
    seen = tokens("Lunch with Ana on October 27, 2023: 12.50")
    assert value_seen({"who": "Ana", "amount": 12.5, "day": dt.date(2023, 10, 27)}, seen)
    assert value_seen("2023-10-27", seen)
    assert not value_seen(["Ana", "Bo"], seen)
    assert not value_seen(dt.date(2023, 10, 28), seen)
    assert value_seen(True, seen)  # flags say nothing


def test_seen_text_is_whole_or_word_by_word() -> None:
    seen = Seen('Create a note titled "Gift list".')
    seen.add(["Groceries", "2 days ago"])
    assert seen.has_text("gift list") and seen.has_text("Groceries 2")
    assert not seen.has_text("Gift ideas")


class _Typing(NotesCreateNote):
    """Types a body the instruction never gave."""

    id = "TestTypingUnseen"

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Notes")
        yield from ui.tap(id="new_note")
        yield from ui.fill("title", p["title"])
        yield from ui.fill("body", "a secret plan")
        yield from ui.tap(id="save")
        yield from ui.finish()


class _Peeking(NotesCreateNote):
    """Reads the device state to plan, and a hidden param."""

    id = "TestPeeking"

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {**super().sample_params(rng), "hidden": "zebra crossing"}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.state.app("Notes")
        assert p["hidden"]
        yield from super().oracle(ui, p)


class _Counting(NotesCreateNote):
    """Answers a count it did not see written (declared as a derivation, or not)."""

    id = "TestCounting"
    template = "How many notes are there?"
    needs_answer = True

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Notes")
        yield from ui.answer("seventeen")


class _CountingDeclared(_Counting):
    id = "TestCountingDeclared"
    derivations = {"answer": "the number of note rows shown"}


def test_the_audit_passes_an_oracle_that_uses_only_the_instruction() -> None:
    report = audit_grounding(NotesCreateNote(), (0, 1))
    assert report.ok, report.summary()
    assert report.typed >= 4 and report.steps > 0


def test_typing_a_value_never_shown_is_caught() -> None:
    report = audit_grounding(_Typing(), (0,))
    assert [f.kind for f in report.findings] == ["typed"]
    assert "a secret plan" in report.findings[0].detail


def test_reading_the_state_or_a_hidden_param_is_caught() -> None:
    report = audit_grounding(_Peeking(), (0,))
    kinds = sorted(f.kind for f in report.findings)
    assert kinds == ["param", "state"], report.summary()


def test_a_computed_answer_passes_only_when_declared() -> None:
    assert [f.kind for f in audit_grounding(_Counting(), (0,)).findings] == ["answer"]
    declared = audit_grounding(_CountingDeclared(), (0,))
    assert declared.ok and declared.derived == [
        "answer 'seventeen': the number of note rows shown"]


def test_every_oracle_step_has_a_reason_and_a_step_instruction() -> None:
    template = REGISTRY.template("ExpenseAddSingle")
    phone = Device([a for a in REGISTRY.apps])
    ep = Episode(template, phone, np.random.default_rng(0))
    for _ in range(template.max_steps):
        action, reason, instruction = ep.oracle_step()
        assert reason and instruction, action
        if action.type in ("answer", "finish"):
            break
        assert phone.step(action) is None
        ep.observe(action)
    else:
        pytest.fail("the oracle did not finish")


def test_step_instructions_name_what_is_tapped_and_typed() -> None:
    phone = Device([a for a in REGISTRY.apps])
    phone.open_app("Notes")
    from phone_gym.world.a11y import ui_elements
    elements = ui_elements(phone.frame())
    new = next(e for e in elements if e.short_id == "new_note")
    x, y = new.center_norm
    assert step_instruction(PhoneAction("click", x=x, y=y), elements).startswith("Tap “")
    assert step_instruction(PhoneAction("open_app", app="Notes"), elements) == \
        "Open the Notes app"
    assert step_instruction(PhoneAction("scroll", x=500, y=500, direction="down"),
                            elements) == "Scroll down"


def test_routes_differ_by_route_seed_and_all_succeed() -> None:
    found = routes("CrossMarkorNewestToMail", 0)
    assert len(found) >= 2 and all(found.values())


def test_the_same_seed_takes_the_same_route() -> None:
    template = REGISTRY.template("MailCountUnread")
    phone = Device([a for a in REGISTRY.apps])
    runs = []
    for _ in range(2):
        ep = Episode(template, phone, np.random.default_rng(3))
        runs.append([ep.oracle_action()])
    assert runs[0] == runs[1]


@pytest.mark.parametrize("task_id", sorted(REGISTRY.templates))
def test_every_oracle_is_grounded_on_seeds_0_to_2(task_id: str) -> None:
    report = audit_grounding(task_id, (0, 1, 2))
    if task_id in UNGROUNDED:
        assert not report.ok, f"{task_id} is grounded now: remove it from ungrounded.txt"
    else:
        assert report.ok, report.summary()


def test_the_ungrounded_list_names_only_templates() -> None:
    assert UNGROUNDED <= set(REGISTRY.templates)


def test_detours_open_a_wrong_app_then_still_solve() -> None:
    """With ``detours``, a wrong app is opened from the home screen and left, and the task
    is still solved within its budget (recovery for SFT data)."""
    template = REGISTRY.template("ContactsAddContact")
    phone = Device([a for a in REGISTRY.apps])
    seen_wrong = False
    for route_seed in range(8):
        ep = Episode(template, phone, np.random.default_rng(0))
        ep.detours, ep.route_seed = True, route_seed
        packages: list[str] = []

        def act(action: PhoneAction, packages: list[str] = packages) -> str | None:
            error = phone.step(action)
            packages.append(phone.foreground_package())
            return error

        answer, steps = ep.solve(act=act)
        assert ep.verify(answer, ep.end_status).success and steps <= template.max_steps
        own = {m.package for m in phone.manifests if m.name in template.apps}
        launcher = packages[0]
        seen_wrong |= any(p not in own and p != launcher for p in packages)
    assert seen_wrong, "no route seed took a detour"
