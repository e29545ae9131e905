"""The dataset importers (``phone_gym.reconstruct.importers``), each on a small sample written
in the test to its dataset's documented layout: AndroidControl (google-research
``android_control/README.md``; trees as android_env's ``android_accessibility_forest.proto``),
Android in the Wild (``android_in_the_wild/README.md``, ``action_type.py``,
``visualization_utils.py``) and GUI-Odyssey (OpenGVLab ``introduction.md``,
``data/format_converter.py``)."""

from __future__ import annotations

import gzip
import io
import json
import struct
from pathlib import Path

import pytest
from PIL import Image

from phone_gym.cli import main
from phone_gym.reconstruct.importers import import_traces
from phone_gym.reconstruct.importers._records import (
    crc32c,
    example_bytes,
    masked_crc,
    message_class,
    parse_example,
    read_records,
    write_records,
)
from phone_gym.reconstruct.trace import load_traces


def _png(w: int, h: int, colour: tuple[int, int, int]) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), colour).save(buf, format="PNG")
    return buf.getvalue()


def _lines(folder: Path) -> list[dict]:
    return [json.loads(x) for x in (folder / "trace.jsonl").read_text().splitlines()]


# --- TFRecord and tf.train.Example ------------------------------------------------------------

def test_crc32c_check_value_and_tfrecord_framing(tmp_path: Path) -> None:
    assert crc32c(b"123456789") == 0xE3069283  # CRC-32C's published check value
    path = tmp_path / "r.tfrecord"
    write_records(path, [b"hello", b""], compress=True)
    raw = gzip.decompress(path.read_bytes())
    # length (uint64 LE), masked crc of the length, data, masked crc of the data
    assert raw[:8] == struct.pack("<Q", 5)
    assert raw[8:12] == struct.pack("<I", masked_crc(raw[:8]))
    assert raw[12:17] == b"hello" and raw[17:21] == struct.pack("<I", masked_crc(b"hello"))
    assert list(read_records(path)) == [b"hello", b""]
    bad = bytearray(raw)
    bad[13] ^= 1
    path.write_bytes(bytes(bad))
    with pytest.raises(ValueError, match="bad data CRC"):
        list(read_records(path))


def test_example_parses_wire_bytes_written_by_hand() -> None:
    # Example{features{feature{key: "n" value{int64_list{value: [7, 300]}}}
    #                  feature{key: "s" value{bytes_list{value: ["ab"]}}}}}
    packed = b"\x07\xac\x02"  # varints 7, 300
    int64_list = b"\x0a" + bytes([len(packed)]) + packed
    feat_n = b"\x1a" + bytes([len(int64_list)]) + int64_list
    bytes_list = b"\x0a\x02ab"
    feat_s = b"\x0a" + bytes([len(bytes_list)]) + bytes_list
    entries = b""
    for key, feat in ((b"n", feat_n), (b"s", feat_s)):
        entry = b"\x0a\x01" + key + b"\x12" + bytes([len(feat)]) + feat
        entries += b"\x0a" + bytes([len(entry)]) + entry
    example = b"\x0a" + bytes([len(entries)]) + entries
    assert parse_example(example) == {"n": [7, 300], "s": [b"ab"]}


# --- AndroidControl ---------------------------------------------------------------------------

def _forest(package: str, nodes: list[dict]) -> bytes:
    forest = message_class("android_env.AndroidAccessibilityForest")()
    status = forest.windows.add(window_type=3)  # TYPE_SYSTEM: the status bar
    status.tree.nodes.add(unique_id=0, package_name="com.android.systemui", text="12:00",
                          bounds_in_screen={"left": 0, "top": 0, "right": 1080, "bottom": 60})
    app = forest.windows.add(window_type=1, is_active=True)  # TYPE_APPLICATION
    for i, n in enumerate(nodes):
        app.tree.nodes.add(unique_id=i, package_name=package, **n)
    return bytes(forest.SerializeToString())


