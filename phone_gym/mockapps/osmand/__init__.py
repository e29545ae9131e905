"""The OsmAnd app: an offline map with favourites, markers and tracks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import OsmAndApp
    from .tasks import TEMPLATES

APP: type[OsmAndApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "OsmAndApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "OsmAndApp"):
        from .app import OsmAndApp

        return OsmAndApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
