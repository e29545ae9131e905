"""The Settings app's manifest: its switches are the shared settings."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Settings",
    package="com.android.settings",
    icon="⚙",
    color=(84, 110, 122),
    intents=("android.settings.*",),
    reads=("settings",),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("System Settings",),
    description="Android 14's settings pages for the radios, the display and Do Not Disturb.",
    order=40,
)
