"""携程旅行 (Ctrip): a travel app: its manifest, the app, its tasks and, in
``fixtures``, what other tasks use to seed hotels, trains and orders."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import CtripApp
    from .tasks import TEMPLATES

APP: type[CtripApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "CtripApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "CtripApp"):
        from .app import CtripApp

        return CtripApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
