"""GPU check of the GRPO trainer (issue 12): a short GRPO run that prints the three figures a
GPU run gets wrong silently, each with the range it should reach.

1. The weight-change fraction after one update: the share of the non-embedding trainable
   weights that one optimizer step changed (full fine-tuning). With fp32 master weights
   nearly all move; bf16 weights stepped without them moved 2.4 % (lr 1e-6) to 15.9 %
   (lr 1e-5) on the tiny model (issue 12).
2. The log-prob mismatch between the rollout (generate, KV cache, rollout batching) and the
   training forward pass, per token: ``logprob_mismatch_mean``/``_max`` of ``train_grpo``.
3. The mean reward over iterations on PhoneWorld's ClockDisableAlarm, which should rise.
   A checkpoint is scored by the task's reward minus 0.01 per character of the answer (so
   every group has signal, even for a model that never solves the task). The tiny model
   first gets a warm start like the one ``tests/trainer`` uses (SFT on oracle episodes, the
   weights after a quarter of 400 cosine steps, where the tests take 80: it solves the task
   sometimes) and then the task's reward
   alone on seeds 4 and 7, the recipe of ``test_grpo_raises_the_mean_reward_on_a_sparse_task``.

NOT YET RUN on a GPU: the expected ranges are those of CPU runs and of the measurements in
issue 12, not figures measured on CUDA. Replace this paragraph with the measured figures
once it has run. On a CPU (2 shared cores), ``--tiny --device cpu --dtype float32`` took
about a minute: weight-change fraction 1.0, mismatch mean 5e-8 and max 2e-6 per token,
reward 0.27 at the first iteration and 0.72-0.80 over the last four; ``--dtype bfloat16``
(without the warm start) gave a mismatch mean of 7e-5 and a max of 2e-3.

    python scripts/gpu_check.py --random-init          # Qwen2.5-VL-3B's size, no weights
    python scripts/gpu_check.py --model /models/qwen2.5-vl-3b
    python scripts/gpu_check.py --tiny                 # the tiny model in bf16 on cuda
    python scripts/gpu_check.py --dry-run              # tiny, fp32, CPU, one iteration

A model it cannot load (no network, no folder) is a one-line error and exit status 2; it
does not fall back to another model. Exit status 0 when every figure is in its range, 1
otherwise.

``--random-init`` (no weights, no network): a randomly initialised model of the real
architecture and size, built on the device from a config (default
``examples/configs/models/qwen2.5-vl-3b``, Qwen2.5-VL-3B-Instruct's published config.json),
fed synthetic batches of the real shape (a 540 x 1200 screenshot: 860 image tokens, 600
prompt tokens, 64 generated). It prints, and checks against ranges: the peak GPU memory of a
training step (AdamW on float32 master weights, bf16 autocast, the trainer's precision.py)
beside ``phone-gym train estimate``'s figure for it, the step's and generate's throughput in
tokens per second, the weight-change fraction of one step at lr 1e-6, the log-prob gap
between generate's own logits and the training forward pass (``logits_to_keep``, as
``VLMPolicy.sequence_logprobs``), and between the bf16 and float32 forward passes. It ends
with one JSON line of the figures. Designed for one H100 within 8 minutes (about 1 minute
expected). NOT YET RUN on a GPU; the ranges below are expectations, not measurements:
peak memory 35-75 GiB with gradient checkpointing (estimate: 57 GiB for the full
fine-tune at micro-batch 1), training 2,000-40,000 tokens/s, generate 100-5,000 new
tokens/s (batch 8), weight-change fraction 0.9-1.0, rollout-vs-training gap mean
below 2e-2 and max below 0.5 nats per token, bf16-vs-fp32 gap mean below 5e-2.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

QWEN = "Qwen/Qwen2.5-VL-3B-Instruct"
MODELS = Path(__file__).resolve().parents[1] / "examples" / "configs" / "models"
GIB = 1024**3
TASK = "ClockDisableAlarm"
#: the shaping that gives every group a reward signal: minus this per answer character
BREVITY = 0.01


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default=QWEN,
                        help=f"checkpoint folder or hub id (default {QWEN}); one that cannot "
                             "be loaded is an error (exit status 2)")
    parser.add_argument("--random-init", action="store_true",
                        help="a randomly initialised model of --config's architecture and size "
                             "(no weights): memory, throughput, bf16 and log-prob agreement")
    parser.add_argument("--config", default=str(MODELS / "qwen2.5-vl-3b"), metavar="DIR",
                        help="with --random-init: a folder with the model's config.json "
                             "(default examples/configs/models/qwen2.5-vl-3b)")
    parser.add_argument("--batch", type=int, default=8,
                        help="with --random-init: sequences generated at once (default 8); "
                             "the training step takes --micro-batch of them")
    parser.add_argument("--micro-batch", type=int, default=1,
                        help="with --random-init: sequences per training step (default 1)")
    parser.add_argument("--no-gradient-checkpointing", action="store_true",
                        help="with --random-init: train without gradient checkpointing")
    parser.add_argument("--image-size", type=int, nargs=2, default=[540, 1200],
                        metavar=("W", "H"), help="with --random-init: screenshot size "
                                                 "(default 540 1200)")
    parser.add_argument("--prompt-tokens", type=int, default=600,
                        help="with --random-init: text tokens a prompt (default 600)")
    parser.add_argument("--new-tokens", type=int, default=64,
                        help="with --random-init: tokens generated (default 64)")
    parser.add_argument("--tiny", action="store_true", help="use the tiny local model")
    parser.add_argument("--device", default="cuda", help="torch device (default cuda)")
    parser.add_argument("--dtype", default="bfloat16",
                        help="model dtype: bfloat16 (default), float16 or float32")
    parser.add_argument("--iterations", type=int, default=10, help="GRPO iterations (10)")
    parser.add_argument("--lr", type=float, default=None,
                        help="learning rate (default: 1e-6, TRL's full fine-tuning default; "
                             "3e-4 for the tiny model)")
    parser.add_argument("--sft-steps", type=int, default=400,
                        help="the tiny model's SFT warm start: steps of cosine decay, of "
                             "which the first quarter is kept (default 400; 0: none)")
    parser.add_argument("--dry-run", action="store_true",
                        help="the tiny model in fp32 on the CPU for one iteration (checks "
                             "that the script runs; no GPU figures)")
    args = parser.parse_args(argv)
    if args.dry_run:
        args.tiny, args.device, args.dtype, args.iterations = True, "cpu", "float32", 1
        args.sft_steps = 0
    if args.iterations < 1:
        parser.error("--iterations must be at least 1")
    if min(args.batch, args.micro_batch, args.new_tokens, *args.image_size) < 1:
        parser.error("--batch, --micro-batch, --new-tokens and --image-size must be >= 1")
    if args.micro_batch > args.batch:
        parser.error("--micro-batch must be at most --batch")
    if args.dtype not in ("bfloat16", "float16", "float32"):
        parser.error(f"--dtype {args.dtype}: accepted: bfloat16, float16, float32")
    return args


def load(args: argparse.Namespace) -> tuple[Any, Any, bool]:
    """``(model, processor, tiny)`` on ``args.device`` in ``args.dtype``."""
    import torch

    from phone_gym.trainer import build_tiny_vlm, load_vlm

    dtype = getattr(torch, args.dtype)
    if not args.tiny:
        try:
            model, processor = load_vlm(args.model, dtype=dtype, device=args.device)
            return model, processor, False
        except Exception as exc:  # no network, no folder: say so and stop
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            raise CannotLoad(
                f"cannot load {args.model} ({type(exc).__name__}: {first[:200]}): give a "
                "local checkpoint folder with --model, or run --random-init (no weights "
                "needed) or --tiny") from None
    model, processor = build_tiny_vlm(image_size=(64, 128))
    return model.to(device=args.device, dtype=dtype), processor, True


class CannotLoad(RuntimeError):
    """The model asked for cannot be loaded (the message says what to do instead)."""


def make_env(obs_size: tuple[int, int], brevity: float) -> Any:
    """ClockDisableAlarm (ending at success or after 2 steps) with ``brevity`` per answer
    character taken off its reward."""
    import gymnasium as gym

    from phone_gym.envs import PhoneWorldEnv

    class Brevity(gym.Wrapper):  # type: ignore[type-arg]
        def step(self, action: Any) -> Any:
            obs, reward, terminated, truncated, info = self.env.step(action)
            shaped = float(reward) - brevity * len(str(action))
            return obs, shaped, terminated, truncated, info

    return Brevity(PhoneWorldEnv(task=TASK, obs_size=obs_size, end_on_success=True,
                                 max_steps=2))


def warm_start(policy: Any, obs_size: tuple[int, int], steps: int) -> None:
    """SFT on the oracle's episodes of seeds 0-7, keeping the weights after a quarter of
    ``steps`` cosine-decayed steps (lr 3e-3): tests/trainer/conftest.py's ``sft_run``."""
    import copy

    from phone_gym.envs import PhoneWorldEnv
    from phone_gym.trainer import Collector, OraclePolicy, sft_samples, train_sft
    from phone_gym.trainer.mixing import EpisodeSpec

    envs = [PhoneWorldEnv(task=TASK, obs_size=obs_size) for _ in range(4)]
    specs = [EpisodeSpec("env", seed, seed) for seed in range(8)]
    episodes = Collector(envs, OraclePolicy()).collect(specs=specs)
    kept: dict[str, Any] = {}

    def keep(step: int, metrics: dict[str, float]) -> None:
        if step == steps // 4:
            kept.update(copy.deepcopy(policy.model.state_dict()))

    sample, policy.do_sample = policy.do_sample, False
    train_sft(policy, sft_samples(episodes, policy), steps=steps, batch_size=8, lr=3e-3,
              schedule="cosine", seed=0, callback=keep)
    policy.model.load_state_dict(kept)
    policy.do_sample = sample


