"""The OpenTracks app's manifest (AndroidWorld's sports tracker)."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="OpenTracks",
    package="de.dennisguse.opentracks",
    icon="▲",
    color=(46, 125, 50),
    description="Recorded activities: filter by category, open one for its figures, see "
                "totals, delete.",
    order=64,
)
