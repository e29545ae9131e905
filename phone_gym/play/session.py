"""One play session: the env a person plays through the page, one episode at a time, each
step recorded as a ``trajectory.StepRecord`` and every finished episode appended to
the export folder with ``trajectory.export_episodes`` (``steps.jsonl`` plus
``frames/<episode_id>/<step>.png``), exactly what ``phone-gym collect --out`` writes, so
``phone-gym train sft`` (``data.path``) reads a folder of demonstrations as it is.

The recorded text of a step is the action in ``format_action`` syntax: SFT trains on it as
the answer (``sft.sft_samples`` rebuilds each prompt from the frame, as at inference).
"""

from __future__ import annotations

import io
import re
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from ..actions import ActionError, PhoneAction, format_action
from ..actions.action import ACTION_FIELDS
from ..trainer.rollout import frame_ref
from ..trajectory.records import Episode, StepRecord
from ..trajectory.store import STEPS_FILE, export_episodes, load_episodes

#: The action types the page sends (``open_app``, ``close_app`` and ``wait`` are the
#: model's shortcuts: a person taps the launcher instead).
PAGE_ACTIONS: tuple[str, ...] = ("click", "double_click", "long_press", "type", "scroll",
                                 "drag", "press", "answer", "finish")
#: Name of the last screen of an episode (after its last action), beside its step frames.
FINAL_FRAME = "final.png"
EPISODE_ID = re.compile(r"[A-Za-z0-9_.-]{1,80}")


@dataclass(frozen=True)
class EpisodePlan:
    """Which (task, seed) the k-th episode of a session plays: ``instances`` in turn (a
    suite of fixed instances), else ``tasks`` in turn with the seed moving on after each
    round (no tasks: the env samples one from the seed)."""

    tasks: tuple[str, ...] = ()
    seed: int = 0
    instances: tuple[tuple[str, int], ...] = ()

    def episode(self, k: int) -> tuple[str | None, int]:
        if self.instances:
            return self.instances[k % len(self.instances)]
        if not self.tasks:
            return None, self.seed + k
        return self.tasks[k % len(self.tasks)], self.seed + k // len(self.tasks)


def page_action(data: Mapping[str, Any]) -> PhoneAction:
    """The ``PhoneAction`` a page request names (``{"action": "click", "x": 500, ...}``);
    anything else raises ``ValueError`` naming what is accepted."""
    kind = data.get("action")
    if kind not in PAGE_ACTIONS:
        raise ValueError(f"action={kind!r}; accepted: {', '.join(PAGE_ACTIONS)}")
    fields = {name: data.get(name) for name in ACTION_FIELDS[str(kind)]}
    missing = [name for name, value in fields.items() if value is None]
    if missing:
        raise ValueError(f"{kind} needs {', '.join(ACTION_FIELDS[str(kind)])}; missing: "
                         f"{', '.join(missing)}")
    try:
        return PhoneAction(str(kind), **fields)  # __post_init__ validates ranges and choices
    except (ActionError, TypeError) as exc:
        raise ValueError(str(exc)) from None


