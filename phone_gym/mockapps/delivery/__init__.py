"""The Delivery app (food delivery): its manifest, the app and its tasks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .manifest import MANIFEST

if TYPE_CHECKING:
    from .app import DeliveryApp
    from .tasks import TEMPLATES

APP: type[DeliveryApp]
__all__ = ["APP", "MANIFEST", "TEMPLATES", "DeliveryApp"]


def __getattr__(name: str) -> Any:
    """The app's code loads on first use (the registry and the launcher read only the
    manifest): ``APP`` from ``app``, ``TEMPLATES`` from ``tasks``."""
    if name in ("APP", "DeliveryApp"):
        from .app import DeliveryApp

        return DeliveryApp
    if name == "TEMPLATES":
        from .tasks import TEMPLATES

        return TEMPLATES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
