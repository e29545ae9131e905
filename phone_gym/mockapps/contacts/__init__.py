"""The Contacts app and its tasks (plus a cross-app task with Notes)."""

from __future__ import annotations

from .app import ContactsApp
from .tasks import TEMPLATES

APP_CLASS = ContactsApp

__all__ = ["APP_CLASS", "TEMPLATES", "ContactsApp"]
