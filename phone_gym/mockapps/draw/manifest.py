"""The Draw app's manifest (modelled on Simple Draw Pro)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Draw",
    label="Simple Draw",
    package="com.simplemobiletools.draw.pro",
    labels={"zh-CN": "画板"},
    icon="brush",
    color=(0, 150, 136),
    reads=("files",),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Simple Draw Pro",),
    description="A drawing canvas with colors, saved as pictures in /sdcard/Pictures.",
    order=72,
    locales=("zh-CN",),
    look=AppLook(
        models="Simple Draw Pro 6.9",
        title="Draw",
        dark="dark",
        light=make_palette((246, 124, 1), bar="colored"),
        dark_palette=make_palette((246, 124, 1), dark=True, bg=(66, 66, 66), bar="colored",
                                  row_dividers=False),
        actions=("save", "undo", "share", "more_vert"),
        simplifies=("the canvas has no brush, eraser, colour or size tools",),
    ),
)
