"""The Draw app (Simple Draw Pro): a canvas, colors, and saving pictures."""

from __future__ import annotations

from .app import DrawApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = DrawApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "DrawApp"]
