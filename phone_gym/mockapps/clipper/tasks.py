"""Clipper's own tasks: none (the clipboard tasks are the system's: ``mockapps.system``)."""

from __future__ import annotations

from ..task import Task

TEMPLATES: list[Task] = []
