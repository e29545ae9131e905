"""The Settings app's manifest: its switches are the shared settings."""

from __future__ import annotations

from ...world.manifest import AppManifest, material_you

MANIFEST = AppManifest(
    name="Settings",
    package="com.android.settings",
    labels={"zh-CN": "设置"},
    icon="settings",
    color=(84, 110, 122),
    intents=("android.settings.*",),
    reads=("settings",),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("System Settings",),
    description="Android 14's settings pages for the radios, the display and Do Not Disturb.",
    order=40,
    locales=("zh-CN",),
    look=material_you(
        (11, 87, 208), models="Settings (Android 14)", title="Settings",
        actions=("search",),
        row_leading="icon",
        two_line=True,
        simplifies=("section icons are glyphs in discs",),
    ),
)
