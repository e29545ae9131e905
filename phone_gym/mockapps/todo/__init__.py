"""The To-do app: its manifest, the app, its tasks (and, in ``fixtures``, what other apps'
tasks may use to seed its data). Written by ``phone-gym new-app``."""

from __future__ import annotations

from .app import TodoApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = TodoApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "TodoApp"]
