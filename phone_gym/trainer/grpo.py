"""GRPO with verifier rewards: group-normalized advantages, a clipped policy-gradient loss
over generated tokens only (TRL's loss types ``grpo``, ``bnpo``, ``dr_grpo``, ``dapo``), an
optional KL to a reference model, and groups whose rewards are all equal dropped (they carry
no signal; optionally refilled with fresh groups).

Every step of an episode is a sample: its exact prompt ids, generated ids and sampling
log-probs from the rollout (``StepRecord``), weighted by the episode's advantage. The old
policy's log-probs are recomputed with the training forward pass before the update, as TRL
and verl do; the rollout's are kept to measure the mismatch (``logprob_mismatch_*``).
"""

from __future__ import annotations

import copy
import math
import random
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import torch

from ..trajectory.records import Episode
from ..trajectory.store import export_episodes
from .checkpoint import Saver, accumulate, restore
from .rollout import Collector
from .vlm import TrainSample, VLMPolicy

#: The loss aggregations, named and defined as TRL's ``GRPOConfig.loss_type`` (trl 1.16,
#: ``GRPOTrainer._compute_loss``): ``grpo`` averages each sequence's tokens, then the
#: sequences; ``bnpo`` averages the tokens of the mini-batch; ``dr_grpo`` sums the tokens and
#: divides by a constant, (batch size x ``max_completion_length``) (Liu et al. 2025,
#: "Understanding R1-Zero-Like Training"); ``dapo`` divides the mini-batch's token sum by the
#: active tokens of the whole iteration's batch per optimizer step (Yu et al. 2025, DAPO).
LOSS_TYPES = ("grpo", "bnpo", "dr_grpo", "dapo")
S = TypeVar("S", bound=TrainSample)


def group_advantages(rewards: Sequence[float], group_ids: Sequence[int], *,
                     scale_by_std: bool = True, eps: float = 1e-6
                     ) -> tuple[np.ndarray, np.ndarray]:
    """``(advantages, keep)`` per episode: ``r - mean(group)``, divided by the group's
    standard deviation (sample std, ``ddof=1``, as TRL) unless ``scale_by_std=False`` (TRL's
    ``scale_rewards="none"``, verl's ``norm_adv_by_std_in_grpo=False``: one half of Dr. GRPO,
    the other is ``loss_type="dr_grpo"``); ``keep`` is False for groups whose rewards are all
    equal (advantage 0)."""
    r = np.asarray(rewards, dtype=np.float64)
    g = np.asarray(group_ids)
    adv = np.zeros_like(r)
    keep = np.zeros(len(r), dtype=bool)
    for gid in dict.fromkeys(g.tolist()):
        idx = np.flatnonzero(g == gid)
        centered = r[idx] - r[idx].mean()
        if len(idx) < 2 or np.allclose(r[idx], r[idx][0]):
            continue
        keep[idx] = True
        adv[idx] = centered / (r[idx].std(ddof=1) + eps) if scale_by_std else centered
    return adv, keep


