"""Train Tickets: a mini-program in Chat (WeChat): its manifest, the app, its tasks and, in
``fixtures``, what other tasks use to seed trains, passengers and orders."""

from __future__ import annotations

from .app import TrainApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = TrainApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "TrainApp"]
