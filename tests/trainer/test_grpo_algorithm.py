"""GRPO's algorithm options (issue 12): TRL's loss types on hand-made batches, verl's log-ratio
clamp and dual-clip, old log-probs recomputed with the training forward pass, truncated
completions masked, flat groups refilled, and the settings' validation; plus
``scripts/gpu_check.py`` importing, ``--help`` and a one-iteration CPU run."""

from __future__ import annotations

import importlib.util
import math
import warnings
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
import torch
from trainer_support import OBS_SIZE, make_policy

from phone_gym.trainer.config import ConfigError, resolve
from phone_gym.trainer.grpo import (
    LOSS_TYPES,
    GRPOSample,
    GRPOSettings,
    NoSignalWarning,
    _update,
    episode_samples,
    grpo_loss,
    stop_ids,
    train_grpo,
)
from phone_gym.trainer.mixing import EnvSource, MixedSampler
from phone_gym.trainer.rollout import Collector
from phone_gym.trajectory.records import Episode, StepRecord

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "gpu_check.py"


# --- the loss on hand-made batches ------------------------------------------------------------
def example() -> dict[str, torch.Tensor]:
    """Row 0 (advantage +1): ratios 1 and 1.5, per-token losses -1 and -1.2 (clipped);
    row 1 (advantage -2): ratio 0.5, loss 1.6 (clipped), then a padded token (masked)."""
    logp = torch.log(torch.tensor([[0.5, 0.3], [0.2, 0.3]]))
    old = logp - torch.log(torch.tensor([[1.0, 1.5], [0.5, 3.0]]))
    return {"logp": logp.requires_grad_(), "old_logp": old,
            "advantages": torch.tensor([1.0, -2.0]), "mask": torch.tensor([[1.0, 1.0],
                                                                          [1.0, 0.0]])}


def test_loss_types_normalize_as_trl() -> None:
    total = -1.0 - 1.2 + 1.6  # the masked per-token losses summed
    expected = {
        "grpo": ((-1.0 - 1.2) / 2 + 1.6 / 1) / 2,  # per sequence, then over sequences
        "bnpo": total / 3,  # over the batch's 3 active tokens
        "dr_grpo": total / (2 * 5),  # a constant: batch size x max_completion_length (5)
        "dapo": total / 6,  # the iteration's active tokens per optimizer step (given: 6)
    }
    assert set(expected) == set(LOSS_TYPES)
    for loss_type, value in expected.items():
        ex = example()
        loss, _ = grpo_loss(**ex, loss_type=loss_type, max_completion_length=5, num_items=6)
        assert loss.item() == pytest.approx(value), loss_type
        loss.backward()
        # only row 0's first token is unclipped: d(-A r)/d logp = -A r = -1, normalized
        scale = {"grpo": 1 / 4, "bnpo": 1 / 3, "dr_grpo": 1 / 10, "dapo": 1 / 6}[loss_type]
        assert ex["logp"].grad.flatten().tolist() == pytest.approx([-scale, 0, 0, 0])
    # dapo without num_items: this batch's active tokens (one optimizer step per iteration)
    assert grpo_loss(**example(), loss_type="dapo")[0].item() == pytest.approx(total / 3)
    # Dr. GRPO's constant does not depend on completion lengths: a longer padded batch of
    # the same tokens gives the same loss
    wide = {k: torch.cat([v, torch.zeros(2, 3)], 1) if v.dim() == 2 else v
            for k, v in example().items()}
    assert grpo_loss(**wide, loss_type="dr_grpo", max_completion_length=5)[0].item() == \
        pytest.approx(total / 10)
    with pytest.raises(ValueError, match="accepted: 'grpo', 'bnpo', 'dr_grpo', 'dapo'"):
        grpo_loss(**example(), loss_type="token")
    with pytest.raises(ValueError, match="max_completion_length"):
        grpo_loss(**example(), loss_type="dr_grpo")


