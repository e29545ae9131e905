"""Mock apps (one folder each, with its tasks) and the registry of apps and task templates."""

from __future__ import annotations

from ..world.app import App
from . import clock, contacts, files, notes, settings
from .task import Episode, TaskTemplate

_PACKAGES = (contacts, clock, notes, settings, files)

#: Every mock app installed on a PhoneWorld phone, in launcher order.
APPS: list[type[App]] = [p.APP_CLASS for p in _PACKAGES if p.APP_CLASS is not None]

#: Every task template by id.
TEMPLATES: dict[str, TaskTemplate] = {t.id: t for p in _PACKAGES for t in p.TEMPLATES}

__all__ = ["APPS", "TEMPLATES", "Episode", "TaskTemplate"]
