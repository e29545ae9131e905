"""The Spotify app's manifest."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Spotify",
    package="com.spotify.music",
    icon="♫",
    color=(30, 215, 96),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Spot",),
    description="Music streaming: home, search over songs, artists, albums, playlists and "
                "podcasts, artist and album pages, liked songs, Your Library, playlists "
                "(create, rename, delete, add, remove, reorder), the queue and now playing.",
    order=104,
)
