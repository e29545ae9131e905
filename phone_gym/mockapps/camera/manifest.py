"""The Camera app's manifest (AOSP Camera, ``com.android.camera2``)."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Camera",
    package="com.android.camera2",
    icon="photo_camera",
    color=(96, 125, 139),
    reads=("files",),
    aliases=("Camera2",),
    description="A viewfinder with photo and video modes: photos and videos are saved as "
                "files in DCIM/Camera.",
    order=12,
)
