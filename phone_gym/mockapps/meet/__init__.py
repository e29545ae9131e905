"""Meet (shown as Zoom): video meetings (its manifest, the app and its tasks; ``fixtures``
seeds contacts and meetings for other apps' tasks)."""

from __future__ import annotations

from .app import MeetApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = MeetApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "MeetApp"]
