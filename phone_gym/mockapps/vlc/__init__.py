"""The VLC app: its manifest, the app and its tasks (and, in ``fixtures``, what other apps'
tasks may use to put videos on the phone)."""

from __future__ import annotations

from .app import VlcApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = VlcApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "VlcApp"]
