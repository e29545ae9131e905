"""The Camera app: its manifest, the app and its tasks."""

from __future__ import annotations

from .app import CameraApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = CameraApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "CameraApp"]
