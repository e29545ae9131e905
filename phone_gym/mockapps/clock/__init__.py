"""Placeholder: being written."""

from __future__ import annotations

APP_CLASS = None
TEMPLATES: list = []
