"""The Pay app (an Alipay-like wallet): its manifest, the app, its tasks (and, in
``fixtures``, what other apps' tasks may use to seed the shared wallet)."""

from __future__ import annotations

from .app import PayApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = PayApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "PayApp"]
