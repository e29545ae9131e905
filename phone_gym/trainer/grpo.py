"""GRPO with verifier rewards: group-normalized advantages, a token-level clipped
policy-gradient loss over generated tokens only, an optional KL to a reference model, and
groups whose rewards are all equal dropped (they carry no signal).

Every step of an episode is a sample: its exact prompt ids, generated ids and sampling
log-probs from the rollout (``StepRecord``), weighted by the episode's advantage.
"""

from __future__ import annotations

import copy
import random
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from .records import Episode
from .rollout import Collector
from .vlm import TrainSample, VLMPolicy


def group_advantages(rewards: Sequence[float], group_ids: Sequence[int], *,
                     scale_by_std: bool = True, eps: float = 1e-6
                     ) -> tuple[np.ndarray, np.ndarray]:
    """``(advantages, keep)`` per episode: ``r - mean(group)``, divided by the group's
    standard deviation (sample std, ``ddof=1``, as TRL) unless ``scale_by_std=False``
    (Dr. GRPO); ``keep`` is False for groups whose rewards are all equal (advantage 0)."""
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
              aggregation: str = "token") -> tuple[torch.Tensor, dict[str, float]]:
    """The clipped surrogate per generated token, plus ``beta`` times the k3 estimate of
    KL(policy || reference), averaged over all tokens of the batch (``"token"``) or per
    sequence then over sequences (``"sequence"``).

    ``logp``/``old_logp``/``ref_logp``/``mask``: ``(B, T)``; ``advantages``: ``(B,)``.
    """
    high = clip_low if clip_high is None else clip_high
    ratio = torch.exp(logp - old_logp)
    adv = advantages.unsqueeze(-1)
    unclipped = -adv * ratio
    clipped = -adv * torch.clamp(ratio, 1.0 - clip_low, 1.0 + high)
    per_token = torch.maximum(unclipped, clipped)
    kl = torch.zeros_like(per_token)
    if ref_logp is not None and beta > 0:
        diff = ref_logp - logp
        kl = torch.exp(diff) - diff - 1.0
        per_token = per_token + beta * kl
    if aggregation == "token":
        loss = (per_token * mask).sum() / mask.sum().clamp(min=1.0)
    elif aggregation == "sequence":
        loss = ((per_token * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)).mean()
    else:
        raise ValueError(f"aggregation={aggregation!r}; accepted: 'token', 'sequence'")
    with torch.no_grad():
        n = mask.sum().clamp(min=1.0)
        stats = {"clip_frac": float(((clipped > unclipped).float() * mask).sum() / n),
                 "kl": float((kl * mask).sum() / n),
                 "ratio": float((ratio * mask).sum() / n)}
    return loss, stats


@dataclass
class GRPOSettings:
    """One GRPO run: ``iterations`` of collecting ``groups_per_iter`` groups of
    ``group_size`` episodes, then ``epochs`` passes of mini-batch updates."""

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
    aggregation: str = "token"
    max_grad_norm: float = 1.0
    seed: int = 0


def episode_samples(episodes: Sequence[Episode], advantages: Sequence[float]
                    ) -> list[TrainSample]:
    """Every generated step of each episode, with the episode's advantage."""
    out = []
    for episode, adv in zip(episodes, advantages, strict=True):
        for step in episode.steps:
            if step.prompt_ids is None or step.gen_ids is None or step.logprobs is None:
                raise ValueError("GRPO needs token records: use a VLMPolicy in the collector")
            if step.gen_ids:
                out.append(TrainSample(step.prompt_ids, step.gen_ids, list(step.images),
                                       list(step.logprobs), float(adv)))
    return out


def _pad(rows: Sequence[Sequence[float]], width: int) -> torch.Tensor:
    out = torch.zeros(len(rows), width)
    for i, row in enumerate(rows):
        out[i, :len(row)] = torch.tensor(row, dtype=torch.float32)
    return out


def _minibatches(samples: list[TrainSample], size: int,
                 rng: random.Random) -> Iterator[list[TrainSample]]:
    order = list(range(len(samples)))
    rng.shuffle(order)
    for start in range(0, len(order), size):
        yield [samples[i] for i in order[start:start + size]]


