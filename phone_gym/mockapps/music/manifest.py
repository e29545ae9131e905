"""The Retro Music app's manifest."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Music",
    label="Retro Music",
    package="code.name.monkey.retromusic",
    labels={"zh-CN": "音乐"},
    icon="music_note",
    color=(233, 30, 99),
    reads=("files",),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY): Retro Player
    aliases=("Retro", "RetroMusic", "Retro_Music", "Retro Player"),
    description="A music player over the songs in Music: searchable songs with multi-select, "
                "playlists (create, reorder, export as .m3u) and the playing queue.",
    order=66,
    locales=("zh-CN",),
    look=AppLook(
        models="Retro Music Player 6.x",
        title="Retro Music",
        dark="system",
        light=make_palette((33, 150, 243), bg=(255, 251, 255)),
        dark_palette=make_palette((100, 181, 246), dark=True),
        actions=("search", "settings"),
        navigation="bottom_bar",
        nav_items=("For you", "Songs", "Albums", "Artists", "Playlists"),
        row_leading="thumbnail",
        two_line=True,
        simplifies=(
            "Home is plain lists, not the real app's carousels of albums and artists",
        ),
    ),
)
