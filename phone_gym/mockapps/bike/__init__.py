"""Bike & Parking: a mini-program in Chat (WeChat): its manifest, the app, its tasks and, in
``fixtures``, what other tasks use to seed bikes, car parks and rides."""

from __future__ import annotations

from .app import BikeApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = BikeApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "BikeApp"]
