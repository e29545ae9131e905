"""The Calendar app (Simple Calendar Pro's counterpart): its manifest, the app, its tasks
(and, in ``fixtures``, what other apps' tasks may use to seed events)."""

from __future__ import annotations

from .app import CalendarApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = CalendarApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "CalendarApp"]
