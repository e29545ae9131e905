"""The Audio Recorder app driven through actions: record, pause, resume, stop, the saved
panel's rename, the records list's rename and delete, name clashes; and its tasks."""

from __future__ import annotations

import numpy as np
import pytest
from driving import fill, long_press, open_app, shown, tap

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
    tap(device, id="tab_records", kind="tab")
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
    tap(device, id="tab_record", kind="tab")
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
