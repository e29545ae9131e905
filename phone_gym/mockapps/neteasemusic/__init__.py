"""The NetEase Cloud Music app (网易云音乐): its manifest, the app, its tasks (and, in
``fixtures``, what other apps' tasks may use to seed its data)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import MusicApp
    from .tasks import TEMPLATES

APP: type[MusicApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "MusicApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "MusicApp"):
        from .app import MusicApp

        return MusicApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
