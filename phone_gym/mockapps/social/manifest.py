"""The Social app's manifest (an X-like feed)."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Social",
    label="X",
    package="com.twitter.android",
    icon="X",
    color=(20, 23, 26),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Twitter", "Tweet"),
    description="A social feed: timelines, posts, replies, likes, bookmarks, profiles, search, "
                "notifications and direct messages.",
    order=98,
)
