"""The Phone app (a dialer): its manifest, the app, its tasks (none of its own yet) and its
fixtures (seeding the call log)."""

from __future__ import annotations

from .app import PhoneApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = PhoneApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "PhoneApp"]
