"""Every action type through the env, and bad input: an error in info, a no-op step."""

from __future__ import annotations

import math

import numpy as np
import pytest
from driving import Driver, center

from phone_gym.actions import PhoneAction
from phone_gym.envs import PhoneWorldEnv


@pytest.fixture()
def env() -> PhoneWorldEnv:
    e = PhoneWorldEnv(task="NotesEditNote", max_steps=200)  # room for every action type
    e.reset(seed=4)
    return e


def at(env: PhoneWorldEnv, **query: str) -> tuple[int, int]:
    found = Driver(env.device).find(**query)
    assert found is not None, query
    return center(found)


def ok(env: PhoneWorldEnv, action: str | PhoneAction) -> dict:
    *_, info = env.step(action)
    assert info["action_error"] is None, info["action_error"]
    return info


def test_every_action_type_has_its_effect(env: PhoneWorldEnv) -> None:
    dev = env.device
    ok(env, 'open_app(app="notes")')  # names are case-insensitive
    assert dev.foreground == "Notes"
    x, y = at(env, id="new_note")
    ok(env, f"click(x={x}, y={y})")
    assert dev.current_app.route.name == "edit"
    x, y = at(env, id="title")
    ok(env, {"action": "click", "x": x, "y": y})
    assert dev.focus == "title" and dev.keyboard_shown
    ok(env, 'type(text="Hello")')
    assert dev.current_app.ui.draft.title == "Hello"
    x, y = at(env, id="key_delete")
    ok(env, f"double_click(x={x}, y={y})")
    assert dev.current_app.ui.draft.title == "Hel"
    x, y = at(env, id="title")
    ok(env, f"long_press(x={x}, y={y})")
    assert dev.menu is not None and "Select all" in [label for label, _ in dev.menu]
    ok(env, 'press(button="back")')  # closes the menu
    assert dev.menu is None
    ok(env, 'press(button="enter")')  # single-line field: enter closes the keyboard
    assert not dev.keyboard_shown
    ok(env, 'press(button="back")')  # leaves the editor (auto-save)
    assert dev.current_app.route.name == "main"
    notes_before = dict(dev.scroll)
    ok(env, 'scroll(x=500, y=600, direction="down")')
    assert dev.scroll != notes_before
    ok(env, 'scroll(x=500, y=600, direction="up")')
    ok(env, "drag(x=500, y=10, x2=500, y2=600)")  # pull down the notification shade
    assert dev.shade_open
    ok(env, 'press(button="back")')
    assert not dev.shade_open
    ok(env, 'press(button="recents")')
    assert dev.show_recents
    ok(env, 'press(button="home")')
    assert dev.foreground is None
    before = dev.system.now
    ok(env, "wait(seconds=5)")
    assert (dev.system.now - before).total_seconds() == pytest.approx(6.0)  # + the step
    ok(env, 'open_app(app="Notes")')
    ok(env, 'close_app(app="Notes")')
    assert dev.foreground is None and "Notes" not in dev.recents
    _, reward, terminated, _, info = env.step('answer(text="42")')
    assert terminated and info["answer"] == "42" and reward == 0.0
    env.reset(seed=4)
    _, _, terminated, _, info = env.step('finish(status="success")')
    assert terminated and not info["success"]


BAD = [
    "", "hello", "click(", "click(x=1)", "__import__('os').system('ls')", "click(x=eval('1'), y=2)",
    "click(x=-5, y=10)", "click(x=1001, y=10)", "click(x=nan, y=3)", 'open_app(app="Calculator")',
    'close_app(app="Nope")', 'type(text="")', 'type(text="hello")', 'press(button="power")',
    'scroll(x=5, y=5, direction="diagonal")', 'finish(status="maybe")',
    {"action": "click", "x": float("nan"), "y": 3}, {"action": "click", "x": math.inf, "y": 3},
    {"action": "teleport"}, None, 17, [1, 2], {"action_type": 99},
]


@pytest.mark.parametrize("bad", BAD, ids=[repr(b)[:40] for b in BAD])
def test_bad_input_is_a_noop_with_an_error(env: PhoneWorldEnv, bad: object) -> None:
    ok(env, 'open_app(app="Notes")')
    state = env.device.snapshot()
    screen = env._screenshot().copy()
    version_key = env.device.screen_key()
    obs, reward, terminated, truncated, info = env.step(bad)
    assert isinstance(info["action_error"], str) and info["action_error"]
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert info["step"] == 2
    after = env.device.snapshot()
    assert after == state  # not even the clock moved
    assert env.device.screen_key() == version_key
    assert np.array_equal(obs["screenshot"], screen)


def test_error_message_says_what_to_do(env: PhoneWorldEnv) -> None:
    *_, info = env.step('type(text="x")')
    assert "click a text field" in info["action_error"]
    *_, info = env.step('open_app(app="Calculator")')
    assert "Contacts" in info["action_error"] and "installed apps" in info["action_error"]
    *_, info = env.step("click(x=1001, y=1)")
    assert "[0, 1000]" in info["action_error"]


def test_random_space_samples_never_raise() -> None:
    env = PhoneWorldEnv()
    env.reset(seed=0)
    env.action_space.seed(0)
    for _ in range(400):
        _, _, terminated, truncated, info = env.step(env.action_space.sample())
        assert info["action_error"] is None or isinstance(info["action_error"], str)
        if terminated or truncated:
            env.reset()


class Exploding(dict):  # type: ignore[type-arg]
    """An action mapping whose reading raises an error of its own (not a parse error)."""

    def __getitem__(self, key: object) -> object:
        raise LookupError("the caller's own mapping failed")

    def get(self, key: object, default: object = None) -> object:
        raise LookupError("the caller's own mapping failed")

    def __contains__(self, key: object) -> bool:
        raise LookupError("the caller's own mapping failed")


def test_an_action_that_raises_while_read_uses_no_step() -> None:
    """Issue 24: such a step raised after counting itself (step 13 of a 12-step budget)."""
    env = PhoneWorldEnv(task="ClockTimerEntry", screenshot=False)
    env.reset(seed=0)
    budget = env._budget(env.episode)  # type: ignore[arg-type]
    for _ in range(3):
        with pytest.raises(LookupError):
            env.step(Exploding(action="wait"))
    assert env.steps == 0
    steps = []
    truncated = False
    while not truncated:
        _, _, _, truncated, info = env.step({"action": "wait"})
        steps.append(info["step"])
    assert steps == list(range(1, budget + 1)) and info["max_steps"] == budget
