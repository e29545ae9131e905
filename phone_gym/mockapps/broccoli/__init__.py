"""The Broccoli recipe app: its manifest, the app, its tasks (and, in ``fixtures``, what
other apps' tasks may use to seed recipes)."""

from __future__ import annotations

from .app import BroccoliApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = BroccoliApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "BroccoliApp"]
