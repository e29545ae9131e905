"""The Chrome app's manifest: a browser for local pages."""

from __future__ import annotations

from ...world.manifest import AppManifest, material_you

MANIFEST = AppManifest(
    name="Chrome",
    package="com.android.chrome",
    labels={"zh-CN": "Chrome"},
    icon="public", icon_shape="tricolor",
    color=(219, 68, 55),
    deep_links=("file://", "http://", "https://"),
    reads=("files",),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY, _DEFAULT_URIS)
    aliases=("Google Chrome", "Browser"),
    description="A browser that opens local HTML pages from Downloads (file:// addresses).",
    order=16,
    locales=("zh-CN",),
    look=material_you(
        (26, 115, 232), models="Chrome 124", title="",
        actions=("home", "tab", "more_vert"),
        simplifies=("the omnibox has no tab-switcher count, the home and downloads icons are "
                    "at its right",),
    ),
)