def grpo_loss(logp: torch.Tensor, old_logp: torch.Tensor, advantages: torch.Tensor,
              mask: torch.Tensor, *, clip_low: float = 0.2, clip_high: float | None = None,
              ref_logp: torch.Tensor | None = None, beta: float = 0.0,
              loss_type: str = "dapo", max_completion_length: int | None = None,
              num_items: float | None = None, log_ratio_clamp: float = 20.0,
              clip_ratio_c: float = 3.0) -> tuple[torch.Tensor, dict[str, float]]:
    """The clipped surrogate per generated token, plus ``beta`` times the k3 estimate of
    KL(policy || reference), aggregated as ``loss_type`` (``LOSS_TYPES``).

    As verl's ``compute_policy_loss_vanilla`` (verl/trainer/ppo/core_algos.py): the log-ratio
    is clamped to ``[-log_ratio_clamp, log_ratio_clamp]`` before ``exp`` (verl: 20), and for
    negative advantages the loss is capped at ``-A * clip_ratio_c`` (dual-clip PPO, Ye et al.
    2020; verl's ``clip_ratio_c``, 3.0, must be > 1); ``inf`` turns either off.
    ``max_completion_length`` is ``dr_grpo``'s constant; ``num_items`` is ``dapo``'s
    normalizer (the iteration's active tokens per optimizer step; None: this batch's).

    ``logp``/``old_logp``/``ref_logp``/``mask``: ``(B, T)``; ``advantages``: ``(B,)``.
    """
    if loss_type not in LOSS_TYPES:
        raise ValueError(f"loss_type={loss_type!r}; accepted: {', '.join(map(repr, LOSS_TYPES))}")
    if not clip_ratio_c > 1.0:
        raise ValueError(f"clip_ratio_c={clip_ratio_c}; accepted: a number > 1 (inf: off)")
    if loss_type == "dr_grpo" and not max_completion_length:
        raise ValueError("loss_type='dr_grpo' needs max_completion_length (the policy's "
                         "max_new_tokens)")
    high = clip_low if clip_high is None else clip_high
    log_ratio = logp - old_logp
    if math.isfinite(log_ratio_clamp):
        log_ratio = torch.clamp(log_ratio, -log_ratio_clamp, log_ratio_clamp)
    ratio = torch.exp(log_ratio)
    adv = advantages.unsqueeze(-1)
    unclipped = -adv * ratio
    clipped = -adv * torch.clamp(ratio, 1.0 - clip_low, 1.0 + high)
    per_token = torch.maximum(unclipped, clipped)
    lower = torch.zeros_like(per_token, dtype=torch.bool)
    if math.isfinite(clip_ratio_c):
        cap = -adv * clip_ratio_c
        lower = (per_token > cap) & (adv < 0)
        per_token = torch.where(adv < 0, torch.minimum(per_token, cap), per_token)
    kl = torch.zeros_like(per_token)
    if ref_logp is not None and beta > 0:
        diff = ref_logp - logp
        kl = torch.exp(diff) - diff - 1.0
        per_token = per_token + beta * kl
    masked = per_token * mask
    if loss_type == "grpo":
        loss = (masked.sum(-1) / mask.sum(-1).clamp(min=1.0)).mean()
    elif loss_type == "bnpo":
        loss = masked.sum() / mask.sum().clamp(min=1.0)
    elif loss_type == "dr_grpo":
        loss = masked.sum() / (mask.shape[0] * float(max_completion_length or 1))
    else:  # dapo
        items = mask.sum() if num_items is None else torch.tensor(float(num_items))
        loss = masked.sum() / items.clamp(min=1.0)
    with torch.no_grad():
        n = mask.sum().clamp(min=1.0)
        stats = {"clip_frac": float(((clipped > unclipped).float() * mask).sum() / n),
                 "clip_frac_lower": float((lower.float() * mask).sum() / n),
                 "kl": float((kl * mask).sum() / n),
                 "ratio": float((ratio * mask).sum() / n)}
    return loss, stats


