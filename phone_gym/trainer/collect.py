"""Oracle collection at scale: every (template, seed) of a grid, in worker processes,
resumable, with a closing summary.

Each episode is ``<template>-s<seed>`` in the trajectory folder's ``steps.jsonl`` (appended
under a lock as soon as it ends: ``phone_gym.trajectory.format``); a rerun reads the folder
and skips the (template, seed) pairs whose episodes are complete there. Beside it,
``collect_index.jsonl`` holds one line per episode (steps, success, action types, route),
and ``collect_summary.json`` the summary of the whole folder: episodes, steps, the
action-type histogram, distinct routes (per template and in all) and failures.

A route is the sequence of ``"<action type>:<kind of element tapped>"`` of an episode's
steps: ``phone_gym.testing.grounding.route_signature`` over the same pairs (the trainer
layer sits below ``testing``, so the pairs are built here).
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..actions import ActionError, parse_action
from ..tasks.driver import element_at
from ..trajectory.format import TrajectoryWriter, read_trajectory
from ..trajectory.store import STEPS_FILE, export_episodes
from .backends import EnvListBackend
from .mixing import EpisodeSpec
from .policies import OraclePolicy
from .rollout import Collector

INDEX_FILE = "collect_index.jsonl"
SUMMARY_FILE = "collect_summary.json"


def episode_name(task_id: str, seed: int) -> str:
    """The episode id of ``task_id`` on ``seed`` in a grid collection."""
    return f"{task_id}-s{seed}"


def parse_seeds(text: str) -> list[int]:
    """``"0-3"``, ``"0,2,5"`` or a mix (``"0-1,7"``) as a sorted list of seeds >= 0;
    ``ValueError`` otherwise."""
    seeds: set[int] = set()
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        lo = int(first)
        hi = int(last) if dash else lo
        if lo < 0 or hi < lo:
            raise ValueError(f"{part!r} is not a seed range (0-3) or a seed >= 0")
        seeds.update(range(lo, hi + 1))
    return sorted(seeds)


def template_ids(tasks: str | Sequence[str] | None) -> list[str]:
    """Template ids: ``"all"`` or None for every PhoneWorld template, else the given ids
    (a comma-separated string or a list), each checked against the registry."""
    from ..envs.phone_world import select_templates

    if tasks is None or tasks == "all" or (not isinstance(tasks, str) and list(tasks) == ["all"]):
        return [t.id for t in select_templates(None)]
    names = tasks.split(",") if isinstance(tasks, str) else [
        n for t in tasks for n in t.split(",")]
    return [t.id for t in select_templates([n.strip() for n in names if n.strip()])]


class _RouteBackend(EnvListBackend):
    """One PhoneWorld env that also notes, before each step, what the action taps:
    ``(action type, kind of the element under the point)`` (``""`` when none)."""

    def __init__(self, env: Any) -> None:
        super().__init__([env], ["oracle"])
        self.route: list[tuple[str, str]] = []

    def step(self, slots: Sequence[int], actions: Sequence[str]) -> list[Any]:
        for i, text in zip(slots, actions, strict=True):
            self.route.append(tapped(self.envs[i], text))
        return super().step(slots, actions)


def tapped(env: Any, text: str) -> tuple[str, str]:
    """``(action type, kind of the element the action points at)`` on the env's screen."""
    try:
        action = parse_action(text)
    except ActionError:
        return ("invalid", "")
    kind = ""
    episode = getattr(env.unwrapped, "episode", None)
    if action.x is not None and action.type != "scroll" and episode is not None:
        element = element_at(episode.host.elements(), action.x, action.y or 0)
        kind = element.kind if element is not None else ""
    return (action.type, kind)


_ENV: dict[tuple[int, int] | None, Any] = {}  # one env per worker process (and obs size)


def _env(obs_size: tuple[int, int] | None, detours: bool = False) -> Any:
    if obs_size not in _ENV:
        from ..envs import PhoneWorldEnv

        _ENV[obs_size] = PhoneWorldEnv(obs_size=obs_size) if obs_size else PhoneWorldEnv()
    _ENV[obs_size].oracle_detours = detours
    return _ENV[obs_size]


def collect_one(task_id: str, seed: int, out: str, obs_size: tuple[int, int] | None = None,
                detours: bool = False) -> dict[str, Any]:
    """Run the oracle on ``task_id`` with ``seed``, append the episode to ``out`` (frames
    and ``steps.jsonl``) and return its index line; an error of the oracle or the env is
    returned as ``{"error": ...}`` and nothing is written."""
    started = time.perf_counter()
    row: dict[str, Any] = {"task_id": task_id, "seed": seed,
                           "episode_id": episode_name(task_id, seed)}
    try:
        backend = _RouteBackend(_env(obs_size, detours))
        spec = EpisodeSpec("oracle", seed, 0, {"task": task_id}, row["episode_id"])
        [episode] = Collector(backend, OraclePolicy()).collect(specs=[spec])
        export_episodes([episode], out, append=True)
    except Exception as exc:  # noqa: BLE001 - a failure is reported, the grid goes on
        row.update(error=f"{type(exc).__name__}: {exc}", seconds=time.perf_counter() - started)
        return row
    row.update(steps=len(episode), success=episode.success,
               actions=[s.action.split("(")[0] if s.action else "invalid"
                        for s in episode.steps],
               route=[f"{kind}:{target}" for kind, target in backend.route],
               reasons=sum(bool(s.reason) for s in episode.steps),
               seconds=time.perf_counter() - started)
    return row


