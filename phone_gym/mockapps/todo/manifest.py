"""The To-do app's manifest: everything phone-gym needs to know about the app, once."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Todo",
    package="org.tasks",
    labels={"zh-CN": "待办"},
    label="Tasks",
    locales=("zh-CN",),
    icon="task_alt",
    color=(0, 137, 123),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Tasks App", "Tasks.org"),
    description=("Tasks with due dates, priorities and notes: add, rename, check off and "
                 "delete them; filter open, completed and high-priority ones."),
    look=AppLook(
        models="Tasks 13.x (org.tasks)",
        title="My Tasks",
        dark="system",
        light=make_palette((229, 57, 53)),
        dark_palette=make_palette((239, 83, 80), dark=True, bg=(33, 33, 33)),
        actions=("mic", "search", "more_vert"),
        navigation="drawer",
        row_leading="checkbox",
        two_line=True,
        simplifies=(
            "the drawer holds three filters (All, Open, Completed), not the real app's lists, "
            "tags and places",
        ),
    ),
)
