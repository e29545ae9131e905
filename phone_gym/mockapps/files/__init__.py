"""Placeholder: filled in by the files app work."""

from __future__ import annotations

APP_CLASS = None
TEMPLATES: tuple = ()
