"""The Notes app and its tasks."""

from __future__ import annotations

from .app import NotesApp
from .tasks import TEMPLATES

APP_CLASS = NotesApp

__all__ = ["APP_CLASS", "TEMPLATES", "NotesApp"]
