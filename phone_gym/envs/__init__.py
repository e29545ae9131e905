"""Gymnasium environments, wrappers and registration."""

from __future__ import annotations

from .phone_world import PhoneWorldEnv, select_templates
from .real_phone import RealPhoneEnv
from .registration import ENVS, make_vec, register_envs
from .spaces import SharedText
from .wrappers import DiscreteActions, PixelsOnly, SuccessInfo

__all__ = [
    "ENVS", "DiscreteActions", "PhoneWorldEnv", "PixelsOnly", "RealPhoneEnv", "SharedText",
    "SuccessInfo", "make_vec", "register_envs", "select_templates",
]
