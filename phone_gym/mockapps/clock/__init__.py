"""The Clock app and its tasks."""

from __future__ import annotations

from .app import ClockApp
from .tasks import TEMPLATES

APP_CLASS = ClockApp

__all__ = ["APP_CLASS", "TEMPLATES", "ClockApp"]
