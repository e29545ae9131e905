"""The Retro Music app's manifest."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Music",
    label="Retro Music",
    package="code.name.monkey.retromusic",
    icon="🎵",
    color=(233, 30, 99),
    reads=("files",),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY): Retro Player
    aliases=("Retro", "RetroMusic", "Retro_Music", "Retro Player"),
    description="A music player over the songs in Music: searchable songs with multi-select, "
                "playlists (create, reorder, export as .m3u) and the playing queue.",
    order=66,
)
