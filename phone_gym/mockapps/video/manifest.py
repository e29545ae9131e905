"""The Video app's manifest (a YouTube-like platform)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Video",
    label="YouTube",
    package="com.google.android.youtube",
    labels={"zh-CN": "YouTube"},
    icon="play_arrow", icon_shape="rounded",
    color=(255, 0, 0),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("YT",),
    description="A video platform: home, search with filters, a watch page (like, subscribe, "
                "save, comments), library (history, watch later, playlists) and subscriptions.",
    order=100,
    locales=("zh-CN",),
    look=AppLook(
        models="YouTube 19.x",
        title="YouTube",
        dark="system",
        light=make_palette((255, 0, 0), row_dividers=False),
        dark_palette=make_palette((255, 78, 69), dark=True, bg=(15, 15, 15), row_dividers=False),
        actions=("cast", "notifications", "search"),
        navigation="bottom_bar",
        nav_items=("Home", "Shorts", "Subscriptions", "You"),
        row_leading="thumbnail",
        two_line=True,
        simplifies=(
            "bottom bar: Home, Subscriptions, Library",
        ),
    ),
)
