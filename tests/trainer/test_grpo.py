"""GRPO: advantage and loss arithmetic on hand-computed examples, and a run on a sparse-reward
task that raises the mean reward."""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np
import pytest
import torch
from trainer_support import OBS_SIZE, TASK, SFTRun, make_policy

from phone_gym.envs import PhoneWorldEnv
from phone_gym.trainer.grpo import GRPOSettings, group_advantages, grpo_loss, train_grpo
from phone_gym.trainer.mixing import EnvSource, MixedSampler
from phone_gym.trainer.rollout import Collector

GRPO_SEEDS = [4, 7]  #: two of the SFT seeds the half-trained model gets right least often


def test_group_advantages_by_hand() -> None:
    # groups a: [1, 0, 0, 1], b: all 0 (dropped), c: [1, 1, 1, 0]; interleaved on purpose
    rewards = [1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 0]
    groups = ["a", "b", "c", "a", "b", "c", "a", "c", "b", "a", "b", "c"]
    adv, keep = group_advantages(rewards, groups)
    a = [0, 3, 6, 9]
    c = [2, 5, 7, 11]
    # a: mean 0.5, sample std sqrt(1/3) -> +-0.5 * sqrt(3)
    assert adv[a] == pytest.approx([0.5 * math.sqrt(3), -0.5 * math.sqrt(3),
                                    -0.5 * math.sqrt(3), 0.5 * math.sqrt(3)], rel=1e-5)
    # c: mean 0.75, sample std 0.5 -> [0.5, 0.5, 0.5, -1.5]
    assert adv[c] == pytest.approx([0.5, 0.5, 0.5, -1.5], rel=1e-5)
    assert keep.tolist() == [g != "b" for g in groups]
    assert adv[[1, 4, 8, 10]].tolist() == [0, 0, 0, 0]
    raw, _ = group_advantages(rewards, groups, scale_by_std=False)
    assert raw[a] == pytest.approx([0.5, -0.5, -0.5, 0.5])
    assert raw[c] == pytest.approx([0.25, 0.25, 0.25, -0.75])
    _, keep = group_advantages([1.0, 1.0, 0.5], [0, 0, 1])  # flat and singleton groups
    assert not keep.any()


def example() -> dict[str, torch.Tensor]:
    """Row 0 (advantage +1): ratios 1 and 1.5; row 1 (advantage -2): ratio 0.5, then a
    padded token (ratio 3, masked out)."""
    logp = torch.log(torch.tensor([[0.5, 0.3], [0.2, 0.3]]))
    old = logp - torch.log(torch.tensor([[1.0, 1.5], [0.5, 3.0]]))
    return {"logp": logp.requires_grad_(), "old_logp": old,
            "advantages": torch.tensor([1.0, -2.0]), "mask": torch.tensor([[1.0, 1.0],
                                                                          [1.0, 0.0]])}


def test_clipped_loss_by_hand() -> None:
    ex = example()
    # per token: -A*r = -1; -1.5 clipped to -1.2; row 1: -(-2)*0.5 = 1.0 clipped to 2*0.8 = 1.6
    loss, stats = grpo_loss(**ex)
    assert loss.item() == pytest.approx((-1.0 - 1.2 + 1.6) / 3)
    assert stats["clip_frac"] == pytest.approx(2 / 3)
    assert stats["ratio"] == pytest.approx((1.0 + 1.5 + 0.5) / 3)
    loss.backward()
    # only the unclipped token has a gradient: d(-A r)/d logp = -A r / N
    assert ex["logp"].grad.flatten().tolist() == pytest.approx([-1 / 3, 0.0, 0.0, 0.0])
    seq, _ = grpo_loss(**example(), loss_type="grpo")  # per sequence, then over sequences
    assert seq.item() == pytest.approx(((-1.0 - 1.2) / 2 + 1.6) / 2)
    loose, _ = grpo_loss(**example(), clip_high=0.6)  # 1.5 within [0.8, 1.6]: unclipped
    assert loose.item() == pytest.approx((-1.0 - 1.5 + 1.6) / 3)
    with pytest.raises(ValueError, match="loss_type"):
        grpo_loss(**example(), loss_type="mean")


def test_kl_penalty_by_hand() -> None:
    ex = example()
    ref = ex["logp"].detach().clone()
    ref[0, 0] += math.log(2.0)  # k3 = exp(d) - d - 1 with d = ln 2
    k3 = 2.0 - math.log(2.0) - 1.0
    loss, stats = grpo_loss(**ex, ref_logp=ref, beta=0.5)
    assert loss.item() == pytest.approx((-1.0 - 1.2 + 1.6 + 0.5 * k3) / 3)
    assert stats["kl"] == pytest.approx(k3 / 3)
    same, _ = grpo_loss(**example(), ref_logp=ref, beta=0.0)
    assert same.item() == pytest.approx(-0.2)


@pytest.mark.slow  # a sweep of its own: the full tier runs it
def test_grpo_raises_the_mean_reward_on_a_sparse_task(sft_run: SFTRun,
                                                      tiny_vlm: Any) -> None:
    """From a half-trained SFT model (valid actions, about a fifth of the samples right on
    these seeds), GRPO on ClockDisableAlarm (reward 1 only if the right alarm is switched off;
    the episode ends at success or after 2 steps) raises the mean reward."""
    torch.manual_seed(0)
    policy = make_policy(tiny_vlm, do_sample=True, temperature=1.0)
    policy.model.load_state_dict(copy.deepcopy(sft_run.snapshot))
    source = EnvSource("mock", PhoneWorldEnv,
                       {"task": TASK, "obs_size": OBS_SIZE, "end_on_success": True,
                        "max_steps": 2}, num_envs=16, seeds=GRPO_SEEDS)
    collector = Collector(MixedSampler([source], seed=0), policy, keep_frames=False)
    settings = GRPOSettings(iterations=16, groups_per_iter=4, group_size=16, lr=3e-4,
                            epochs=1, minibatch_size=16, seed=0)
    history = train_grpo(policy, collector, settings)
    rewards = [h["reward_mean"] for h in history]
    assert rewards[0] < 0.4, rewards  # mostly wrong at the start
    assert np.mean(rewards[-3:]) > np.mean(rewards[:3]) + 0.1, rewards
    assert all(0 <= h["groups_kept"] <= 4 for h in history)
    # groups whose rollouts all score the same carry no signal and are dropped: an iteration
    # may keep none (the oracle's routes vary the demonstrations), but not more than one
    assert sum(h["samples"] > 0 and h["groups_kept"] >= 1 for h in history) >= len(history) - 1
