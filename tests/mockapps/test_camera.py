"""The Camera app driven through actions: photo and video modes, the shutter, file names
and what a force-stop drops; and its tasks' checks."""

from __future__ import annotations

import numpy as np
import pytest
from driving import Driver, open_app, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.camera import TEMPLATES, CameraApp
from phone_gym.mockapps.camera.app import CAMERA_DIR, media_name
from phone_gym.tasks.task import Episode
from phone_gym.testing import check_app
from phone_gym.world import Device


def camera_files(device: Device) -> list[str]:
    return sorted(f.name for f in device.system.files if f.folder == CAMERA_DIR)


def newest_in_preview(device: Device) -> str:
    """The name of the shot whose picture the thumbnail beside the shutter shows."""
    from phone_gym.world import pictures

    seed = pictures.decode(Driver(device).find(id="thumbnail").node.glyph)
    names = [n for n in camera_files(device) if ("landscape", pictures.seed_of(n)) == seed]
    assert len(names) == 1
    return names[0]


@pytest.fixture
def device() -> Device:
    d = Device([CameraApp])
    open_app(d, "Camera")
    return d


def test_the_shutter_saves_one_photo_per_press(device: Device) -> None:
    tap(device, "Take photo", id="shutter_button")
    tap(device, "Take photo", id="shutter_button")
    names = camera_files(device)
    assert len(names) == 2 and all(n.startswith("IMG_") and n.endswith(".jpg") for n in names)
    assert newest_in_preview(device) == names[-1]


def test_a_video_lasts_from_start_to_stop(device: Device) -> None:
    tap(device, id="tab_video", kind="tab")
    tap(device, "Start recording", id="shutter_button")
    assert camera_files(device) == [] and shown(device, id="recording_time")
    device.step(PhoneAction("wait", seconds=5))
    # no switching modes while recording: the switcher gives way to the time, and a swipe
    # on the viewfinder does nothing
    assert not shown(device, id="tab_photo", kind="tab")
    device.step(PhoneAction("drag", x=200, y=300, x2=800, y2=300))
    tap(device, "Stop recording", id="shutter_button")
    (video,) = [f for f in device.system.files if f.folder == CAMERA_DIR]
    assert video.name.startswith("VID_") and video.name.endswith(".mp4")
    assert "duration 0:0" in video.content and video.mime == "video/mp4"


def test_a_force_stop_drops_the_recording(device: Device) -> None:
    tap(device, id="tab_video", kind="tab")
    tap(device, "Start recording", id="shutter_button")
    device.force_stop("Camera")
    open_app(device, "Camera")
    assert camera_files(device) == [] and shown(device, "Take photo", id="shutter_button")


def test_names_never_clash() -> None:
    from datetime import datetime
    when = datetime(2023, 10, 15, 15, 34, 12)
    first = media_name("IMG", when, "jpg", set())
    assert first == "IMG_20231015_153412.jpg"
    assert media_name("IMG", when, "jpg", {first}) == "IMG_20231015_153412_1.jpg"


@pytest.mark.parametrize("task", TEMPLATES, ids=lambda t: t.id)
def test_a_second_file_or_a_deleted_one_fails(task) -> None:  # noqa: ANN001
    device = Device([CameraApp])
    ep = Episode(task, device, np.random.default_rng(3))
    answer, _ = ep.solve()
    assert ep.verify(answer, ep.end_status).success
    open_app(device, "Camera")
    if task.id == "CameraTakePhoto":
        tap(device, "Take photo", id="shutter_button")
    else:
        tap(device, "Start recording", id="shutter_button")
        tap(device, "Stop recording", id="shutter_button")
    assert not ep.verify(None, "success").success
    ep2 = Episode(task, device, np.random.default_rng(4))
    old = ep2.params["media"][0][0]
    device.system.files.remove(old)
    assert not ep2.verify(None, "success").success


def test_check_app() -> None:
    check_app("Camera", 300)


