"""The To-do app's manifest: everything phone-gym needs to know about the app, once."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Todo",
    package="org.tasks",
    label="Tasks",
    icon="T",
    color=(0, 137, 123),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Tasks App", "Tasks.org"),
    description=("Tasks with due dates, priorities and notes: add, rename, check off and "
                 "delete them; filter open, completed and high-priority ones."),
)
