"""The Social app's manifest (an X-like feed)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Social",
    label="X",
    package="com.twitter.android",
    labels={"zh-CN": "X"},
    icon="close", icon_shape="rounded",
    color=(20, 23, 26),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Twitter", "Tweet"),
    description="A social feed: timelines, posts, replies, likes, bookmarks, profiles, search, "
                "notifications and direct messages.",
    order=98,
    locales=("zh-CN",),
    look=AppLook(
        models="X 10.x",
        title="",
        dark="system",
        light=make_palette((29, 155, 240), title_align="center", bar_divider=True),
        dark_palette=make_palette((29, 155, 240), dark=True, bg=(0, 0, 0), title_align="center",
                                  bar_divider=True),
        actions=("account_circle",),
        navigation="bottom_bar",
        nav_items=("Home", "Search", "Communities", "Notifications", "Messages"),
        row_leading="avatar",
        two_line=True,
        simplifies=("the X logo is drawn as the letter X",),
    ),
)
