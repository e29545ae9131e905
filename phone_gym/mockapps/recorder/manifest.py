"""The Audio Recorder app's manifest (Dimowner's Audio Recorder)."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Recorder",
    label="Audio Recorder",
    package="com.dimowner.audiorecorder",
    icon="mic",
    color=(229, 57, 53),
    reads=("files",),
    aliases=("AudioRecorder", "Voice_Recorder"),
    description="Record voice memos (start, pause, stop), then rename or delete them in the "
                "list of records; recordings are .m4a files in Recordings.",
    order=70,
)
