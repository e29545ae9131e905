"""The Joplin app's manifest (AndroidWorld's notebook app)."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Joplin",
    package="net.cozic.joplin",
    icon="J",
    color=(21, 101, 192),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Joplin App",),
    description="Notebooks of markdown notes and to-dos: browse a notebook, read a note, "
                "check to-dos off, write and delete notes.",
    order=34,
)
