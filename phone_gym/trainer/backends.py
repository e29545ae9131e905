"""Environment backends behind the collector: a list of envs (any kinds, mixed), a Gymnasium
vector env, or Ray actors (``ray_workers.RayBackend``). Each addresses envs by slot index,
resets chosen slots with chosen seeds, and steps chosen slots with action text."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

import gymnasium as gym
import numpy as np

from ..actions import batch_actions, format_action

if TYPE_CHECKING:
    from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

#: An oracle's next step: ``{"action": text, "reason": str | None, "step_instruction": str |
#: None}`` (reason and instruction None for an env whose oracle gives only actions).
OracleStep = dict[str, str | None]
StepResult = tuple[dict[str, Any], float, bool, bool, dict[str, Any]]
ResetResult = tuple[dict[str, Any], dict[str, Any]]
#: The action sent to vector-env slots that have no episode running (its result is ignored).
IDLE_ACTION = "wait(seconds=0)"
DEFAULT_APPS: tuple[str, ...] = ("Contacts", "Clock", "Notes")


class EnvBackend(Protocol):
    """Envs by slot: ``sources[i]`` names the environment source slot ``i`` runs."""

    sources: list[str]

    def reset(self, slots: Sequence[int], seeds: Sequence[int | None],
              options: Sequence[Mapping[str, Any] | None]) -> list[ResetResult]: ...

    def step(self, slots: Sequence[int], actions: Sequence[str]) -> list[StepResult]: ...

    def oracle(self, slots: Sequence[int]) -> list[str | None]: ...

    def oracle_steps(self, slots: Sequence[int]) -> list[OracleStep | None]: ...

    def close(self) -> None: ...


def oracle_text(env: gym.Env[Any, Any]) -> str | None:
    """The env's next oracle action as text, or None if it has no oracle."""
    fn = getattr(env.unwrapped, "oracle_action", None)
    if fn is None:
        return None
    action = fn()
    return action if isinstance(action, str) else format_action(action)


def oracle_step_of(env: gym.Env[Any, Any]) -> OracleStep | None:
    """The env's next oracle step (``OracleStep``), from its ``oracle_step()`` if it has
    one, else its ``oracle_action()`` alone; None if it has no oracle."""
    fn = getattr(env.unwrapped, "oracle_step", None)
    if fn is None:
        text = oracle_text(env)
        return None if text is None else as_oracle_step(text)
    return as_oracle_step(fn())


def as_oracle_step(step: Any) -> OracleStep:
    """An ``OracleStep`` from an env's ``oracle_step()`` dict (its action formatted as
    text) or from an action alone."""
    if not isinstance(step, dict):
        step = {"action": step}
    action = step["action"]
    return {"action": action if isinstance(action, str) else format_action(action),
            "reason": step.get("reason") or None,
            "step_instruction": step.get("step_instruction") or None}


class EnvListBackend:
    """Envs in this process, of any kinds (e.g. PhoneWorld and RealPhone side by side)."""

    def __init__(self, envs: Sequence[gym.Env[Any, Any]],
                 sources: Sequence[str] | None = None) -> None:
        self.envs = list(envs)
        self.sources = list(sources) if sources is not None else ["env"] * len(self.envs)
        if len(self.sources) != len(self.envs):
            raise ValueError("give one source name per env")

    @classmethod
    def from_factories(cls, factories: Sequence[tuple[str, Callable[[], gym.Env[Any, Any]]]]
                       ) -> EnvListBackend:
        """One env per ``(source name, factory)``."""
        return cls([make() for _, make in factories], [name for name, _ in factories])

    def reset(self, slots: Sequence[int], seeds: Sequence[int | None],
              options: Sequence[Mapping[str, Any] | None]) -> list[ResetResult]:
        return [self.envs[i].reset(seed=s, options=dict(o) if o else None)
                for i, s, o in zip(slots, seeds, options, strict=True)]

    def step(self, slots: Sequence[int], actions: Sequence[str]) -> list[StepResult]:
        out = []
        for i, a in zip(slots, actions, strict=True):
            obs, reward, terminated, truncated, info = self.envs[i].step(a)
            out.append((obs, float(reward), bool(terminated), bool(truncated), info))
        return out

    def oracle(self, slots: Sequence[int]) -> list[str | None]:
        return [oracle_text(self.envs[i]) for i in slots]

    def oracle_steps(self, slots: Sequence[int]) -> list[OracleStep | None]:
        return [oracle_step_of(self.envs[i]) for i in slots]

    def close(self) -> None:
        for env in self.envs:
            env.close()


