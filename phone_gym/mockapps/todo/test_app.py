"""To-do (Tasks): the authoring checks on the app and every template, and the app's own behaviour
(written by ``phone-gym new-app``; add tests for what you build)."""

from __future__ import annotations

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver, Episode
from phone_gym.mockapps.todo import APP, TEMPLATES
from phone_gym.mockapps.todo.fixtures import write_item
from phone_gym.testing import check_app, check_task
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.state import WorldState


@pytest.mark.parametrize("task_id", [t.id for t in TEMPLATES])
def test_check_task(task_id: str) -> None:
    check_task(task_id, 20, processes=False)


def test_check_app() -> None:
    check_app(APP, 3000)


def test_items_are_added_checked_off_and_searched() -> None:
    device = Device(APPS)
    state = WorldState(device)
    write_item(state, "Alpha")
    write_item(state, "Beta", done=True)
    ui = Driver(lambda: ui_elements(device.frame()), state)

    def run(actions: object) -> None:
        for action in actions:  # type: ignore[attr-defined]
            assert device.step(action) is None

    run(ui.open_app("Todo"))
    assert ui.must(id="count").text == "1 open"
    run(ui.tap(id="done_1"))
    assert ui.must(id="count").text == "0 open"
    run(ui.tap(id="search", kind="text_field"))
    assert device.step(PhoneAction("type", text="bet")) is None
    assert [e.text for e in ui.find_all(kind="list_item")] == ["Beta"]


def test_an_episode_is_deterministic() -> None:
    device = Device(APPS)
    a = Episode(TEMPLATES[0], device, np.random.default_rng(3)).params
    b = Episode(TEMPLATES[0], device, np.random.default_rng(3)).params
    assert a == b
