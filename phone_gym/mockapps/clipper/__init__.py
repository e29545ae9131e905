"""The Clipper app: its manifest, the app (and, in ``fixtures``, putting text on the
clipboard for other apps' tasks). Its task is the system's (``crossapp.system``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import ClipperApp
    from .tasks import TEMPLATES

APP: type[ClipperApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "ClipperApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "ClipperApp"):
        from .app import ClipperApp

        return ClipperApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