def test_dual_clip_caps_the_loss_of_negative_advantages() -> None:
    """verl's compute_policy_loss_vanilla: for A < 0 the loss is min(-A * c, clipped loss);
    ratio 5 with A = -1 costs 5 unclipped (the PPO clip keeps the larger term) but 3 with
    c = 3, and that token has no gradient; A > 0 is left alone."""
    logp = torch.log(torch.tensor([[0.5, 0.5]])).expand(2, 2).clone().requires_grad_()
    old = logp.detach() - math.log(5.0)
    mask = torch.ones(2, 2)
    adv = torch.tensor([-1.0, 1.0])
    loss, stats = grpo_loss(logp, old, adv, mask, loss_type="bnpo", clip_ratio_c=3.0)
    assert loss.item() == pytest.approx((3.0 + 3.0 - 1.2 - 1.2) / 4)
    assert stats["clip_frac_lower"] == pytest.approx(0.5)
    loss.backward()
    assert logp.grad.abs().sum().item() == 0.0  # capped and clipped: no gradient
    off, stats = grpo_loss(logp, old, adv, mask, loss_type="bnpo", clip_ratio_c=math.inf)
    assert off.item() == pytest.approx((5.0 + 5.0 - 1.2 - 1.2) / 4, rel=1e-5)
    assert stats["clip_frac_lower"] == 0.0
    with pytest.raises(ValueError, match="clip_ratio_c"):
        grpo_loss(logp, old, adv, mask, clip_ratio_c=1.0)


def test_log_ratio_is_clamped_before_exp() -> None:
    """verl clamps log(pi / pi_old) to [-20, 20] before exp: a log-ratio of 30 gives a ratio
    of e^20, not e^30 (and no gradient through the clamp)."""
    logp = torch.tensor([[0.0]], requires_grad=True)
    old = torch.tensor([[-30.0]])
    adv, mask = torch.tensor([-1.0]), torch.ones(1, 1)
    loss, stats = grpo_loss(logp, old, adv, mask, clip_ratio_c=math.inf)
    assert stats["ratio"] == pytest.approx(math.exp(20.0), rel=1e-5)
    assert loss.item() == pytest.approx(math.exp(20.0), rel=1e-5)
    loss.backward()
    assert logp.grad.item() == 0.0
    _, stats = grpo_loss(logp, old, adv, mask, clip_ratio_c=math.inf, log_ratio_clamp=5.0)
    assert stats["ratio"] == pytest.approx(math.exp(5.0), rel=1e-5)
    _, stats = grpo_loss(logp, old, adv, mask, clip_ratio_c=math.inf,
                         log_ratio_clamp=math.inf)
    assert stats["ratio"] == pytest.approx(math.exp(30.0), rel=1e-5)


def test_settings_refuse_bad_values_naming_what_is_accepted() -> None:
    cases = [({"loss_type": "token"}, "loss_type = 'token'; accepted: 'grpo', 'bnpo'"),
             ({"clip_ratio_c": 0.5}, "clip_ratio_c = 0.5; accepted: a number > 1"),
             ({"log_ratio_clamp": 0.0}, "log_ratio_clamp = 0.0; accepted"),
             ({"refill_flat_groups": -1}, "refill_flat_groups = -1; accepted"),
             ({"refill_flat_groups": 2, "drop_flat_groups": False},
              "refill_flat_groups needs drop_flat_groups"),
             ({"minibatch_size": 0}, "minibatch_size = 0; accepted: an integer >= 1")]
    for values, message in cases:
        with pytest.raises(ValueError, match=message):
            GRPOSettings(**values)
        config = {"sources": [{"env": "PhoneWorld-v0"}], "grpo": values}
        with pytest.raises(ConfigError, match=f"grpo.{message}"):
            resolve(config, "grpo")
    cfg = resolve({"sources": [{"env": "PhoneWorld-v0"}],
                   "grpo": {"loss_type": "dr_grpo", "scale_by_std": False,
                            "clip_ratio_c": math.inf, "refill_flat_groups": 3,
                            "mask_truncated_completions": True}}, "grpo")
    assert GRPOSettings(**cfg["grpo"]).loss_type == "dr_grpo"


# --- truncated completions --------------------------------------------------------------------
def record(gen_ids: list[int]) -> StepRecord:
    return StepRecord("ep0", "env", None, 0, 0, 0, "", [], None, [1, 2], gen_ids,
                      [-0.5] * len(gen_ids), None, [], "", None, False, None, 0.0, 0.0, 0.0,
                      True, True, False, False, None)


def test_completions_cut_at_max_new_tokens_are_marked_truncated(tiny_vlm: Any) -> None:
    policy = make_policy(tiny_vlm, max_new_tokens=4)
    end = policy.end_id
    assert end in stop_ids(policy) and policy.pad_id in stop_ids(policy)
    other = next(i for i in range(5, 50) if i not in stop_ids(policy))
    episodes = [Episode([record([other] * 4)]), Episode([record([other] * 3 + [end])]),
                Episode([record([other, end])])]
    samples = episode_samples(episodes, [1.0, 1.0, 1.0], max_new_tokens=4,
                              stop_ids=stop_ids(policy))
    assert [s.truncated for s in samples] == [True, False, False]
    assert samples[0].rollout_logprobs == [-0.5] * 4


