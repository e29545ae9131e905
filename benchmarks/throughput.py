"""PhoneWorld throughput: prints one JSON line of figures, measured in one process.

- ``random_sps``: steps/s with 540 x 1200 screenshots under a random-action policy
- ``oracle_sps``: the same under the oracle policy (the screen changes almost every step)
- ``no_render_sps``: steps/s with the screenshot left out of the observation
- ``baseline_oracle_sps``: the oracle run again with the renderer's tile cache disabled
  (every widget drawn with Pillow anew each frame): the baseline the cache is measured against
- ``reset_ms``: mean reset time; ``mem_per_env_mb``: memory per env (tracemalloc)

Usage: ``python benchmarks/throughput.py [--steps N] [--warmup N] [--baseline-steps N]``
(small values make a quick smoke run; the figures then mean little).
"""

from __future__ import annotations

import argparse
import json
import platform
import time
import tracemalloc
from typing import Any

from phone_gym.envs import PhoneWorldEnv


def run(env: PhoneWorldEnv, steps: int, policy: str, seed: int = 0) -> float:
    """Steps per second of ``policy`` (random or oracle), resetting when episodes end."""
    env.reset(seed=seed)
    env.action_space.seed(seed)
    start = time.perf_counter()
    for _ in range(steps):
        action: Any = (env.action_space.sample() if policy == "random"
                       else env.oracle_action())
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.reset()
    return steps / (time.perf_counter() - start)


def reset_ms(env: PhoneWorldEnv, n: int = 300) -> float:
    start = time.perf_counter()
    for i in range(n):
        env.reset(seed=i)
    return (time.perf_counter() - start) / n * 1e3


def mem_per_env_mb(n: int = 8) -> float:
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    envs = [PhoneWorldEnv() for _ in range(n)]
    for i, env in enumerate(envs):
        env.reset(seed=i)
        for _ in range(20):
            env.step(env.oracle_action())
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del envs
    return used / n / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=3000, help="steps per measured policy")
    parser.add_argument("--warmup", type=int, default=300,
                        help="oracle steps run first to warm the tile cache (default 300)")
    parser.add_argument("--baseline-steps", type=int, default=None,
                        help="steps of the uncached baseline (default max(300, steps / 5))")
    args = parser.parse_args()
    if args.steps < 1 or args.warmup < 0 or (args.baseline_steps is not None
                                             and args.baseline_steps < 1):
        parser.error("--steps and --baseline-steps must be >= 1, --warmup >= 0")
    baseline_steps = (args.baseline_steps if args.baseline_steps is not None
                      else max(300, args.steps // 5))
    env = PhoneWorldEnv()
    run(env, args.warmup, "oracle")  # warm the tile cache, as a long training run would
    figures = {
        "random_sps": round(run(env, args.steps, "random"), 1),
        "oracle_sps": round(run(env, args.steps, "oracle"), 1),
        "no_render_sps": round(run(PhoneWorldEnv(screenshot=False), args.steps, "oracle"), 1),
        "reset_ms": round(reset_ms(env), 3),
        "mem_per_env_mb": round(mem_per_env_mb(), 2),
    }
    baseline = PhoneWorldEnv()
    baseline.renderer.cache_tiles = False
    figures["baseline_oracle_sps"] = round(run(baseline, baseline_steps, "oracle"), 1)
    figures.update(obs_size="540x1200", steps=args.steps, python=platform.python_version(),
                   templates=len(env.templates))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
