"""Supervised fine-tuning on trajectories: the loss is on the model's own tokens only (the
answer and its end-of-turn token), never on the prompt; LoRA optional through peft."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from ..trajectory.records import Episode, StepRecord
from .checkpoint import Saver, accumulate, restore
from .prompts import Turn, assistant_text
from .vlm import TrainSample, VLMPolicy

#: Modules LoRA adapts by default (the attention projections of Qwen-style decoders).
LORA_TARGETS: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj")


@dataclass
class LoraSettings:
    """LoRA adapters through peft (kept in float32 by peft, whatever the base's dtype).

    ``dropout`` acts in training forwards only: rollouts run in eval mode, so with
    ``dropout > 0`` a GRPO update scores its samples with dropout the rollout did not have
    (TRL keeps its model in train mode for both; ``GRPOConfig.disable_dropout`` zeroes
    dropout in both, as the default ``dropout = 0.0`` does here)."""

    r: int = 16
    alpha: int = 32
    dropout: float = 0.0
    target_modules: list[str] = field(default_factory=lambda: list(LORA_TARGETS))


def apply_lora(policy: VLMPolicy, settings: LoraSettings) -> None:
    """Wrap ``policy.model`` with LoRA adapters: only they train from now on."""
    from peft import LoraConfig, get_peft_model

    config = LoraConfig(r=settings.r, lora_alpha=settings.alpha,
                        lora_dropout=settings.dropout,
                        target_modules=list(settings.target_modules))
    policy.model = get_peft_model(policy.model, config)


def turn_of(record: StepRecord) -> Turn:
    """How a step appears in the history of later prompts (as the collector builds it)."""
    return Turn(record.action or record.text[:200], record.action_error, record.frame)


def sft_samples(episodes: Sequence[Episode], policy: VLMPolicy,
                successful_only: bool = True, reasons: str = "none") -> list[TrainSample]:
    """Training pairs from episodes: a step with tokens (a model's rollout) is used as is
    (token-in/token-out); otherwise (oracle or recorded steps) the prompt is built by
    ``policy`` exactly as at inference and the answer is the step's text, after the
    step's reason (and step instruction) with ``reasons`` (``prompts.assistant_text``;
    give the policy the matching system prompt, ``prompts.system_prompt(reasons=...)``)."""
    samples = []
    for episode in episodes:
        if successful_only and not episode.success:
            continue
        history: list[Turn] = []
        for step in episode.steps:
            if step.prompt_ids is not None and step.gen_ids is not None:
                if len(step.images) != len(step.image_refs):
                    raise ValueError(
                        f"step {step.step} of episode {step.episode_id} has prompt tokens for "
                        f"{len(step.image_refs)} images but {len(step.images)} in memory "
                        "(load_episodes does not restore a rollout's prompt images): train on "
                        "the collected episodes, or set prompt_ids = None to rebuild prompts "
                        "from the frames")
                samples.append(TrainSample(step.prompt_ids, step.gen_ids, list(step.images)))
            else:
                if step.screenshot is not None and step.frame is None:
                    raise ValueError("a step has no frame: collect with keep_frames=True or "
                                     "load_episodes(..., frames=True)")
                obs: dict[str, Any] = {"instruction": step.instruction}
                if step.frame is not None:
                    obs["screenshot"] = step.frame
                ids, images = policy.prompt_ids(obs, {}, history)
                target = assistant_text(step.text, step.reason, step.step_instruction, reasons)
                samples.append(TrainSample(ids, policy.completion_ids(target), images))
            history.append(turn_of(step))
    return samples


def sft_loss(logp: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Mean negative log-likelihood over the completion tokens of the batch."""
    return -(logp * mask).sum() / mask.sum().clamp(min=1.0)


def batches(samples: Sequence[TrainSample], batch_size: int,
            rng: random.Random) -> Iterator[list[TrainSample]]:
    """Endless shuffled mini-batches."""
    order = list(range(len(samples)))
    size = min(batch_size, len(order))
    while True:
        rng.shuffle(order)
        for start in range(0, len(order) - size + 1, size):
            yield [samples[i] for i in order[start:start + size]]


def sft_micro_losses(policy: VLMPolicy, batch: Sequence[TrainSample],
                     micro_batch_size: int | None = None
                     ) -> Iterator[tuple[torch.Tensor, torch.Tensor, torch.Tensor]]:
    """``(loss, logp, mask)`` of each micro-batch of ``batch`` (``checkpoint.accumulate``):
    each loss is its tokens' negative log-likelihood summed and divided by the tokens of the
    whole batch, so the micro-batches' gradients add up to the whole batch's (as
    transformers' ``Trainer`` with ``num_items_in_batch``)."""
    tokens = float(sum(len(s.completion_ids) for s in batch)) or 1.0
    for micro in accumulate(list(batch), micro_batch_size):
        logp, mask = policy.sequence_logprobs(micro)
        yield -(logp * mask).sum() / tokens, logp, mask


def train_sft(policy: VLMPolicy, samples: Sequence[TrainSample], *, steps: int = 300,
              batch_size: int = 8, lr: float = 1e-3, weight_decay: float = 0.0,
              max_grad_norm: float = 1.0, schedule: str = "constant", seed: int = 0,
              callback: Callable[[int, dict[str, float]], None] | None = None,
              progress: bool = False, micro_batch_size: int | None = None,
              checkpoint_every: int = 0, save: Saver | None = None,
              resume: Mapping[str, Any] | None = None) -> list[dict[str, float]]:
    """``steps`` AdamW steps on ``samples`` (``schedule``: ``"constant"`` learning rate or
    ``"cosine"`` decay to zero); returns the metrics of each step and calls
    ``callback(step, metrics)`` after each (logging, checkpoints).

    ``micro_batch_size``: each batch of ``batch_size`` runs as micro-batches of this many
    samples whose gradients accumulate into one optimizer step (the same step, to rounding).
    Every ``checkpoint_every`` steps, ``save(step, state)`` gets the resume state (optimizer,
    scheduler, step; ``checkpoint.save_checkpoint`` adds the RNGs and weights); ``resume``
    (``checkpoint.load_checkpoint``) continues such a state: the batches it had drawn are
    drawn again and skipped, so the run goes on as if never stopped (returns the metrics of
    the steps after it only)."""
    if not samples:
        raise ValueError("no SFT samples (no successful episodes?)")
    if schedule not in ("constant", "cosine"):
        raise ValueError(f"schedule={schedule!r}; accepted: 'constant', 'cosine'")
    torch.manual_seed(seed)
    params = policy.trainable_parameters()  # float32 master weights (precision.py)
    optim = torch.optim.AdamW(params, lr=lr, weight_decay=weight_decay)
    cosine = schedule == "cosine"
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optim, lambda k: 0.5 + 0.5 * math.cos(math.pi * k / steps) if cosine else 1.0)
    policy.model.train()
    stream = batches(samples, batch_size, random.Random(seed))
    first = 1
    if resume is not None:
        first = int(resume["step"]) + 1
        for _ in range(int(resume["data_position"])):  # the batches drawn before the stop
            next(stream)
        restore(policy, resume, optim, scheduler)
    history = []
    bar = _bar(steps, progress, "sft")
    bar.update(first - 1)
    for step in range(first, steps + 1):
        batch = next(stream)
        optim.zero_grad()
        total = prob_sum = 0.0
        for loss, logp, mask in sft_micro_losses(policy, batch, micro_batch_size):
            loss.backward()
            total += loss.item()
            with torch.no_grad():
                prob_sum += float((logp.exp() * mask).sum())
        norm = torch.nn.utils.clip_grad_norm_(params, max_grad_norm)
        optim.step()
        scheduler.step()
        tokens = sum(len(s.completion_ids) for s in batch) or 1
        metrics = {"step": step, "loss": total, "token_prob": prob_sum / tokens,
                   "grad_norm": float(norm)}
        history.append(metrics)
        if save is not None and checkpoint_every and step % checkpoint_every == 0:
            save(step, {"kind": "sft", "step": step, "data_position": step,
                        "optimizer": optim.state_dict(), "scheduler": scheduler.state_dict()})
        if callback is not None:
            callback(step, metrics)
        bar.update(1)
        bar.set_postfix(loss=f"{metrics['loss']:.3f}")
    bar.close()
    policy.model.eval()
    return history


def _bar(total: int, enabled: bool, desc: str) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, disable=not enabled)
