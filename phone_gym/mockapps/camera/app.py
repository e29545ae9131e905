"""Camera: a viewfinder, a photo / video mode switcher, a shutter and a switch-camera
button, as the Pixel Camera.

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
from ...world.kit.common import weighted
from ...world.kit.localize import in_locale
from ...world.kit.media import (
    SHUTTER_H,
    ModeSwitcher,
    PhotoPreview,
    Picture,
    RoundIcon,
    Shutter,
    Viewfinder,
)
from ...world.system import File
from ...world.widgets import Column, Node, Row, Screen, Text, TopBar
from .manifest import MANIFEST

#: Where the camera saves photos and videos.
CAMERA_DIR = "/sdcard/DCIM/Camera"
MODES = ("Photo", "Video")
SCENE = "a desk with a laptop and a mug"
#: The viewfinder's height: a 4:3 frame, as wide as the screen.
VIEWFINDER_H = 1440
#: The height of the mode switcher (or, while recording, the time) above the shutter.
MODE_ROW_H = 132  # a tab's height (theme.HEIGHTS)


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
    """The mode, when the video being recorded started (None: not recording), and which
    camera is on (``back`` or ``front``)."""

    mode: str = "Photo"
    recording_since: datetime | None = None
    facing: str = "back"  # back | front


class CameraApp(App):
    manifest = MANIFEST

    ui: CameraUi

    def initial_ui(self) -> CameraUi:
        return CameraUi()

    @property
    def ticking(self) -> bool:
        return self.ui.recording_since is not None

    def toast(self, text: str) -> None:
        """A toast in the locale's words ("Photo saved": 照片已保存)."""
        super().toast(self.t(text))

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
        """What the viewfinder shows: a scene seeded by the day (the phone stays put); the
        front camera shows the one holding it (an avatar)."""
        day = f"{self.system.now:%Y%m%d}"
        if self.ui.facing == "front":
            return pictures.encode("avatar", pictures.seed_of(f"selfie {day}"))
        return pictures.encode("landscape", pictures.seed_of(f"{SCENE} {day}"))

    def swipe_mode(self, step: int) -> None:
        """A swipe on the viewfinder: the next (+1) or previous (-1) mode, if any."""
        i = MODES.index(self.ui.mode) + step
        if 0 <= i < len(MODES):
            self.set_mode(MODES[i])

    def flip(self) -> None:
        """The switch-camera button: the front or the back camera (not while recording)."""
        if self.ui.recording_since is None:
            self.ui.facing = "front" if self.ui.facing == "back" else "back"

    def review(self) -> Screen:
        """The last shot, full screen, as the thumbnail opens it."""
        file = self.last_file()
        if file is None:
            return Screen(top_bar=TopBar("", on_back=self.back),
                          content=[Text("No photos yet", id="empty")])
        return Screen(top_bar=TopBar(file.name, on_back=self.back),
                      content=[Picture([], desc=self.t("Photo {name}", name=file.name), id="review",
                                       height=VIEWFINDER_H, picture=media_picture(file))])

    def view(self, route: Route) -> Screen:
        """The screen for ``route``, its fixed strings in the phone's locale."""
        screen = self.camera_view(route)
        return in_locale(self, screen)

    def camera_view(self, route: Route) -> Screen:
        """The Pixel Camera's screen: the viewfinder edge to edge (settings over its top
        left), and docked under it the mode switcher (the recording time while recording)
        and the shutter between the last shot's thumbnail and the switch-camera button."""
        if route.name == "review":
            return self.review()
        ui = self.ui
        recording = ui.recording_since is not None
        if recording:
            assert ui.recording_since is not None
            secs = max(0, int((self.system.now - ui.recording_since).total_seconds()))
            time = f"{secs // 60}:{secs % 60:02d}"
            above: Node = Text(self.t("● REC {time}", time=time), style="rec",
                               id="recording_time")
            above.height = MODE_ROW_H
            shutter = Shutter("recording", "Stop recording", self.shutter)
        else:
            above = ModeSwitcher(MODES, ui.mode, self.set_mode, id="mode_tabs")
            shutter = Shutter("photo" if ui.mode == "Photo" else "video",
                              "Take photo" if ui.mode == "Photo" else "Start recording",
                              self.shutter)
        last = self.last_file()
        preview = PhotoPreview(media_picture(last) if last else "",
                               (lambda: self.go("review")) if last else None,
                               desc="Photo preview")
        preview.height = SHUTTER_H
        front = ui.facing == "front"
        switch = RoundIcon("flip_camera_android",
                           "Switch to back camera" if front else "Switch to front camera",
                           self.flip, id="camera_switch")
        switch.height, switch.enabled = SHUTTER_H, not recording
        settings = Node("map_button", glyph="settings", desc="Settings", id="settings",
                        on_click=lambda: self.toast("No settings"), color=(32, 33, 36),
                        at=(24, 20, 154, 88))
        seen = self.t("Viewfinder: {scene}", scene=self.t(SCENE)) if not front \
            else "Viewfinder: front camera"
        viewfinder = Viewfinder(self.scene(), desc=seen, height=VIEWFINDER_H,
                                on_swipe=None if recording else self.swipe_mode,
                                overlays=[settings])
        controls = Column([
            above,
            Row([weighted(preview, 0.25), weighted(shutter, 0.5), weighted(switch, 0.25)],
                id="shutter_row"),
        ], id="controls")
        return Screen(content=[viewfinder], dock=controls)
