"""Constants and helpers shared by the trainer tests (fixtures live in conftest.py)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

TASK = "ClockDisableAlarm"
#: Small screenshots keep the tiny model fast; the policy downsizes them to 64 x 128.
OBS_SIZE = (135, 300)
IMAGE_SIZE = (64, 128)
SFT_SEEDS = list(range(8))
SFT_STEPS = 400
SNAPSHOT_STEP = 80  #: a half-trained model: valid actions, sparse success (GRPO's start)


def make_policy(tiny: tuple[Any, Any], **kwargs: Any) -> Any:
    """A ``VLMPolicy`` on a copy of the tiny model (sampling unless told otherwise)."""
    from phone_gym.trainer.vlm import VLMPolicy

    model, processor = tiny
    settings = {"image_size": IMAGE_SIZE, "max_new_tokens": 16, **kwargs}
    return VLMPolicy(copy.deepcopy(model), processor, **settings)


def clock_envs(n: int, **kwargs: Any) -> list[Any]:
    from phone_gym.envs import PhoneWorldEnv

    return [PhoneWorldEnv(task=TASK, obs_size=OBS_SIZE, **kwargs) for _ in range(n)]


@dataclass
class SFTRun:
    policy: Any  #: the greedy policy after ``SFT_STEPS`` steps
    snapshot: dict[str, Any]  #: the model's state dict after ``SNAPSHOT_STEP`` steps
    history: list[dict[str, float]]
    episodes: list[Any]  #: the oracle episodes trained on


def rewarded_collector() -> type:
    """A ``Collector`` whose rollouts keep what was recorded but the reward: the first of
    each group rewarded, the next not, and so on (a signal for GRPO to learn from)."""
    from phone_gym.trainer.rollout import Collector
    from phone_gym.trajectory.records import Episode

    class Rewarded(Collector):
        def collect(self, *args: Any, **kwargs: Any) -> list[Episode]:
            episodes = super().collect(*args, **kwargs)
            for k, episode in enumerate(episodes):
                episode.steps[-1].reward = float(k % 2 == 0)
            return episodes

    return Rewarded
