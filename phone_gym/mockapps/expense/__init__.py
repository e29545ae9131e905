"""The Expense app (Pro Expense): its manifest, the app, its tasks (and, in ``fixtures``,
what other apps' tasks may use to seed expenses)."""

from __future__ import annotations

from .app import ExpenseApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = ExpenseApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "ExpenseApp"]
