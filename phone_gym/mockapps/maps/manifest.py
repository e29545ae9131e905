"""The Maps app's manifest."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Maps",
    label="Google Maps",
    package="com.google.android.apps.maps",
    icon="📌",
    color=(52, 168, 83),
    deep_links=("geo:",),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("GMaps", "Google Map"),
    description="A city of places: search with filters and sorting, place pages, saved "
                "lists, directions by mode, navigation and location sharing.",
    order=94,
)
