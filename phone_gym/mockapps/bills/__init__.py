"""Utility Bills: a mini-program in Chat (WeChat): its manifest, the app, its tasks and, in
``fixtures``, what other tasks use to seed accounts, bills and history."""

from __future__ import annotations

from .app import BillsApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = BillsApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "BillsApp"]
