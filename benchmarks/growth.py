"""Cost per step as a list app's data grows: prints one JSON line.

A Contacts task with N contacts (N in 16, 500, 2,000, 5,000 by default): a scripted policy
opens Contacts, scrolls the list down twice and up twice (at every N both scrolls move: the
same screens' worth of work), searches for the target, opens it, edits its phone number
and saves; ``PhoneWorld-v0`` steps with 540 x 1200 screenshots and runs the verifier after
every step. Figures:

- ``ms_per_step``: mean ms per ``env.step`` (setup excluded), by N: the median of
  ``--repeats`` runs
- ``ratio``: ms per step at the largest N over the smallest (target: at most 2)
- ``reset_ms``: ms per ``env.reset`` (writing the N contacts), by N

Usage: ``python benchmarks/growth.py [--steps N] [--sizes 16 500 2000 5000]``
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from phone_gym.actions import PhoneAction
from phone_gym.envs import PhoneWorldEnv
from phone_gym.mockapps import Driver
from phone_gym.mockapps.contacts.tasks import ContactsEditPhone
from phone_gym.tasks.vocab import FIRST_NAMES, LAST_NAMES


class GrowingRoster(ContactsEditPhone):
    """``ContactsEditPhone`` with ``size`` contacts (names made unique with a number)."""

    id = "GrowthEditPhone"
    template = 'Change the phone number of the contact "{name}" to "{new_phone}".'
    max_steps = 40

    def __init__(self, size: int) -> None:
        self.size = size

    def person(self, i: int) -> tuple[str, str]:
        return (f"{FIRST_NAMES[i % 30]} {LAST_NAMES[i // 30 % 30]} {i:04d}",
                f"+1 415-555-{i % 10000:04d}")

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        t = int(rng.integers(self.size))  # the roster is made in setup: params stay small
        name, phone = self.person(t)
        return {"cid": t + 1, "name": name, "phone": phone, "new_phone": "+1 212-555-0199"}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        for i in range(self.size):
            state.add_contact(*self.person(i))

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Contacts")
        for direction in ("down", "down", "up", "up"):
            yield PhoneAction("scroll", x=500, y=600, direction=direction)
        yield from ui.tap(id="search", kind="text_field")
        yield PhoneAction("type", text=p["name"])
        yield from ui.tap(p["name"], kind="list_item")
        yield from ui.tap(id="edit")
        yield from ui.fill("phone", p["new_phone"])
        yield from ui.tap(id="save")
        yield from ui.finish()


def measure(size: int, steps: int, seed: int = 0) -> tuple[float, float]:
    """(ms per step, ms per reset) of the scripted policy with ``size`` contacts."""
    env = PhoneWorldEnv(task=GrowingRoster(size))
    resets: list[float] = []
    stepped, spent = 0, 0.0
    episode = 0
    while stepped < steps:
        start = time.perf_counter()
        env.reset(seed=seed + episode)
        resets.append(time.perf_counter() - start)
        episode += 1
        done = False
        while not done and stepped < steps:
            action = env.oracle_action()
            start = time.perf_counter()
            _, _, terminated, truncated, _ = env.step(action)
            spent += time.perf_counter() - start
            stepped += 1
            done = terminated or truncated
    return spent / stepped * 1e3, sum(resets) / len(resets) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=400, help="steps measured per size")
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 500, 2000, 5000])
    parser.add_argument("--repeats", type=int, default=3, help="runs per size (median)")
    args = parser.parse_args()
    if args.steps < 1 or args.repeats < 1 or any(s < 2 for s in args.sizes):
        parser.error("--steps and --repeats must be >= 1 and every size >= 2")
    measure(args.sizes[0], 60)  # warm the tile cache
    runs: dict[int, list[tuple[float, float]]] = {size: [] for size in args.sizes}
    for _ in range(args.repeats):  # sizes interleaved: drifts in machine speed hit all
        for size in args.sizes:
            runs[size].append(measure(size, args.steps))
    ms = {size: statistics.median(r[0] for r in rs) for size, rs in runs.items()}
    resets = {size: statistics.median(r[1] for r in rs) for size, rs in runs.items()}
    figures = {
        "ms_per_step": {str(k): round(v, 3) for k, v in ms.items()},
        "ratio": round(ms[max(args.sizes)] / ms[min(args.sizes)], 2),
        "reset_ms": {str(k): round(v, 2) for k, v in resets.items()},
        "steps": args.steps, "repeats": args.repeats, "obs_size": "540x1200",
        "python": platform.python_version(),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