def _unbatch(batched: Mapping[str, Any], i: int) -> dict[str, Any]:
    """Env ``i``'s entries of a vector env's observation or info dict."""
    out: dict[str, Any] = {}
    for key, value in batched.items():
        if key.startswith("_"):
            continue
        mask = batched.get(f"_{key}")
        if mask is not None and not mask[i]:
            continue
        if isinstance(value, Mapping):
            out[key] = _unbatch(value, i)
        else:  # arrays are copied: a view would pin the batch (or see it overwritten)
            item = value[i]
            out[key] = item.copy() if isinstance(item, np.ndarray) else item
    return out


class VectorEnvBackend:
    """A Gymnasium vector env (``phone_gym.make_vec``, ``SyncVectorEnv``, ``AsyncVectorEnv``).

    Slots are reset with ``options["reset_mask"]``; slots without an episode are stepped
    with ``IDLE_ACTION`` and their results dropped. Actions go through
    ``phone_gym.actions.batch_actions`` (text that does not parse reaches the env as is).
    """

    def __init__(self, vec: gym.vector.VectorEnv, source: str = "env",
                 app_names: Sequence[str] | None = None) -> None:
        self.vec = vec
        self.sources = [source] * vec.num_envs
        if app_names is None:
            try:
                app_names = list(self._per_env.get_attr("app_names")[0])
            except Exception:  # noqa: BLE001 - not a PhoneWorld env
                app_names = list(DEFAULT_APPS)
        self.app_names = list(app_names)
        self._started = False

    @property
    def _per_env(self) -> SyncVectorEnv | AsyncVectorEnv:
        """The vector env as Gymnasium's ``SyncVectorEnv`` and ``AsyncVectorEnv`` (what
        ``make_vec`` makes) are: they take a seed per env and have ``get_attr`` and ``call``,
        which the ``VectorEnv`` base class does not declare."""
        return cast("SyncVectorEnv | AsyncVectorEnv", self.vec)

    def reset(self, slots: Sequence[int], seeds: Sequence[int | None],
              options: Sequence[Mapping[str, Any] | None]) -> list[ResetResult]:
        n = self.vec.num_envs
        seed_list: list[int | None] = [None] * n
        for i, s in zip(slots, seeds, strict=True):
            seed_list[i] = s
        shared = [dict(o) for o in options if o]
        if any(o != shared[0] for o in shared) or (shared and len(shared) != len(slots)):
            raise ValueError("a vector env resets with one options dict for all slots")
        opts: dict[str, Any] = dict(shared[0]) if shared else {}
        if self._started:
            mask = np.zeros(n, dtype=np.bool_)
            mask[list(slots)] = True
            opts["reset_mask"] = mask
        obs, infos = self._per_env.reset(seed=seed_list, options=opts or None)
        self._started = True
        return [(_unbatch(obs, i), _unbatch(infos, i)) for i in slots]

    def step(self, slots: Sequence[int], actions: Sequence[str]) -> list[StepResult]:
        texts = [IDLE_ACTION] * self.vec.num_envs
        for i, a in zip(slots, actions, strict=True):
            texts[i] = a
        obs, rewards, terminated, truncated, infos = self.vec.step(
            batch_actions(texts, self.app_names))
        return [(_unbatch(obs, i), float(rewards[i]), bool(terminated[i]), bool(truncated[i]),
                 _unbatch(infos, i)) for i in slots]

    def oracle(self, slots: Sequence[int]) -> list[str | None]:
        envs = getattr(self.vec, "envs", None)
        if envs is not None:  # SyncVectorEnv: ask only the slots that need it
            return [oracle_text(envs[i]) for i in slots]
        actions = self._per_env.call("oracle_action")
        return [format_action(actions[i]) if actions[i] is not None else None for i in slots]

    def oracle_steps(self, slots: Sequence[int]) -> list[OracleStep | None]:
        envs = getattr(self.vec, "envs", None)
        if envs is not None:
            return [oracle_step_of(envs[i]) for i in slots]
        steps = self._per_env.call("oracle_step")
        return [as_oracle_step(steps[i]) if steps[i] is not None else None for i in slots]

    def close(self) -> None:
        self.vec.close()
