"""The Audio Recorder app driven through actions: record, pause, resume, stop, the saved
panel's rename, the records list's rename and delete, name clashes; and its tasks."""

from __future__ import annotations

import numpy as np
import pytest
from driving import Driver, fill, long_press, open_app, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.recorder import TEMPLATES, RecorderApp
from phone_gym.mockapps.recorder.app import RECORDINGS_DIR, clean_name
from phone_gym.tasks.task import Episode
from phone_gym.testing import check_app
from phone_gym.world import Device


def recordings(device: Device) -> dict[str, str]:
    return {f.name: f.content for f in device.system.files if f.folder == RECORDINGS_DIR}


@pytest.fixture
def device() -> Device:
    d = Device([RecorderApp])
    d.system.write_file(f"{RECORDINGS_DIR}/Record-1.m4a", "AAC audio, duration 0:09")
    open_app(d, "Recorder")
    return d


def test_record_pause_resume_stop_saves_the_time_recorded(device: Device) -> None:
    tap(device, "Record", id="btn_record")
    device.step(PhoneAction("wait", seconds=4))
    tap(device, "Pause", id="btn_pause")
    device.step(PhoneAction("wait", seconds=30))  # paused time is not recorded
    tap(device, "Resume", id="btn_record")
    tap(device, "Stop", id="btn_stop")
    saved = recordings(device)
    assert set(saved) == {"Record-1.m4a", "Record-2.m4a"}
    assert "duration 0:0" in saved["Record-2.m4a"]
    assert shown(device, "Saved: Record-2.m4a", id="txt_saved")


def test_rename_after_saving_adds_the_extension_once(device: Device) -> None:
    tap(device, "Record", id="btn_record")
    tap(device, "Stop", id="btn_stop")
    tap(device, "Rename", id="btn_rename")
    fill(device, "rename_field", "lecture_final.m4a")
    tap(device, id="button_ok")
    assert set(recordings(device)) == {"Record-1.m4a", "lecture_final.m4a"}
    assert clean_name(" memo.M4A ") == "memo" and clean_name("a/b") == "a_b"


def test_a_taken_name_is_refused(device: Device) -> None:
    tap(device, "Record", id="btn_record")
    tap(device, "Stop", id="btn_stop")
    tap(device, "Rename", id="btn_rename")
    fill(device, "rename_field", "Record-1")
    tap(device, id="button_ok")
    assert set(recordings(device)) == {"Record-1.m4a", "Record-2.m4a"}
    assert shown(device, id="rename_field")


def test_the_records_list_renames_and_deletes(device: Device) -> None:
    tap(device, "Records", id="btn_records_list")
    long_press(device, "Record-1.m4a", kind="list_item")
    tap(device, "Rename", kind="menu_item")
    fill(device, "rename_field", "call")
    tap(device, id="button_ok")
    assert set(recordings(device)) == {"call.m4a"}
    long_press(device, "call.m4a", kind="list_item")
    tap(device, "Delete", kind="menu_item")
    tap(device, id="button_delete")
    assert recordings(device) == {} and shown(device, "No records yet")


def test_a_force_stop_drops_the_recording_in_progress(device: Device) -> None:
    tap(device, "Record", id="btn_record")
    device.force_stop("Recorder")
    assert set(recordings(device)) == {"Record-1.m4a"}


@pytest.mark.parametrize("task", TEMPLATES, ids=lambda t: t.id)
def test_an_extra_recording_fails(task) -> None:  # noqa: ANN001
    device = Device([RecorderApp])
    ep = Episode(task, device, np.random.default_rng(5))
    answer, _ = ep.solve()
    assert ep.verify(answer, ep.end_status).success
    open_app(device, "Recorder")
    tap(device, "Record", id="btn_record")
    tap(device, "Stop", id="btn_stop")
    assert not ep.verify(None, "success").success


def test_the_named_task_wants_that_name() -> None:
    task = next(t for t in TEMPLATES if t.id == "AudioRecorderRecordAudioWithFileName")
    device = Device([RecorderApp])
    ep = Episode(task, device, np.random.default_rng(6))
    open_app(device, "Recorder")
    tap(device, "Record", id="btn_record")
    tap(device, "Stop", id="btn_stop")  # kept under the default name
    assert not ep.verify(None, "success").success


def test_check_app() -> None:
    check_app("Recorder", 300)


def test_a_big_round_record_button_a_timer_and_a_waveform(device: Device) -> None:
    from phone_gym.world.a11y import ui_elements
    from phone_gym.world.kit.media import WAVE_BARS
    from phone_gym.world.render import Renderer
    from phone_gym.world.theme import SCREEN_H, SCREEN_W

    def rect(node_id: str) -> tuple[int, int, int, int]:
        return next(p.rect for p in device.frame().items if p.node.id == node_id)

    assert not [e for e in ui_elements(device.frame()) if e.kind == "tab"]  # no tabs
    x0, y0, x1, y1 = rect("btn_record")
    assert abs((x0 + x1) // 2 - SCREEN_W // 2) < 10 and y0 > SCREEN_H * 0.7  # bottom centre
    image = Renderer().render(device.frame())
    sy, sx = image.shape[0] / SCREEN_H, image.shape[1] / SCREEN_W
    accent = device.current_app.manifest.look.palettes[0].primary
    centre = image[int((y0 + y1) / 2 * sy), int((x0 + x1) / 2 * sx) - int(60 * sx)]
    assert tuple(int(c) for c in centre) == accent  # a red disc
    wave = rect("waveform")
    quiet = Renderer().render(device.frame())
    tap(device, "Record", id="btn_record")
    device.step(PhoneAction("wait", seconds=6))
    assert shown(device, "0:08", id="txt_duration") and shown(device, "Pause", id="btn_pause")
    loud = Renderer().render(device.frame())
    wy0, wy1 = int(wave[1] * sy), int(wave[3] * sy)
    left = slice(0, int(SCREEN_W / 2 * sx) - 8)
    changed = (loud[wy0:wy1, left] != quiet[wy0:wy1, left]).any(axis=2).any(axis=0).sum()
    assert changed > WAVE_BARS  # bars left of the centre line while recording
    (listing,) = [e for e in ui_elements(device.frame()) if e.short_id == "btn_records_list"]
    assert not listing.enabled  # not while recording


def test_the_records_list_plays_a_record_with_a_docked_player(device: Device) -> None:
    tap(device, "Records", id="btn_records_list")
    tap(device, desc="Play")
    assert shown(device, "Record-1.m4a", id="mini_player") and shown(device, desc="Pause")
    device.step(PhoneAction("wait", seconds=3))
    assert shown(device, "0:05", id="elapsed") and shown(device, "0:09", id="duration")
    tap(device, id="mini_play_pause")  # pause: the time stays
    at = Driver(device).find(id="elapsed").node.text
    device.step(PhoneAction("wait", seconds=30))
    assert shown(device, at, id="elapsed") and shown(device, desc="Play")
    tap(device, desc="Play")
    device.step(PhoneAction("wait", seconds=30))  # it stops at its end
    assert shown(device, "0:09", id="elapsed") and shown(device, desc="Play")
    tap(device, id="navigate_up")
    assert shown(device, "Record", id="btn_record")


def test_a_task_starts_from_the_records_list_too() -> None:
    task = next(t for t in TEMPLATES if t.id == "AudioRecorderRecordAudio")
    device = Device([RecorderApp])
    ep = Episode(task, device, np.random.default_rng(5))
    open_app(device, "Recorder")
    tap(device, "Records", id="btn_records_list")
    device.press("home")
    answer, _ = ep.solve()
    assert ep.verify(answer, ep.end_status).success
