"""Trajectory integrity (issue 24): end lines make an episode complete, a crash mid-append
leaves a partial episode that loading leaves out (or reports), a malformed file gets one
error naming its file and line, and frame paths stay inside the folder."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import threading
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from phone_gym.play import list_recorded
from phone_gym.trainer.rollout import frame_ref
from phone_gym.trajectory.format import TrajectoryError, TrajectoryWarning, read_trajectory
from phone_gym.trajectory.records import Episode, StepRecord
from phone_gym.trajectory.store import STEPS_FILE, export_episodes, load_episodes

FORMAT_LINE = {"format": "phone-gym-trajectory", "version": 2}


def episode(episode_id: str, n: int = 2, frames: bool = True) -> Episode:
    steps = []
    for k in range(n):
        last = k == n - 1
        steps.append(StepRecord(
            episode_id=episode_id, source="test", task_id="ClockDisableAlarm", seed=k,
            group_id=0, step=k, instruction="turn the alarm off", history=["home()"] * k,
            feedback=None, prompt_ids=[1, 2, 3], gen_ids=[4, 5], logprobs=[-0.5, -1.0],
            screenshot=frame_ref(episode_id, k) if frames else None,
            image_refs=[frame_ref(episode_id, k)] if frames else [], text="home()",
            action="home()", valid=True, action_error=None, env_reward=float(last),
            penalty=0.0, reward=float(last), done=last, terminated=last, truncated=False,
            success=True if last else None, verdict="done" if last else None,
            frame=np.full((4, 3, 3), 10 * k + len(episode_id), dtype=np.uint8)
            if frames else None))
    return Episode(steps)


def lines(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / STEPS_FILE).read_text().splitlines()]


def write_lines(folder: Path, rows: list[Any], tail: str = "") -> Path:
    file = folder / STEPS_FILE
    file.write_text("".join(json.dumps(r) + "\n" for r in rows) + tail)
    return file


def ids(episodes: list[Episode]) -> list[str]:
    return [e.episode_id for e in episodes]


def load_quietly(folder: Path, **kwargs: Any) -> list[Episode]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning expected
        return load_episodes(folder, **kwargs)


# -- complete episodes round-trip ------------------------------------------------------
@pytest.mark.parametrize("append", [False, True])
def test_complete_episodes_round_trip(tmp_path: Path, append: bool) -> None:
    written = [episode("ep1", 3), episode("ep2", 1)]
    if append:
        for ep in written:
            export_episodes([ep], tmp_path, append=True)
    else:
        export_episodes(written, tmp_path)
    rows = lines(tmp_path)
    assert rows[0] == FORMAT_LINE and rows.count(FORMAT_LINE) == 1
    assert rows[4] == {"end": True, "episode_id": "ep1", "steps": 3}
    assert rows[-1] == {"end": True, "episode_id": "ep2", "steps": 1}
    loaded = load_quietly(tmp_path)
    assert ids(loaded) == ["ep1", "ep2"]
    for got, want in zip(loaded, written, strict=True):
        assert [s.to_json() for s in got.steps] == [s.to_json() for s in want.steps]
        for g, w in zip(got.steps, want.steps, strict=True):
            assert g.frame is not None and np.array_equal(g.frame, w.frame)
    assert not list(tmp_path.rglob("*.tmp"))


def test_export_of_a_record_that_would_not_load_writes_nothing(tmp_path: Path) -> None:
    export_episodes([episode("ep1")], tmp_path)
    before = (tmp_path / STEPS_FILE).read_bytes()
    bad = episode("ep2")
    bad.steps[1].reward = "1"  # type: ignore[assignment]
    for append in (False, True):
        with pytest.raises(ValueError, match=r"step 1 of episode 'ep2': 'reward' is a string"):
            export_episodes([bad], tmp_path, append=append)
    assert (tmp_path / STEPS_FILE).read_bytes() == before  # the old file, whole
    assert ids(load_quietly(tmp_path)) == ["ep1"] and not list(tmp_path.rglob("*.tmp"))


# -- a crash mid-episode ---------------------------------------------------------------
def test_a_file_cut_in_the_middle_of_a_line_loads_without_the_partial_episode(
        tmp_path: Path) -> None:
    export_episodes([episode("ep1"), episode("ep2", 3)], tmp_path)
    file = tmp_path / STEPS_FILE
    text = file.read_text().splitlines(keepends=True)
    assert json.loads(text[6])["step"] == 2  # ep2's last step, on line 7
    file.write_text("".join(text[:6]) + text[6][:40])  # the crash: in the middle of line 7
    with pytest.warns(TrajectoryWarning, match=r"ep2 \(line 5, 2 steps\).*cut last line "
                                               r"\(line 7\)"):
        assert ids(load_episodes(tmp_path)) == ["ep1"]
    with pytest.raises(TrajectoryError, match=rf"^{re.escape(str(file))}:5: 1 partial "
                                              r"episode\(s\) without an end line: ep2"):
        load_episodes(tmp_path, on_partial="error")
    # the next append removes the cut line instead of gluing a new line to it
    with pytest.warns(TrajectoryWarning, match="removed a cut last line"):
        export_episodes([episode("ep3")], tmp_path, append=True)
    with pytest.warns(TrajectoryWarning, match=r"1 partial episode\(s\) without an end line: "
                                               r"ep2 \(line 5, 2 steps\) \(an interrupted"):
        assert ids(load_episodes(tmp_path)) == ["ep1", "ep3"]


def test_a_last_episode_without_its_end_line_is_partial(tmp_path: Path) -> None:
    export_episodes([episode("ep1"), episode("ep2")], tmp_path)
    file = tmp_path / STEPS_FILE
    file.write_text("".join(file.read_text().splitlines(keepends=True)[:-1]))
    with pytest.warns(TrajectoryWarning, match=r"left out 1 partial episode\(s\) .*: ep2 "):
        (ep,) = load_episodes(tmp_path)
    assert ep.episode_id == "ep1" and len(ep) == 2
    with pytest.raises(TrajectoryError, match=rf"^{re.escape(str(file))}:5: .*ep2"):
        load_episodes(tmp_path, on_partial="error")
    # a partial episode in the middle (a crash, then a resumed run appending) too
    export_episodes([episode("ep3")], tmp_path, append=True)
    with pytest.warns(TrajectoryWarning, match="ep2"):
        assert ids(load_episodes(tmp_path)) == ["ep1", "ep3"]
    with pytest.warns(TrajectoryWarning, match="ep2"):  # play's replay list agrees
        assert [e["episode_id"] for e in list_recorded(tmp_path)] == ["ep1", "ep3"]


def test_a_whole_last_line_without_its_newline_is_kept(tmp_path: Path) -> None:
    export_episodes([episode("ep1")], tmp_path)
    file = tmp_path / STEPS_FILE
    file.write_text(file.read_text().rstrip("\n"))  # edited by hand: no final newline
    assert ids(load_quietly(tmp_path)) == ["ep1"]
    export_episodes([episode("ep2")], tmp_path, append=True)
    assert ids(load_quietly(tmp_path)) == ["ep1", "ep2"]


def test_bad_on_partial_names_the_accepted_values(tmp_path: Path) -> None:
    export_episodes([episode("ep1")], tmp_path)
    with pytest.raises(ValueError, match="on_partial='ignore'; accepted: skip, error"):
        load_episodes(tmp_path, on_partial="ignore")


def _append_many(folder: str, prefix: str) -> None:
    for k in range(15):
        export_episodes([episode(f"{prefix}{k}", 3, frames=False)], folder, append=True)


def test_writers_in_two_processes_keep_each_episode_whole(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    procs = [ctx.Process(target=_append_many, args=(str(tmp_path), p)) for p in "ab"]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    loaded = load_quietly(tmp_path)
    assert sorted(ids(loaded)) == sorted(f"{p}{k}" for p in "ab" for k in range(15))
    assert lines(tmp_path).count(FORMAT_LINE) == 1
    found = read_trajectory(tmp_path / STEPS_FILE)
    for ep in found.episodes:  # each episode's lines next to each other
        assert ep.lines == list(range(ep.lines[0], ep.lines[0] + 3))


@pytest.mark.skipif(os.name != "posix", reason="flock is POSIX")
def test_an_append_waits_for_the_lock_of_another_writer(tmp_path: Path) -> None:
    import fcntl

    export_episodes([episode("ep1")], tmp_path)
    file = tmp_path / STEPS_FILE
    before = file.read_bytes()
    fd = os.open(file, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another writer in the middle of its episode
    writer = threading.Thread(target=export_episodes, args=([episode("ep2")], tmp_path),
                              kwargs={"append": True})
    try:
        writer.start()
        writer.join(0.3)
        assert writer.is_alive() and file.read_bytes() == before
    finally:
        os.close(fd)
    writer.join(10)
    assert ids(load_quietly(tmp_path)) == ["ep1", "ep2"]


# -- tampered files: one error naming the file and line --------------------------------
def _tamper(rows: list[Any], how: str) -> tuple[list[Any], str]:
    """``rows`` (a format line, ep1's 2 steps and end line, ep2's ...) changed; the error."""
    step = rows[2]
    if how == "bad json":
        return rows[:2] + ['{"episode_id": "ep1", "step": 1,'] + rows[3:], "not a JSON line"
    if how == "missing key":
        del step["reward"]
        return rows, "the step record lacks 'reward'"
    if how == "wrong type":
        step["step"] = "1"
        return rows, r"'step' is a string \('1'\), expected an integer"
    if how == "wrong list type":
        step["prompt_ids"] = [1, "2"]
        return rows, "'prompt_ids' is a list, expected a list of integers or null"
    if how == "not an object":
        return rows[:2] + [[1, 2]] + rows[3:], "expected a JSON object"
    if how == "unknown version":
        rows[0] = {"format": "phone-gym-trajectory", "version": 3}
        return rows, "version 3 is not one this phone-gym reads"
    if how == "end count":
        rows[3] = {"end": True, "episode_id": "ep1", "steps": 3}
        return rows, "says episode 'ep1' has 3 steps, but 2 are above it"
    if how == "end without steps":
        rows[3] = {"end": True, "episode_id": "ep9", "steps": 2}
        return rows, "an end line for episode 'ep9', which has no steps above it"
    raise AssertionError(how)


TAMPERED = {"bad json": 3, "missing key": 3, "wrong type": 3, "wrong list type": 3,
            "not an object": 3, "unknown version": 1, "end count": 4, "end without steps": 4}


@pytest.mark.parametrize("how", sorted(TAMPERED))
def test_a_tampered_file_gets_one_error_naming_file_and_line(tmp_path: Path,
                                                             how: str) -> None:
    export_episodes([episode("ep1"), episode("ep2")], tmp_path)
    rows, reason = _tamper([json.loads(x) for x in
                            (tmp_path / STEPS_FILE).read_text().splitlines()], how)
    file = tmp_path / STEPS_FILE
    file.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    pattern = rf"^{re.escape(str(file))}:{TAMPERED[how]}: .*{reason}"
    for call in (lambda: load_episodes(tmp_path), lambda: load_episodes(file, frames=False),
                 lambda: list_recorded(tmp_path)):
        with pytest.raises(TrajectoryError, match=pattern) as caught:
            call()
        assert isinstance(caught.value, ValueError) and "\n" not in str(caught.value)


def test_train_sft_names_the_line_of_a_tampered_data_path(tmp_path: Path) -> None:
    from phone_gym.trainer.config import ConfigError
    from phone_gym.trainer.runs import sft_data

    export_episodes([episode("ep1")], tmp_path)
    file = tmp_path / STEPS_FILE
    file.write_text(file.read_text().replace('"reward": 1.0', '"reward": "1"'))
    with pytest.raises(ConfigError, match=rf"^data.path = .*: {re.escape(str(file))}:3: "
                                          "'reward' is a string"):
        sft_data({"path": str(tmp_path)})


def test_a_line_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    export_episodes([episode("ep1")], tmp_path)
    file = tmp_path / STEPS_FILE
    file.write_bytes(file.read_bytes() + b"\xff\xfe{}\n")
    with pytest.raises(TrajectoryError, match=rf"^{re.escape(str(file))}:5: .*not UTF-8"):
        load_episodes(tmp_path)


def test_a_frame_that_is_not_an_image_is_named(tmp_path: Path) -> None:
    export_episodes([episode("ep1")], tmp_path)
    (tmp_path / frame_ref("ep1", 1)).write_bytes(b"not a png")
    with pytest.raises(TrajectoryError, match=rf"{re.escape(str(tmp_path / STEPS_FILE))}:3: "
                                              "step 1 of episode 'ep1': its frame"):
        load_episodes(tmp_path)
    assert len(load_quietly(tmp_path, frames=False)) == 1


# -- paths stay inside the folder ------------------------------------------------------
def _outside(tmp_path: Path) -> Path:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    export_episodes([episode("x", 1)], elsewhere)  # a real PNG outside the folder
    return elsewhere / frame_ref("x", 0)


@pytest.mark.parametrize("ref", ["../elsewhere/x.png", "frames/../../elsewhere/x.png",
                                 "ABSOLUTE", "C:\\elsewhere\\x.png", "..\\elsewhere\\x.png"])
@pytest.mark.parametrize("key", ["screenshot", "image_refs"])
def test_frame_paths_leading_out_of_the_folder_are_refused(tmp_path: Path, ref: str,
                                                           key: str) -> None:
    outside = _outside(tmp_path)
    folder = tmp_path / "traj"
    export_episodes([episode("ep1")], folder)
    ref = str(outside) if ref == "ABSOLUTE" else ref
    rows = lines(folder)
    rows[2][key] = ref if key == "screenshot" else [ref]
    file = write_lines(folder, rows)
    for frames in (True, False):
        with pytest.raises(TrajectoryError, match=rf"^{re.escape(str(file))}:3: .*"
                                                  r"frame path .* is not a relative path "
                                                  "inside the trajectory folder"):
            load_episodes(folder, frames=frames)


@pytest.mark.parametrize("link", ["file", "folder"])
def test_symlinks_pointing_out_of_the_folder_are_refused(tmp_path: Path, link: str) -> None:
    outside = _outside(tmp_path)
    folder = tmp_path / "traj"
    export_episodes([episode("ep1")], folder)
    if link == "file":
        target = folder / frame_ref("ep1", 1)
        target.unlink()
        target.symlink_to(outside)
        line = 3
    else:
        target = folder / "frames" / "ep1"
        for png in target.iterdir():
            png.unlink()
        target.rmdir()
        target.symlink_to(outside.parent)
        line = 2
    with pytest.raises(TrajectoryError, match=rf"^{re.escape(str(folder / STEPS_FILE))}:"
                                              rf"{line}: .*outside the trajectory folder"):
        load_episodes(folder)


def test_a_symlink_inside_the_folder_is_followed(tmp_path: Path) -> None:
    export_episodes([episode("ep1")], tmp_path)
    frame = tmp_path / frame_ref("ep1", 1)
    os.replace(frame, tmp_path / "kept.png")
    frame.symlink_to(tmp_path / "kept.png")
    assert load_quietly(tmp_path)[0].steps[1].frame is not None


def test_export_refuses_to_write_a_frame_outside_the_folder(tmp_path: Path) -> None:
    bad = episode("ep1")
    bad.steps[0].screenshot = "../elsewhere/x.png"
    with pytest.raises(ValueError, match=r"step 0 of episode 'ep1': frame path "
                                         r"'\.\./elsewhere/x\.png' is not a relative path"):
        export_episodes([bad], tmp_path / "traj")
    assert not (tmp_path / "elsewhere").exists()
    assert not (tmp_path / "traj" / STEPS_FILE).exists()


# -- version 1: files written before end lines ----------------------------------------
def test_a_version_1_file_loads_whole_and_appends_migrate_it(tmp_path: Path) -> None:
    export_episodes([episode("ep1"), episode("ep2", 3)], tmp_path)
    old = [r for r in lines(tmp_path) if "format" not in r and "end" not in r]
    file = write_lines(tmp_path, old)  # what phone-gym wrote before issue 24
    before = file.read_bytes()
    assert ids(load_quietly(tmp_path)) == ["ep1", "ep2"]
    export_episodes([episode("ep3")], tmp_path, append=True)
    export_episodes([episode("ep4")], tmp_path, append=True)
    assert file.read_bytes().startswith(before)  # the old lines as they were
    rows = lines(tmp_path)
    assert rows[len(old)] == FORMAT_LINE and rows.count(FORMAT_LINE) == 1
    assert ids(load_quietly(tmp_path)) == ["ep1", "ep2", "ep3", "ep4"]
    # after the format line, a step without its end line is partial again
    file.write_text("".join(file.read_text().splitlines(keepends=True)[:-1]))
    with pytest.warns(TrajectoryWarning, match="ep4"):
        assert ids(load_episodes(tmp_path)) == ["ep1", "ep2", "ep3"]


def test_an_end_line_in_a_version_1_file_is_refused(tmp_path: Path) -> None:
    export_episodes([episode("ep1")], tmp_path)
    rows = lines(tmp_path)[1:]  # the format line removed
    file = write_lines(tmp_path, rows)
    with pytest.raises(TrajectoryError, match=rf"^{re.escape(str(file))}:3: an end line in "
                                              "a version-1 part"):
        load_episodes(tmp_path)


def test_concatenated_files_load_as_one(tmp_path: Path) -> None:
    export_episodes([episode("ep1")], tmp_path / "a")
    export_episodes([episode("ep2")], tmp_path / "b")
    (tmp_path / "b" / STEPS_FILE).write_bytes((tmp_path / "a" / STEPS_FILE).read_bytes()
                                              + (tmp_path / "b" / STEPS_FILE).read_bytes())
    assert ids(load_quietly(tmp_path / "b", frames=False)) == ["ep1", "ep2"]


def test_appending_to_a_file_of_an_unknown_version_is_refused(tmp_path: Path) -> None:
    file = write_lines(tmp_path, [{"format": "phone-gym-trajectory", "version": 9}])
    with pytest.raises(TrajectoryError, match=rf"^{re.escape(str(file))}:1: cannot append"):
        export_episodes([episode("ep1")], tmp_path, append=True)
    assert lines(tmp_path) == [{"format": "phone-gym-trajectory", "version": 9}]
