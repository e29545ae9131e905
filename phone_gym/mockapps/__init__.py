"""Mock apps (one folder each, with its tasks) and the registry of apps and task templates."""

from __future__ import annotations

from ..world.app import App
from .notes import TEMPLATES as _NOTES
from .notes import NotesApp
from .task import Episode, TaskTemplate

#: Every mock app installed on a PhoneWorld phone, in launcher order.
APPS: list[type[App]] = [NotesApp]

#: Every task template by id.
TEMPLATES: dict[str, TaskTemplate] = {t.id: t for t in [*_NOTES]}

__all__ = ["APPS", "TEMPLATES", "Episode", "TaskTemplate"]
