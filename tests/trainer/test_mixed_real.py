"""The paper's "real+mock" branch: one collector draws episodes from RealPhone-v0 (over adb,
against the virtual device) and PhoneWorld-v0 by weight, with one record schema."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator

import pytest

from phone_gym.trainer.mixing import EnvSource, MixedSampler
from phone_gym.trainer.policies import OraclePolicy
from phone_gym.trainer.rollout import Collector
from phone_gym.trajectory.records import RECORD_KEYS
from phone_gym.virtual import VirtualAdbServer, VirtualPhone

SIZE = (135, 300)


@pytest.fixture()
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[VirtualAdbServer]:
    monkeypatch.setitem(os.environ, "ADBUTILS_ADB_PATH", "/bin/false")  # never a real adb
    with VirtualAdbServer([VirtualPhone("emulator-5554")]) as srv:
        yield srv


def test_real_and_mock_sources_mix_by_weight(server: VirtualAdbServer) -> None:
    real = EnvSource("real", "RealPhone-v0",
                     {"port": server.port, "settle": 0.0, "obs_size": SIZE,
                      "task": ["SettingsWifiOff", "ClockCreateAlarm"]}, weight=1.0)
    mock = EnvSource("mock", "PhoneWorld-v0",
                     {"obs_size": SIZE, "task": "ClockDisableAlarm"}, weight=1.0, num_envs=2)
    sampler = MixedSampler([real, mock], seed=0)
    episodes = Collector(sampler.make_backend(), OraclePolicy(), sampler=sampler).collect(8)
    sources = Counter(ep.steps[0].source for ep in episodes)
    assert set(sources) == {"real", "mock"} and sum(sources.values()) == 8
    for ep in episodes:
        assert ep.success and ep.total_reward == 1.0, ep.steps[-1].verdict
        for step in ep.steps:
            assert tuple(step.to_json()) == RECORD_KEYS
            assert step.frame is not None and step.frame.shape == (SIZE[1], SIZE[0], 3)
    real_tasks = {ep.steps[0].task_id for ep in episodes if ep.steps[0].source == "real"}
    assert real_tasks <= {"SettingsWifiOff", "ClockCreateAlarm"}
