"""Meet (shown as Zoom): video meetings (its manifest, the app and its tasks; ``fixtures``
seeds contacts and meetings for other apps' tasks)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import MeetApp
    from .tasks import TEMPLATES

APP: type[MeetApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "MeetApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "MeetApp"):
        from .app import MeetApp

        return MeetApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
