"""The To-do app's manifest: everything phone-gym needs to know about the app, once."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Todo",
    package="org.tasks.example",
    label="To-do",
    icon="T",
    color=(0, 137, 123),
    description="A list of items to keep: add, rename, check off and delete them.",
)
