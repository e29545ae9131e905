"""The Settings app (``com.android.settings``) and its tasks."""

from __future__ import annotations

from .app import SettingsApp
from .tasks import TEMPLATES

APP_CLASS = SettingsApp

__all__ = ["APP_CLASS", "TEMPLATES", "SettingsApp"]