def test_masked_truncated_completions_leave_the_loss(tiny_vlm: Any) -> None:
    """TRL's mask_truncated_completions: the truncated sample weighs nothing, so the loss of
    [truncated, kept] equals that of [kept] alone (token-mean: masked rows leave the count)."""
    policy = make_policy(tiny_vlm, max_new_tokens=4)
    end = policy.end_id
    cut = GRPOSample([3, 4, 5], [7, 8, 9, 10], [], [-2.0] * 4, -1.0, truncated=True)
    kept = GRPOSample([3, 4], [7, 8, end], [], [-2.5] * 3, 1.0)
    on = GRPOSettings(loss_type="bnpo", mask_truncated_completions=True)
    off = GRPOSettings(loss_type="bnpo")
    with torch.no_grad():
        alone, _ = _update(policy, [kept], on, None)
        masked, _ = _update(policy, [cut, kept], on, None)
        unmasked, _ = _update(policy, [cut, kept], off, None)
    assert masked.item() == pytest.approx(alone.item(), abs=1e-5)
    assert abs(unmasked.item() - alone.item()) > 1e-2


def test_dr_grpo_divides_by_batch_size_times_max_new_tokens(tiny_vlm: Any) -> None:
    """Wired with the policy's max_new_tokens: with old log-probs equal to the current ones
    (ratio 1), dr_grpo's loss x B x L equals bnpo's x the number of tokens."""
    policy = make_policy(tiny_vlm, max_new_tokens=6)
    samples = [GRPOSample([3, 4], [7, 8, 9], [], None, 1.0),
               GRPOSample([3, 4, 5], [7, policy.end_id], [], None, -0.5)]
    with torch.no_grad():
        logp, _ = policy.sequence_logprobs(samples, policy.temperature)
    for row, s in enumerate(samples):
        s.old_logprobs = logp[row, :len(s.completion_ids)].tolist()
    with torch.no_grad():
        dr, _ = _update(policy, samples, GRPOSettings(loss_type="dr_grpo"), None)
        bnpo, _ = _update(policy, samples, GRPOSettings(loss_type="bnpo"), None)
    assert dr.item() * 2 * 6 == pytest.approx(bnpo.item() * 5, abs=1e-5)
    assert dr.item() * 2 * 6 == pytest.approx(-(1.0 * 3 - 0.5 * 2), abs=1e-5)


# --- runs on a fake env -----------------------------------------------------------------------
class LengthRewardEnv(gym.Env[dict[str, Any], str]):
    """One-step episodes; the reward is the answer's length / 10, or 0 for ``flat_seeds``
    (every rollout of such a group gets the same reward: a flat group)."""

    def __init__(self, flat_seeds: tuple[int, ...] = ()) -> None:
        self.flat_seeds = flat_seeds
        self.seed_ = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        self.seed_ = int(seed or 0)
        shot = np.full((OBS_SIZE[1], OBS_SIZE[0], 3), 40 * (self.seed_ % 5), np.uint8)
        return {"screenshot": shot, "instruction": "Say something short."}, {}

    def step(self, action: str) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        obs, _ = self.reset(seed=self.seed_)
        reward = 0.0 if self.seed_ in self.flat_seeds else len(action) / 10
        return obs, reward, True, False, {}


def fake_collector(policy: Any, seeds: list[int], flat: tuple[int, ...] = ()) -> Collector:
    source = EnvSource("fake", LengthRewardEnv, {"flat_seeds": flat}, num_envs=4, seeds=seeds)
    return Collector(MixedSampler([source], seed=0), policy, keep_frames=False)


class ShiftedLogprobs:
    """The policy with every recorded log-prob moved by ``shift``: a sampler whose numbers
    differ from the training forward pass's."""

    def __init__(self, policy: Any, shift: float) -> None:
        self.policy, self.shift = policy, shift

    def act(self, *args: Any) -> Any:
        gens = self.policy.act(*args)
        for gen in gens:
            gen.logprobs = [x + self.shift for x in gen.logprobs]
        return gens


def one_iteration(policy: Any, actor: Any, **kwargs: Any) -> dict[str, float]:
    torch.manual_seed(0)
    settings = GRPOSettings(**{"iterations": 1, "groups_per_iter": 2, "group_size": 4,
                               "minibatch_size": 64, "lr": 1e-3, **kwargs})
    return train_grpo(policy, fake_collector(actor, [1, 2]), settings)[0]


