"""The VLC app driven through actions: the video list, multi-select in tap order, the add
to playlist dialog (new and existing playlists), the playlist screen (reorder, remove,
delete), and the player whose frames are pictures (play, pause, next, previous, seek);
and its tasks' checks."""

from __future__ import annotations

import numpy as np
import pytest
from driving import Driver, act, fill, long_press, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.vlc import TEMPLATES, VlcApp
from phone_gym.mockapps.vlc.app import parse_video, video_file
from phone_gym.mockapps.vlc.tasks import VlcCreateTwoPlaylists
from phone_gym.tasks.task import Episode
from phone_gym.testing import check_app
from phone_gym.world import Device, pictures
from phone_gym.world.a11y import ui_elements
from phone_gym.world.system import File

VIDEOS = {"hike_1001.mp4": ["alpha", "bravo", "charlie", "delta"],
          "beach_2002.mp4": ["sun", "sand", "sea"],
          "zoo_3003.mp4": []}


def vlc(device: Device) -> VlcApp:
    app = device.apps["VLC"]
    assert isinstance(app, VlcApp)
    return app


def playlists(device: Device) -> dict[str, tuple[str, ...]]:
    return {p.name: p.media for p in vlc(device).data.playlists}


def frame_text(device: Device) -> str:
    found = Driver(device).find(id="video_frame")
    assert found is not None
    return found.node.text


@pytest.fixture
def device() -> Device:
    d = Device([VlcApp])
    for name, frames in VIDEOS.items():
        d.system.write_file(*video_file(name, max(4, len(frames)), frames))
    open_app(d, "VLC")
    return d


def new_playlist(device: Device, name: str, *videos: str) -> None:
    long_press(device, videos[0], kind="list_item")
    for v in videos[1:]:
        tap(device, v, kind="list_item")
    tap(device, id="action_add_to_playlist")
    fill(device, "playlist_name", name)
    tap(device, id="button_create")


def test_videos_are_files_with_frames() -> None:
    path, text = video_file("a.mp4", 3, ["x", "y", "z"])
    v = parse_video(File(path, text))
    assert (v.path, v.seconds, v.frames) == ("/sdcard/Movies/a.mp4", 3, ("x", "y", "z"))


def test_a_selection_in_tap_order_makes_a_playlist(device: Device) -> None:
    new_playlist(device, "Summer Reel", "zoo_3003.mp4", "hike_1001.mp4")
    assert playlists(device) == {"Summer Reel": ("zoo_3003.mp4", "hike_1001.mp4")}
    long_press(device, "beach_2002.mp4", kind="list_item")
    tap(device, id="action_add_to_playlist")
    tap(device, "Summer Reel", kind="list_item")
    assert playlists(device)["Summer Reel"][-1] == "beach_2002.mp4"
    new_playlist(device, "summer reel", "hike_1001.mp4")  # taken: refused
    assert len(playlists(device)) == 1


def test_the_playlist_screen_reorders_removes_and_deletes(device: Device) -> None:
    new_playlist(device, "Kids Clips", "zoo_3003.mp4", "hike_1001.mp4", "beach_2002.mp4")
    tap(device, id="tab_playlists", kind="tab")
    tap(device, "Kids Clips", kind="list_item")
    long_press(device, "beach_2002.mp4", kind="list_item")
    tap(device, "Move up", kind="menu_item")
    long_press(device, "zoo_3003.mp4", kind="list_item")
    tap(device, "Remove", kind="menu_item")
    assert playlists(device) == {"Kids Clips": ("beach_2002.mp4", "hike_1001.mp4")}
    tap(device, id="action_delete")
    tap(device, id="button_delete")
    assert playlists(device) == {}


def test_the_player_shows_frames_as_pictures(device: Device) -> None:
    tap(device, "hike_1001.mp4", kind="list_item")
    assert frame_text(device) == "alpha"
    texts = [e.text for e in ui_elements(device.frame())]
    assert not any("alpha" in t for t in texts)  # in the pixels only
    tap(device, id="next_frame")
    tap(device, id="next_frame")
    assert frame_text(device) == "charlie"
    tap(device, id="prev_frame")
    assert frame_text(device) == "bravo"
    tap(device, id="play_pause")  # play: a frame a second
    device.step(PhoneAction("wait", seconds=1))
    assert frame_text(device) in ("charlie", "delta")
    device.step(PhoneAction("wait", seconds=30))
    assert frame_text(device) == "delta"  # stops at the end
    press(device, "back")
    assert shown(device, "zoo_3003.mp4", kind="list_item")


def test_the_two_playlist_task_reports_half_progress() -> None:
    task = VlcCreateTwoPlaylists()
    device = Device([VlcApp])
    ep = Episode(task, device, np.random.default_rng(1))
    open_app(device, "VLC")
    new_playlist(device, ep.params["playlist_name1"], *ep.params["files1"])
    verdict = ep.verify(None, "success")
    assert not verdict.success and verdict.progress == 0.5


@pytest.mark.parametrize("task", TEMPLATES, ids=lambda t: t.id)
def test_a_wrong_order_fails(task) -> None:  # noqa: ANN001
    device = Device([VlcApp])
    ep = Episode(task, device, np.random.default_rng(2))
    p = ep.params
    name = p.get("playlist_name") or p["playlist_name1"]
    files = p.get("files") or p["files1"]
    open_app(device, "VLC")
    new_playlist(device, name, *reversed(files))
    assert ep.verify(None, "success").progress == 0.0


def test_check_app() -> None:
    check_app("VLC", 300)


def test_back_from_the_player_keeps_playing_in_the_mini_player(device: Device) -> None:
    tap(device, "hike_1001.mp4", kind="list_item")
    tap(device, id="play_pause")
    press(device, "back")
    assert vlc(device).ticking and shown(device, id="mini_player")
    assert shown(device, desc="Pause", id="mini_play_pause")
    act(device, PhoneAction("wait", seconds=2.0))
    tap(device, id="mini_player")  # back to the same video, further on
    assert frame_text(device) in ("charlie", "delta")
    tap(device, id="close_player")  # Close stops it: no mini player
    assert not vlc(device).ticking and not shown(device, id="mini_player")


def test_videos_are_rows_with_16_9_thumbnails_a_picked_one_checked(device: Device) -> None:
    from phone_gym.world.layout import VIDEO_SIDE_W

    def row(name: str):  # noqa: ANN202
        return Driver(device).find(name, kind="list_item").node

    node = row("hike_1001.mp4")
    assert node.style == "video_side" and node.hint  # its length under its name
    assert pictures.decode(node.glyph) == ("video", pictures.seed_of("hike_1001.mp4"))
    placed = Driver(device).find("hike_1001.mp4", kind="list_item")
    assert placed.rect[3] - placed.rect[1] >= VIDEO_SIDE_W * 9 // 16
    long_press(device, "hike_1001.mp4", kind="list_item")
    assert row("hike_1001.mp4").selected and not row("zoo_3003.mp4").selected
