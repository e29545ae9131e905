"""The Social app (X): its manifest, the app and its tasks."""

from __future__ import annotations

from .app import SocialApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = SocialApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "SocialApp"]