def _control_sample(path: Path, actions: list[dict]) -> None:
    pkg = "com.example.notes"
    box = {"left": 0, "top": 200, "right": 1080, "bottom": 400}
    trees = [
        _forest(pkg, [{"class_name": "android.widget.Button", "text": "New note",
                       "is_clickable": True, "view_id_resource_name": f"{pkg}:id/new",
                       "bounds_in_screen": box}]),
        _forest(pkg, [{"class_name": "android.widget.EditText", "text": "", "is_editable": True,
                       "is_clickable": True, "is_focused": True, "bounds_in_screen": box}]),
        _forest(pkg, [{"class_name": "android.widget.EditText", "text": "milk",
                       "is_editable": True, "bounds_in_screen": box}]),
    ]
    record = example_bytes({
        "episode_id": [42], "goal": ["Write a note saying milk"],
        "screenshots": [_png(1080, 2400, (i * 40, 0, 0)) for i in range(3)],
        "accessibility_trees": trees, "screenshot_widths": [1080] * 3,
        "screenshot_heights": [2400] * 3,
        "actions": [json.dumps(a) for a in actions],
        "step_instructions": ["tap New note", "type milk"][:len(actions)],
    })
    write_records(path, [record], compress=True)  # the README: compression type 'GZIP'


def test_android_control_episode_becomes_a_trace(tmp_path: Path) -> None:
    src = tmp_path / "android_control-00000-of-00001"
    _control_sample(src, [{"action_type": "click", "x": 540, "y": 300},
                          {"action_type": "type", "text": "milk", "x": 540, "y": 300}])
    tally = import_traces("android_control", src, tmp_path / "out")
    assert (tally.episodes, tally.steps, dict(tally.skipped)) == (1, 3, {})
    [trace] = load_traces([tmp_path / "out"])
    folder = tmp_path / "out" / "android_control_42"
    assert trace.name == "android_control_42"
    assert [s.package for s in trace.steps] == ["com.example.notes"] * 3
    assert trace.steps[0].action is None
    # pixels of a 1080 x 2400 screenshot onto the [0, 1000] grid
    assert trace.steps[1].action == {"action": "click", "x": 500, "y": 125}
    assert trace.steps[1].target is not None and trace.steps[1].target["text"] == "New note"
    assert trace.steps[2].action == {"action": "type", "text": "milk", "x": 500, "y": 125,
                                     "enter": True}
    texts = [e.text for e in trace.steps[0].elements()]
    assert "12:00" in texts and "New note" in texts  # every window's nodes
    assert [x.get("instruction") for x in _lines(folder)] == [None, "tap New note", "type milk"]
    assert json.loads((folder / "info.json").read_text())["goal"] == "Write a note saying milk"
    with Image.open(folder / "frames" / "0002.png") as im:
        assert im.size == (1080, 2400) and im.getpixel((5, 5)) == (80, 0, 0)


def test_android_control_unknown_action_is_left_out_and_counted(tmp_path: Path) -> None:
    src = tmp_path / "ac.tfrecord"
    _control_sample(src, [{"action_type": "teleport"}, {"action_type": "navigate_back"}])
    tally = import_traces("android_control", src, tmp_path / "out")
    assert tally.skipped == {"unknown action_type 'teleport'": 1}
    [trace] = load_traces([tmp_path / "out"])
    assert trace.steps[1].action is None and trace.steps[1].source == ""
    assert trace.steps[2].action == {"action": "press", "button": "back"}


# --- Android in the Wild ----------------------------------------------------------------------

def _aitw_step(episode: str, step: int, action: int, touch: list[float], lift: list[float],
               text: str = "") -> bytes:
    w, h = 20, 40
    return example_bytes({
        "episode_id": [episode], "step_id": [step], "episode_length": [3],
        "goal_info": ["search for shoes"], "current_activity": ["com.android.chrome/.Main"],
        "image/height": [h], "image/width": [w], "image/channels": [3],
        "image/encoded": [bytes([step * 50, 0, 0]) * (w * h)],  # raw uint8 pixels
        "image/ui_annotations_positions": [0.1, 0.0, 0.1, 1.0],  # (y, x, height, width)
        "image/ui_annotations_text": [f"Search {step}"],
        "image/ui_annotations_ui_types": ["TEXT"],
        "results/action_type": [action], "results/yx_touch": touch, "results/yx_lift": lift,
        "results/type_action": [text],
    })


