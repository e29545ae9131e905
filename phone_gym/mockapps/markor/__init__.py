"""The Markor app: its manifest, the app, its tasks (and, in ``fixtures``, what other apps'
tasks may use to seed notes and open them)."""

from __future__ import annotations

from .app import MarkorApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = MarkorApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "MarkorApp"]
