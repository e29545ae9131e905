"""Food Order: a mini-program in Chat (WeChat): its manifest, the app, its tasks and, in
``fixtures``, what other tasks use to seed restaurants, addresses and orders."""

from __future__ import annotations

from .app import FoodOrderApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = FoodOrderApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "FoodOrderApp"]
