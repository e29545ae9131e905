"""The collector with environment workers as Ray actors (a local cluster of 2 CPUs) yields
records of the same schema, and the same oracle episodes, as local envs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from trainer_support import OBS_SIZE, TASK

from phone_gym.envs import PhoneWorldEnv
from phone_gym.trainer.mixing import EnvSource, MixedSampler
from phone_gym.trainer.policies import OraclePolicy
from phone_gym.trainer.ray_workers import RayBackend
from phone_gym.trainer.rollout import Collector
from phone_gym.trajectory.records import RECORD_KEYS

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def sampler() -> MixedSampler:
    return MixedSampler([EnvSource("mock", PhoneWorldEnv, {"task": TASK, "obs_size": OBS_SIZE},
                                   num_envs=4)], group_size=2, seed=0)


def signature(episodes: list[Any]) -> list[tuple[Any, ...]]:
    return sorted((s.group_id, s.seed, s.step, s.text, s.reason, s.step_instruction,
                   s.reward, s.frame.tobytes()) for e in episodes for s in e.steps)


def test_ray_workers_give_the_same_records(local_ray: None, fresh_policy: Any) -> None:
    local = Collector(sampler(), OraclePolicy()).collect(8, group_size=2)
    s = sampler()
    backend = RayBackend.from_sampler(s, num_workers=2)
    try:
        remote = Collector(backend, OraclePolicy(), sampler=s).collect(8, group_size=2)
        assert signature(remote) == signature(local)
        assert all(st.reason and st.step_instruction for e in remote for st in e.steps)
        assert all(tuple(st.to_json()) == RECORD_KEYS for e in remote for st in e.steps)
        vlm = Collector(backend, fresh_policy, sampler=s).collect(4, group_size=2)
    finally:
        backend.close()
    for ep in vlm:
        for st in ep.steps:
            assert tuple(st.to_json()) == RECORD_KEYS
            assert st.prompt_ids and len(st.gen_ids) == len(st.logprobs)
            assert st.reason is None  # a model's step has no oracle reason
            assert st.frame.shape == (OBS_SIZE[1], OBS_SIZE[0], 3)
