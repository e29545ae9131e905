"""The VLC app's manifest."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="VLC",
    package="org.videolan.vlc",
    icon="▶",  # a play triangle (world.glyphs.SYMBOLS)
    color=(255, 136, 0),
    reads=("files",),
    # AndroidWorld's (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY): VLC App, VLC Player
    aliases=("VLC_Player", "Videolan", "VLC App", "VLC Player"),
    description="A video player over the videos in Movies: a player that shows each frame, "
                "multi-select and playlists.",
    order=68,
)
