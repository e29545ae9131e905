"""What the registry holds, by kind (``template_counts``, the counts line of `phone-gym
tasks`), and that each tag means what it says: a ``long_horizon`` template's oracle needs 25
steps or more, cross-app kinds sit on templates about two or more apps."""

from __future__ import annotations

import numpy as np
import pytest

from phone_gym.cli import main
from phone_gym.mockapps import REGISTRY, TEMPLATES, Episode
from phone_gym.tasks.registry import CROSS_KINDS, own_apps, template_counts
from phone_gym.tasks.task import TAGS
from phone_gym.world import Device

LONG = sorted(t.id for t in TEMPLATES.values() if "long_horizon" in t.tags)
#: Issue 15's targets: what PhoneWorld holds at least.
FLOORS = {"apps": 40, "templates": 500, "cross_app": 120, "handoff": 25, "artifact": 25,
          "persistent": 25, "multihop": 25, "mini_program": 50, "long_horizon": 50,
          "safety": 30}


def test_counts_are_what_the_templates_say() -> None:
    n = template_counts(REGISTRY)
    templates = list(TEMPLATES.values())
    assert n["apps"] == len(REGISTRY.packages) and n["templates"] == len(templates)
    assert n["cross_app"] == sum(len(own_apps(t, REGISTRY)) > 1 or bool(t.tags & set(CROSS_KINDS))
                                 for t in templates)
    hotel = TEMPLATES["HotelBookCheapestNear"]  # in WeChat's mini-program: one app's task
    assert set(hotel.apps) == {"Chat", "Hotel"} and own_apps(hotel, REGISTRY) == {"Hotel"}
    for tag in (*CROSS_KINDS, "mini_program", "long_horizon", "safety"):
        assert n[tag] == sum(tag in t.tags for t in templates)
    for key, floor in FLOORS.items():
        assert n[key] >= floor, key


def test_tags_are_known_and_cross_app_kinds_need_two_apps() -> None:
    for t in TEMPLATES.values():
        assert t.tags <= TAGS, t.id
        if t.tags & set(CROSS_KINDS):
            assert len(set(t.apps)) >= 2, t.id
        if "mini_program" in t.tags:
            assert any(REGISTRY.app(a).manifest.mini_program for a in t.apps), t.id


def test_the_listing_ends_with_the_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tasks"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    n = template_counts(REGISTRY)
    assert last.startswith(f"{n['apps']} apps; cross-app {n['cross_app']} (")
    assert last.endswith(f"long-horizon {n['long_horizon']}; safety {n['safety']}")


@pytest.mark.parametrize("task_id", LONG or ["none"])
def test_a_long_horizon_oracle_needs_25_steps(task_id: str) -> None:
    if task_id == "none":
        pytest.skip("no template is tagged long_horizon yet")
    device = Device(REGISTRY.apps)
    for seed in range(3):
        episode = Episode(TEMPLATES[task_id], device, np.random.default_rng(seed))
        _, steps = episode.solve()
        assert steps >= 25, (task_id, seed, steps)
