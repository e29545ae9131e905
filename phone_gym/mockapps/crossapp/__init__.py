"""Cross-app tasks: information handed from one app to another. They use each app's public
``fixtures`` module (seeding records), never another app's internals."""

from __future__ import annotations

from .androidworld import TEMPLATES as AW_TEMPLATES
from .tasks import TEMPLATES

TEMPLATES = [*TEMPLATES, *AW_TEMPLATES]  # AndroidWorld's multi-app tasks

__all__ = ["TEMPLATES"]
