"""The Meet app's manifest (a video meetings app, shown as Zoom)."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Meet",
    label="Zoom",
    package="us.zoom.videomeetings",
    icon="videocam", icon_shape="rounded",
    color=(45, 140, 255),
    reads=("contacts",),
    description="Video meetings: upcoming meetings, scheduling with date and time pickers, "
                "invitees from contacts, passcodes and recurrence, meeting pages (edit, "
                "delete, copy the invitation), joining by ID, in-meeting controls, "
                "recordings, and microphone and camera permission prompts.",
    order=106,
)
