"""Joplin: its manifest, the app, its tasks (and, in ``fixtures``, what tasks use to seed
notebooks and notes)."""

from __future__ import annotations

from .app import JoplinApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = JoplinApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "JoplinApp"]
