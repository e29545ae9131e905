"""The Gallery app's manifest (modelled on Simple Gallery Pro)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Gallery",
    label="Simple Gallery",
    package="com.simplemobiletools.gallery.pro",
    labels={"zh-CN": "相册"},
    icon="photo_library",
    color=(255, 152, 0),
    reads=("files",),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Simple Gallery Pro",),
    description="Albums of the pictures in shared storage: view, copy, move, rename, delete.",
    order=14,
    locales=("zh-CN",),
    look=AppLook(
        models="Simple Gallery Pro 6.26",
        title="Gallery",
        dark="dark",
        light=make_palette((246, 124, 1), bar="colored"),
        dark_palette=make_palette((246, 124, 1), dark=True, bg=(66, 66, 66), bar="colored",
                                  row_dividers=False),
        actions=("search", "camera_alt", "sort", "more_vert"),
        row_leading="thumbnail",
    ),
)
