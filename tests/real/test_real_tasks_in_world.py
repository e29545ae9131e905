"""Real-device templates in-process: the same setup, scripted policy and verifier as over
adb, with the snapshot a real phone gives (``observe`` over ``WorldState``: what the task
watches, as ``RealPhoneEnv`` derives it, read as adb reads it) in place of PhoneWorld's
whole-phone snapshot."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from phone_gym.envs.real_phone import REAL_TEMPLATES
from phone_gym.mockapps import APPS, REGISTRY, Episode, Task, WorldHost
from phone_gym.real.state import ADB_STORES
from phone_gym.real.watch import task_watch
from phone_gym.verifiers import observe
from phone_gym.world import Device


class ObservedHost(WorldHost):
    """A PhoneWorld phone seen as a real one: snapshots cover only what the task watches."""

    def snapshot(self, task: Task) -> dict[str, Any]:
        return observe(self.state, task_watch(task, REGISTRY.manifests, ADB_STORES))

    def version(self) -> int | None:
        return None


def run(task: str, seed: int, *, act: bool = True) -> tuple[Episode, str | None]:
    host = ObservedHost(Device(APPS))
    episode = Episode(REAL_TEMPLATES[task], host, np.random.default_rng(seed))
    answer = None
    if act:
        answer, _ = episode.solve()
    return episode, answer


def test_the_real_templates() -> None:
    assert len(REAL_TEMPLATES) >= 50  # the floor; 5 of them infeasible variants
    assert sum(t.infeasible for t in REAL_TEMPLATES.values()) == 5
    assert {"SettingsWifiOff", "ContactsCreate", "ClockDeleteAlarm", "FilesRenameFile",
            "SettingsSetBrightness", "ContactsLookupPhone"} <= set(REAL_TEMPLATES)


@pytest.mark.parametrize("task", sorted(REAL_TEMPLATES))
def test_real_template_in_phoneworld(task: str) -> None:
    for seed in range(5):
        episode, answer = run(task, seed)
        verdict = episode.verify(answer, episode.end_status)
        assert verdict.success, (seed, verdict.reason)
        template = episode.template
        final = episode.host.snapshot(template)
        misses = template.near_misses(episode.initial, final, episode.params, answer)
        assert misses
        for miss in misses:
            assert not template.judge(episode.initial, miss.state, episode.params,
                                      miss.answer, miss.status).success, (seed, miss.why)
    idle, _ = run(task, 0, act=False)
    assert idle.verify(None, "success").success == idle.template.done_at_start


def test_extra_damage_fails_a_solved_task() -> None:
    episode, answer = run("SettingsWifiOff", 0)
    episode.host.state.write_file("/sdcard/Download/stray.txt", b"oops")
    verdict = episode.verify(answer)
    assert not verdict.success and "unexpected change" in verdict.reason
    assert "stray.txt" in verdict.reason