@dataclass
class GRPOSettings:
    """One GRPO run: ``iterations`` of collecting ``groups_per_iter`` groups of
    ``group_size`` episodes, then ``epochs`` passes of mini-batch updates.

    - ``loss_type``: one of ``LOSS_TYPES`` (TRL's names; default ``"dapo"``, TRL's default).
      Dr. GRPO is ``loss_type="dr_grpo"`` with ``scale_by_std=False``, as TRL and verl keep
      the two apart (``scale_rewards``/``norm_adv_by_std_in_grpo`` and the loss).
    - ``recompute_old_logprobs``: score the rollouts with the training forward pass (no
      gradient, same mode as the update) before the update and use that as the old policy,
      as TRL (``old_per_token_logps``, else ``per_token_logps.detach()``: never the
      sampler's) and verl (the actor's ``compute_log_prob``) do; the rollout's own log-probs
      then only feed ``logprob_mismatch_mean``/``_max`` (per token, absolute).
    - ``mask_truncated_completions``: completions cut at ``max_new_tokens`` (no end-of-turn
      token) are left out of the loss, as TRL's option of that name; the episode's reward
      (with any format penalty) is unchanged.
    - ``log_ratio_clamp``, ``clip_ratio_c``: see ``grpo_loss`` (verl's defaults; ``inf``:
      off).
    - ``beta > 0``: KL to a reference: a frozen copy of the model as GRPO starts, or, for a
      LoRA model, the model with its adapters disabled, i.e. the weights under the adapters
      (with the adapters SFT trained, as ``examples/train_vlm.py --lora`` does, that is the
      pre-SFT base; ``phone-gym train grpo`` from a merged SFT checkpoint: the SFT model).
    - ``refill_flat_groups``: when groups with equal rewards are dropped, collect fresh
      groups up to this many more times until ``groups_per_iter`` groups have signal (0:
      off; needs ``drop_flat_groups``).
    - ``micro_batch_size``: each mini-batch (one optimizer step) runs as micro-batches of
      this many samples whose gradients accumulate (the same step, to rounding: each
      micro-batch's loss is weighted by its share of the mini-batch under ``loss_type``);
      None: the whole mini-batch at once.
    """

    iterations: int = 10
    groups_per_iter: int = 4
    group_size: int = 8
    lr: float = 1e-5
    epochs: int = 1
    minibatch_size: int = 16
    clip_low: float = 0.2
    clip_high: float | None = None
    beta: float = 0.0
    scale_by_std: bool = True
    drop_flat_groups: bool = True
    loss_type: str = "dapo"
    recompute_old_logprobs: bool = True
    mask_truncated_completions: bool = False
    log_ratio_clamp: float = 20.0
    clip_ratio_c: float = 3.0
    refill_flat_groups: int = 0
    max_grad_norm: float = 1.0
    seed: int = 0
    micro_batch_size: int | None = None

    def __post_init__(self) -> None:
        if self.loss_type not in LOSS_TYPES:
            raise ValueError(f"loss_type = {self.loss_type!r}; accepted: "
                             f"{', '.join(map(repr, LOSS_TYPES))}")
        if not self.clip_ratio_c > 1.0:
            raise ValueError(f"clip_ratio_c = {self.clip_ratio_c}; accepted: a number > 1 "
                             "(verl's dual-clip bound; inf: off)")
        if not self.log_ratio_clamp > 0:
            raise ValueError(f"log_ratio_clamp = {self.log_ratio_clamp}; accepted: a number "
                             "> 0 (inf: off)")
        if self.refill_flat_groups < 0:
            raise ValueError(f"refill_flat_groups = {self.refill_flat_groups}; accepted: an "
                             "integer >= 0 (0: off)")
        if self.refill_flat_groups and not self.drop_flat_groups:
            raise ValueError("refill_flat_groups needs drop_flat_groups = true (only dropped "
                             "groups are refilled)")
        if self.micro_batch_size is not None and self.micro_batch_size < 1:
            raise ValueError(f"micro_batch_size = {self.micro_batch_size}; accepted: an "
                             "integer >= 1 or none (the whole mini-batch at once)")
        for name in ("iterations", "groups_per_iter", "group_size", "epochs",
                     "minibatch_size"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} = {getattr(self, name)}; accepted: an integer >= 1")


@dataclass
class GRPOSample(TrainSample):
    """A ``TrainSample`` with what GRPO adds: whether the completion was cut at
    ``max_new_tokens`` and the rollout's own log-probs (``old_logprobs`` may be replaced by
    recomputed ones)."""

    truncated: bool = False
    rollout_logprobs: list[float] = field(default_factory=list)


def episode_samples(episodes: Sequence[Episode], advantages: Sequence[float], *,
                    max_new_tokens: int | None = None,
                    stop_ids: Sequence[int] = ()) -> list[GRPOSample]:
    """Every generated step of each episode, with the episode's advantage. A completion of
    ``max_new_tokens`` tokens whose last one is not in ``stop_ids`` is marked ``truncated``
    (TRL: the last id is neither an end-of-sequence nor the pad token)."""
    out = []
    stops = set(stop_ids)
    for episode, adv in zip(episodes, advantages, strict=True):
        for step in episode.steps:
            if step.prompt_ids is None or step.gen_ids is None or step.logprobs is None:
                raise ValueError("GRPO needs token records: use a VLMPolicy in the collector")
            if step.gen_ids:
                cut = (max_new_tokens is not None and len(step.gen_ids) >= max_new_tokens
                       and step.gen_ids[-1] not in stops)
                out.append(GRPOSample(step.prompt_ids, step.gen_ids, list(step.images),
                                      list(step.logprobs), float(adv), truncated=cut,
                                      rollout_logprobs=list(step.logprobs)))
    return out


def stop_ids(policy: VLMPolicy) -> list[int]:
    """The ids that end a completion: the policy's end-of-turn and pad ids and the model's
    ``generation_config.eos_token_id`` (an id or a list)."""
    ids = {policy.end_id, policy.pad_id}
    eos = getattr(getattr(policy.model, "generation_config", None), "eos_token_id", None)
    ids.update([eos] if isinstance(eos, int) else list(eos or []))
    return sorted(ids)


