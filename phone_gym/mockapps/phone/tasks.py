"""Phone tasks: none of its own yet (AndroidWorld's OpenAppTaskEval opens the app; the
call log is seeded through ``fixtures``)."""

from __future__ import annotations

from ...tasks.task import Task

TEMPLATES: list[Task] = []
