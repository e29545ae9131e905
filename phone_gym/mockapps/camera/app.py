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

from ...world import pictures
from ...world.app import App, Route
from ...world.data import Table
from ...world.kit import Image, Tabs
from ...world.kit.common import weighted
from ...world.kit.media import PhotoPreview, Picture
from ...world.system import File
from ...world.widgets import Button, Icon, Row, Screen, Spacer, Text, TopBar
from .manifest import MANIFEST

#: Where the camera saves photos and videos.
CAMERA_DIR = "/sdcard/DCIM/Camera"
MODES = ("Photo", "Video")
SCENE = "a desk with a laptop and a mug"
#: The viewfinder's height (a 4:3 frame, a little cropped to leave room for the controls).
VIEWFINDER_H = 1240


def media_picture(file: File) -> str:
    """The drawn picture of a photo or video (``pictures``): a video frame for a video, else
    what its text describes, seeded by its name (as the gallery draws it)."""
    if file.name.lower().endswith(".mp4") or file.mime.startswith("video/"):
        return pictures.encode("video", pictures.seed_of(file.name))
    return pictures.encode(*pictures.describe(file.content.split("\n"), file.name))


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

    def newest(self) -> list[str]:
        """The names in ``CAMERA_DIR``, oldest first: by the time in the name (after its
        ``IMG_`` or ``VID_`` prefix), then by name."""
        return sorted(folder_names(self.system.files),
                      key=lambda n: (n.partition("_")[2], n))

    def last_media(self) -> str:
        names = self.newest()
        return names[-1] if names else "No photos yet"

    def last_file(self) -> File | None:
        """The newest photo or video in ``CAMERA_DIR``."""
        names = self.newest()
        return self.system.files.get(f"{CAMERA_DIR}/{names[-1]}") if names else None

    def scene(self) -> str:
        """What the viewfinder shows: a scene seeded by the day (the phone stays put)."""
        return pictures.encode("landscape", pictures.seed_of(f"{SCENE} {self.system.now:%Y%m%d}"))

    def review(self) -> Screen:
        """The last shot, full screen, as the thumbnail opens it."""
        file = self.last_file()
        if file is None:
            return Screen(top_bar=TopBar("", on_back=self.back),
                          content=[Text("No photos yet", id="empty")])
        return Screen(top_bar=TopBar(file.name, on_back=self.back),
                      content=[Picture([], desc=f"Photo {file.name}", id="review",
                                       height=VIEWFINDER_H, picture=media_picture(file))])

    def view(self, route: Route) -> Screen:
        if route.name == "review":
            return self.review()
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
        last = self.last_file()
        preview = PhotoPreview(media_picture(last) if last else "",
                               (lambda: self.go("review")) if last else None)
        return Screen(
            top_bar=TopBar("Camera", actions=[
                Icon("⚙", "Settings", lambda: self.toast("No settings"), id="settings")]),
            content=[
                Image(f"Viewfinder: {SCENE}", "📷", id="viewfinder", height=VIEWFINDER_H,
                      picture=self.scene()),
                Tabs(MODES, ui.mode, self.set_mode, id="mode_tabs"),
                status,
                # the last shot's thumbnail left of the shutter, as the Pixel Camera has it
                Row([weighted(preview, 0.22), weighted(shutter, 0.56),
                     weighted(Spacer(1), 0.22)], id="shutter_row"),
                Text(f"Last: {self.last_media()}", style="caption", id="last_media"),
            ],
        )
