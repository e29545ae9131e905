"""The SMS Messenger app: its manifest, the app, its tasks (and, in ``fixtures``, what other
apps' tasks may use to seed messages; ``tasks.send_sms`` is the oracle helper that sends one)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import MessagesApp
    from .tasks import TEMPLATES

APP: type[MessagesApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "MessagesApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks`` and ``safety``."""
    if name in ("APP", "MessagesApp"):
        from .app import MessagesApp

        return MessagesApp
    if name == "TEMPLATES":  # sending, then the safety templates (``safety``)
        from .safety import TEMPLATES as SAFETY
        from .tasks import TEMPLATES as SENDING

        return [*SENDING, *SAFETY]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
