"""Public fixtures of the Phone app: seeding the shared call log (through ``DeviceState``, so
they work on real phones too)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...tasks.aw import AW_START
from ...tasks.vocab import pick
from ...verifiers.state import DeviceState
from .app import call_time

COLLECTION = "calls"
KINDS = ("incoming", "outgoing", "missed")


def log_call(state: DeviceState, number: str, kind: str = "incoming", minutes_ago: int = 0,
             duration: int = 0, name: str = "") -> None:
    """Add a call-log entry ``minutes_ago`` before the AndroidWorld clock."""
    state.add_call(number, kind, call_time(AW_START, minutes_ago), duration, name)


def seed_calls(state: DeviceState, rng: np.random.Generator, numbers: Sequence[str]) -> None:
    """One call with each of ``numbers`` (of a random kind), an hour or more apart."""
    for i, number in enumerate(numbers):
        kind = str(pick(rng, KINDS))
        duration = 0 if kind == "missed" else int(rng.integers(20, 900))
        log_call(state, number, kind, 60 * (len(numbers) - i) + int(rng.integers(0, 50)),
                 duration)
