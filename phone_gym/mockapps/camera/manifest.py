"""The Camera app's manifest (AOSP Camera, ``com.android.camera2``)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Camera",
    package="com.android.camera2",
    labels={"zh-CN": "相机"},
    icon="photo_camera",
    color=(96, 125, 139),
    reads=("files",),
    aliases=("Camera2",),
    description="A viewfinder with photo and video modes: photos and videos are saved as "
                "files in DCIM/Camera.",
    order=12,
    locales=("zh-CN",),
    look=AppLook(
        models="Pixel Camera 9",
        title="",
        dark="dark",
        light=make_palette((255, 213, 79), dark=True, bg=(0, 0, 0), row_dividers=False),
        dark_palette=make_palette((255, 213, 79), dark=True, bg=(0, 0, 0), row_dividers=False),
        actions=("settings",),
        navigation="tabs",
        nav_items=("Photo", "Video"),
        simplifies=(
            "only the Photo and Video modes, and no quick settings (flash, timer, ratio) over "
            "the viewfinder",
        ),
    ),
)
