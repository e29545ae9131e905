"""The task kernel, below the apps: what a task template is (``task``: ``Task``, ``Episode``,
``WorldHost``), the families most templates are built from (``families``), the UI-element
``Driver`` oracles act through (``driver``), the shared vocabulary (``vocab``), AndroidWorld's
device date and day phrasing (``aw``), and the registry that finds apps and templates
(``registry``: apps from their manifests, template ids from the index ``templates.json``,
code loaded on first use). Apps (``phone_gym.mockapps``) build on it; the cross-app
catalogue (``phone_gym.crossapp``) and the suites (``phone_gym.suites``) build on the apps.
Its names load their modules on first use."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .driver import Driver, OracleError, Unrecoverable
    from .task import Episode, SetupError, Task, TaskTemplate, WorldHost

_WHERE = {"Driver": "driver", "OracleError": "driver", "Unrecoverable": "driver",
          "Episode": "task", "SetupError": "task", "Task": "task", "TaskTemplate": "task",
          "WorldHost": "task"}
__all__ = ["Driver", "Episode", "OracleError", "SetupError", "Task", "TaskTemplate",
           "Unrecoverable", "WorldHost"]


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
