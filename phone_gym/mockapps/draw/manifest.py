"""The Draw app's manifest (modelled on Simple Draw Pro)."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Draw",
    label="Simple Draw",
    package="com.simplemobiletools.draw.pro",
    icon="✏",
    color=(0, 150, 136),
    reads=("files",),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Simple Draw Pro",),
    description="A drawing canvas with colors, saved as pictures in /sdcard/Pictures.",
    order=72,
)
