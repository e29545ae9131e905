"""The registered environment ids: one list, versioned ids."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from ..mockapps import TEMPLATES

PHONE_WORLD = "phone_gym.envs.phone_world:PhoneWorldEnv"

#: (id, entry point, kwargs) of every environment phone-gym registers.
ENVS: list[tuple[str, str, dict[str, Any]]] = [
    ("PhoneWorld-v0", PHONE_WORLD, {}),
    # one id per task template: PhoneWorld-ContactsAddContact-v0, ...
    *((f"PhoneWorld-{task_id}-v0", PHONE_WORLD, {"task": task_id}) for task_id in TEMPLATES),
]


def register_envs() -> None:
    """Register every id in ``ENVS`` (idempotent)."""
    for env_id, entry_point, kwargs in ENVS:
        if env_id not in gym.registry:
            gym.register(env_id, entry_point=entry_point, kwargs=kwargs, disable_env_checker=True)
