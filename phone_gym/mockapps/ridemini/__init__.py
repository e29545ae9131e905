"""Ride: in-chat ride hailing, a mini-program in Chat (WeChat): its manifest, the app, its
tasks and, in ``fixtures``, what other tasks use to seed places, car types and trips."""

from __future__ import annotations

from .app import RideMiniApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = RideMiniApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "RideMiniApp"]
