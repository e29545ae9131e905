"""The registered environment ids: one list, versioned ids."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from gymnasium.envs.registration import WrapperSpec

from ..mockapps import TEMPLATES
from .vector import phone_worker

#: Outside any ``TimeLimit`` (``max_episode_steps``): a truncated episode is scored.
SCORE_ON_TRUNCATION = WrapperSpec("ScoreOnTruncation",
                                  "phone_gym.envs.wrappers:ScoreOnTruncation", {})
PHONE_WORLD = "phone_gym.envs.phone_world:PhoneWorldEnv"
REAL_PHONE = "phone_gym.envs.real_phone:RealPhoneEnv"

#: (id, entry point, kwargs) of every environment phone-gym registers.
ENVS: list[tuple[str, str, dict[str, Any]]] = [
    ("PhoneWorld-v0", PHONE_WORLD, {}),
    # one id per task template: PhoneWorld-ContactsAddContact-v0, ...
    *((f"PhoneWorld-{task_id}-v0", PHONE_WORLD, {"task": task_id}) for task_id in TEMPLATES),
    # a phone over adb (or the virtual adb device: `phone-gym virtual-device`)
    ("RealPhone-v0", REAL_PHONE, {}),
]


def register_envs() -> None:
    """Register every id in ``ENVS`` (idempotent)."""
    for env_id, entry_point, kwargs in ENVS:
        if env_id not in gym.registry:
            gym.register(env_id, entry_point=entry_point, kwargs=kwargs, disable_env_checker=True,
                         additional_wrappers=(SCORE_ON_TRUNCATION,))


def make_vec(
    num_envs: int,
    env_id: str = "PhoneWorld-v0",
    vectorization_mode: str = "async",
    **kwargs: Any,
) -> gym.vector.VectorEnv:
    """``num_envs`` copies of ``env_id`` in a Gymnasium vector env (``"async"``: one process
    each; ``"sync"``: in this process). Text observations stay correct in both modes.

    ``"async"`` runs ``vector.phone_worker`` in each process (cheaper steps across processes,
    same results); ``vector_kwargs={"worker": None}`` runs Gymnasium's own worker instead."""
    if vectorization_mode not in ("async", "sync"):
        raise ValueError(f"vectorization_mode={vectorization_mode!r}; accepted: 'async', 'sync'")
    if not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs={num_envs!r}; accepted: a positive int")
    if vectorization_mode == "async":
        kwargs["vector_kwargs"] = {"worker": phone_worker, **(kwargs.get("vector_kwargs") or {})}
    return gym.make_vec(env_id, num_envs=num_envs, vectorization_mode=vectorization_mode,
                        **kwargs)
