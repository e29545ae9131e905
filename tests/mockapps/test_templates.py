"""Every task template: the oracle solves 20 seeds within budget; doing nothing, every near
miss (derived from the criteria, and declared) and extra damage all fail."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from phone_gym.mockapps import APPS, TEMPLATES, Episode
from phone_gym.world import Device

SEEDS = range(20)


def untouched_record(initial: Mapping[str, Any], final: Mapping[str, Any]) -> list[str] | None:
    """The path of a record that exists unchanged in both snapshots (a bystander)."""
    stack: list[tuple[list[str], Any, Any]] = [([], initial, final)]
    while stack:
        path, a, b = stack.pop(0)
        if not (isinstance(a, Mapping) and isinstance(b, Mapping)):
            continue
        for key, value in a.items():
            if key not in b:
                continue
            if isinstance(value, Mapping) and ("id" in value or "sha1" in value) \
                    and value == b[key]:
                return [*path, key]
            stack.append(([*path, key], value, b[key]))
    return None


def delete_at(state: Mapping[str, Any], path: list[str]) -> dict[str, Any]:
    out = copy.deepcopy(state)
    node = out
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]
    return out


@pytest.mark.parametrize("task_id", sorted(TEMPLATES))
def test_template(task_id: str) -> None:
    template = TEMPLATES[task_id]
    device = Device(APPS)
    for seed in SEEDS:
        ep = Episode(template, device, np.random.default_rng(seed))
        assert ep.instruction and "{" not in ep.instruction
        noop = ep.verify(None)
        assert not noop.success, f"seed {seed}: finishing at once passes: {noop.reason}"
        answer, steps = ep.solve()
        verdict = ep.verify(answer)
        assert verdict.success, f"seed {seed}: oracle failed: {verdict.reason}"
        assert steps < template.max_steps
        if template.needs_answer:
            assert answer is not None
        final = device.snapshot()
        misses = template.near_misses(ep.initial, final, ep.params, answer)
        assert misses, f"seed {seed}: no near miss derived or declared"
        for miss in misses:
            near = template.verify(ep.initial, miss.state, ep.params, miss.answer)
            assert not near.success, f"seed {seed}: near miss passes: {miss.why}"
        victim = untouched_record(ep.initial, final)
        assert victim is not None, f"seed {seed}: no bystander record to damage"
        damaged = template.verify(ep.initial, delete_at(final, victim), ep.params, answer)
        assert not damaged.success, f"seed {seed}: deleting {victim} passes"
        assert "unexpected" in damaged.reason or "no " in damaged.reason


def test_registry_is_large_enough() -> None:
    assert len(TEMPLATES) >= 12
    assert sum(t.needs_answer for t in TEMPLATES.values()) >= 2
    assert any(len(t.apps) > 1 for t in TEMPLATES.values())
    ids = [t.id for t in TEMPLATES.values()]
    assert len(ids) == len(set(ids))
