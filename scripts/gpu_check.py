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

    python scripts/gpu_check.py                        # Qwen2.5-VL-3B-Instruct, bf16, cuda
    python scripts/gpu_check.py --model /models/qwen2.5-vl-3b
    python scripts/gpu_check.py --tiny                 # the tiny model in bf16 on cuda
    python scripts/gpu_check.py --dry-run              # tiny, fp32, CPU, one iteration

Without the checkpoint (no network on the machine, no local folder) it falls back to the tiny
model. Exit status 0 when every figure is in its range, 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

QWEN = "Qwen/Qwen2.5-VL-3B-Instruct"
TASK = "ClockDisableAlarm"
#: the shaping that gives every group a reward signal: minus this per answer character
BREVITY = 0.01


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default=QWEN,
                        help=f"checkpoint folder or hub id (default {QWEN}; the tiny model "
                             "if it cannot be loaded)")
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
        except Exception as exc:  # no network, no folder: the tiny model instead
            print(f"cannot load {args.model} ({type(exc).__name__}: {exc}); using the tiny "
                  "model")
    model, processor = build_tiny_vlm(image_size=(64, 128))
    return model.to(device=args.device, dtype=dtype), processor, True


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


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
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
