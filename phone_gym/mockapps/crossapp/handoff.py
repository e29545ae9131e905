"""Cross-app templates: handoff (filled in by issue 15's second slice)."""

from __future__ import annotations

from ..task import Task

TEMPLATES: list[Task] = []
