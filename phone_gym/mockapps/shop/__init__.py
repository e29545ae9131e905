"""The Shop app (an online marketplace): its manifest, the app and its tasks."""

from __future__ import annotations

from .app import ShopApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = ShopApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "ShopApp"]
