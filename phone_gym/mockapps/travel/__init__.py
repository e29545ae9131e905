"""The Travel app (Trip.com-like hotels, trains and flights): its manifest, the app, its
tasks (and, in ``fixtures``, what other apps' tasks may use to seed its data)."""

from __future__ import annotations

from .app import TravelApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = TravelApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "TravelApp"]
