"""PhoneWorld throughput: prints one JSON line of figures, measured in one process.

- ``random_sps``: steps/s with 540 x 1200 screenshots under a random-action policy
- ``oracle_sps``: the same under the oracle policy (the screen changes almost every step)
- ``no_render_sps``: steps/s with the screenshot left out of the observation
- ``baseline_oracle_sps``: the oracle run again with the renderer's tile cache disabled
  (every widget drawn with Pillow anew each frame): the baseline the cache is measured against
- ``reset_ms``: mean reset time; ``mem_per_env_mb``: memory per env (tracemalloc)

``--against REV`` measures this tree and the commit ``REV`` (checked out in a temporary git
worktree) in one run, alternating ``--repeats`` times on the task ids both have, and prints
the medians of both and their ratios (``current / against``; above 1 is faster for steps/s).

Usage: ``python benchmarks/throughput.py [--steps N] [--warmup N] [--baseline-steps N]
[--against REV [--repeats N]]`` (small values make a quick smoke run; the figures then mean
little).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: The measurement, run in whichever tree is on ``sys.path`` (it uses only the env API that
#: every version of phone-gym has): reads its settings as JSON from argv, prints figures.
MEASURE = r'''
import json, sys, time, tracemalloc
from phone_gym.envs import PhoneWorldEnv
from phone_gym.mockapps import TEMPLATES

cfg = json.loads(sys.argv[1])
tasks = [t for t in (cfg.get("tasks") or list(TEMPLATES)) if t in TEMPLATES]

def make(**kw):
    return PhoneWorldEnv(task=tasks, **kw)

def run(env, steps, policy, seed=0):
    env.reset(seed=seed)
    env.action_space.seed(seed)
    start = time.perf_counter()
    for _ in range(steps):
        action = env.action_space.sample() if policy == "random" else env.oracle_action()
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.reset()
    return steps / (time.perf_counter() - start)

def reset_ms(env, n=300):
    start = time.perf_counter()
    for i in range(n):
        env.reset(seed=i)
    return (time.perf_counter() - start) / n * 1e3

def mem_per_env_mb(n=8):
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    envs = [make() for _ in range(n)]
    for i, env in enumerate(envs):
        env.reset(seed=i)
        for _ in range(20):
            if env.step(env.oracle_action())[2:4] != (False, False):
                env.reset()
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return used / n / 2**20

env = make()
run(env, cfg["warmup"], "oracle")  # warm the tile cache, as a long training run would
figures = {
    "random_sps": round(run(env, cfg["steps"], "random"), 1),
    "oracle_sps": round(run(env, cfg["steps"], "oracle"), 1),
    "no_render_sps": round(run(make(screenshot=False), cfg["steps"], "oracle"), 1),
    "reset_ms": round(reset_ms(env), 3),
    "mem_per_env_mb": round(mem_per_env_mb(), 2),
}
baseline = make()
baseline.renderer.cache_tiles = False
figures["baseline_oracle_sps"] = round(run(baseline, cfg["baseline_steps"], "oracle"), 1)
figures["templates"] = len(tasks)
print(json.dumps(figures))
'''
HIGHER_IS_BETTER = ("random_sps", "oracle_sps", "no_render_sps", "baseline_oracle_sps")


def measure(tree: Path, cfg: dict[str, Any]) -> dict[str, Any]:
    """The figures of the phone-gym in ``tree``, in a fresh interpreter."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PHONE_GYM_NO_PLUGINS": "1"}
    proc = subprocess.run([sys.executable, "-c", MEASURE, json.dumps(cfg)], cwd=tree, env=env,
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"the benchmark failed in {tree}:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def task_ids(tree: Path) -> set[str]:
    code = ("import json; from phone_gym.mockapps import TEMPLATES; "
            "print(json.dumps(list(TEMPLATES)))")
    env = {**os.environ, "PYTHONPATH": str(tree), "PHONE_GYM_NO_PLUGINS": "1"}
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True,
                         text=True, check=True).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


def against(rev: str, cfg: dict[str, Any], repeats: int) -> dict[str, Any]:
    """Both trees measured alternately ``repeats`` times on their common tasks: medians."""
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(other), rev],
                       check=True, capture_output=True)
        try:
            common = sorted(task_ids(ROOT) & task_ids(other))
            cfg = {**cfg, "tasks": common}
            runs: dict[str, list[dict[str, Any]]] = {"current": [], "against": []}
            for _ in range(repeats):
                runs["current"].append(measure(ROOT, cfg))
                runs["against"].append(measure(other, cfg))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(other)], check=False, capture_output=True)
    medians = {side: {k: statistics.median(r[k] for r in rs) for k in rs[0]}
               for side, rs in runs.items()}
    ratio = {k: round(medians["current"][k] / medians["against"][k], 3)
             for k in medians["current"] if medians["against"].get(k)}
    return {**medians, "ratio": ratio, "rev": rev, "tasks": len(common), "repeats": repeats,
            "higher_is_better": list(HIGHER_IS_BETTER)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=3000, help="steps per measured policy")
    parser.add_argument("--warmup", type=int, default=300,
                        help="oracle steps run first to warm the tile cache (default 300)")
    parser.add_argument("--baseline-steps", type=int, default=None,
                        help="steps of the uncached baseline (default max(300, steps / 5))")
    parser.add_argument("--against", default=None, metavar="REV",
                        help="also measure this git commit, alternating, and compare")
    parser.add_argument("--repeats", type=int, default=3,
                        help="alternating runs of each tree with --against (default 3)")
    args = parser.parse_args()
    if args.steps < 1 or args.warmup < 0 or args.repeats < 1 or (
            args.baseline_steps is not None and args.baseline_steps < 1):
        parser.error("--steps, --repeats and --baseline-steps must be >= 1, --warmup >= 0")
    cfg = {"steps": args.steps, "warmup": args.warmup,
           "baseline_steps": (args.baseline_steps if args.baseline_steps is not None
                              else max(300, args.steps // 5))}
    if args.against:
        figures = against(args.against, cfg, args.repeats)
    else:
        figures = measure(ROOT, cfg)
    figures.update(obs_size="540x1200", steps=args.steps, python=platform.python_version())
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
