"""Issue 32: the RideMini mini-program rebuilt from its four training episodes (cancel the
current trip, cancel a scheduled one, a trip's price, rebook the last trip) does what no
trace did: a trip's status a tap changed in place is an edit of that trip (a set), the
place suggestions stay empty until something is typed, and a ride picked is shown picked
("✓ Express") and named where the traces named the one they picked ("Confirm Express")."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest

from phone_gym.actions import to_action
from phone_gym.reconstruct.build import build_model, write_package
from phone_gym.reconstruct.fidelity import Rebuilt, load_app
from phone_gym.reconstruct.loop import APPS, record_episodes
from phone_gym.reconstruct.model import infer_state
from phone_gym.reconstruct.trace import load_traces, screen_texts
from phone_gym.testing import check_task
from phone_gym.testing.grounding import audit_grounding
from phone_gym.world.a11y import UIElement

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    root = tmp_path_factory.mktemp("ridemini")
    traces = load_traces(record_episodes(APPS["ridemini (mini-program: rides)"][0],
                                         root / "train"))
    model = build_model(traces)
    return infer_state(model, traces), load_app(write_package(model, traces, root / "app"))


def test_a_status_changed_in_place_is_a_set_of_that_trip(rebuilt: tuple[Any, Any]) -> None:
    state, _ = rebuilt
    sets = sorted((c.collection, c.values["trip_status"]) for c in state.changes
                  if c.kind == "set")
    assert [s[0] for s in sets] == ["trip_list", "trip_list"]
    assert all(v.endswith("· cancelled") for _, v in sets)
    swaps = {o: n for st in state.sets.values() for o, n in st["swaps"]["trip_status"].items()}
    assert swaps == {"ongoing": "cancelled", "scheduled": "cancelled"}
    assert state.suggest == ["suggestions"] and state.marks == {"car_list": "✓ "}


def _tap(phone: Rebuilt, pick: Callable[[UIElement], bool]) -> None:
    e = next(e for e in phone.elements() if pick(e))
    assert phone.device.step(to_action({"action": "click", "x": 0, "y": 0}), px=(
        (e.bounds[0] + e.bounds[2]) // 2, (e.bounds[1] + e.bounds[3]) // 2)) is None


def _open(module: Any) -> tuple[Rebuilt, Any]:
    phone = Rebuilt(module.APP)
    phone.device.open_app(module.APP.name)
    if "Got it" in screen_texts(phone.elements()):
        _tap(phone, lambda e: e.text == "Got it")
    return phone, phone.device.apps[module.APP.package]


def test_cancelling_a_trip_no_trace_opened_changes_only_its_status(
        rebuilt: tuple[Any, Any]) -> None:
    _, module = rebuilt
    phone, app = _open(module)
    _tap(phone, lambda e: e.text == "My trips")
    before = {r.id: r for r in app.data.records.where(list="trip_list")}
    tongji = next(r for r in before.values() if r.text == "Tongji University"
                  and ("status", "scheduled") in r.parts)
    _tap(phone, lambda e: e.short_id == tongji.rid and e.text == tongji.text)
    _tap(phone, lambda e: e.text == "Cancel trip")
    _tap(phone, lambda e: e.text == "Cancel trip" and e.short_id == "button_cancel_trip")
    after = {r.id: r for r in app.data.records.where(list="trip_list")}
    assert dict(after[tongji.id].parts)["status"] == "cancelled"
    assert {k: r for k, r in after.items() if k != tongji.id} == {
        k: r for k, r in before.items() if k != tongji.id}


def test_suggestions_wait_for_typing_and_a_ride_picked_is_named(
        rebuilt: tuple[Any, Any]) -> None:
    _, module = rebuilt
    phone, app = _open(module)
    texts = screen_texts(phone.elements())
    assert "Type a place to see suggestions" in texts and "Zhongshan Park" not in texts
    _tap(phone, lambda e: e.short_id == "destination")
    assert phone.device.step(to_action({"action": "type", "text": "Zhongshan Park"})) is None
    _tap(phone, lambda e: e.text == "Zhongshan Park" and not e.editable)
    # the traces picked Luxe; pick Express
    _tap(phone, lambda e: e.text == "Express")
    texts = screen_texts(phone.elements())
    price = next(dict(r.parts)["estimate"] for r in app.data.records.where(list="car_list")
                 if r.text == "Express")
    assert {"✓ Express", "Confirm Express", f"Express · {price}"} <= set(texts), texts
    assert "Luxe" in texts and "✓ Luxe" not in texts and "Confirm Luxe" not in texts


def test_the_set_template_passes_check_task_and_is_grounded(rebuilt: tuple[Any, Any]) -> None:
    _, module = rebuilt
    sets = [t for t in module.TEMPLATES if t.spec["kind"] == "set"]
    assert sets
    state = sys.modules[module.__name__ + ".fixtures"].STATE
    assert {s["kind"] for s in state["tasks"]} >= {"set"}
    for t in sets:
        report = check_task(t, 20, apps=[module.APP])
        assert report.solved == 20 and not report.problems
        # the oracle finds the trip's row by its name and status on screen
        assert audit_grounding(t, apps=[module.APP]).findings == []