class PlaySession:
    """The env of one page, its current episode and its recording (thread-safe: one step
    at a time).

    ``make_env(task)`` returns a Gymnasium env for ``task`` (None: any task); it is called
    again only when the plan's next task differs. ``source`` is recorded in each step
    (``StepRecord.source``). ``next_index()`` gives the plan's index of each new episode
    (default: 0, 1, 2, ... of this session; ``PlaySessions`` shares one count among tabs),
    and ``record_lock`` is held while a finished episode is appended to ``out_dir`` (shared
    by the sessions that write there).
    """

    def __init__(self, make_env: Callable[[str | None], Any], out_dir: str | Path,
                 plan: EpisodePlan | None = None, source: str = "play", *,
                 next_index: Callable[[], int] | None = None,
                 record_lock: threading.Lock | None = None) -> None:
        self.make_env = make_env
        self.out = Path(out_dir)
        self.out.mkdir(parents=True, exist_ok=True)
        self.plan = plan or EpisodePlan()
        self.source = source
        self.next_index = next_index
        self.record_lock = record_lock or threading.Lock()
        self.lock = threading.Lock()
        self.env: Any = None
        self._env_task: str | None = None
        self._count = 0
        self.steps: list[StepRecord] = []
        self.obs: dict[str, Any] = {}
        self.info: dict[str, Any] = {}
        self.episode_id = ""
        self.task_id: str | None = None
        self.seed = 0
        self.done = False
        self.reward = 0.0
        self.frame_version = 0
        self.recorded: Path | None = None

    # -- episodes ---------------------------------------------------------------------
    def new_episode(self) -> dict[str, Any]:
        """Start the plan's next episode (an unfinished one is dropped, not recorded)."""
        with self.lock:
            index = self._count if self.next_index is None else self.next_index()
            self._count += 1
            task, seed = self.plan.episode(index)
            if self.env is None or task != self._env_task:
                if self.env is not None:
                    self.env.close()
                self.env = self.make_env(task)
                self._env_task = task
            self.obs, info = self.env.reset(seed=seed)
            self.info = dict(info)
            self.task_id = self.info.get("task_id") or task
            self.seed = seed
            stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
            self.episode_id = f"play-{stamp}-{secrets.token_hex(3)}"
            self.steps = []
            self.done = False
            self.reward = 0.0
            self.recorded = None
            self.frame_version += 1
            return self._state()

    def act(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """Carry out a page action and record it; the new state. ``ValueError`` for a bad
        request or when no episode is running."""
        action = page_action(data)
        with self.lock:
            if self.env is None or self.done:
                raise ValueError("no episode is running: start one (POST /api/new)")
            shot = self.obs.get("screenshot")
            before = dict(self.info)
            obs, reward, terminated, truncated, info = self.env.step(action)
            step = len(self.steps)
            done = bool(terminated or truncated)
            success = info.get("success")
            self.task_id = info.get("task_id") or self.task_id
            self.steps.append(StepRecord(
                episode_id=self.episode_id, source=self.source, task_id=self.task_id,
                seed=self.seed, group_id=0, step=step,
                instruction=str(self.obs.get("instruction", before.get("instruction", ""))),
                history=[s.action or s.text for s in self.steps],
                feedback=self.steps[-1].action_error if self.steps else None,
                prompt_ids=None, gen_ids=None, logprobs=None,
                screenshot=frame_ref(self.episode_id, step) if shot is not None else None,
                image_refs=[frame_ref(self.episode_id, step)] if shot is not None else [],
                text=format_action(action), action=info.get("action") or format_action(action),
                valid=True, action_error=info.get("action_error"), env_reward=float(reward),
                penalty=0.0, reward=float(reward), done=done, terminated=bool(terminated),
                truncated=bool(truncated), success=None if success is None else bool(success),
                verdict=None if info.get("verdict") is None else str(info.get("verdict")),
                frame=None if shot is None else np.asarray(shot)))
            self.obs, self.info = obs, dict(info)
            self.reward = float(reward)
            self.done = done
            self.frame_version += 1
            if done:
                for earlier in self.steps:
                    earlier.task_id = earlier.task_id or self.task_id
                self._record()
            return self._state()

    def _record(self) -> None:
        """Append the finished episode to the export folder, with its last screen."""
        with self.record_lock:
            export_episodes([Episode(self.steps)], self.out, append=True)
        shot = self.obs.get("screenshot")
        if shot is not None:
            folder = self.out / "frames" / self.episode_id
            folder.mkdir(parents=True, exist_ok=True)
            Image.fromarray(np.asarray(shot, dtype=np.uint8)).save(folder / FINAL_FRAME)
        self.recorded = self.out / STEPS_FILE

    # -- what the page reads ----------------------------------------------------------
    def state(self) -> dict[str, Any]:
        with self.lock:
            return self._state()

    def _state(self) -> dict[str, Any]:
        shot = self.obs.get("screenshot")
        height, width = (int(shot.shape[0]), int(shot.shape[1])) if shot is not None else (0, 0)
        last = self.steps[-1] if self.steps else None
        verdict = None
        if self.done and last is not None:
            verdict = {"success": bool(last.success), "reward": self.reward,
                       "reason": last.verdict or "", "steps": len(self.steps),
                       "recorded": str(self.recorded) if self.recorded else None}
        return {
            "episode_id": self.episode_id, "task_id": self.task_id, "seed": self.seed,
            "instruction": str(self.obs.get("instruction", "")),
            "step": len(self.steps), "max_steps": self.info.get("max_steps"),
            "action": last.action if last else None,
            "action_error": last.action_error if last else None,
            "done": self.done, "verdict": verdict, "width": width, "height": height,
            "frame_version": self.frame_version,
        }

    def frame_png(self) -> bytes:
        """The current screen as PNG bytes."""
        with self.lock:
            shot = self.obs.get("screenshot")
            if shot is None:
                raise ValueError("no screen yet: start an episode (POST /api/new)")
            buffer = io.BytesIO()
            Image.fromarray(np.asarray(shot, dtype=np.uint8)).save(buffer, format="PNG",
                                                                   compress_level=1)
            return buffer.getvalue()

    def close(self) -> None:
        with self.lock:
            if self.env is not None:
                self.env.close()
                self.env = None


# -- recorded episodes (the replay view) -----------------------------------------------
def _read_steps(out: Path) -> list[dict[str, Any]]:
    """The step records of the folder's complete episodes (``load_episodes``: partial ones
    left out, a malformed file one ``TrajectoryError``)."""
    if not (out / STEPS_FILE).is_file():
        return []
    return [step.to_json() for episode in load_episodes(out, frames=False)
            for step in episode.steps]


def list_recorded(out: str | Path) -> list[dict[str, Any]]:
    """One summary per episode of an export folder, in the order they were written."""
    episodes: dict[str, dict[str, Any]] = {}
    for row in _read_steps(Path(out)):
        ep = episodes.setdefault(row["episode_id"], {
            "episode_id": row["episode_id"], "source": row.get("source"),
            "task_id": row.get("task_id"), "seed": row.get("seed"),
            "instruction": row.get("instruction", ""), "steps": 0, "success": None,
            "reward": 0.0})
        ep["steps"] += 1
        if row.get("done"):
            ep["success"], ep["reward"] = row.get("success"), row.get("reward", 0.0)
    return list(episodes.values())


def recorded_steps(out: str | Path, episode_id: str) -> dict[str, Any]:
    """An episode's steps as the replay view draws them (parsed actions, frame names);
    ``KeyError`` for an unknown episode."""
    from ..actions import parse_action

    out = Path(out)
    rows = sorted((r for r in _read_steps(out) if r["episode_id"] == episode_id),
                  key=lambda r: r["step"])
    if not rows:
        raise KeyError(episode_id)
    steps = []
    for row in rows:
        try:
            parsed: dict[str, Any] | None = parse_action(row.get("action") or row["text"]
                                                         ).to_dict()
        except ActionError:
            parsed = None
        steps.append({"step": row["step"], "action": row.get("action") or row["text"],
                      "parsed": parsed, "action_error": row.get("action_error"),
                      "frame": row.get("screenshot"), "reward": row.get("reward")})
    final = out / "frames" / episode_id / FINAL_FRAME
    last = rows[-1]
    return {"episode_id": episode_id, "task_id": last.get("task_id"), "seed": last.get("seed"),
            "instruction": last.get("instruction", ""), "success": last.get("success"),
            "verdict": last.get("verdict"), "reward": last.get("reward"), "steps": steps,
            "final": f"frames/{episode_id}/{FINAL_FRAME}" if final.is_file() else None}
