"""Gymnasium environments, wrappers and registration."""

from __future__ import annotations

from .phone_world import PhoneWorldEnv, select_templates
from .registration import ENVS, register_envs

__all__ = ["ENVS", "PhoneWorldEnv", "register_envs", "select_templates"]
