"""The Audio Recorder app's manifest (Dimowner's Audio Recorder)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Recorder",
    label="Audio Recorder",
    package="com.dimowner.audiorecorder",
    labels={"zh-CN": "录音机"},
    icon="mic",
    color=(229, 57, 53),
    reads=("files",),
    aliases=("AudioRecorder", "Voice_Recorder"),
    description="Record voice memos (start, pause, stop), then rename or delete them in the "
                "list of records; recordings are .m4a files in Recordings.",
    order=70,
    locales=("zh-CN",),
    look=AppLook(
        models="Audio Recorder (dimowner) 1.x",
        title="Audio Recorder",
        dark="dark",
        light=make_palette((255, 82, 82), dark=True, bg=(38, 50, 56), bar="surface"),
        dark_palette=make_palette((255, 82, 82), dark=True, bg=(38, 50, 56), bar="surface"),
        actions=("settings",),
        row_leading="icon",
        two_line=True,
        simplifies=(
            "the records list has no bookmarks, sorting or sharing, and the player no "
            "waveform",
        ),
    ),
)
