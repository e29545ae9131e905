"""The Calendar app's manifest: Simple Calendar Pro's counterpart, over the phone's calendar
events (the shared ``events`` store, Android's calendar provider)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Calendar",
    label="Simple Calendar",
    package="com.simplemobiletools.calendar.pro",
    labels={"zh-CN": "日历"},
    icon="calendar_month",
    color=(255, 112, 67),
    reads=("events",),
    aliases=("Simple Calendar", "Simple Calendar Pro"),
    description="A month view with each day's events, an event list, event details with "
                "delete, and an editor with date and time pickers and repeats.",
    order=25,
    locales=("zh-CN",),
    look=AppLook(
        models="Simple Calendar Pro 6.22",
        title="Calendar",
        dark="dark",
        light=make_palette((246, 124, 1), bar="colored"),
        dark_palette=make_palette((246, 124, 1), dark=True, bg=(66, 66, 66), bar="colored",
                                  row_dividers=False),
        actions=("search", "calendar_today", "more_vert"),
        navigation="none",
        row_leading="none",
        simplifies=(
            "the month view marks days with dots, not coloured event chips",
            "Month and Event list are top tabs; the real app switches views from the app bar",
        ),
    ),
)
