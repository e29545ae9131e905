"""Cross-app tasks: information handed from one app to another. They use each app's public
``fixtures`` module (seeding records), never another app's internals."""

from __future__ import annotations

from .tasks import TEMPLATES

__all__ = ["TEMPLATES"]
