"""The Files app (``com.google.android.documentsui``) and its tasks."""

from __future__ import annotations

from .app import FilesApp
from .tasks import TEMPLATES

APP_CLASS = FilesApp

__all__ = ["APP_CLASS", "TEMPLATES", "FilesApp"]