def recompute_old_logprobs(policy: VLMPolicy, samples: Sequence[GRPOSample],
                           batch_size: int) -> dict[str, float]:
    """Replace each sample's ``old_logprobs`` by the training forward pass's (no gradient;
    the model in the mode the update runs in) and return the per-token absolute difference
    to the rollout's log-probs: ``logprob_mismatch_mean`` and ``logprob_mismatch_max``."""
    diffs: list[np.ndarray] = []
    with torch.no_grad():
        for start in range(0, len(samples), batch_size):
            batch = samples[start:start + batch_size]
            logp, _ = _score(policy, batch)
            for row, sample in enumerate(batch):
                new = logp[row, :len(sample.completion_ids)].double().cpu().numpy()
                diffs.append(np.abs(new - np.asarray(sample.rollout_logprobs)))
                sample.old_logprobs = new.tolist()
    flat = np.concatenate(diffs) if diffs else np.zeros(0)
    return {"logprob_mismatch_mean": float(flat.mean()) if flat.size else 0.0,
            "logprob_mismatch_max": float(flat.max()) if flat.size else 0.0}


def _pad(rows: Sequence[Sequence[float]], width: int) -> torch.Tensor:
    out = torch.zeros(len(rows), width)
    for i, row in enumerate(rows):
        out[i, :len(row)] = torch.tensor(row, dtype=torch.float32)
    return out


def _minibatches(samples: list[S], size: int, rng: random.Random) -> Iterator[list[S]]:
    order = list(range(len(samples)))
    rng.shuffle(order)
    for start in range(0, len(order), size):
        yield [samples[i] for i in order[start:start + size]]


def train_grpo(policy: VLMPolicy, collector: Collector, settings: GRPOSettings, *,
               callback: Callable[[int, dict[str, float]], None] | None = None,
               progress: bool = False,
               record_to: str | Path | None = None, checkpoint_every: int = 0,
               save: Saver | None = None, resume: Mapping[str, Any] | None = None
               ) -> list[dict[str, float]]:
    """Run GRPO; returns one metrics dict per iteration (``reward_mean``, ``success_rate``
    and ``episode_len`` are of the iteration's first ``groups_per_iter`` groups, before the
    update, refills left out; ``no_signal`` is 1, with a ``NoSignalWarning``, when every
    group's rewards were equal, refills included: then nothing is updated, whatever
    ``drop_flat_groups`` and ``beta``; ``groups_refilled``/``refill_rounds``: groups with
    signal that refills added and the extra collections they took; ``truncated_frac``: the
    samples cut at ``max_new_tokens``; ``logprob_mismatch_mean``/``_max``: see
    ``recompute_old_logprobs``). ``record_to``: a folder every collected episode (refills
    included) is appended to, in the trajectory format ``export.export_episodes`` writes
    (frames only where the collector keeps them).

    Every ``checkpoint_every`` iterations, ``save(iteration, state)`` gets the resume state
    (optimizer, the mini-batch shuffler's and the collector's and task sampler's RNGs and
    positions; ``checkpoint.save_checkpoint`` adds the global RNGs and weights); ``resume``
    continues from such a state, on a policy built as the run's was: the KL reference stays
    the model the run started from (a copy taken before the checkpoint's weights are loaded,
    or the LoRA base), never the checkpoint."""
    torch.manual_seed(settings.seed)
    rng = random.Random(settings.seed)
    model = policy.model
    params = policy.trainable_parameters()  # float32 master weights (precision.py)
    optim = torch.optim.AdamW(params, lr=settings.lr, weight_decay=0.0)
    ref_model = None
    if settings.beta > 0 and not hasattr(model, "disable_adapter"):
        ref_model = copy.deepcopy(model).eval().requires_grad_(False)
    first = 1
    if resume is not None:
        first = int(resume["iteration"]) + 1
        rng.setstate(resume["minibatch_rng"])
        set_sampling_state(collector, resume["sampling"])
        restore(policy, resume, optim)
    history = []
    from tqdm import tqdm

    for it in tqdm(range(first, settings.iterations + 1), desc="grpo", disable=not progress,
                   initial=first - 1, total=settings.iterations):
        episodes, kept, kept_adv, refill = _collect_groups(collector, settings)
        if record_to is not None:
            seen = {id(e) for e in episodes}
            export_episodes([*episodes, *(e for e in kept if id(e) not in seen)], record_to,
                            append=True)
        rewards = [e.total_reward for e in episodes]
        no_signal = not kept  # every advantage is 0: no update at all
        if no_signal:
            warnings.warn(no_signal_message(it, rewards), NoSignalWarning, stacklevel=2)
        samples = episode_samples(kept, kept_adv, max_new_tokens=policy.max_new_tokens,
                                  stop_ids=stop_ids(policy))
        stats: dict[str, list[float]] = {"loss": [], "clip_frac": [], "clip_frac_lower": [],
                                         "kl": [], "ratio": []}
        model.train()
        mismatch = (recompute_old_logprobs(policy, samples, settings.minibatch_size)
                    if settings.recompute_old_logprobs and samples else {})
        # dapo: the iteration's active tokens per optimizer step (TRL: num_items_in_batch
        # over the generation batch, rescaled to one optimizer step)
        steps = math.ceil(len(samples) / settings.minibatch_size)
        num_items = sum(len(s.completion_ids) for s in samples
                        if not (settings.mask_truncated_completions and s.truncated))
        for _ in range(settings.epochs):
            for batch in _minibatches(samples, settings.minibatch_size, rng):
                optim.zero_grad()
                total, parts = 0.0, []
                for micro, weight in micro_weights(batch, settings,
                                                   settings.micro_batch_size):
                    loss, st = _update(policy, micro, settings, ref_model,
                                       num_items / max(steps, 1))
                    (loss * weight).backward()
                    total += loss.item() * weight
                    parts.append((len(micro) / len(batch), st))
                torch.nn.utils.clip_grad_norm_(params, settings.max_grad_norm)
                optim.step()
                stats["loss"].append(total)
                for key in parts[0][1]:
                    stats[key].append(sum(w * st[key] for w, st in parts))
        model.eval()
        metrics: dict[str, float] = {
            "iteration": it, "reward_mean": float(np.mean(rewards)),
            "success_rate": float(np.mean([e.success for e in episodes])),
            "episode_len": float(np.mean([len(e) for e in episodes])),
            "groups_kept": int(len({e.group_id for e in kept})), "samples": len(samples),
            "no_signal": int(no_signal), **refill,
            "truncated_frac": float(np.mean([s.truncated for s in samples])) if samples
            else 0.0, **mismatch,
            **{k: float(np.mean(v)) if v else 0.0 for k, v in stats.items()},
        }
        history.append(metrics)
        if save is not None and checkpoint_every and it % checkpoint_every == 0:
            save(it, {"kind": "grpo", "iteration": it, "optimizer": optim.state_dict(),
                      "minibatch_rng": rng.getstate(),
                      "sampling": sampling_state(collector)})
        if callback is not None:
            callback(it, metrics)
    return history


