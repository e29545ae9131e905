"""Camera: a viewfinder, a photo / video mode switch and a shutter.

A photo is saved at once as ``/sdcard/DCIM/Camera/IMG_<date>_<time>.jpg``; a video starts
recording at the first press of the shutter and is saved at the second as
``VID_<date>_<time>.mp4``, its length following the phone's clock (every action takes a
second; ``wait`` lets more pass). Media are files in shared storage (the system's ``files``
store), described in text, as the gallery and the Files app show them. The app keeps no
data of its own; what is being recorded is transient (a force-stop drops it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ...world.app import App, Route
from ...world.data import Table
from ...world.kit import Image, Tabs
from ...world.system import File
from ...world.widgets import Button, Icon, Screen, Text, TopBar
from .manifest import MANIFEST

#: Where the camera saves photos and videos.
CAMERA_DIR = "/sdcard/DCIM/Camera"
MODES = ("Photo", "Video")
SCENE = "a desk with a laptop and a mug"


def media_name(prefix: str, when: datetime, ext: str, taken: set[str]) -> str:
    """``IMG_20231015_153412.jpg``-style names (``_1``, ``_2``... when taken)."""
    stem = f"{prefix}_{when:%Y%m%d_%H%M%S}"
    name, n = f"{stem}.{ext}", 1
    while name in taken:
        name, n = f"{stem}_{n}.{ext}", n + 1
    return name


def folder_names(files: Table[File]) -> set[str]:
    return {f.name for f in files if f.folder == CAMERA_DIR}


def save_photo(files: Table[File], when: datetime) -> File:
    """Write a new photo file into ``CAMERA_DIR``."""
    name = media_name("IMG", when, "jpg", folder_names(files))
    content = f"JPEG photo, 4032x3024, taken {when:%Y-%m-%d %H:%M:%S}"
    return files.put(File(f"{CAMERA_DIR}/{name}", content, "image/jpeg"))


def save_video(files: Table[File], started: datetime, stopped: datetime) -> File:
    """Write a new video file into ``CAMERA_DIR`` (at least one second long)."""
    seconds = max(1, int((stopped - started).total_seconds()))
    name = media_name("VID", started, "mp4", folder_names(files))
    content = (f"MP4 video, 1920x1080, duration {seconds // 60}:{seconds % 60:02d}, "
               f"recorded {started:%Y-%m-%d %H:%M:%S}")
    return files.put(File(f"{CAMERA_DIR}/{name}", content, "video/mp4"))


@dataclass
class CameraUi:
    """The mode, and when the video being recorded started (None: not recording)."""

    mode: str = "Photo"
    recording_since: datetime | None = None


class CameraApp(App):
    manifest = MANIFEST

    ui: CameraUi

    def initial_ui(self) -> CameraUi:
        return CameraUi()

    @property
    def ticking(self) -> bool:
        return self.ui.recording_since is not None

    def set_mode(self, mode: str) -> None:
        """Switch photo / video (not while recording, as the real app)."""
        if self.ui.recording_since is None and mode in MODES:
            self.ui.mode = mode

    def shutter(self) -> None:
        now = self.system.now
        if self.ui.mode == "Photo":
            photo = save_photo(self.system.files, now)
            self.log(f"Saved image to {photo.path}", tag="CameraCapture")
            self.toast("Photo saved")
        elif self.ui.recording_since is None:
            self.ui.recording_since = now
        else:
            video = save_video(self.system.files, self.ui.recording_since, now)
            self.log(f"Saved video to {video.path}", tag="CameraCapture")
            self.ui.recording_since = None
            self.toast("Video saved")

    def last_media(self) -> str:
        names = sorted(folder_names(self.system.files))
        return names[-1] if names else "No photos yet"

    def view(self, route: Route) -> Screen:
        ui = self.ui
        if ui.recording_since is not None:
            secs = max(0, int((self.system.now - ui.recording_since).total_seconds()))
            status = Text(f"● REC {secs // 60}:{secs % 60:02d}", id="recording_time")
            shutter = Button("Stop recording", self.shutter, id="shutter_button",
                             style="danger")
        else:
            status = Text(f"{ui.mode} mode", style="caption", id="mode_label")
            shutter = Button("Take photo" if ui.mode == "Photo" else "Start recording",
                             self.shutter, id="shutter_button")
        return Screen(
            top_bar=TopBar("Camera", actions=[
                Icon("⚙", "Settings", lambda: self.toast("No settings"), id="settings")]),
            content=[
                Image(f"Viewfinder: {SCENE}", "📷", id="viewfinder"),
                Tabs(MODES, ui.mode, self.set_mode, id="mode_tabs"),
                status,
                shutter,
                Text(f"Last: {self.last_media()}", style="caption", id="last_media"),
            ],
        )
