"""Cross-app tasks, one module per kind of work across apps: information handed from one app
to another (``tasks``, ``handoff``), artifacts made in one app and used in another
(``artifact_*``), state that must persist across apps (``persistent_*``), multi-hop workflows
over three or more apps (``multihop_*``), AndroidWorld's multi-app tasks (``androidworld``)
and tasks about the phone itself (``system``). They use each app's public ``fixtures`` module
(seeding records), never another app's internals.

The registry reads ``MODULES`` and builds a module's templates when one of them is first
looked up; ``TEMPLATES`` (all of them, in this order) imports every module."""

from __future__ import annotations

import importlib
from typing import Any

#: The modules of cross-app templates, in listing order.
MODULES = tuple(f"{__name__}.{m}" for m in (
    "tasks", "handoff", "artifact_media", "artifact_docs", "persistent_bookings",
    "persistent_money", "multihop_life", "multihop_work", "androidworld", "chinese_apps",
    "chinese_life", "chinese_work", "chinese_maps", "chinese_social", "chinese_media",
    "chinese_travel", "chinese_mini"))

__all__ = ["MODULES", "TEMPLATES"]


def __getattr__(name: str) -> Any:
    if name == "TEMPLATES":
        return [t for m in MODULES for t in importlib.import_module(m).TEMPLATES]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
