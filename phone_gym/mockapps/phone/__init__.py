"""The Phone app (a dialer): its manifest, the app, its tasks (none of its own yet) and its
fixtures (seeding the call log)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import PhoneApp
    from .tasks import TEMPLATES

APP: type[PhoneApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "PhoneApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "PhoneApp"):
        from .app import PhoneApp

        return PhoneApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
