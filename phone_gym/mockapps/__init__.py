"""Mock apps, one folder each: ``manifest`` (what the app is: read without loading its code),
``app`` (state as dataclasses, views as pure functions, updates as functions), ``tasks`` (its
templates) and ``fixtures`` (the public seeding API other apps' tasks may use).

``REGISTRY`` (the registry of ``phone_gym.tasks.registry``: lookups with suggestions,
``REGISTRY.app(name)``, ``REGISTRY.template(id)``), ``APPS`` (the installed apps in launcher
order, as ``AppHandle``s that load an app's code on first use) and ``TEMPLATES`` (every task
template by id, built on first lookup) are made when first read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..tasks.driver import Driver, OracleError, Unrecoverable
    from ..tasks.registry import ENTRY_POINT_GROUP, AppPackage, Registry, Templates, discover
    from ..tasks.task import Episode, SetupError, Task, TaskTemplate, WorldHost
    from ..world.app import AppHandle

    REGISTRY: Registry
    APPS: list[AppHandle]
    TEMPLATES: Templates

_KERNEL = {"Driver": "driver", "OracleError": "driver", "Unrecoverable": "driver",
           "ENTRY_POINT_GROUP": "registry", "AppPackage": "registry", "Registry": "registry",
           "discover": "registry", "Templates": "registry", "Episode": "task",
           "SetupError": "task", "Task": "task", "TaskTemplate": "task", "WorldHost": "task"}

__all__ = ["APPS", "ENTRY_POINT_GROUP", "REGISTRY", "TEMPLATES", "AppPackage", "Driver", "Episode",
           "OracleError", "Registry", "SetupError", "Task", "TaskTemplate", "Templates",
           "Unrecoverable", "WorldHost", "discover"]


def __getattr__(name: str) -> Any:
    import importlib

    if name in ("REGISTRY", "APPS", "TEMPLATES"):
        from ..tasks.registry import default_registry

        registry = default_registry()
        return {"REGISTRY": registry, "APPS": registry.apps,
                "TEMPLATES": registry.templates}[name]
    if name in _KERNEL:
        return getattr(importlib.import_module(f"phone_gym.tasks.{_KERNEL[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
