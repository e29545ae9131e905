"""The Files app's manifest: it browses the shared storage."""

from __future__ import annotations

from ...world.manifest import AppManifest, material_you

MANIFEST = AppManifest(
    name="Files",
    package="com.google.android.documentsui",
    labels={"zh-CN": "文件管理"},
    icon="folder",
    color=(26, 115, 232),
    intents=("android.intent.action.OPEN_DOCUMENT", "android.intent.action.GET_CONTENT"),
    reads=("files",),
    description="Browse, read, rename, move and delete the files in shared storage.",
    order=50,
    locales=("zh-CN",),
    look=material_you(
        (11, 87, 208), models="Files (documentsui, Android 14)", title="Files",
        navigation="drawer",
        actions=("search", "more_vert"),
        row_leading="icon",
        two_line=True,
        simplifies=("file types are letters, not icons",
                    "the roots drawer has no Recent root and no other apps' roots; only the "
                    "root screen shows its toggle"),
    ),
)