def micro_weights(batch: list[GRPOSample], settings: GRPOSettings,
                  micro_batch_size: int | None) -> list[tuple[list[GRPOSample], float]]:
    """``batch`` as micro-batches, each with the weight that turns its loss (aggregated
    over itself as ``settings.loss_type`` does) into its share of the whole batch's loss:
    the share of sequences for ``grpo`` and ``dr_grpo``, of active tokens for ``bnpo``, 1
    for ``dapo`` (its normalizer is the iteration's, not the batch's). TRL scales the same
    way under ``gradient_accumulation_steps``."""
    micros = accumulate(batch, micro_batch_size)
    if len(micros) == 1:
        return [(batch, 1.0)]

    def tokens(samples: list[GRPOSample]) -> int:
        return sum(len(s.completion_ids) for s in samples
                   if not (settings.mask_truncated_completions and s.truncated))

    out = []
    for micro in micros:
        if settings.loss_type == "dapo":
            weight = 1.0
        elif settings.loss_type == "bnpo":
            weight = tokens(micro) / max(tokens(batch), 1)
        else:
            weight = len(micro) / len(batch)
        out.append((micro, weight))
    return out


def sampling_state(collector: Collector) -> dict[str, Any]:
    """Where the collector and its task sampler are: their RNGs, group and episode
    counters, and each source's position in its seed list."""
    state: dict[str, Any] = {"rng": collector.rng.bit_generator.state,
                             "groups": collector._groups, "episodes": collector._episodes}
    sampler = collector.sampler
    if sampler is not None:
        state["sampler"] = {"rng": sampler.rng.bit_generator.state,
                            "next_group": sampler._next_group,
                            "seed_pos": dict(sampler._seed_pos)}
    return state


