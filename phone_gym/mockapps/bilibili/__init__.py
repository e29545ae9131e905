"""The Bilibili app (哔哩哔哩): its manifest, the app, its tasks (and, in ``fixtures``, what
other apps' tasks may use to seed its data)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import BiliApp
    from .tasks import TEMPLATES

APP: type[BiliApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "BiliApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "BiliApp"):
        from .app import BiliApp

        return BiliApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