def train_grpo(policy: VLMPolicy, collector: Collector, settings: GRPOSettings, *,
               callback: Callable[[int, dict[str, float]], None] | None = None,
               progress: bool = False) -> list[dict[str, float]]:
    """Run GRPO; returns one metrics dict per iteration (``reward_mean`` is the mean
    episode return of the iteration's rollouts, before the update; ``no_signal`` is 1, with
    a ``NoSignalWarning``, when every group's rewards were equal: then nothing is updated,
    whatever ``drop_flat_groups`` and ``beta``)."""
    torch.manual_seed(settings.seed)
    rng = random.Random(settings.seed)
    model = policy.model
    params = [p for p in model.parameters() if p.requires_grad]
    optim = torch.optim.AdamW(params, lr=settings.lr, weight_decay=0.0)
    ref_model = None
    if settings.beta > 0 and not hasattr(model, "disable_adapter"):
        ref_model = copy.deepcopy(model).eval().requires_grad_(False)
    history = []
    from tqdm import tqdm

    for it in tqdm(range(1, settings.iterations + 1), desc="grpo", disable=not progress):
        specs = collector.specs(settings.groups_per_iter * settings.group_size,
                                settings.group_size)
        episodes = collector.collect(specs=specs)
        rewards = [e.total_reward for e in episodes]
        adv, keep = group_advantages(rewards, [e.group_id for e in episodes],
                                     scale_by_std=settings.scale_by_std)
        no_signal = not keep.any()  # every advantage is 0: no update at all (keep stays 0)
        if no_signal:
            warnings.warn(no_signal_message(it, rewards), NoSignalWarning, stacklevel=2)
        elif not settings.drop_flat_groups:
            keep[:] = True
        kept = [e for e, k in zip(episodes, keep, strict=True) if k]
        samples = episode_samples(kept, adv[keep].tolist())
        stats: dict[str, list[float]] = {"loss": [], "clip_frac": [], "kl": [], "ratio": []}
        model.train()
        for _ in range(settings.epochs):
            for batch in _minibatches(samples, settings.minibatch_size, rng):
                loss, st = _update(policy, batch, settings, ref_model)
                optim.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(params, settings.max_grad_norm)
                optim.step()
                stats["loss"].append(loss.item())
                for key, value in st.items():
                    stats[key].append(value)
        model.eval()
        metrics: dict[str, float] = {
            "iteration": it, "reward_mean": float(np.mean(rewards)),
            "success_rate": float(np.mean([e.success for e in episodes])),
            "episode_len": float(np.mean([len(e) for e in episodes])),
            "groups_kept": int(len({e.group_id for e in kept})), "samples": len(samples),
            "no_signal": int(no_signal),
            **{k: float(np.mean(v)) if v else 0.0 for k, v in stats.items()},
        }
        history.append(metrics)
        if callback is not None:
            callback(it, metrics)
    return history


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


def _update(policy: VLMPolicy, batch: list[TrainSample], settings: GRPOSettings,
            ref_model: Any) -> tuple[torch.Tensor, dict[str, float]]:
    logp, mask = policy.sequence_logprobs(batch, temperature=policy.temperature)
    width = logp.shape[1]
    old = _pad([s.old_logprobs or [] for s in batch], width).to(logp.device)
    adv = torch.tensor([s.advantage for s in batch], dtype=torch.float32, device=logp.device)
    ref = None
    if settings.beta > 0:
        with torch.no_grad():
            if ref_model is None:  # LoRA: the base model is the reference
                with policy.model.disable_adapter():
                    ref, _ = policy.sequence_logprobs(batch, policy.temperature)
            else:
                ref, _ = policy.sequence_logprobs(batch, policy.temperature, model=ref_model)
    return grpo_loss(logp, old, adv, mask, clip_low=settings.clip_low,
                     clip_high=settings.clip_high, ref_logp=ref, beta=settings.beta,
                     aggregation=settings.aggregation)
