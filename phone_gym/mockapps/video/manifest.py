"""The Video app's manifest (a YouTube-like platform)."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Video",
    label="YouTube",
    package="com.google.android.youtube",
    icon="⏵",
    color=(255, 0, 0),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("YT",),
    description="A video platform: home, search with filters, a watch page (like, subscribe, "
                "save, comments), library (history, watch later, playlists) and subscriptions.",
    order=100,
)
