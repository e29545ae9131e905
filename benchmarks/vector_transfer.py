"""Vector env transfer cost: prints one JSON line of figures, measured in one run.

For ``n`` in ``--envs`` (default 1, 2, 4) the same ``n`` PhoneWorld envs take the same fixed,
seeded actions (``--policy``: ``random`` samples of the action space, or ``wait`` no-ops)
through three vector envs:

- ``sync``: ``SyncVectorEnv``, every env stepped in this process (no transfer at all)
- ``before``: Gymnasium's ``AsyncVectorEnv`` with its default worker, one process per env
  (what ``phone_gym.make_vec`` built before ``phone_gym.envs.vector``; it shares
  ``SharedText``'s numpy text codec with ``after``, so it is a little faster than the code
  before that change was)
- ``after``: ``phone_gym.make_vec(n)``, ``AsyncVectorEnv`` with ``phone_gym.envs.vector``'s
  worker

Figures, under ``"n{n}"``, for each of ``sync``, ``before`` and ``after``:

- ``{path}_sps``: env-steps per second (vector steps x ``n``)
- ``{path}_ms``: wall ms per env-step
- ``{path}_cpu_ms``: CPU ms per env-step, this process and the workers together (Linux;
  None elsewhere): the work done, whether or not it ran in parallel
- ``{path}_transfer_ms`` / ``{path}_transfer_cpu_ms`` (``before``, ``after``): the async
  figure minus the sync one, the per-env-step cost of passing steps between processes.
  With ``n`` > 1 the workers step in parallel, which lowers the wall figure (it can go
  negative on a machine with ``n`` free cores); the CPU figure leaves that out.

And ``info_bytes_before`` / ``info_bytes_after``: the pickled size of one step's reply from a
worker (``info`` with the UI element list), from Gymnasium's worker and from phone_gym's.

Usage: ``python benchmarks/vector_transfer.py [--steps N] [--envs 1 2 4] [--policy random]``
(``--steps``: vector steps measured per path and ``n``; small values make a quick smoke run,
the figures then mean little).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from collections.abc import Callable
from multiprocessing.reduction import ForkingPickler
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

import phone_gym
from phone_gym.actions import batch_actions
from phone_gym.envs import PhoneWorldEnv

PATHS = ("sync", "before", "after")
WAIT = "wait(seconds=1)"


def build(path: str, n: int) -> gym.vector.VectorEnv:
    """The vector env of ``path`` over ``n`` default PhoneWorld envs."""
    if path == "after":
        return phone_gym.make_vec(n)
    fns: list[Callable[[], gym.Env]] = [lambda: gym.make("PhoneWorld-v0") for _ in range(n)]
    if path == "sync":
        return gym.vector.SyncVectorEnv(fns)
    return gym.vector.AsyncVectorEnv(fns)


def actions(vec: gym.vector.VectorEnv, steps: int, policy: str, seed: int = 0) -> list[Any]:
    """``steps`` batched actions: seeded samples of the action space, or no-op waits."""
    if policy == "wait":
        batch = batch_actions([WAIT] * vec.num_envs, PhoneWorldEnv().app_names)
        return [batch] * steps
    vec.action_space.seed(seed)
    return [vec.action_space.sample() for _ in range(steps)]


def cpu_seconds(vec: gym.vector.VectorEnv) -> float | None:
    """CPU seconds used so far by this process and ``vec``'s workers (None off Linux)."""
    total = time.process_time()
    for process in getattr(vec, "processes", []):
        stat = Path(f"/proc/{process.pid}/schedstat")
        if not stat.exists():
            return None
        total += int(stat.read_text().split()[0]) / 1e9  # ns on the CPU
    return total


def measure(n: int, steps: int, policy: str, rounds: int, warmup: int) -> dict[str, Any]:
    """The figures of the three paths for ``n`` envs, run in interleaved rounds."""
    vecs = {path: build(path, n) for path in PATHS}
    try:
        plan = actions(vecs["sync"], warmup + steps, policy)
        wall = dict.fromkeys(PATHS, 0.0)
        cpu: dict[str, float | None] = dict.fromkeys(PATHS, 0.0)
        for vec in vecs.values():
            vec.reset(seed=list(range(n)))
            for action in plan[:warmup]:
                vec.step(action)
        measured = plan[warmup:]
        bounds = np.linspace(0, steps, rounds + 1).astype(int)
        for start, stop in zip(bounds[:-1], bounds[1:], strict=True):
            for path, vec in vecs.items():
                cpu0, t0 = cpu_seconds(vec), time.perf_counter()
                for action in measured[start:stop]:
                    vec.step(action)
                wall[path] += time.perf_counter() - t0
                cpu1 = cpu_seconds(vec)
                cpu[path] = (None if cpu[path] is None or cpu0 is None or cpu1 is None
                             else cpu[path] + cpu1 - cpu0)
    finally:
        for vec in vecs.values():
            vec.close()
    env_steps = steps * n
    out: dict[str, Any] = {}
    for path in PATHS:
        out[f"{path}_sps"] = round(env_steps / wall[path], 1)
        out[f"{path}_ms"] = round(wall[path] / env_steps * 1e3, 4)
        used = cpu[path]
        out[f"{path}_cpu_ms"] = None if used is None else round(used / env_steps * 1e3, 4)
    for path in ("before", "after"):
        out[f"{path}_transfer_ms"] = round(out[f"{path}_ms"] - out["sync_ms"], 4)
        out[f"{path}_transfer_cpu_ms"] = (
            None if out[f"{path}_cpu_ms"] is None or out["sync_cpu_ms"] is None
            else round(out[f"{path}_cpu_ms"] - out["sync_cpu_ms"], 4))
    return out


def info_bytes() -> tuple[int, int]:
    """Pickled size of one step's worker reply, with today's and the compact info."""
    from phone_gym.envs.vector import compact_info

    env = PhoneWorldEnv()
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step('open_app(app="Contacts")')
    sizes = [len(ForkingPickler.dumps(((None, reward, terminated, truncated, i), True)))
             for i in (info, compact_info(info))]
    return sizes[0], sizes[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=1000,
                        help="vector steps measured per path and n (default 1000)")
    parser.add_argument("--envs", type=int, nargs="+", default=[1, 2, 4],
                        help="numbers of envs (default 1 2 4)")
    parser.add_argument("--policy", choices=("random", "wait"), default="random",
                        help="seeded action-space samples, or no-op waits (default random)")
    parser.add_argument("--rounds", type=int, default=5,
                        help="the paths take turns this many times (default 5)")
    parser.add_argument("--warmup", type=int, default=50,
                        help="vector steps run first on each path (default 50)")
    args = parser.parse_args()
    if args.steps < 1 or args.rounds < 1 or args.warmup < 0 or min(args.envs) < 1:
        parser.error("--steps, --rounds and --envs must be >= 1, --warmup >= 0")
    rounds = min(args.rounds, args.steps)
    figures: dict[str, Any] = {f"n{n}": measure(n, args.steps, args.policy, rounds, args.warmup)
                               for n in args.envs}
    figures["info_bytes_before"], figures["info_bytes_after"] = info_bytes()
    figures.update(steps=args.steps, policy=args.policy, obs_size="540x1200",
                   cpus=os.cpu_count(), python=platform.python_version(),
                   gymnasium=gym.__version__)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
