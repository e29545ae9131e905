"""Chat (WeChat): the chat super-app that hosts mini-programs (see ``world.app``,
"Mini-programs"): its manifest, the app, its tasks and, in ``fixtures``, what other tasks use
to seed chats, friends, Moments and the wallet."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import ChatApp
    from .tasks import TEMPLATES

APP: type[ChatApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "ChatApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "ChatApp"):
        from .app import ChatApp

        return ChatApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
