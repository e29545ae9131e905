"""The Meet app's manifest (a video meetings app, shown as Zoom)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Meet",
    label="Zoom",
    package="us.zoom.videomeetings",
    labels={"zh-CN": "Zoom"},
    icon="videocam", icon_shape="rounded",
    color=(45, 140, 255),
    reads=("contacts",),
    description="Video meetings: upcoming meetings, scheduling with date and time pickers, "
                "invitees from contacts, passcodes and recurrence, meeting pages (edit, "
                "delete, copy the invitation), joining by ID, in-meeting controls, "
                "recordings, and microphone and camera permission prompts.",
    order=106,
    locales=("zh-CN",),
    look=AppLook(
        models="Zoom Workplace 6.x",
        title="Meetings",
        dark="system",
        light=make_palette((11, 92, 255), title_align="center"),
        dark_palette=make_palette((77, 141, 255), dark=True, title_align="center"),
        navigation="bottom_bar",
        nav_items=("Meetings", "Team Chat", "Mail", "Calendar", "More"),
        row_leading="icon",
        two_line=True,
    ),
)
