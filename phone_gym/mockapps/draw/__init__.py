"""The Draw app (Simple Draw Pro): a canvas, colors, and saving pictures."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import DrawApp
    from .tasks import TEMPLATES

APP: type[DrawApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "DrawApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "DrawApp"):
        from .app import DrawApp

        return DrawApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
