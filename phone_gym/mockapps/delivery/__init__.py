"""The Delivery app (food delivery): its manifest, the app and its tasks."""

from __future__ import annotations

from .app import DeliveryApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = DeliveryApp

__all__ = ["APP", "DeliveryApp", "MANIFEST", "TEMPLATES"]
