"""phone-gym: phones as reinforcement-learning environments.

``import phone_gym`` registers ``PhoneWorld-v0``, ``RealPhone-v0`` and one
``PhoneWorld-<Task>-v0`` id per task template with Gymnasium (from the template index: no
app is imported until an env is made). The names below load their modules on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .envs.registration import ENVS, make_vec, register_envs

if TYPE_CHECKING:
    from .actions import ActionError, PhoneAction, format_action, parse_action
    from .envs.phone_world import PhoneWorldEnv

__version__ = "0.1.0"

register_envs()

_WHERE = {"ActionError": "actions", "PhoneAction": "actions", "format_action": "actions",
          "parse_action": "actions", "PhoneWorldEnv": "envs.phone_world"}

__all__ = ["ENVS", "ActionError", "PhoneAction", "PhoneWorldEnv", "__version__", "format_action",
           "make_vec", "parse_action", "register_envs"]


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
