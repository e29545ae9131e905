"""phone-gym: phones as reinforcement-learning environments.

``import phone_gym`` registers ``PhoneWorld-v0`` and one ``PhoneWorld-<Task>-v0`` id per
task template with Gymnasium.
"""

from __future__ import annotations

from .actions import ActionError, PhoneAction, format_action, parse_action
from .envs import ENVS, PhoneWorldEnv, make_vec, register_envs

__version__ = "0.1.0"

register_envs()

__all__ = [
    "ENVS", "ActionError", "PhoneAction", "PhoneWorldEnv", "__version__", "format_action",
    "make_vec", "parse_action", "register_envs",
]
