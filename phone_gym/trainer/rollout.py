"""The rollout collector: a policy on N environments at once, one ``StepRecord`` per step.

Episodes (``EpisodeSpec``: source, seed, group) are queued; each free env slot of the right
source starts the next one, so a slow env never holds the others back. Every tick the
policy acts on all running episodes in one batch and the backend steps them.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np

from ..actions import ActionError, parse_action
from ..trajectory.records import Episode, StepRecord
from .backends import EnvBackend, EnvListBackend, VectorEnvBackend
from .mixing import EpisodeSpec, MixedSampler
from .policies import Policy, as_generation
from .prompts import Turn, check_history

MAX_HISTORY_TEXT = 200


@dataclass
class _Running:
    spec: EpisodeSpec
    episode_id: str
    obs: dict[str, Any]
    info: dict[str, Any]
    history: list[Turn] = field(default_factory=list)
    steps: list[StepRecord] = field(default_factory=list)
    #: the oracle's reason and step instruction for the step about to be taken
    oracle: dict[str, str | None] = field(default_factory=dict)


def as_backend(envs: Any) -> EnvBackend:
    """A backend from a backend, a vector env, a sampler (its sources' envs) or a list of
    envs."""
    if isinstance(envs, gym.vector.VectorEnv):
        return VectorEnvBackend(envs)
    if isinstance(envs, MixedSampler):
        return envs.make_backend()
    if isinstance(envs, (list, tuple)):
        return EnvListBackend(envs)
    return envs  # type: ignore[no-any-return]


def frame_ref(episode_id: str, step: int) -> str:
    """Where ``export`` writes the frame of a step, relative to the export folder."""
    return f"frames/{episode_id}/{step:03d}.png"


class Collector:
    """Runs ``policy`` on the envs of ``envs`` (a backend, a vector env, a list of envs or a
    ``MixedSampler``) and returns ``Episode``s of ``StepRecord``s.

    ``format_penalty`` is subtracted from the reward of a step whose action failed
    (``info["action_error"]``); ``keep_frames`` keeps every step's screenshot in its record
    (``StepRecord.frame``) for export and SFT. ``history_frames``: how many of the latest
    earlier screenshots each running episode keeps for the policy's prompts (default: the
    policy's ``history_images``, else 0); older ones are let go unless ``keep_frames``, so
    history screenshots reach every prompt whether or not frames are kept for export, and
    memory holds only ``history_frames`` frames per running episode. ``timings`` accumulates
    seconds spent in the envs and in the policy.
    """

    def __init__(self, envs: Any, policy: Policy, *, sampler: MixedSampler | None = None,
                 format_penalty: float = 0.0, keep_frames: bool = True,
                 history_frames: int | None = None, seed: int = 0) -> None:
        wanted = int(getattr(policy, "history_images", 0) or 0)
        if hasattr(policy, "max_history"):  # refuse what its prompts cannot show, up front
            check_history(int(policy.max_history), wanted)
        if history_frames is None:
            history_frames = wanted
        if history_frames < wanted:
            raise ValueError(f"history_frames={history_frames} < the policy's history_images="
                             f"{wanted}: its prompts would lose earlier screenshots; accepted: "
                             f"history_frames >= {wanted} (or None: the policy's value)")
        self.backend = as_backend(envs)
        self.policy = policy
        self.history_frames = history_frames
        self.sampler = sampler if sampler is not None else (
            envs if isinstance(envs, MixedSampler) else None)
        self.format_penalty = abs(format_penalty)
        self.keep_frames = keep_frames
        self.rng = np.random.default_rng(seed)
        self.timings = {"env_s": 0.0, "policy_s": 0.0, "steps": 0}
        self._episodes = 0
        self._groups = 0

    def specs(self, num_episodes: int, group_size: int = 1) -> list[EpisodeSpec]:
        """``num_episodes`` specs in groups of ``group_size``: from the sampler if there is
        one, else random seeds on the first source."""
        if num_episodes % group_size:
            raise ValueError("num_episodes must be a multiple of group_size")
        groups = num_episodes // group_size
        if self.sampler is not None:
            return self.sampler.sample(groups, group_size)
        out = []
        for _ in range(groups):
            seed = int(self.rng.integers(2**31 - 1))
            out += [EpisodeSpec(self.backend.sources[0], seed, self._groups)] * group_size
            self._groups += 1
        return out

    def collect(self, num_episodes: int | None = None, *, group_size: int = 1,
                specs: Sequence[EpisodeSpec] | None = None,
                progress: bool = False) -> list[Episode]:
        """Run episodes to the end; returns them in the order they finished."""
        if specs is None:
            if num_episodes is None:
                raise ValueError("give num_episodes or specs")
            specs = self.specs(num_episodes, group_size)
        queue: deque[EpisodeSpec] = deque(specs)
        known = set(self.backend.sources)
        missing = {s.source for s in queue} - known
        if missing:
            raise ValueError(f"no env for sources {sorted(missing)}; envs run {sorted(known)}")
        running: dict[int, _Running] = {}
        done: list[Episode] = []
        bar = _progress(len(queue), progress)
        while queue or running:
            self._start(queue, running)
            slots = sorted(running)
            states = [running[i] for i in slots]
            if getattr(self.policy, "needs_oracle", False):
                t0 = time.perf_counter()
                self._ask_oracle(slots, states)
                self.timings["env_s"] += time.perf_counter() - t0
            t0 = time.perf_counter()
            outputs = [as_generation(o) for o in self.policy.act(
                [s.obs for s in states], [s.info for s in states], [s.history for s in states])]
            t1 = time.perf_counter()
            results = self.backend.step(slots, [g.text for g in outputs])
            self.timings["env_s"] += time.perf_counter() - t1
            self.timings["policy_s"] += t1 - t0
            self.timings["steps"] += len(slots)
            for slot, state, gen, result in zip(slots, states, outputs, results, strict=True):
                record = self._record(state, gen, result)
                state.steps.append(record)
                if record.done:
                    task_id = record.task_id  # the env names the task when it ends
                    for earlier in state.steps:
                        earlier.task_id = earlier.task_id or task_id
                    done.append(Episode(state.steps))
                    del running[slot]
                    bar.update(1)
                else:
                    self._remember(state, record)
                    state.obs, state.info = result[0], result[4]
        bar.close()
        return done

    def _ask_oracle(self, slots: list[int], states: list[_Running]) -> None:
        """Put each env's next oracle action in its info (what ``OraclePolicy`` reads) and
        keep its reason and step instruction for the record (never in the info)."""
        steps = getattr(self.backend, "oracle_steps", None)
        if steps is None:  # a backend that gives actions only
            for state, action in zip(states, self.backend.oracle(slots), strict=True):
                state.info["oracle_action"] = action
                state.oracle = {}
            return
        for state, step in zip(states, steps(slots), strict=True):
            state.info["oracle_action"] = None if step is None else step["action"]
            state.oracle = {} if step is None else {
                "reason": step.get("reason"), "step_instruction": step.get("step_instruction")}

    def _start(self, queue: deque[EpisodeSpec], running: dict[int, _Running]) -> None:
        """Start queued episodes on free slots of their sources."""
        starts: list[tuple[int, EpisodeSpec]] = []
        for slot, source in enumerate(self.backend.sources):
            if slot in running:
                continue
            spec = next((s for s in queue if s.source == source), None)
            if spec is not None:
                queue.remove(spec)
                starts.append((slot, spec))
        if not starts:
            return
        t0 = time.perf_counter()
        results = self.backend.reset([s for s, _ in starts], [p.seed for _, p in starts],
                                     [p.options for _, p in starts])
        self.timings["env_s"] += time.perf_counter() - t0
        for (slot, spec), (obs, info) in zip(starts, results, strict=True):
            episode_id = spec.episode_id or f"ep{self._episodes:06d}"
            running[slot] = _Running(spec, episode_id, obs, dict(info))
            self._episodes += 1

    def _remember(self, state: _Running, record: StepRecord) -> None:
        """Add the step to the episode's history, with its screenshot while it is one of
        the last ``history_frames`` (all of them with ``keep_frames``: the records hold
        them anyway)."""
        shot = state.obs.get("screenshot")
        frame = record.frame if record.frame is not None else (
            np.asarray(shot) if shot is not None and self.history_frames else None)
        state.history.append(Turn(record.action or record.text[:MAX_HISTORY_TEXT],
                                  record.action_error, frame))
        if not self.keep_frames and len(state.history) > self.history_frames:
            state.history[-self.history_frames - 1].screenshot = None

    def _record(self, state: _Running, gen: Any, result: Any) -> StepRecord:
        obs, env_reward, terminated, truncated, info = result
        step = len(state.steps)
        try:
            parse_action(gen.text)
            valid = True
        except ActionError:
            valid = False
        error = info.get("action_error")
        penalty = -self.format_penalty if error else 0.0
        shot = state.obs.get("screenshot")
        n_images = len(gen.images)
        refs = [frame_ref(state.episode_id, k) for k in range(step - n_images + 1, step + 1)]
        success = info.get("success")
        return StepRecord(
            episode_id=state.episode_id, source=state.spec.source,
            task_id=info.get("task_id") or state.info.get("task_id"), seed=state.spec.seed,
            group_id=state.spec.group_id, step=step,
            instruction=str(state.obs.get("instruction", state.info.get("instruction", ""))),
            history=[t.action for t in state.history],
            feedback=state.history[-1].error if state.history else None,
            prompt_ids=gen.prompt_ids, gen_ids=gen.gen_ids, logprobs=gen.logprobs,
            screenshot=frame_ref(state.episode_id, step) if shot is not None else None,
            image_refs=refs, text=gen.text, action=info.get("action"), valid=valid,
            action_error=error, env_reward=float(env_reward), penalty=penalty,
            reward=float(env_reward) + penalty, done=bool(terminated or truncated),
            terminated=bool(terminated), truncated=bool(truncated),
            success=None if success is None else bool(success), verdict=info.get("verdict"),
            reason=state.oracle.get("reason"),
            step_instruction=state.oracle.get("step_instruction"),
            locale=info.get("locale") or state.info.get("locale"),
            images=list(gen.images),
            frame=np.asarray(shot) if shot is not None and self.keep_frames else None,
        )


class _NoBar:
    def update(self, n: int) -> None: ...

    def close(self) -> None: ...


def _progress(total: int, enabled: bool) -> Any:
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, desc="episodes", unit="ep")
