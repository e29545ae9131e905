"""The Notes app's manifest."""

from __future__ import annotations

from ...world.manifest import AppManifest, material_you

MANIFEST = AppManifest(
    name="Notes",
    package="com.example.notes",
    labels={"zh-CN": "笔记"},
    icon="lightbulb",
    color=(245, 180, 0),
    description="A searchable list of notes with an editor, pinning and deleting.",
    order=30,
    locales=("zh-CN",),
    look=material_you(
        (251, 188, 4), models="Google Keep-style notes", title="Notes",
        actions=("search", "more_vert"),
        two_line=True,
        simplifies=("notes are list rows, not a staggered grid of cards",),
    ),
)
