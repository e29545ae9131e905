"""Environment workers as Ray actors, behind the same backend interface as local envs, so
the ``Collector`` (and its records) are the same when rollouts outgrow one machine::

    ray.init()                                  # or ray.init(address="auto") on a cluster
    sampler = MixedSampler(sources, group_size=8)
    backend = RayBackend.from_sampler(sampler, num_workers=4)
    collector = Collector(backend, policy, sampler=sampler)

Slots are dealt to workers round-robin; each call sends one request per worker and waits
for all of them (the policy runs in the driver, batched over every slot).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import gymnasium as gym

from .backends import EnvListBackend, OracleStep, ResetResult, StepResult

if TYPE_CHECKING:
    from ray.actor import ActorHandle

Factory = Callable[[], gym.Env[Any, Any]]


class EnvWorker:
    """Runs on a Ray actor: envs of one or more sources, addressed by local index."""

    def __init__(self, factories: Sequence[tuple[str, Factory]]) -> None:
        self.backend = EnvListBackend.from_factories(factories)

    def reset(self, slots: list[int], seeds: list[int | None],
              options: list[Mapping[str, Any] | None]) -> list[ResetResult]:
        return self.backend.reset(slots, seeds, options)

    def step(self, slots: list[int], actions: list[str]) -> list[StepResult]:
        return self.backend.step(slots, actions)

    def oracle(self, slots: list[int]) -> list[str | None]:
        return self.backend.oracle(slots)

    def oracle_steps(self, slots: list[int]) -> list[OracleStep | None]:
        return self.backend.oracle_steps(slots)

    def close(self) -> None:
        self.backend.close()


class RayBackend:
    """Envs on ``num_workers`` Ray actors (``ray.init`` must have run)."""

    def __init__(self, factories: Sequence[tuple[str, Factory]], num_workers: int = 2,
                 actor_options: Mapping[str, Any] | None = None) -> None:
        import ray

        if not ray.is_initialized():
            raise RuntimeError("call ray.init(...) before creating a RayBackend")
        num_workers = max(1, min(num_workers, len(factories)))
        self.sources = [name for name, _ in factories]
        self.place: list[tuple[int, int]] = []  # slot -> (worker, local index)
        per_worker: list[list[tuple[str, Factory]]] = [[] for _ in range(num_workers)]
        for slot, item in enumerate(factories):
            w = slot % num_workers
            self.place.append((w, len(per_worker[w])))
            per_worker[w].append(item)
        remote = ray.remote(**dict(actor_options or {"num_cpus": 0}))(EnvWorker)
        # Ray annotates ``remote()`` as giving a handle or the class itself: it is a handle
        self.workers: list[ActorHandle[EnvWorker]] = [
            cast("ActorHandle[EnvWorker]", remote.remote(items)) for items in per_worker]

    @classmethod
    def from_sampler(cls, sampler: Any, num_workers: int = 2, **kwargs: Any) -> RayBackend:
        """``num_envs`` envs of each of the sampler's sources, spread over the workers."""
        return cls([(s.name, s.make) for s in sampler.sources for _ in range(s.num_envs)],
                   num_workers, **kwargs)

    def _call(self, method: str, slots: Sequence[int], *columns: Sequence[Any]) -> list[Any]:
        import ray

        by_worker: dict[int, list[int]] = {}
        for k, slot in enumerate(slots):
            by_worker.setdefault(self.place[slot][0], []).append(k)
        futures = {}
        for w, ks in by_worker.items():
            args = [[self.place[slots[k]][1] for k in ks]]
            args += [[col[k] for k in ks] for col in columns]
            futures[w] = getattr(self.workers[w], method).remote(*args)
        out: list[Any] = [None] * len(slots)
        for w, result in zip(futures, ray.get(list(futures.values())), strict=True):
            for k, value in zip(by_worker[w], result, strict=True):
                out[k] = value
        return out

    def reset(self, slots: Sequence[int], seeds: Sequence[int | None],
              options: Sequence[Mapping[str, Any] | None]) -> list[ResetResult]:
        return self._call("reset", slots, seeds, options)

    def step(self, slots: Sequence[int], actions: Sequence[str]) -> list[StepResult]:
        return self._call("step", slots, actions)

    def oracle(self, slots: Sequence[int]) -> list[str | None]:
        return self._call("oracle", slots)

    def oracle_steps(self, slots: Sequence[int]) -> list[OracleStep | None]:
        return self._call("oracle_steps", slots)

    def close(self) -> None:
        import ray

        ray.get([w.close.remote() for w in self.workers])
        for w in self.workers:
            ray.kill(w)
        self.workers = []
