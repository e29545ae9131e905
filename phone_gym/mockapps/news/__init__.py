"""The News app (Google News): its manifest, the app and its tasks."""

from __future__ import annotations

from .app import NewsApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = NewsApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "NewsApp"]
