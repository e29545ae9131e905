"""Hotel Booking: a mini-program in Chat (WeChat): its manifest, the app, its tasks and, in
``fixtures``, what other tasks use to seed hotels and orders."""

from __future__ import annotations

from .app import HotelApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = HotelApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "HotelApp"]
