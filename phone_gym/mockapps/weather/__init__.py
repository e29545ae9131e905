"""Weather: its manifest, the app, its tasks (and, in ``fixtures``, seeding saved cities)."""

from __future__ import annotations

from .app import WeatherApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = WeatherApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "WeatherApp"]
