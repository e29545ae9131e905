"""PhoneWorld throughput: prints one JSON line of figures, measured in one process.

- ``random_sps``: steps/s with 540 x 1200 screenshots under a random-action policy
- ``oracle_sps``: the same under the oracle policy (the screen changes almost every step)
- ``no_render_sps``: steps/s with the screenshot left out of the observation
- ``baseline_oracle_sps``: the oracle run again with the renderer's tile cache disabled
  (every widget drawn with Pillow anew each frame): the baseline the cache is measured against
- ``*_cpu_ms``: CPU (process) time per step of each of the above, in ms: the figure to
  compare on a loaded machine
- ``first28_*``: the same three over the first 28 templates only (the turn-2 mix); the others
  are over every template
- ``reset_ms``, ``reset_p95_ms``, ``reset_max_ms`` (and ``reset_max_template``): CPU time of a
  reset; ``mem_per_env_mb``: memory per env (tracemalloc)

``--against REV`` measures this tree and the commit ``REV`` (checked out in a temporary git
worktree) in one run, alternating ``--repeats`` times on the task ids both have, and prints
the medians of both and their ratios (``current / against``; above 1 is faster for steps/s,
below 1 cheaper for CPU ms).

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
first = [t for t in (cfg.get("first") or list(TEMPLATES)[:28]) if t in TEMPLATES]

def make(mix=None, **kw):
    return PhoneWorldEnv(task=mix or tasks, **kw)

def run(env, steps, policy, seed=0):
    # steps/s (wall) and CPU ms per step (process time: what a loaded machine inflates least)
    env.reset(seed=seed)
    env.action_space.seed(seed)
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        action = env.action_space.sample() if policy == "random" else env.oracle_action()
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.reset()
    cpu = (time.process_time() - cpu) / steps * 1e3
    return steps / (time.perf_counter() - start), cpu

def resets(env, n=300):
    # CPU ms of each reset, with its template
    out = []
    for i in range(n):
        start = time.process_time()
        env.reset(seed=i)
        out.append(((time.process_time() - start) * 1e3, env.unwrapped.episode.template.id))
    return out

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

figures = {}
for prefix, mix in (("", tasks), ("first28_", first)):
    env = make(mix)
    run(env, cfg["warmup"], "oracle")  # warm the tile cache, as a long training run would
    for name, policy, kw in (("random", "random", {}), ("oracle", "oracle", {}),
                             ("no_render", "oracle", {"screenshot": False})):
        sps, cpu = run(env if not kw else make(mix, **kw), cfg["steps"], policy)
        figures[f"{prefix}{name}_sps"] = round(sps, 1)
        figures[f"{prefix}{name}_cpu_ms"] = round(cpu, 4)
times = resets(make())
ms = sorted(t for t, _ in times)
figures.update(reset_ms=round(sum(ms) / len(ms), 3), reset_p95_ms=round(ms[int(0.95 * len(ms))], 3),
               reset_max_ms=round(ms[-1], 3), reset_max_template=max(times)[1],
               mem_per_env_mb=round(mem_per_env_mb(), 2))
baseline = make()
baseline.renderer.cache_tiles = False
figures["baseline_oracle_sps"] = round(run(baseline, cfg["baseline_steps"], "oracle")[0], 1)
figures["templates"] = len(tasks)
figures["first_templates"] = len(first)
print(json.dumps(figures))
'''
HIGHER_IS_BETTER = ("random_sps", "oracle_sps", "no_render_sps", "first28_random_sps",
                    "first28_oracle_sps", "first28_no_render_sps", "baseline_oracle_sps")


def measure(tree: Path, cfg: dict[str, Any]) -> dict[str, Any]:
    """The figures of the phone-gym in ``tree``, in a fresh interpreter."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PHONE_GYM_NO_PLUGINS": "1"}
    proc = subprocess.run([sys.executable, "-c", MEASURE, json.dumps(cfg)], cwd=tree, env=env,
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"the benchmark failed in {tree}:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def task_ids(tree: Path) -> list[str]:
    code = ("import json; from phone_gym.mockapps import TEMPLATES; "
            "print(json.dumps(list(TEMPLATES)))")
    env = {**os.environ, "PYTHONPATH": str(tree), "PHONE_GYM_NO_PLUGINS": "1"}
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True,
                         text=True, check=True).stdout
    return list(json.loads(out.strip().splitlines()[-1]))


def against(rev: str, cfg: dict[str, Any], repeats: int) -> dict[str, Any]:
    """Both trees measured alternately ``repeats`` times on their common tasks: medians."""
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(other), rev],
                       check=True, capture_output=True)
        try:
            theirs = task_ids(other)
            common = [t for t in task_ids(ROOT) if t in theirs]  # in this tree's order
            cfg = {**cfg, "tasks": common, "first": common[:28]}
            runs: dict[str, list[dict[str, Any]]] = {"current": [], "against": []}
            for _ in range(repeats):
                runs["current"].append(measure(ROOT, cfg))
                runs["against"].append(measure(other, cfg))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(other)], check=False, capture_output=True)
    medians = {side: {k: (statistics.median(r[k] for r in rs)
                          if isinstance(rs[0][k], (int, float)) else rs[-1][k]) for k in rs[0]}
               for side, rs in runs.items()}
    ratio = {k: round(medians["current"][k] / medians["against"][k], 3)
             for k, v in medians["current"].items()
             if isinstance(v, (int, float)) and medians["against"].get(k)}
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
    figures.update(obs_size="540x1200", steps=args.steps, python=platform.python_version(),
                   loadavg=Path("/proc/loadavg").read_text().split()[:3]
                   if Path("/proc/loadavg").exists() else None)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
