"""The Video app (YouTube): its manifest, the app and its tasks."""

from __future__ import annotations

from .app import VideoApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = VideoApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "VideoApp"]
