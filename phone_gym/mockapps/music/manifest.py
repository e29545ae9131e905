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
    aliases=("Retro", "RetroMusic", "Retro_Music"),
    description="A music player over the songs in Music: searchable songs with multi-select, "
                "playlists (create, reorder, export as .m3u) and the playing queue.",
    order=66,
)
