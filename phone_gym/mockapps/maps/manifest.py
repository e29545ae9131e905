"""The Maps app's manifest."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Maps",
    label="Google Maps",
    package="com.google.android.apps.maps",
    labels={"zh-CN": "谷歌地图"},
    icon="location_on",
    color=(52, 168, 83),
    deep_links=("geo:",),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("GMaps", "Google Map"),
    description="A city of places: search with filters and sorting, place pages, saved "
                "lists, directions by mode, navigation and location sharing.",
    order=94,
    locales=("zh-CN",),
    look=AppLook(
        models="Google Maps 11.x",
        title="",
        dark="system",
        light=make_palette((26, 115, 232)),
        dark_palette=make_palette((138, 180, 248), dark=True, bg=(32, 33, 36)),
        actions=("mic", "account_circle"),
        navigation="bottom_bar",
        nav_items=("Explore", "Go", "Saved", "Contribute", "Updates"),
        row_leading="icon",
        two_line=True,
        simplifies=("no map, only lists of places",),
    ),
)
