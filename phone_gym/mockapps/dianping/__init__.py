"""The Dianping app (大众点评): its manifest, the app, its tasks (and, in ``fixtures``, what
other apps' tasks may use to seed its data)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import DianpingApp
    from .tasks import TEMPLATES

APP: type[DianpingApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "DianpingApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "DianpingApp"):
        from .app import DianpingApp

        return DianpingApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
