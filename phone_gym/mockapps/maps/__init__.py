"""Google Maps: its manifest, the app, its tasks (and, in ``fixtures``, seeding a city)."""

from __future__ import annotations

from .app import MapsApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = MapsApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "MapsApp"]