def test_old_logprobs_are_recomputed_with_the_training_forward(tiny_vlm: Any) -> None:
    """Rollout log-probs off by 0.25: recomputed (default), the first update's ratio is 1
    and the mismatch metric is 0.25; with the rollout's as the old policy the ratio is
    e^-0.25. Unshifted, rollout and training agree to 1e-5 (CPU, fp32)."""
    policy = make_policy(tiny_vlm, max_new_tokens=6)
    metrics = one_iteration(policy, ShiftedLogprobs(policy, 0.25))
    assert metrics["samples"] == 8 and metrics["no_signal"] == 0
    assert metrics["ratio"] == pytest.approx(1.0, abs=1e-5)
    assert metrics["logprob_mismatch_mean"] == pytest.approx(0.25, abs=1e-4)
    assert metrics["logprob_mismatch_max"] == pytest.approx(0.25, abs=1e-4)
    policy = make_policy(tiny_vlm, max_new_tokens=6)
    stale = one_iteration(policy, ShiftedLogprobs(policy, 0.25), recompute_old_logprobs=False)
    assert stale["ratio"] == pytest.approx(math.exp(-0.25), abs=1e-4)
    assert "logprob_mismatch_mean" not in stale
    policy = make_policy(tiny_vlm, max_new_tokens=6)
    exact = one_iteration(policy, policy)
    assert exact["logprob_mismatch_max"] < 1e-5


def test_truncated_completions_are_counted_and_masked(tiny_vlm: Any) -> None:
    """With 2 new tokens the random tiny model is cut off in (nearly) every rollout; masked,
    those samples move no weight."""
    policy = make_policy(tiny_vlm, max_new_tokens=2)
    before = [p.detach().clone() for p in policy.model.parameters()]
    metrics = one_iteration(policy, policy, mask_truncated_completions=True)
    assert metrics["truncated_frac"] == 1.0  # the tiny model never ends within 2 tokens
    assert all(torch.equal(a, b) for a, b in zip(before, policy.model.parameters(),
                                                  strict=True))
    policy = make_policy(tiny_vlm, max_new_tokens=2)
    metrics = one_iteration(policy, policy)
    assert metrics["truncated_frac"] == 1.0
    assert not all(torch.equal(a, b) for a, b in zip(before, policy.model.parameters(),
                                                      strict=True))


def test_flat_groups_are_refilled_until_the_batch_is_full(tiny_vlm: Any) -> None:
    """Seeds cycle 0, 1, 0, 1, ...; seed 0's groups are flat. Of the first two groups one is
    dropped; refilling draws seed 0 (flat again), then seed 1: two groups with signal after
    two extra collections. Without refills one group is kept."""
    def run(refills: int, seeds: list[int]) -> dict[str, float]:
        policy = make_policy(tiny_vlm, max_new_tokens=6)
        torch.manual_seed(0)
        settings = GRPOSettings(iterations=1, groups_per_iter=2, group_size=4,
                                minibatch_size=64, refill_flat_groups=refills)
        return train_grpo(policy, fake_collector(policy, seeds, flat=(0,)), settings)[0]

    plain = run(0, [0, 1])
    assert (plain["groups_kept"], plain["groups_refilled"], plain["refill_rounds"]) == (1, 0, 0)
    full = run(3, [0, 1])
    assert (full["groups_kept"], full["groups_refilled"], full["refill_rounds"]) == (2, 1, 2)
    assert full["samples"] == 8 and full["reward_mean"] == plain["reward_mean"]
    with warnings.catch_warnings(record=True) as caught:  # every group flat: bounded tries
        warnings.simplefilter("always")
        none = run(2, [0])
    assert (none["groups_kept"], none["refill_rounds"], none["no_signal"]) == (0, 2, 1)
    assert any(issubclass(w.category, NoSignalWarning) for w in caught)


# --- scripts/gpu_check.py ---------------------------------------------------------------------
def load_script() -> Any:
    spec = importlib.util.spec_from_file_location("gpu_check", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gpu_check_help_and_a_cpu_dry_run(capsys: pytest.CaptureFixture[str]) -> None:
    module = load_script()
    assert "NOT YET RUN" in (module.__doc__ or "")
    with pytest.raises(SystemExit) as exit_info:
        module.main(["--help"])
    assert exit_info.value.code == 0
    assert "--dry-run" in capsys.readouterr().out
    assert module.main(["--dry-run"]) == 0
    out = capsys.readouterr().out
    for figure in ("weight-change fraction", "log-prob mismatch", "reward", "expected"):
        assert figure in out, out
