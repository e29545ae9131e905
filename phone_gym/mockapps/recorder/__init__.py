"""The Audio Recorder app: its manifest, the app and its tasks."""

from __future__ import annotations

from .app import RecorderApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = RecorderApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "RecorderApp"]
