"""The registered environment ids: one list, versioned ids."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import gymnasium as gym
from gymnasium.envs.registration import WrapperSpec

from ..tasks.index import builtin_template_ids, plugin_entries

#: Outside any ``TimeLimit`` (``max_episode_steps``): a truncated episode is scored.
SCORE_ON_TRUNCATION = WrapperSpec("ScoreOnTruncation",
                                  "phone_gym.envs.wrappers:ScoreOnTruncation", {})
PHONE_WORLD = "phone_gym.envs.phone_world:PhoneWorldEnv"
REAL_PHONE = "phone_gym.envs.real_phone:RealPhoneEnv"



def template_ids() -> list[str]:
    """Every template id: the built-in ones from the template index (no app is imported),
    then third-party apps' (loaded, only when some are installed)."""
    ids = builtin_template_ids()
    if plugin_entries():
        from ..tasks.registry import default_registry

        known = set(ids)
        ids += [task_id for task_id in default_registry().templates if task_id not in known]
    return ids


#: (id, entry point, kwargs) of every environment phone-gym registers.
ENVS: list[tuple[str, str, dict[str, Any]]] = [
    ("PhoneWorld-v0", PHONE_WORLD, {}),
    # one id per task template: PhoneWorld-ContactsAddContact-v0, ...
    *((f"PhoneWorld-{task_id}-v0", PHONE_WORLD, {"task": task_id}) for task_id in template_ids()),
    # a phone over adb (or the virtual adb device: `phone-gym virtual-device`)
    ("RealPhone-v0", REAL_PHONE, {}),
]


def register_envs() -> None:
    """Register every id in ``ENVS`` (idempotent)."""
    for env_id, entry_point, kwargs in ENVS:
        if env_id not in gym.registry:
            gym.register(env_id, entry_point=entry_point, kwargs=kwargs, disable_env_checker=True,
                         additional_wrappers=(SCORE_ON_TRUNCATION,))


def _make_env(env_id: str, kwargs: dict[str, Any],
              wrappers: Sequence[Callable[[gym.Env[Any, Any]], gym.Env[Any, Any]]]
              ) -> gym.Env[Any, Any]:
    """One env of ``make_vec``, as ``gym.make_vec`` makes it: ``gym.make``, then ``wrappers``."""
    env = gym.make(env_id, **kwargs)
    for wrapper in wrappers:
        env = wrapper(env)
    return env


def make_vec(
    num_envs: int,
    env_id: str = "PhoneWorld-v0",
    vectorization_mode: str = "async",
    autorestart: bool = False,
    **kwargs: Any,
) -> gym.vector.VectorEnv:
    """``num_envs`` copies of ``env_id`` in a Gymnasium vector env (``"async"``: one process
    each; ``"sync"``: in this process). Text observations stay correct in both modes.

    ``"async"`` builds a ``vector.PhoneAsyncVectorEnv`` (Gymnasium's ``AsyncVectorEnv`` that
    reports a dead worker as ``vector.WorkerDied`` and closes cleanly whatever happened) that
    runs ``vector.phone_worker`` in each process (cheaper steps across processes, same
    results); ``vector_kwargs`` go to it (``{"worker": None}`` runs Gymnasium's own worker).
    ``autorestart=True`` (``"async"`` only) restarts a dead worker with a fresh env: its step
    ends the episode (``truncated=True``, ``info["restarted"]``, ``info["worker_error"]``),
    the other envs go on. ``wrappers`` and the other ``kwargs`` are ``gym.make_vec``'s."""
    from .vector import PhoneAsyncVectorEnv, phone_worker

    if vectorization_mode not in ("async", "sync"):
        raise ValueError(f"vectorization_mode={vectorization_mode!r}; accepted: 'async', 'sync'")
    if not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs={num_envs!r}; accepted: a positive int")
    if vectorization_mode == "sync":
        if autorestart:
            raise ValueError("autorestart=True restarts worker processes: "
                             "vectorization_mode='async' only")
        return gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="sync", **kwargs)
    # what gym.make_vec does in "async" mode, with PhoneAsyncVectorEnv for AsyncVectorEnv
    vector_kwargs = {"worker": phone_worker, **(kwargs.pop("vector_kwargs", None) or {})}
    wrappers = tuple(kwargs.pop("wrappers", None) or ())
    spec = copy.deepcopy(gym.spec(env_id))
    make_one = partial(_make_env, env_id, dict(kwargs), wrappers)
    vec = PhoneAsyncVectorEnv([make_one] * num_envs, autorestart=autorestart, **vector_kwargs)
    spec.kwargs = {**spec.kwargs, **kwargs, "vectorization_mode": "async",
                   "vector_kwargs": vector_kwargs}
    if num_envs != 1:
        spec.kwargs["num_envs"] = num_envs
    if wrappers:
        spec.kwargs["wrappers"] = wrappers
    vec.unwrapped.spec = spec
    return vec
