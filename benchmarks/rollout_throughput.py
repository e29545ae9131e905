"""Rollout throughput with a VLM in the loop: prints one JSON line of figures.

The tiny random Qwen2.5-VL (``phone_gym.trainer.tiny``, 64 x 128 input images) acts with
sampling on ``B`` PhoneWorld envs (540 x 1200 screenshots, all tasks) through the
``Collector``, for ``B`` in ``--batches`` (default 1, 4, 16). For each batch size:

- ``b{B}_steps_per_s``: env steps per second (one step = one generation + one env step)
- ``b{B}_env_share``: share of the time spent in the envs (reset, step, render), the rest
  being the policy (prompt building, image processing, generation)

Usage: ``python benchmarks/rollout_throughput.py [--steps N] [--max-new-tokens N]``
(small values make a quick smoke run; the figures then mean little).
"""

from __future__ import annotations

import argparse
import json
import platform
import time

import torch

from phone_gym.envs import PhoneWorldEnv
from phone_gym.trainer.rollout import Collector
from phone_gym.trainer.tiny import build_tiny_vlm
from phone_gym.trainer.vlm import VLMPolicy


def measure(policy: VLMPolicy, batch: int, steps: int, obs_size: tuple[int, int],
            max_steps: int) -> dict[str, float]:
    """Steps/s and env share of ``batch`` envs until at least ``steps`` steps ran."""
    envs = [PhoneWorldEnv(obs_size=obs_size, max_steps=max_steps) for _ in range(batch)]
    collector = Collector(envs, policy, keep_frames=False, seed=0)
    collector.collect(batch)  # warm up: tile cache, first generation
    collector.timings = {"env_s": 0.0, "policy_s": 0.0, "steps": 0}
    start = time.perf_counter()
    while collector.timings["steps"] < steps:
        collector.collect(batch)
    wall = time.perf_counter() - start
    t = collector.timings
    return {"steps_per_s": round(t["steps"] / wall, 1),
            "env_share": round(t["env_s"] / (t["env_s"] + t["policy_s"]), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=400, help="steps per batch size")
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--max-new-tokens", type=int, default=24)
    parser.add_argument("--episode-steps", type=int, default=8,
                        help="step budget of each episode (default 8)")
    parser.add_argument("--size", type=int, nargs=2, default=(540, 1200), metavar=("W", "H"))
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    args = parser.parse_args()
    if args.steps < 1 or any(b < 1 for b in args.batches):
        parser.error("--steps and --batches must be >= 1")
    torch.set_num_threads(args.threads)
    model, processor = build_tiny_vlm()
    policy = VLMPolicy(model, processor, image_size=(64, 128),
                       max_new_tokens=args.max_new_tokens, batch_size=max(args.batches))
    figures: dict[str, object] = {}
    for batch in args.batches:
        result = measure(policy, batch, args.steps, tuple(args.size), args.episode_steps)
        figures[f"b{batch}_steps_per_s"] = result["steps_per_s"]
        figures[f"b{batch}_env_share"] = result["env_share"]
    figures.update(steps=args.steps, max_new_tokens=args.max_new_tokens,
                   size=list(args.size), threads=args.threads,
                   params=sum(p.numel() for p in model.parameters()),
                   python=platform.python_version(), torch=torch.__version__)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
