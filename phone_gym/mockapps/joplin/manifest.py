"""The Joplin app's manifest (AndroidWorld's notebook app)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Joplin",
    package="net.cozic.joplin",
    labels={"zh-CN": "Joplin"},
    icon="sticky_note_2", icon_shape="rounded",
    color=(21, 101, 192),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Joplin App",),
    description="Notebooks of markdown notes and to-dos: browse a notebook, read a note, "
                "check to-dos off, write and delete notes.",
    order=34,
    locales=("zh-CN",),
    look=AppLook(
        models="Joplin 2.x (Android)",
        title="All notes",
        dark="system",
        light=make_palette((0, 119, 225), bar="colored"),
        dark_palette=make_palette((66, 153, 245), dark=True, bar=(30, 34, 40)),
        actions=("search", "more_vert"),
        navigation="speed_dial_fab",
        row_leading="checkbox",
        simplifies=(
            "the side drawer lists notebooks only (no tags, no sync button)",
        ),
    ),
)
