"""The OsmAnd app's manifest: an offline map."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="OsmAnd",
    package="net.osmand",
    icon="📍",
    color=(255, 136, 0),
    deep_links=("geo:",),
    description="An offline map of Liechtenstein: search, favourites, markers and tracks.",
    order=74,
)
