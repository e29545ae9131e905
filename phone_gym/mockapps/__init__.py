"""Mock apps (one folder each: manifest, app, tasks, fixtures), cross-app tasks, and the
registry that finds them (plus third-party apps installed with pip).

``APPS`` are the app classes in launcher order, ``TEMPLATES`` every task template by id,
``REGISTRY`` the lookups with suggestions (``REGISTRY.app(name)``, ``REGISTRY.template(id)``).
"""

from __future__ import annotations

from ..tasks.driver import Driver, OracleError, Unrecoverable
from ..tasks.registry import ENTRY_POINT_GROUP, AppPackage, Registry, discover
from ..tasks.task import Episode, SetupError, Task, TaskTemplate, WorldHost
from ..world.app import App

REGISTRY: Registry = discover()

#: Every mock app installed on a PhoneWorld phone, in launcher order.
APPS: list[type[App]] = REGISTRY.apps

#: Every task template by id.
TEMPLATES: dict[str, Task] = REGISTRY.templates

__all__ = [
    "APPS", "ENTRY_POINT_GROUP", "REGISTRY", "TEMPLATES", "AppPackage", "Driver", "Episode",
    "OracleError", "Registry", "SetupError", "Task", "TaskTemplate", "Unrecoverable",
    "WorldHost", "discover",
]
