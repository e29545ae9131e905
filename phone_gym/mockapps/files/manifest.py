"""The Files app's manifest: it browses the shared storage."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Files",
    package="com.google.android.documentsui",
    icon="folder",
    color=(26, 115, 232),
    intents=("android.intent.action.OPEN_DOCUMENT", "android.intent.action.GET_CONTENT"),
    reads=("files",),
    description="Browse, read, rename, move and delete the files in shared storage.",
    order=50,
)
