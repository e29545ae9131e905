"""The Gallery app (Simple Gallery Pro): its manifest, the app, its tasks, and in
``fixtures`` what other apps' tasks use to put pictures (receipts, recipe cards) on the
phone."""

from __future__ import annotations

from .app import GalleryApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = GalleryApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "GalleryApp"]
