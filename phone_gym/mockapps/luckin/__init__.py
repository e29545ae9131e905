"""瑞幸咖啡 (Luckin Coffee): a mini-program in Chat (WeChat): its manifest, the app, its tasks and,
in ``fixtures``, what other tasks use to seed the menu, stores, coupons and orders."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import LuckinApp
    from .tasks import TEMPLATES

APP: type[LuckinApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "LuckinApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "LuckinApp"):
        from .app import LuckinApp

        return LuckinApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
