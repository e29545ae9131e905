"""OpenTracks: its manifest, the app, its tasks (and, in ``fixtures``, what tasks use to
seed recorded activities)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import OpenTracksApp
    from .tasks import TEMPLATES

APP: type[OpenTracksApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "OpenTracksApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "OpenTracksApp"):
        from .app import OpenTracksApp

        return OpenTracksApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
