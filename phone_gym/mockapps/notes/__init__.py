"""The Notes app and its tasks."""

from __future__ import annotations

from .app import NotesApp
from .tasks import TEMPLATES

__all__ = ["TEMPLATES", "NotesApp"]
