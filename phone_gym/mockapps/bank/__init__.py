"""The Bank app: its manifest, the app, its tasks (and, in ``fixtures``, what other apps'
tasks may use to seed its data)."""

from __future__ import annotations

from .app import BankApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = BankApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "BankApp"]
