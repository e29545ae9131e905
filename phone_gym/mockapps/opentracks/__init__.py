"""OpenTracks: its manifest, the app, its tasks (and, in ``fixtures``, what tasks use to
seed recorded activities)."""

from __future__ import annotations

from .app import OpenTracksApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = OpenTracksApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "OpenTracksApp"]
