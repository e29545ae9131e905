"""The OpenTracks app's manifest (AndroidWorld's sports tracker)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="OpenTracks",
    package="de.dennisguse.opentracks",
    labels={"zh-CN": "OpenTracks"},
    icon="route",
    color=(211, 47, 47),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Open Tracks Sports Tracker", "Activity Tracker", "Open Tracks"),
    description="Recorded activities: filter by category, open one for its figures, see "
                "totals, delete.",
    order=64,
    locales=("zh-CN",),
    look=AppLook(
        models="OpenTracks 4.x",
        title="OpenTracks",
        dark="system",
        light=make_palette((211, 47, 47), bg=(249, 248, 254)),
        dark_palette=make_palette((239, 83, 80), dark=True),
        actions=("search", "location_on", "more_vert"),
        row_leading="icon",
        two_line=True,
        simplifies=(
            "activity types are letters, not icons",
            "no bottom app bar with the red record button",
        ),
    ),
)
