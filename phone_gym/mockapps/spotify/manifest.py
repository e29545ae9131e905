"""The Spotify app's manifest."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Spotify",
    package="com.spotify.music",
    labels={"zh-CN": "Spotify"},
    icon="graphic_eq",
    color=(30, 215, 96),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Spot",),
    description="Music streaming: home, search over songs, artists, albums, playlists and "
                "podcasts, artist and album pages, liked songs, Your Library, playlists "
                "(create, rename, delete, add, remove, reorder), the queue and now playing.",
    order=104,
    locales=("zh-CN",),
    look=AppLook(
        models="Spotify 8.9",
        title="Good morning",
        dark="dark",
        light=make_palette((30, 215, 96), dark=True, bg=(18, 18, 18), row_dividers=False),
        dark_palette=make_palette((30, 215, 96), dark=True, bg=(18, 18, 18), row_dividers=False),
        actions=("notifications", "history", "settings"),
        navigation="bottom_bar",
        nav_items=("Home", "Search", "Your Library"),
        row_leading="thumbnail",
        two_line=True,
    ),
)
