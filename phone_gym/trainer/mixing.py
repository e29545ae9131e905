"""Environment sources and the episode sampler that mixes them by weight.

The paper's "real" and "real+mock" branches are two configs of one run::

    real = [EnvSource("real", "RealPhone-v0", {"serial": "emulator-5554"})]
    mixed = real + [EnvSource("mock", "PhoneWorld-v0", {"obs_size": (270, 600)},
                              weight=3.0, num_envs=8)]

Each ``EpisodeSpec`` names its source; the collector runs it on a free env of that source.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np

from .backends import EnvListBackend

EnvFactory = Callable[..., gym.Env[Any, Any]]


@dataclass(frozen=True)
class EpisodeSpec:
    """One episode to run: where, with which seed and reset options, in which group."""

    source: str
    seed: int | None
    group_id: int
    options: Mapping[str, Any] | None = None
    #: the episode's id in its records (default: the collector numbers episodes ep000000...)
    episode_id: str | None = None


@dataclass
class EnvSource:
    """Where episodes come from: a registered env id or a factory, its kwargs, the sampling
    weight, how many envs of it run at once, and optionally the seeds episodes use (in
    order, cycling; default: random) and their reset options."""

    name: str
    env: str | EnvFactory
    kwargs: dict[str, Any] = field(default_factory=dict)
    weight: float = 1.0
    num_envs: int = 1
    seeds: Sequence[int] | None = None
    options: Mapping[str, Any] | None = None

    def make(self) -> gym.Env[Any, Any]:
        if isinstance(self.env, str):
            import phone_gym  # noqa: F401 - registers the ids

            return gym.make(self.env, disable_env_checker=True, **self.kwargs)
        return self.env(**self.kwargs)


def as_sources(items: Sequence[EnvSource | tuple[Any, ...] | Mapping[str, Any]]
               ) -> list[EnvSource]:
    """``EnvSource``s from sources, ``(env, kwargs, weight)`` tuples or config dicts."""
    out: list[EnvSource] = []
    for k, item in enumerate(items):
        if isinstance(item, EnvSource):
            out.append(item)
        elif isinstance(item, Mapping):
            data = dict(item)
            data.setdefault("name", f"{data['env']}#{k}" if isinstance(data["env"], str)
                            else f"source{k}")
            out.append(EnvSource(**data))
        else:
            env, kwargs, weight = (tuple(item) + ({}, 1.0))[:3]
            name = env if isinstance(env, str) else getattr(env, "__name__", "env")
            out.append(EnvSource(f"{name}#{k}", env, dict(kwargs or {}), float(weight)))
    names = [s.name for s in out]
    if len(set(names)) != len(names):
        raise ValueError(f"source names must be unique: {names}")
    if not out or any(s.weight < 0 for s in out) or sum(s.weight for s in out) <= 0:
        raise ValueError("give at least one source and non-negative weights with a positive sum")
    return out


class MixedSampler:
    """Draws episode specs: a source by weight, then a seed; ``group_size`` copies of each
    (same source, seed and options: a GRPO group)."""

    def __init__(self, sources: Sequence[EnvSource | tuple[Any, ...] | Mapping[str, Any]],
                 group_size: int = 1, seed: int = 0) -> None:
        self.sources = as_sources(sources)
        self.group_size = group_size
        self.rng = np.random.default_rng(seed)
        weights = np.array([s.weight for s in self.sources], dtype=float)
        self.probs = weights / weights.sum()
        self._next_group = 0
        self._seed_pos: dict[str, int] = {}

    def sample(self, num_groups: int, group_size: int | None = None) -> list[EpisodeSpec]:
        """``num_groups`` groups of ``group_size`` (default ``self.group_size``) specs."""
        size = self.group_size if group_size is None else group_size
        specs = []
        for _ in range(num_groups):
            source = self.sources[int(self.rng.choice(len(self.sources), p=self.probs))]
            if source.seeds is not None:  # in order, cycling
                k = self._seed_pos.get(source.name, 0)
                seed = int(source.seeds[k % len(source.seeds)])
                self._seed_pos[source.name] = k + 1
            else:
                seed = int(self.rng.integers(2**31 - 1))
            gid = self._next_group
            self._next_group += 1
            specs += [EpisodeSpec(source.name, seed, gid, source.options)] * size
        return specs

    def make_backend(self) -> EnvListBackend:
        """``num_envs`` envs of each source in this process."""
        return EnvListBackend.from_factories(
            [(s.name, s.make) for s in self.sources for _ in range(s.num_envs)])
