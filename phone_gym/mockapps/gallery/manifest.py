"""The Gallery app's manifest (modelled on Simple Gallery Pro)."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Gallery",
    label="Simple Gallery",
    package="com.simplemobiletools.gallery.pro",
    icon="☀",
    color=(255, 152, 0),
    reads=("files",),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Simple Gallery Pro",),
    description="Albums of the pictures in shared storage: view, copy, move, rename, delete.",
    order=14,
)
