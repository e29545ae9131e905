"""The Retro Music app: its manifest, the app and its tasks (and, in ``fixtures``, what
other apps' tasks may use to put songs on the phone)."""

from __future__ import annotations

from .app import MusicApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = MusicApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "MusicApp"]
