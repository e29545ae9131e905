"""The Clipper app: its manifest, the app (and, in ``fixtures``, putting text on the
clipboard for other apps' tasks). Its task is the system's (``crossapp.system``)."""

from __future__ import annotations

from .app import ClipperApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = ClipperApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "ClipperApp"]
