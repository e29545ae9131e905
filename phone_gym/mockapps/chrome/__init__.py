"""The Chrome app: a browser for local pages, with AndroidWorld's three task pages."""

from __future__ import annotations

from .app import ChromeApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = ChromeApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "ChromeApp"]
