"""Gymnasium environments, wrappers and registration."""

from __future__ import annotations

from .phone_world import PhoneWorldEnv, select_templates
from .registration import ENVS, make_vec, register_envs
from .spaces import SharedText

__all__ = [
    "ENVS", "PhoneWorldEnv", "SharedText", "make_vec", "register_envs", "select_templates",
]
