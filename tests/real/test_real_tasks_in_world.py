"""Real-device templates in-process: the same setup, scripted policy and verifier, with
``WorldState`` (a PhoneWorld phone read directly) in place of adb. Their checks are
written once, against ``DeviceState``, and hold in both worlds."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from phone_gym.mockapps import APPS
from phone_gym.mockapps.device_state import WorldState
from phone_gym.real.tasks import REAL_TEMPLATES, RealEpisode
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements


def run(task: str, seed: int, *, act: bool = True) -> tuple[RealEpisode, str | None]:
    device = Device(APPS)
    episode = RealEpisode(REAL_TEMPLATES[task], WorldState(device),
                          np.random.default_rng(seed))
    answer = None
    for _ in range(episode.template.max_steps if act else 0):
        action = episode.oracle_action(lambda: ui_elements(device.frame()))
        if action.type in ("answer", "finish"):
            answer = action.text if action.type == "answer" else None
            break
        assert device.step(action) is None
    return episode, answer


@pytest.mark.parametrize("task", sorted(REAL_TEMPLATES))
def test_real_template_in_phoneworld(task: str) -> None:
    for seed in range(5):
        episode, answer = run(task, seed)
        verdict = episode.verify(answer)
        assert verdict.success, (seed, verdict.reason)
        template = episode.template
        final = template.snapshot(episode.state)
        wrong, wrong_answer = template.near_miss(copy.deepcopy(final), episode.params, answer)
        assert not template.verify(episode.initial, wrong, episode.params,
                                   wrong_answer).success
    idle, _ = run(task, 0, act=False)
    assert not idle.verify(None).success


def test_extra_damage_fails_a_solved_task() -> None:
    episode, answer = run("SettingsWifiOff", 0)
    episode.state.write_file("/sdcard/Download/stray.txt", b"oops")
    verdict = episode.verify(answer)
    assert not verdict.success and "unexpected change" in verdict.reason
    assert "stray.txt" in verdict.reason
