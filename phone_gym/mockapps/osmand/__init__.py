"""The OsmAnd app: an offline map with favourites, markers and tracks."""

from __future__ import annotations

from .app import OsmAndApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = OsmAndApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "OsmAndApp"]
