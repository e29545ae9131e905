"""Movie Tickets: a mini-program in Chat (WeChat): its manifest, the app, its tasks and, in
``fixtures``, what other tasks use to seed films, cinemas, showtimes and tickets."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import MovieApp
    from .tasks import TEMPLATES

APP: type[MovieApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "MovieApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "MovieApp"):
        from .app import MovieApp

        return MovieApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
