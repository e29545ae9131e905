"""The VLC app's manifest."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="VLC",
    package="org.videolan.vlc",
    labels={"zh-CN": "VLC"},
    icon="change_history",
    color=(255, 136, 0),
    reads=("files",),
    # AndroidWorld's (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY): VLC App, VLC Player
    aliases=("VLC_Player", "Videolan", "VLC App", "VLC Player"),
    description="A video player over the videos in Movies: a player that shows each frame, "
                "multi-select and playlists.",
    order=68,
    locales=("zh-CN",),
    look=AppLook(
        models="VLC for Android 3.5",
        title="Video",
        dark="system",
        light=make_palette((255, 136, 0)),
        dark_palette=make_palette((255, 136, 0), dark=True, bg=(24, 24, 24)),
        actions=("search", "more_vert"),
        navigation="bottom_bar",
        nav_items=("Video", "Audio", "Browse", "Playlists", "More"),
        row_leading="thumbnail",
        two_line=True,
    ),
)
