"""Clipper's own tasks: none (the clipboard tasks are the system's: ``crossapp.system``)."""

from __future__ import annotations

from ...tasks.task import Task

TEMPLATES: list[Task] = []
