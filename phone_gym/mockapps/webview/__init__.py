"""WeChat Browser: the in-app web view of Chat (WeChat), where links in chats open (a
mini-program-style app hosted by Chat): its manifest, the app, its tasks and, in
``fixtures``, what other tasks use to seed pages and the link messages that open them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import WebViewApp
    from .tasks import TEMPLATES

APP: type[WebViewApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "WebViewApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "WebViewApp"):
        from .app import WebViewApp

        return WebViewApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
