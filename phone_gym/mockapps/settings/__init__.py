"""Placeholder: filled in by the settings app work."""

from __future__ import annotations

APP_CLASS = None
TEMPLATES: tuple = ()