def set_sampling_state(collector: Collector, state: Mapping[str, Any]) -> None:
    """Restore what ``sampling_state`` returned."""
    collector.rng.bit_generator.state = state["rng"]
    collector._groups, collector._episodes = state["groups"], state["episodes"]
    sampler = collector.sampler
    if sampler is not None and "sampler" in state:
        sampler.rng.bit_generator.state = state["sampler"]["rng"]
        sampler._next_group = state["sampler"]["next_group"]
        sampler._seed_pos = dict(state["sampler"]["seed_pos"])


class NoSignalWarning(UserWarning):
    """A GRPO iteration whose groups all had equal rewards: nothing to learn from."""


def no_signal_message(iteration: int, rewards: Sequence[float]) -> str:
    """The one-line warning of an iteration without learning signal."""
    same = (f"all {len(rewards)} episodes got reward {rewards[0]:g}"
            if rewards and np.allclose(rewards, rewards[0])
            else "every group's episodes got equal rewards")
    return (f"GRPO iteration {iteration}: {same}: no learning signal, no update (GRPO "
            "learns from rollouts of a task that score differently: start from a model that "
            "solves these tasks sometimes, e.g. after SFT, or pick other tasks)")


def _collect_groups(collector: Collector, settings: GRPOSettings
                    ) -> tuple[list[Episode], list[Episode], list[float], dict[str, int]]:
    """``(episodes, kept, advantages of kept, refill metrics)`` of one iteration: the first
    ``groups_per_iter`` groups, then, while fewer groups than that have signal, up to
    ``refill_flat_groups`` more collections of as many fresh groups as are missing."""
    size = settings.group_size
    first = collector.collect(specs=collector.specs(settings.groups_per_iter * size, size))
    batch, kept, kept_adv = first, [], []
    refilled = rounds = 0
    while True:
        adv, keep = group_advantages([e.total_reward for e in batch],
                                     [e.group_id for e in batch],
                                     scale_by_std=settings.scale_by_std)
        if keep.any() and not settings.drop_flat_groups:
            keep[:] = True
        new = [(e, float(a)) for e, a, k in zip(batch, adv, keep, strict=True) if k]
        kept += [e for e, _ in new]
        kept_adv += [a for _, a in new]
        if rounds:
            refilled += len({e.group_id for e, _ in new})
        missing = settings.groups_per_iter - len({e.group_id for e in kept})
        if missing <= 0 or rounds >= settings.refill_flat_groups:
            break
        rounds += 1
        batch = collector.collect(specs=collector.specs(missing * size, size))
    return first, kept, kept_adv, {"groups_refilled": refilled, "refill_rounds": rounds}


def _score(policy: VLMPolicy, batch: Sequence[TrainSample],
           model: Any = None) -> tuple[torch.Tensor, torch.Tensor]:
    """The training forward pass's log-probs of a batch (the update, the recomputed old
    policy and the reference all score through here)."""
    return policy.sequence_logprobs(batch, temperature=policy.temperature, model=model)


def _update(policy: VLMPolicy, batch: list[GRPOSample], settings: GRPOSettings,
            ref_model: Any, num_items: float | None = None
            ) -> tuple[torch.Tensor, dict[str, float]]:
    logp, mask = _score(policy, batch)
    if settings.mask_truncated_completions:  # TRL: completion_mask * ~is_truncated
        keep = torch.tensor([not s.truncated for s in batch], dtype=mask.dtype)
        mask = mask * keep.to(mask.device).unsqueeze(-1)
    width = logp.shape[1]
    old = _pad([s.old_logprobs or [] for s in batch], width).to(logp.device)
    adv = torch.tensor([s.advantage for s in batch], dtype=torch.float32, device=logp.device)
    ref = None
    if settings.beta > 0:
        with torch.no_grad():
            if ref_model is None:  # LoRA: the weights under the adapters are the reference
                with policy.model.disable_adapter():
                    ref, _ = _score(policy, batch)
            else:
                ref, _ = _score(policy, batch, model=ref_model)
    return grpo_loss(logp, old, adv, mask, clip_low=settings.clip_low,
                     clip_high=settings.clip_high, ref_logp=ref, beta=settings.beta,
                     loss_type=settings.loss_type,
                     max_completion_length=policy.max_new_tokens, num_items=num_items,
                     log_ratio_clamp=settings.log_ratio_clamp,
                     clip_ratio_c=settings.clip_ratio_c)
