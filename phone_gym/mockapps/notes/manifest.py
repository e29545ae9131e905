"""The Notes app's manifest."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Notes",
    package="com.example.notes",
    icon="lightbulb",
    color=(245, 180, 0),
    description="A searchable list of notes with an editor, pinning and deleting.",
    order=30,
)
