"""The Ride app (Uber-like ride-hailing): its manifest, the app, its tasks (and, in
``fixtures``, what other apps' tasks may use to seed its data)."""

from __future__ import annotations

from .app import RideApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = RideApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "RideApp"]
