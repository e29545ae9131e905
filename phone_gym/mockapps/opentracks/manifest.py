"""The OpenTracks app's manifest (AndroidWorld's sports tracker)."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="OpenTracks",
    package="de.dennisguse.opentracks",
    icon="▲",
    color=(46, 125, 50),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Open Tracks Sports Tracker", "Activity Tracker", "Open Tracks"),
    description="Recorded activities: filter by category, open one for its figures, see "
                "totals, delete.",
    order=64,
)
