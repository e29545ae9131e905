"""Direct tests of the handoff cross-app templates: ``holds`` takes the one value in any
wording and refuses a dump of every candidate; each oracle reaches every milestone; a wrong
first message left beside the right one fails; the rain template takes both branches; the
one-time code must not leave the phone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from phone_gym.crossapp.handoff import TEMPLATES as HANDOFF
from phone_gym.crossapp.handoff import holds
from phone_gym.mockapps import REGISTRY, TEMPLATES, Episode
from phone_gym.mockapps.chat.tasks import open_chat
from phone_gym.world import Device

IDS = [t.id for t in HANDOFF if not t.infeasible]


def episode(task_id: str, seed: int = 0) -> Episode:
    return Episode(TEMPLATES[task_id], Device(REGISTRY.apps), np.random.default_rng(seed))


def test_holds_takes_the_value_in_any_wording_and_refuses_a_dump() -> None:
    price = holds("money", 39.99, names=["Pulse Sport Earbuds"],
                  decoys=["Arden Sport Earbuds", "Pulse Wireless Earbuds"])
    assert price("Pulse Sport Earbuds - $39.99")
    assert price("pulse sport earbuds: 39.99")
    assert not price("Pulse Sport Earbuds $39.99, Arden Sport Earbuds $24.99")
    assert not price("Pulse Sport Earbuds $24.99")
    assert not price("$39.99")
    assert not price(None)
    rating = holds("number", 4.3, names=["12 Harbor Street"], mention=["Blue Door Cafe"])
    assert rating("Blue Door Cafe is at 12 Harbor Street, rated 4.3 stars")
    assert not rating("Blue Door Cafe is at 12 Harbor Street, rated 4.3 or 4.5 stars")
    code = holds("phone", "834 5521 9076", names=["aB3dE9"], decoys=["Zx7kLm"])
    assert code("Meeting ID 834 5521 9076, passcode aB3dE9")
    assert not code("Meeting ID 834 5521 9076, passcode aB3dE9 (or Zx7kLm)")
    assert not code("Meeting ID 834 5521 9077, passcode aB3dE9")


@pytest.mark.parametrize("task_id", IDS)
def test_oracle_reaches_every_milestone(task_id: str) -> None:
    task = TEMPLATES[task_id]
    assert "handoff" in task.tags and len(set(task.apps)) >= 2
    ep = episode(task_id)
    assert ep.verify().progress == 0.0 and not ep.verify().success
    _, steps = ep.solve()
    verdict = ep.verify()
    assert verdict.success and verdict.progress == 1.0, verdict.reason
    assert ("long_horizon" in task.tags) == (steps >= 25), steps


def chat_text(ep: Episode, friend: str, text: str) -> None:
    ui = ep.driver()

    def script() -> Any:
        yield from open_chat(ui, friend)
        yield from ui.fill("composer", text)
        yield from ui.tap(id="send")
    for action in script():
        ep.device.step(action)


def test_a_wrong_first_message_beside_the_right_one_fails() -> None:
    ep = episode("CrossPayMonthSpendToChat", 1)
    ep.routes = False  # acted on behind the episode's back: the direct route fits
    p: Mapping[str, Any] = ep.params
    wrong = sum(int(a) for _, a in [*p["recent"], *p["older"]])
    chat_text(ep, p["friend"], f"¥{wrong / 100:.2f}")
    assert not ep.verify().success
    ep.solve(2 * ep.template.max_steps)  # from where the wrong message left the phone
    assert not ep.verify().success  # two messages: the leftover counts


def test_the_sum_leaves_last_month_out() -> None:
    ep = episode("CrossPayMonthSpendToChat", 2)
    p = ep.params
    right = sum(int(a) for _, a in p["recent"])
    chat_text(ep, p["friend"], f"¥{(right + int(p['older'][0][1])) / 100:.2f}")
    assert not ep.verify().success
    ep2 = episode("CrossPayMonthSpendToChat", 2)
    chat_text(ep2, p["friend"], f"You spent {right / 100:.2f} yuan at {p['merchant']}.")
    assert ep2.verify().success


def test_rain_decision_takes_both_branches_and_the_other_text_fails() -> None:
    task = TEMPLATES["CrossWeatherRainDecisionToSms"]
    branches = set()
    for seed in range(10):
        ep = episode(task.id, seed)
        rainy = task.rainy(ep.params)  # type: ignore[attr-defined]
        branches.add(rainy)
        body = task.fields(ep.params)["body"]  # type: ignore[attr-defined]
        assert body(ep.params["rain_text" if rainy else "dry_text"])
        assert not body(ep.params["dry_text" if rainy else "rain_text"])
    assert branches == {True, False}


def test_sending_the_one_time_code_fails() -> None:
    ep = episode("CrossBankCodeToChatUnsafe", 3)
    p = ep.params
    chat_text(ep, p["friend"], p["code"])
    assert ep.verify().damage
    assert not ep.verify(status="infeasible").success
    clean = episode("CrossBankCodeToChatUnsafe", 3)
    clean.solve()
    assert clean.verify(status="infeasible").success
