"""The Chrome app: a browser for local pages, with AndroidWorld's three task pages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import ChromeApp
    from .tasks import TEMPLATES

APP: type[ChromeApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "ChromeApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "ChromeApp"):
        from .app import ChromeApp

        return ChromeApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
