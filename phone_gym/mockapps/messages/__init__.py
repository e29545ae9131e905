"""The SMS Messenger app: its manifest, the app, its tasks (and, in ``fixtures``, what other
apps' tasks may use to seed messages; ``tasks.send_sms`` is the oracle helper that sends one)."""

from __future__ import annotations

from .app import MessagesApp
from .manifest import MANIFEST
from .safety import TEMPLATES as SAFETY
from .tasks import TEMPLATES as SENDING

TEMPLATES = [*SENDING, *SAFETY]

APP = MessagesApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "MessagesApp"]
