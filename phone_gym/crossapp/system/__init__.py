"""Tasks about the phone itself rather than one app's data: launching an app, the
clipboard, and radios plus a launch (AndroidWorld's system tasks, ``suites.aw_system``).
Like ``crossapp``, a package with only ``TEMPLATES``; it uses the apps' public
``fixtures`` modules. ``TEMPLATES`` loads ``tasks`` on first use."""

from __future__ import annotations

from typing import Any

__all__ = ["TEMPLATES"]


def __getattr__(name: str) -> Any:
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
