"""The VLC app: its manifest, the app and its tasks (and, in ``fixtures``, what other apps'
tasks may use to put videos on the phone)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import VlcApp
    from .tasks import TEMPLATES

APP: type[VlcApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "VlcApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "VlcApp"):
        from .app import VlcApp

        return VlcApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
