"""Shared fixtures of the trainer tests: a tiny VLM, and one SFT run on oracle trajectories
that both the end-to-end SFT test and the GRPO test start from."""

from __future__ import annotations

import copy
import importlib.util
from typing import Any

import pytest
from trainer_support import (
    IMAGE_SIZE,
    SFT_SEEDS,
    SFT_STEPS,
    SNAPSHOT_STEP,
    SFTRun,
    clock_envs,
    make_policy,
)

from phone_gym.trainer.mixing import EpisodeSpec
from phone_gym.trainer.policies import OraclePolicy
from phone_gym.trainer.rollout import Collector

#: Test files that need the train extra (torch, transformers, peft; ray for test_ray).
NEEDS_TRAIN = ["test_vlm.py", "test_rollout_vlm.py", "test_grpo.py", "test_sft.py",
               "test_train_cli.py", "test_ray.py"]
HAVE_TRAIN = all(importlib.util.find_spec(m) for m in ("torch", "transformers", "peft"))
collect_ignore = [] if HAVE_TRAIN else list(NEEDS_TRAIN)
if not importlib.util.find_spec("ray"):
    collect_ignore.append("test_ray.py")
if HAVE_TRAIN:
    import torch

    torch.set_num_threads(1)


@pytest.fixture(scope="session")
def tiny_vlm() -> tuple[Any, Any]:
    """(model, processor) built once; tests that train use copies (``make_policy``)."""
    from phone_gym.trainer.tiny import build_tiny_vlm

    return build_tiny_vlm(image_size=IMAGE_SIZE)


@pytest.fixture
def fresh_policy(tiny_vlm: tuple[Any, Any]) -> Any:
    """A sampling ``VLMPolicy`` on a fresh copy of the tiny model."""
    return make_policy(tiny_vlm)


@pytest.fixture(scope="session")
def sft_run(tiny_vlm: tuple[Any, Any]) -> SFTRun:
    """SFT of the tiny VLM on oracle trajectories of ClockDisableAlarm (seeds 0-7): 400
    steps, batch 8, learning rate 3e-3 with cosine decay."""
    from phone_gym.trainer.sft import sft_samples, train_sft

    specs = [EpisodeSpec("env", s, i) for i, s in enumerate(SFT_SEEDS)]
    episodes = Collector(clock_envs(4), OraclePolicy()).collect(specs=specs)
    assert all(e.success for e in episodes)
    policy = make_policy(tiny_vlm, do_sample=False)
    samples = sft_samples(episodes, policy)
    snapshot: dict[str, Any] = {}

    def keep(step: int, metrics: dict[str, float]) -> None:
        if step == SNAPSHOT_STEP:
            snapshot.update(copy.deepcopy(policy.model.state_dict()))

    history = train_sft(policy, samples, steps=SFT_STEPS, batch_size=8, lr=3e-3,
                        schedule="cosine", seed=0, callback=keep)
    return SFTRun(policy, snapshot, history, episodes)
