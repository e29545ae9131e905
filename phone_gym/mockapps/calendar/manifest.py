"""The Calendar app's manifest: Simple Calendar Pro's counterpart, over the phone's calendar
events (the shared ``events`` store, Android's calendar provider)."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Calendar",
    label="Simple Calendar",
    package="com.simplemobiletools.calendar.pro",
    icon="calendar_month",
    color=(255, 112, 67),
    reads=("events",),
    aliases=("Simple Calendar", "Simple Calendar Pro"),
    description="A month view with each day's events, an event list, event details with "
                "delete, and an editor with date and time pickers and repeats.",
    order=25,
)
