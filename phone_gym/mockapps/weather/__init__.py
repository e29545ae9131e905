"""Weather: its manifest, the app, its tasks (and, in ``fixtures``, seeding saved cities)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import WeatherApp
    from .tasks import TEMPLATES

APP: type[WeatherApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "WeatherApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "WeatherApp"):
        from .app import WeatherApp

        return WeatherApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
