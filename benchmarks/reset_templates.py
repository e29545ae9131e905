"""The CPU time of each template's reset: prints the dearest templates, then one JSON line.

A warm-up env resets every template once (modules, tiles, per-process caches); then a fresh
env resets every template once per round, each with a seed not used before (seed caches
cold, as in a training run's random mix), in the registry's order. Per template: the median
and the max over the rounds, CPU ms (``time.process_time``). Run it in two trees (a
``git worktree`` of the commit before a change) to compare; the machine's load moves every
figure, so compare runs made one after the other and note ``cat /proc/loadavg``.

Usage: ``python benchmarks/reset_templates.py [--rounds N] [--top N] [--over MS]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from phone_gym.envs import PhoneWorldEnv
from phone_gym.mockapps import TEMPLATES


def measure(rounds: int) -> dict[str, list[float]]:
    """CPU ms of each template's resets, ``rounds`` of them, with fresh seeds."""
    tasks = list(TEMPLATES)
    warm = PhoneWorldEnv(task=tasks)
    for i, task in enumerate(tasks):
        warm.reset(seed=i, options={"task": task})
    env = PhoneWorldEnv(task=tasks)
    env.reset(seed=0)  # (a new env's first reset: its first frame's memory)
    out: dict[str, list[float]] = {task: [] for task in tasks}
    for r in range(rounds):
        for i, task in enumerate(tasks):
            start = time.process_time()
            env.reset(seed=100_000 * (r + 1) + i, options={"task": task})
            out[task].append((time.process_time() - start) * 1e3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="resets per template (default 3)")
    parser.add_argument("--top", type=int, default=20, help="dearest templates listed")
    parser.add_argument("--over", type=float, default=2.2,
                        help="count the templates whose max is over this many ms (default 2.2)")
    args = parser.parse_args()
    if args.rounds < 1 or args.top < 0 or args.over <= 0:
        parser.error("--rounds must be >= 1, --top >= 0 and --over > 0")
    times = measure(args.rounds)
    rows = sorted(((max(v), statistics.median(v), t) for t, v in times.items()), reverse=True)
    for top, median, task in rows[:args.top]:
        print(f"{task:48s} max {top:6.2f}  median {median:6.2f}")
    every = sorted(x for v in times.values() for x in v)
    print(json.dumps({
        "mean_ms": round(statistics.fmean(every), 3),
        "p95_ms": round(every[int(0.95 * len(every))], 3),
        "max_ms": round(every[-1], 3), "max_template": rows[0][2],
        f"templates_over_{args.over:g}_ms": sum(top > args.over for top, _, _ in rows),
        "templates": len(rows), "rounds": args.rounds}))


if __name__ == "__main__":
    main()
