"""Gymnasium environments, wrappers and registration. Names load their modules on first use
(``import phone_gym`` registers the ids without importing an app)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .registration import ENVS, make_vec, register_envs

if TYPE_CHECKING:
    from .phone_world import PhoneWorldEnv, select_templates
    from .real_phone import RealPhoneEnv
    from .spaces import SharedText
    from .wrappers import DiscreteActions, PixelsOnly, SuccessInfo

_WHERE = {"PhoneWorldEnv": "phone_world", "select_templates": "phone_world",
          "RealPhoneEnv": "real_phone", "SharedText": "spaces", "DiscreteActions": "wrappers",
          "PixelsOnly": "wrappers", "SuccessInfo": "wrappers"}

__all__ = ["ENVS", "DiscreteActions", "PhoneWorldEnv", "PixelsOnly", "RealPhoneEnv", "SharedText",
           "SuccessInfo", "make_vec", "register_envs", "select_templates"]


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