def test_aitw_steps_grouped_into_an_episode(tmp_path: Path) -> None:
    src = tmp_path / "general-0"
    records = [  # out of order, as shards may hold them
        _aitw_step("e1", 2, 10, [-1.0, -1.0], [-1.0, -1.0]),     # STATUS_TASK_COMPLETE
        _aitw_step("e1", 0, 4, [0.15, 0.5], [0.15, 0.5]),        # a tap (DUAL_POINT)
        _aitw_step("e1", 1, 4, [0.8, 0.5], [0.3, 0.52]),         # finger up: scroll down
    ]
    write_records(src, records, compress=True)
    tally = import_traces("aitw", src, tmp_path / "out")
    assert (tally.episodes, tally.steps) == (1, 3)
    [trace] = load_traces([tmp_path / "out"])
    assert [s.package for s in trace.steps] == ["com.android.chrome"] * 3
    assert trace.steps[1].action == {"action": "click", "x": 500, "y": 150}
    assert trace.steps[1].target is not None and trace.steps[1].target["text"] == "Search 0"
    assert trace.steps[2].action == {"action": "scroll", "x": 500, "y": 800,
                                     "direction": "down"}
    assert [e.text for e in trace.steps[2].elements()] == ["Search 2"]
    info = json.loads((tmp_path / "out" / "aitw_e1" / "info.json").read_text())
    assert info["final_action"] == {"action": "finish", "status": "success"}
    with Image.open(tmp_path / "out" / "aitw_e1" / "frames" / "0001.png") as im:
        assert im.size == (20, 40) and im.getpixel((0, 0)) == (50, 0, 0)


def test_aitw_unknown_action_type_is_counted(tmp_path: Path) -> None:
    src = tmp_path / "a"
    write_records(src, [_aitw_step("e", 0, 9, [0, 0], [0, 0]),   # UNUSED_9
                        _aitw_step("e", 1, 3, [-1, -1], [-1, -1], text="shoes"),
                        _aitw_step("e", 2, 11, [-1, -1], [-1, -1])])
    tally = import_traces("aitw", src, tmp_path / "out")
    assert tally.skipped == {"unknown action_type 9": 1}
    [trace] = load_traces([tmp_path / "out"])
    assert trace.steps[1].action is None
    assert trace.steps[2].action == {"action": "type", "text": "shoes"}


# --- GUI-Odyssey ------------------------------------------------------------------------------

def test_gui_odyssey_annotation_becomes_a_trace(tmp_path: Path) -> None:
    src = tmp_path / "odyssey"
    (src / "annotations").mkdir(parents=True)
    (src / "screenshots").mkdir()
    steps = [("CLICK", [[250, 500]]), ("SCROLL", [[500, 800], [500, 200]]),
             ("TEXT", "new york"), ("CLICK", "KEY_BACK"), ("DANCE", ""), ("COMPLETE", "")]
    for i in range(len(steps)):
        (src / "screenshots" / f"ep1_{i}.png").write_bytes(_png(10, 20, (i, 0, 0)))
    (src / "annotations" / "ep1.json").write_text(json.dumps({
        "episode_id": "ep1",
        "device_info": {"product": "x", "release_version": "34", "sdk_version": "34",
                        "h": 2400, "w": 1080, "device_name": "Pixel 7 Pro"},
        "task_info": {"category": "Multi_Apps", "app": ["Chrome", "TickTick"],
                      "meta_task": "m", "task": "t", "instruction": "find a date"},
        "step_length": len(steps),
        "steps": [{"step": i, "screenshot": f"ep1_{i}.png", "action": a, "info": info, "ps": ""}
                  for i, (a, info) in enumerate(steps)],
    }))
    tally = import_traces("gui_odyssey", src, tmp_path / "out")
    assert (tally.episodes, tally.steps) == (1, 6)
    assert tally.skipped == {"unknown action 'DANCE'": 1}
    [trace] = load_traces([tmp_path / "out"])
    assert [s.action for s in trace.steps] == [
        None, {"action": "click", "x": 250, "y": 500},
        {"action": "scroll", "x": 500, "y": 800, "direction": "down"},
        {"action": "type", "text": "new york"}, {"action": "press", "button": "back"}, None]
    assert trace.steps[0].size == (1080, 2400)
    info = json.loads((tmp_path / "out" / "gui_odyssey_ep1" / "info.json").read_text())
    assert info["final_action"] == {"action": "finish", "status": "success"}


# --- the CLI ----------------------------------------------------------------------------------

def test_cli_reconstruct_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "ac"
    _control_sample(src, [{"action_type": "click", "x": 540, "y": 300},
                          {"action_type": "input_text", "text": "milk"}])
    assert main(["reconstruct", "import", "--format", "android_control", str(src),
                 str(tmp_path / "out")]) == 0
    assert "imported 1 episodes, 3 steps" in capsys.readouterr().out
    assert main(["reconstruct", "import", "--format", "aitw", str(tmp_path / "nope"),
                 str(tmp_path / "o2")]) != 0
    err = capsys.readouterr().err
    assert "no such file or folder" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(ValueError, match="accepted: android_control, aitw, gui_odyssey"):
        import_traces("rico", src, tmp_path / "o3")