def changed_fraction(before: dict[str, Any], model: Any) -> float:
    """The share of the elements of ``before``'s weights that differ in ``model`` now."""
    changed = total = 0
    for name, param in model.named_parameters():
        if name in before:
            changed += int((param.detach() != before[name]).sum())
            total += param.numel()
    return changed / max(total, 1)


def check(name: str, value: float | None, low: float, high: float, note: str) -> bool:
    if value is None:
        print(f"  {name}: not measured ({note})")
        return True
    ok = low <= value <= high
    print(f"  {name}: {value:.3g}  expected {low:g} .. {high:g}  "
          f"{'ok' if ok else 'OUT OF RANGE'}  ({note})")
    return ok


def synthetic_batch(config: Any, batch: int, image_size: Sequence[int], prompt_tokens: int,
                    seed: int = 0) -> dict[str, Any]:
    """Model inputs of the real shape for a Qwen2-VL/2.5-VL config, without a processor:
    per row ``prompt_tokens`` random text tokens around one image's run of image pads
    (``<|vision_start|>``, pads, ``<|vision_end|>``), ``pixel_values`` of random normal
    patches in Qwen's layout (``image_grid_thw`` rows ``[1, gh, gw]``, patch size and
    merge size from the vision config; what ``Qwen2VLImageProcessor`` writes) and
    ``mm_token_type_ids`` marking the pads (``Qwen2_5_VLProcessor``)."""
    import torch

    vision = config.vision_config
    p, m = int(vision.patch_size), int(vision.spatial_merge_size)
    t = int(getattr(vision, "temporal_patch_size", 1))
    unit = p * m
    gw, gh = (math.ceil(int(v) / unit) * m for v in image_size)
    pads = gh * gw // m**2
    text = config.get_text_config()
    special = {int(config.image_token_id), int(config.vision_start_token_id),
               int(config.vision_end_token_id), int(config.video_token_id)}
    gen = torch.Generator().manual_seed(seed)
    rows = []
    for _ in range(batch):
        words = torch.randint(0, min(int(text.vocab_size), 150_000), (prompt_tokens,),
                              generator=gen)
        words = torch.where(torch.isin(words, torch.tensor(sorted(special))), 0, words)
        head, tail = words[: prompt_tokens // 2], words[prompt_tokens // 2:]
        image = torch.tensor([config.vision_start_token_id] + [config.image_token_id] * pads
                             + [config.vision_end_token_id])
        rows.append(torch.cat([head, image, tail]))
    ids = torch.stack(rows)
    return {"input_ids": ids, "attention_mask": torch.ones_like(ids),
            "mm_token_type_ids": (ids == config.image_token_id).long(),
            "pixel_values": torch.randn(batch * gh * gw, 3 * t * p * p, generator=gen),
            "image_grid_thw": torch.tensor([[1, gh, gw]] * batch)}


def completion_logprobs(model: Any, inputs: dict[str, Any], completion: Any,
                        autocast: Any) -> Any:
    """Log-probs of ``completion`` (B, C) after the prompt ``inputs``, from one forward pass
    that keeps the last C + 1 positions' logits: ``VLMPolicy.sequence_logprobs``'s way."""
    import torch

    c = completion.shape[1]
    full = dict(inputs)
    full["input_ids"] = torch.cat([inputs["input_ids"], completion], dim=1)
    full["attention_mask"] = torch.ones_like(full["input_ids"])
    full["mm_token_type_ids"] = torch.cat(
        [inputs["mm_token_type_ids"], torch.zeros_like(completion)], dim=1)
    with autocast:
        out = model(**full, use_cache=False, logits_to_keep=c + 1)
    logits = out.logits[:, -(c + 1):-1].float()
    return torch.log_softmax(logits, -1).gather(-1, completion.unsqueeze(-1)).squeeze(-1)


def random_init_check(args: argparse.Namespace) -> int:
    """The ``--random-init`` figures (module docstring); exit status 0 if all in range."""
    import contextlib

    import torch
    from transformers import AutoConfig, AutoModelForImageTextToText

    from phone_gym.trainer.estimate import estimate
    from phone_gym.trainer.precision import Precision, master_weights

    if not (Path(args.config) / "config.json").is_file():
        raise CannotLoad(f"no config.json in {args.config}: give a folder holding the model's "
                         "config.json (e.g. examples/configs/models/qwen2.5-vl-3b)")
    device = torch.device(args.device)
    cuda = device.type == "cuda"
    if cuda and not torch.cuda.is_available():
        raise CannotLoad("--device cuda but torch sees no GPU: run on a GPU machine, or pass "
                         "--device cpu (with a small --config)")
    dtype = getattr(torch, args.dtype)
    config = AutoConfig.from_pretrained(args.config, local_files_only=True)
    torch.manual_seed(0)
    start = time.perf_counter()
    with device:
        model = AutoModelForImageTextToText.from_config(config, dtype=dtype)
    model.generation_config.pad_token_id = config.get_text_config().eos_token_id
    params = sum(p.numel() for p in model.parameters())
    figures: dict[str, Any] = {"config": str(args.config), "architecture": type(model).__name__,
                               "params": params, "device": str(device), "dtype": args.dtype,
                               "build_s": round(time.perf_counter() - start, 2)}
    print(f"model: {figures['architecture']}, {params / 1e9:.3f} B parameters, random init in "
          f"{args.dtype} on {device} ({figures['build_s']} s)", flush=True)
    precision = Precision.of(model)
    autocast = precision.autocast(device.type)
    inputs = synthetic_batch(config, args.batch, args.image_size, args.prompt_tokens)
    inputs = {k: v.to(device) for k, v in inputs.items()}
    figures["prompt_tokens_total"] = int(inputs["input_ids"].shape[1])

    def sync() -> None:
        if cuda:
            torch.cuda.synchronize(device)

    # rollout: sample --new-tokens tokens (no early stop), keeping generate's logits
    model.eval()
    sync()
    start = time.perf_counter()
    with torch.no_grad(), autocast:
        out = model.generate(**inputs, do_sample=True, temperature=1.0, top_k=0, top_p=1.0,
                             max_new_tokens=args.new_tokens, min_new_tokens=args.new_tokens,
                             output_logits=True, return_dict_in_generate=True)
    sync()
    seconds = time.perf_counter() - start
    completion = out.sequences[:, inputs["input_ids"].shape[1]:]
    figures["generate_tokens_per_s"] = round(completion.numel() / seconds, 1)
    rollout = torch.stack([torch.log_softmax(step.float(), -1) for step in out.logits], 1)
    rollout = rollout.gather(-1, completion.unsqueeze(-1)).squeeze(-1)
    with torch.no_grad():
        train = completion_logprobs(model, inputs, completion, autocast)
        fp32 = completion_logprobs(model.float(), inputs, completion, contextlib.nullcontext())
    model.to(dtype)
    gap = (rollout - train).abs()
    figures["logprob_mismatch_mean"] = float(gap.mean())
    figures["logprob_mismatch_max"] = float(gap.max())
    figures["bf16_vs_fp32_mean"] = float((train - fp32).abs().mean())
    figures["bf16_vs_fp32_max"] = float((train - fp32).abs().max())
    del out, rollout, train, fp32

    # one training step on --micro-batch sequences: fp32 master weights, autocast compute
    model.train()
    if not args.no_gradient_checkpointing:
        # transformers 5 renames it activation_checkpointing_enable (the old name warns)
        enable = (getattr(model, "activation_checkpointing_enable", None)
                  or model.gradient_checkpointing_enable)
        enable()
        model.config.use_cache = False
    params_list = master_weights(model, precision)
    optim = torch.optim.AdamW(params_list, lr=1e-6, weight_decay=0.0)
    probe = {n: p.detach().clone() for n, p in model.named_parameters()
             if p.requires_grad and "embed" not in n and "lm_head" not in n and p.ndim == 2}
    probe = dict(list(probe.items())[:8])  # a sample of weight matrices (memory)
    mb = args.micro_batch
    n_patches = int(inputs["image_grid_thw"][0].prod())
    step_inputs = {k: v[:mb] for k, v in inputs.items() if k != "pixel_values"}
    step_inputs["pixel_values"] = inputs["pixel_values"][: mb * n_patches]
    if cuda:
        torch.cuda.reset_peak_memory_stats(device)
    sync()
    start = time.perf_counter()
    logp = completion_logprobs(model, step_inputs, completion[:mb], autocast)
    (-logp.mean()).backward()
    optim.step()
    sync()
    seconds = time.perf_counter() - start
    tokens = mb * (step_inputs["input_ids"].shape[1] + completion.shape[1])
    figures["train_tokens_per_s"] = round(tokens / seconds, 1)
    figures["train_step_s"] = round(seconds, 3)
    changed = sum(int((p.detach() != probe[n]).sum()) for n, p in model.named_parameters()
                  if n in probe)
    figures["weight_change_fraction"] = changed / max(sum(v.numel() for v in probe.values()), 1)
    est = estimate({"model": str(args.config), "dtype": args.dtype,
                    "image_size": list(args.image_size), "max_new_tokens": args.new_tokens,
                    "grpo": {"minibatch_size": mb}}, "grpo", prompt_tokens=args.prompt_tokens)
    row = next(r for r in est["rows"] if not r["lora"] and r["micro_batch"] == mb
               and r["gradient_checkpointing"] != args.no_gradient_checkpointing)
    figures["estimate_gib"] = round(row["total"] / GIB, 2)
    figures["peak_memory_gib"] = (round(torch.cuda.max_memory_allocated(device) / GIB, 2)
                                  if cuda else None)
    half = dtype != torch.float32
    print("figures (expected ranges NOT YET CONFIRMED on a GPU):")
    big = params > 1e9
    ok = all([
        check("peak memory of the training step, GiB", figures["peak_memory_gib"],
              0.5 * figures["estimate_gib"], 1.3 * figures["estimate_gib"],
              f"train estimate: {figures['estimate_gib']} GiB"
              if cuda else "CPU: not measured"),
        check("training tokens/s", figures["train_tokens_per_s"], 2000 if big and cuda else 1,
              float("inf"), f"{tokens} tokens in {figures['train_step_s']} s"),
        check("generate new tokens/s", figures["generate_tokens_per_s"],
              100 if big and cuda else 1, float("inf"), f"batch {args.batch}"),
        check("weight-change fraction after one step at lr 1e-6",
              figures["weight_change_fraction"], 0.9, 1.0, "fp32 master weights"),
        check("log-prob mismatch rollout vs training, mean", figures["logprob_mismatch_mean"],
              0.0, 2e-2 if half else 1e-4, "generate's logits vs one forward pass"),
        check("log-prob mismatch rollout vs training, max", figures["logprob_mismatch_max"],
              0.0, 0.5 if half else 1e-3, "per token"),
        check(f"log-prob gap {args.dtype} vs float32, mean", figures["bf16_vs_fp32_mean"], 0.0,
              5e-2 if half else 1e-4, "same tokens, same weights"),
    ])
    figures["ok"] = ok
    print(json.dumps(figures), flush=True)
    return 0 if ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        return random_init_check(args) if args.random_init else grpo_check(args)
    except CannotLoad as exc:
        print(f"gpu_check: {exc}", file=sys.stderr)
        return 2


def grpo_check(args: argparse.Namespace) -> int:
    """The GRPO run on ClockDisableAlarm (module docstring, figures 1-3)."""
    import torch
    from torch.optim.optimizer import register_optimizer_step_post_hook

    from phone_gym.trainer import Collector, EnvSource, GRPOSettings, MixedSampler, VLMPolicy
    from phone_gym.trainer.grpo import train_grpo

    torch.manual_seed(0)
    model, processor, tiny = load(args)
    dtype = next(model.parameters()).dtype
    print(f"model: {'tiny' if tiny else args.model}, loaded as {dtype} on {args.device}")
    obs_size = (135, 300) if tiny else (540, 1200)
    policy = VLMPolicy(model, processor, image_size=(64, 128) if tiny else None,
                       max_new_tokens=16 if tiny else 64, do_sample=True, temperature=1.0)
    warm = tiny and args.sft_steps >= 4
    if warm:
        print(f"SFT warm start: {args.sft_steps // 4} of {args.sft_steps} steps", flush=True)
        warm_start(policy, obs_size, args.sft_steps)
    source = EnvSource("clock", make_env,
                       {"obs_size": obs_size, "brevity": 0.0 if warm else BREVITY},
                       num_envs=16 if warm else 4, seeds=[4, 7] if warm else list(range(4)))
    collector = Collector(MixedSampler([source], seed=0), policy, keep_frames=False)
    lr = args.lr if args.lr is not None else (3e-4 if tiny else 1e-6)
    settings = GRPOSettings(iterations=args.iterations, groups_per_iter=4 if warm else 2,
                            group_size=16 if warm or not tiny else 4, lr=lr,
                            minibatch_size=16, seed=0)
    before = {n: p.detach().clone() for n, p in model.named_parameters()
              if p.requires_grad and "embed" not in n and "lm_head" not in n}
    fraction: list[float] = []

    def first_step(optimizer: Any, args: Any, kwargs: Any) -> None:  # after every step
        if not fraction:
            fraction.append(changed_fraction(before, model))
            before.clear()

    hook = register_optimizer_step_post_hook(first_step)

    def callback(it: int, metrics: dict[str, float]) -> None:
        print(f"iteration {it}: reward {metrics['reward_mean']:.3f}, mismatch mean "
              f"{metrics.get('logprob_mismatch_mean', float('nan')):.2e} max "
              f"{metrics.get('logprob_mismatch_max', float('nan')):.2e}, ratio "
              f"{metrics['ratio']:.4f}, samples {metrics['samples']}", flush=True)

    try:
        history = train_grpo(policy, collector, settings, callback=callback)
    finally:
        hook.remove()
    fp32 = dtype == torch.float32
    rewards = [h["reward_mean"] for h in history]
    third = max(len(rewards) // 3, 1)
    rise = (float(sum(rewards[-third:]) / third - sum(rewards[:third]) / third)
            if len(rewards) >= 3 else None)
    mismatch_mean = history[0].get("logprob_mismatch_mean")
    mismatch_max = history[0].get("logprob_mismatch_max")
    print("figures (expected ranges not yet confirmed on a GPU):")
    ok = all([
        check("weight-change fraction after one step", fraction[0] if fraction else None,
              0.9, 1.0, "fp32 master weights; bf16 without them: 0.02 .. 0.16"
              if fraction else "no update: no signal"),
        check("log-prob mismatch, mean per token", mismatch_mean, 0.0,
              1e-5 if fp32 else 2e-2, "rollout vs training forward; CPU bf16: ~1e-3"),
        check("log-prob mismatch, max per token", mismatch_max, 0.0,
              1e-4 if fp32 else 0.5, "rollout vs training forward"),
        check("reward rise, last third minus first third of iterations", rise, 1e-9,
              float("inf"), f"rewards {', '.join(f'{r:.3f}' for r in rewards)}"
              if rise is not None else "needs 3 iterations or more"),
    ])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