def done_pairs(out: str | Path) -> set[tuple[str, int]]:
    """The (template, seed) pairs with a complete episode in the folder ``out``."""
    path = Path(out) / STEPS_FILE
    if not path.is_file():
        return set()
    found = read_trajectory(path)
    return {(e.records[0].task_id or "", e.records[0].seed or 0) for e in found.complete
            if e.records and e.records[0].task_id is not None}


def read_index(out: str | Path) -> dict[tuple[str, int], dict[str, Any]]:
    """The index lines of ``out`` by (template, seed), the last one of each winning."""
    path = Path(out) / INDEX_FILE
    rows: dict[tuple[str, int], dict[str, Any]] = {}
    if path.is_file():
        for line in path.read_text().splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue  # a cut last line of an interrupted run
            rows[(row["task_id"], row["seed"])] = row
    return rows


@dataclass
class _Bar:
    total: int
    enabled: bool
    done: int = 0
    started: float = 0.0

    def __post_init__(self) -> None:
        self.started = time.perf_counter()
        self._tqdm: Any = None
        if self.enabled:
            try:
                from tqdm import tqdm

                self._tqdm = tqdm(total=self.total, desc="collect", unit="ep")
            except ModuleNotFoundError:
                self._tqdm = None

    def update(self, row: dict[str, Any]) -> None:
        self.done += 1
        if self._tqdm is not None:
            self._tqdm.update(1)
            self._tqdm.set_postfix_str(row["task_id"][:32])
        elif self.enabled:
            print(f"collect {self.done}/{self.total} {row['episode_id']}", flush=True)

    def close(self) -> None:
        if self._tqdm is not None:
            self._tqdm.close()


def _run(pending: list[tuple[str, int]], out: str, obs_size: tuple[int, int] | None,
         workers: int, detours: bool = False) -> Iterator[dict[str, Any]]:
    """The index lines of the ``pending`` episodes as they finish."""
    if workers <= 1:
        for task_id, seed in pending:
            yield collect_one(task_id, seed, out, obs_size, detours)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        queue = iter(pending)
        running: set[Future[dict[str, Any]]] = set()
        for task_id, seed in queue:  # a bounded queue: results come back in order of work
            running.add(pool.submit(collect_one, task_id, seed, out, obs_size, detours))
            if len(running) >= 2 * workers:
                break
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()
                nxt = next(queue, None)
                if nxt is not None:
                    running.add(pool.submit(collect_one, *nxt, out, obs_size, detours))


def collect_grid(tasks: str | Sequence[str] | None, seeds: Sequence[int], out: str | Path,
                 *, workers: int = 1, obs_size: tuple[int, int] | None = None,
                 progress: bool = True, detours: bool = False,
                 on_episode: Callable[[dict[str, Any]], None] | None = None
                 ) -> dict[str, Any]:
    """Collect every (template, seed) of ``tasks`` x ``seeds`` not yet complete in ``out``,
    on ``workers`` processes; returns (and writes to ``collect_summary.json``) the summary
    of the folder (``summarize``) with ``skipped`` (already there), ``collected`` and
    ``seconds`` of this run."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if not (out / STEPS_FILE).is_file():
        with TrajectoryWriter(out / STEPS_FILE, append=True):
            pass  # the format line, once, before the workers append
    grid = [(t, s) for t in template_ids(tasks) for s in seeds]
    done = done_pairs(out)
    pending = [pair for pair in grid if pair not in done]
    started = time.perf_counter()
    bar = _Bar(len(pending), progress)
    errors: list[dict[str, Any]] = []
    with open(out / INDEX_FILE, "a") as index:
        for row in _run(pending, str(out), obs_size, workers, detours):
            if "error" in row:
                errors.append(row)
            else:
                index.write(json.dumps(row) + "\n")
                index.flush()
            bar.update(row)
            if on_episode is not None:
                on_episode(row)
    bar.close()
    summary = summarize(out, grid, errors)
    summary.update(skipped=len(grid) - len(pending), collected=len(pending) - len(errors),
                   seconds=round(time.perf_counter() - started, 2), workers=workers)
    (out / SUMMARY_FILE).write_text(json.dumps(summary, indent=1))
    return summary


def summarize(out: str | Path, grid: Sequence[tuple[str, int]] | None = None,
              errors: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The folder's summary over the episodes of ``grid`` (default: all it holds):
    episodes, steps, solved, ``actions`` (the action-type histogram), ``routes`` (distinct
    routes over all templates), ``templates_with_2_routes`` (templates whose seeds took two
    or more distinct routes), and ``failures`` (episodes not solved and errors, named)."""
    index = read_index(out)
    done = done_pairs(out)
    keys = [k for k in (grid if grid is not None else sorted(index)) if k in done and k in index]
    rows = [index[k] for k in keys]
    by_template: dict[str, set[tuple[str, ...]]] = {}
    for row in rows:
        by_template.setdefault(row["task_id"], set()).add(tuple(row["route"]))
    failures = [{"episode_id": r["episode_id"], "why": "not solved"} for r in rows
                if not r["success"]]
    failures += [{"episode_id": r["episode_id"], "why": r["error"]} for r in errors]
    return {
        "episodes": len(rows), "steps": sum(r["steps"] for r in rows),
        "solved": sum(bool(r["success"]) for r in rows),
        "steps_with_reason": sum(r.get("reasons", 0) for r in rows),
        "actions": dict(Counter(a for r in rows for a in r["actions"]).most_common()),
        "templates": len(by_template),
        "routes": len({(t, route) for t, routes in by_template.items() for route in routes}),
        "templates_with_2_routes": sum(len(v) >= 2 for v in by_template.values()),
        "failures": failures,
    }


def cpu_workers() -> int:
    """A default worker count: the CPUs this process may use."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))
