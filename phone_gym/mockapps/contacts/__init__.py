"""The Contacts app: its manifest, the app, its tasks (and, in ``fixtures``, what other apps'
tasks may use to seed its data)."""

from __future__ import annotations

from .app import ContactsApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = ContactsApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "ContactsApp"]
