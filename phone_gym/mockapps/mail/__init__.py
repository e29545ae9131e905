"""The Mail app (Gmail-like): its manifest, the app, its tasks (and, in ``fixtures``, what
other apps' tasks may use to seed mail)."""

from __future__ import annotations

from .app import MailApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = MailApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "MailApp"]
