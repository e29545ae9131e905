"""How many steps each template's budget leaves beyond its oracle's direct route
(``spare.json``): the oracle takes a longer route (the launcher instead of ``open_app``) or
a detour only when it fits (``Driver.spend``). ``python -m phone_gym.tasks --write-spare``
measures it: the budget less the longest direct route over seeds 0-19; a template it does
not list has none (third-party templates take the direct route)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

SPARE = Path(__file__).with_name("spare.json")
SEEDS = range(20)


@cache
def spare_steps() -> dict[str, int]:
    """Each built-in template's spare steps."""
    if not SPARE.exists():
        return {}
    data = json.loads(SPARE.read_text(encoding="utf-8"))
    return {str(k): int(v) for k, v in data.items()}


def measure() -> dict[str, int]:
    """Run every built-in template's oracle on its direct route (``Episode.routes`` off)
    over ``SEEDS``: the budget less the longest run (0 when the oracle fails)."""
    from ..world import Device  # the apps load only here
    from .registry import discover
    from .task import Episode

    registry = discover(plugins=False)
    device = Device(list(registry.apps))
    out: dict[str, int] = {}
    for tid in sorted(registry.templates):
        template = registry.template(tid)
        worst = 0
        for seed in SEEDS:
            ep = Episode(template, device, np.random.default_rng(seed))
            ep.routes = False
            try:
                _, steps = ep.solve()
            except Exception:  # noqa: BLE001 - an oracle that fails leaves no spare
                worst = template.max_steps
                break
            worst = max(worst, steps)
        out[tid] = max(0, template.max_steps - worst)
    return out


def spare_text(spare: dict[str, int]) -> str:
    return json.dumps(spare, indent=0, sort_keys=True) + "\n"
