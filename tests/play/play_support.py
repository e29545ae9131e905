"""Helpers shared by the play tests: a served play session, and a person's way of doing
what the oracle does (an app is opened by tapping its launcher icon, as on the page)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym

import phone_gym  # noqa: F401 - registers the ids
from phone_gym.actions import PhoneAction

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
TASK = "ClockTimerEntry"  #: open Clock, the Timer tab, its field, type the digits, finish
SIZE = (270, 600)


def oracle_plan(task: str = TASK, seed: int = 0) -> tuple[str, list[PhoneAction]]:
    """The instruction and the oracle's actions on ``task`` and ``seed``, as a person does
    them on the page (``as_person``)."""
    env = gym.make("PhoneWorld-v0", task=task, obs_size=SIZE)
    obs, info = env.reset(seed=seed)
    plan: list[PhoneAction] = []
    done = False
    while not done:
        action = env.unwrapped.oracle_action()  # type: ignore[attr-defined]
        plan.append(as_person(action, info))
        obs_, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert info["success"], "the oracle failed: pick another task or seed"
    env.close()
    return str(obs["instruction"]), plan


def as_person(action: PhoneAction, info: dict[str, Any]) -> PhoneAction:
    """``action`` as a person does it on the page: ``open_app`` is a tap on the launcher
    icon (found in the UI element list of the screen the action is for)."""
    if action.type != "open_app":
        return action
    for element in info["ui_elements"]:
        if element["text"] == action.app and element["clickable"]:
            x, y = element["center_norm"]
            return PhoneAction("click", x=x, y=y)
    raise AssertionError(f"no launcher icon for {action.app} on the screen")
