"""The Markor app's manifest: markdown and text notes kept as files in shared storage."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Markor",
    package="net.gsantner.markor",
    icon="M",
    color=(56, 142, 60),
    reads=("files",),
    description="Markdown and plain-text notes as files in Documents/Markor: a file browser "
                "with folders, a note editor, and select, rename, move and delete.",
    order=32,
)
