"""Direct tests of the multihop_life cross-app templates: each oracle reaches every
milestone; the rain template takes both branches over seeds and the other branch's text
fails; a second text sent from an open thread goes to the right person."""

from __future__ import annotations

import numpy as np
import pytest

from phone_gym.crossapp.multihop_life import (
    DRY_TEXT,
    RAIN_TEXT,
)
from phone_gym.crossapp.multihop_life import (
    TEMPLATES as LIFE,
)
from phone_gym.mockapps import REGISTRY, TEMPLATES, Episode
from phone_gym.tasks.driver import Driver
from phone_gym.world import Device

IDS = [t.id for t in LIFE if not t.infeasible]


@pytest.mark.parametrize("task_id", IDS)
def test_oracle_reaches_every_milestone(task_id: str) -> None:
    task = TEMPLATES[task_id]
    assert "multihop" in task.tags and len(set(task.apps)) >= 3
    episode = Episode(task, Device(REGISTRY.apps), np.random.default_rng(0))
    assert episode.verify().progress == 0.0
    episode.solve()
    verdict = episode.verify()
    assert verdict.success and verdict.progress == 1.0, verdict.reason


def test_rain_template_takes_both_branches_and_fails_the_other_text() -> None:
    task = TEMPLATES["CrossRainChanceDecideText"]
    branches = set()
    for seed in range(8):
        episode = Episode(task, Device(REGISTRY.apps), np.random.default_rng(seed))
        rainy = task.value(episode.params) >= 50  # type: ignore[attr-defined]
        branches.add(rainy)
        right = task.sms_body(episode.params)  # type: ignore[attr-defined]
        assert right(RAIN_TEXT if rainy else DRY_TEXT)
        assert not right(DRY_TEXT if rainy else RAIN_TEXT)
    assert branches == {True, False}


def test_three_friends_are_three_milestones_and_all_are_reached() -> None:
    task = TEMPLATES["CrossWeatherHighToThreeFriends"]
    episode = Episode(task, Device(REGISTRY.apps), np.random.default_rng(1))
    assert len(task.criteria(episode.params, {})) == 4  # the note and one text each
    _, steps = episode.solve()
    assert steps >= 25 and episode.verify().progress == 1.0


def screen_only(episode: Episode) -> Episode:
    """``episode`` whose oracle sees only the screen (reading the phone's state raises)."""
    episode.driver = lambda: Driver(episode.host.elements)  # type: ignore[method-assign]
    return episode


def test_the_top_story_is_read_off_the_screen() -> None:
    task = TEMPLATES["CrossNewsTopStoryTodoAndText"]
    episode = screen_only(Episode(task, Device(REGISTRY.apps), np.random.default_rng(2)))
    episode.solve()
    assert episode.verify(None, "success").success