def test_the_photo_preview_shows_the_newest_shot_and_opens_it(device: Device) -> None:
    from phone_gym.world import pictures
    from phone_gym.world.a11y import ui_elements

    preview = [e for e in ui_elements(device.frame()) if e.content_desc == "Photo preview"]
    assert len(preview) == 1 and preview[0].class_name == "android.widget.ImageButton"
    assert not preview[0].enabled  # nothing shot yet
    driver = Driver(device)
    assert pictures.decode(driver.find(id="viewfinder").node.style)[0] == "landscape"
    device.system.write_file(f"{CAMERA_DIR}/VID_20230101_080000.mp4", "MP4 video")
    tap(device, "Take photo", id="shutter_button")  # an IMG_ name, newer than the video
    newest = camera_files(device)[0]
    assert newest.startswith("IMG_") and newest_in_preview(device) == newest
    node = driver.find(id="thumbnail").node
    assert pictures.decode(node.glyph) == ("landscape", pictures.seed_of(newest))
    tap(device, desc="Photo preview")
    assert shown(device, desc=f"Photo {newest}")


def test_the_screen_is_a_viewfinder_with_a_mode_switcher_a_round_shutter_and_a_flip(
        device: Device) -> None:
    from phone_gym.world import pictures
    from phone_gym.world.a11y import ui_elements
    from phone_gym.world.kit.media import RECORD_RED
    from phone_gym.world.render import Renderer
    from phone_gym.world.theme import SCREEN_W

    frame = device.frame()
    assert not [p for p in frame.items if p.node.kind == "top_bar"]  # no app bar
    (finder,) = [p for p in frame.items if p.node.id == "viewfinder"]
    assert (finder.rect[0], finder.rect[2]) == (0, SCREEN_W)  # edge to edge
    els = {e.short_id: e for e in ui_elements(frame)}
    assert els["viewfinder"].class_name == "android.view.TextureView"
    assert els["settings"].content_desc == "Settings"  # over the viewfinder
    assert els["tab_photo"].selected and not els["tab_video"].selected
    image = Renderer().render(frame)
    sh, sw = image.shape[:2]

    def middle(e_id: str) -> tuple[int, int, int]:
        x0, y0, x1, y1 = [p for p in device.frame().items if p.node.id == e_id][0].rect
        px = Renderer().render(device.frame())[(y0 + y1) // 2 * sh // 2400,
                                               (x0 + x1) // 2 * sw // SCREEN_W]
        return int(px[0]), int(px[1]), int(px[2])

    assert min(middle("shutter_button")) > 230  # a white disc for a photo
    # a swipe to the left on the viewfinder goes to the next mode: a red shutter
    device.step(PhoneAction("drag", x=800, y=400, x2=200, y2=400))
    assert shown(device, "Start recording", id="shutter_button")
    assert Driver(device).find(id="tab_video", kind="tab").node.selected
    assert middle("shutter_button") == RECORD_RED
    device.step(PhoneAction("drag", x=200, y=400, x2=800, y2=400))  # and back
    assert shown(device, "Take photo", id="shutter_button")
    # the switch-camera button: the front camera shows a face, then back to the scene
    tap(device, desc="Switch to front camera")
    assert pictures.decode(Driver(device).find(id="viewfinder").node.style)[0] == "avatar"
    tap(device, desc="Switch to back camera")
    assert pictures.decode(Driver(device).find(id="viewfinder").node.style)[0] == "landscape"


def test_kit_camera_parts_reject_bad_arguments() -> None:
    from phone_gym.world.kit.media import ModeSwitcher, Shutter, Viewfinder

    with pytest.raises(ValueError, match="accepted: Photo, Video"):
        ModeSwitcher(("Photo", "Video"), "Portrait", lambda m: None)
    with pytest.raises(ValueError, match="accepted: photo, video, recording"):
        Shutter("burst", "Take photo", lambda: None)
    with pytest.raises(ValueError, match="pictures.encode"):
        Viewfinder("sky")
