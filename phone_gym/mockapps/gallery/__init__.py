"""The Gallery app (Simple Gallery Pro): its manifest, the app, its tasks, and in
``fixtures`` what other apps' tasks use to put pictures (receipts, recipe cards) on the
phone."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import GalleryApp
    from .tasks import TEMPLATES

APP: type[GalleryApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "GalleryApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "GalleryApp"):
        from .app import GalleryApp

        return GalleryApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
