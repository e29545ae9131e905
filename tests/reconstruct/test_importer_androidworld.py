"""AndroidWorld's recorded episodes (``reconstruct.importers.androidworld``) on a sample
written in the test to android_world's layout: ``IncrementalCheckpointer``'s gzip'd pickle
of a list of episode dicts (``suite_utils._run_task``), whose ``episode_data`` is the step
data as a dict of lists (``episode_runner._transpose_lod_to_dol``) holding
``representation_utils.UIElement`` lists and ``json_action.JSONAction`` actions. The
android_world classes are stand-ins defined here under android_world's module names, so the
pickle names the same classes a real checkpoint does."""

from __future__ import annotations

import dataclasses
import gzip
import json
import pickle
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from phone_gym.cli import main
from phone_gym.reconstruct.importers import import_traces
from phone_gym.reconstruct.importers.androidworld import load_episodes
from phone_gym.reconstruct.trace import load_traces

PKG = "com.example.notes"


@dataclasses.dataclass
class BoundingBox:
    x_min: float
    x_max: float
    y_min: float
    y_max: float


@dataclasses.dataclass
class UIElement:  # representation_utils.UIElement's fields (a subset, same names)
    text: str | None = None
    content_description: str | None = None
    class_name: str | None = None
    bbox: BoundingBox | None = None
    bbox_pixels: BoundingBox | None = None
    hint_text: str | None = None
    is_checked: bool | None = None
    is_checkable: bool | None = None
    is_clickable: bool | None = None
    is_editable: bool | None = None
    is_enabled: bool | None = None
    is_focused: bool | None = None
    is_long_clickable: bool | None = None
    is_scrollable: bool | None = None
    is_selected: bool | None = None
    package_name: str | None = None
    resource_name: str | None = None


@dataclasses.dataclass
class JSONAction:
    action_type: str | None = None
    index: str | int | None = None
    x: int | None = None
    y: int | None = None
    text: str | None = None
    direction: str | None = None
    goal_status: str | None = None
    app_name: str | None = None
    keycode: str | None = None
    clear_text: bool | None = None


@pytest.fixture
def aw_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the stand-ins under android_world's names (pickle records a class by its
    module and name)."""
    rep = types.ModuleType("android_world.env.representation_utils")
    act = types.ModuleType("android_world.env.json_action")
    for mod, classes in ((rep, (BoundingBox, UIElement)), (act, (JSONAction,))):
        for cls in classes:
            monkeypatch.setattr(cls, "__module__", mod.__name__)
            setattr(mod, cls.__name__, cls)
    for name, mod in (("android_world", types.ModuleType("android_world")),
                      ("android_world.env", types.ModuleType("android_world.env")),
                      (rep.__name__, rep), (act.__name__, act)):
        monkeypatch.setitem(sys.modules, name, mod)


def _el(text: str, box: tuple[int, int, int, int], **kw: Any) -> UIElement:
    x0, y0, x1, y1 = box
    return UIElement(text=text, class_name=kw.pop("cls", "android.widget.TextView"),
                     bbox_pixels=BoundingBox(x0, x1, y0, y1),
                     package_name=kw.pop("package_name", PKG), is_enabled=True, **kw)


def _episode() -> dict[str, Any]:
    list_screen = [_el("Notes", (0, 0, 1080, 200)),
                   _el("New note", (0, 200, 1080, 400), cls="android.widget.Button",
                       is_clickable=True, resource_name=f"{PKG}:id/new")]
    form = [_el("", (0, 200, 1080, 400), cls="android.widget.EditText", is_editable=True,
                is_clickable=True, is_focused=True, hint_text="Title")]
    saved = [_el("milk", (0, 200, 1080, 400), cls="android.widget.EditText", is_editable=True,
                 is_clickable=True)]
    shot = np.zeros((2400, 1080, 3), dtype=np.uint8)
    shot[..., 0] = 90
    steps = [  # M3A's step data: JSONAction in action_output_json
        {"before_ui_elements": list_screen, "raw_screenshot": shot,
         "action_output_json": JSONAction(action_type="click", index=1), "step_number": 0},
        {"before_ui_elements": form, "raw_screenshot": shot,
         "action_output_json": JSONAction(action_type="input_text", text="milk", index=0),
         "step_number": 1},
        {"before_ui_elements": saved, "raw_screenshot": shot,
         "action_output_json": JSONAction(action_type="status", goal_status="complete"),
         "step_number": 2},
    ]
    data = {k: [s[k] for s in steps] for k in steps[0]}  # _transpose_lod_to_dol
    return {"goal": "Add a note titled milk", "task_template": "MarkorCreateNote",
            "episode_data": data, "is_successful": 1.0, "instance_id": 0,
            "screen_config": {"width": 1080, "height": 2400}}


def _t3a_episode() -> dict[str, Any]:
    """T3A's step data: element lists before and after, the action as the model's text."""
    a = [_el("Wi-Fi", (0, 300, 1080, 450), cls="android.widget.Switch", is_checkable=True,
             is_clickable=True, package_name="com.android.settings")]
    b = [dataclasses.replace(a[0], is_checked=True)]
    return {"goal": "Turn Wi-Fi on", "task_template": "SystemWifiTurnOn", "screen_config": {},
            "episode_data": {
                "before_element_list": [a], "after_element_list": [b],
                "before_screenshot": [None],
                "action_output": ['Reason: tap it\nAction: {"action_type": "click", '
                                  '"x": 540, "y": 375}']}}


def _write(path: Path, episodes: list[dict[str, Any]]) -> None:
    path.write_bytes(gzip.compress(pickle.dumps(episodes)))


def test_androidworld_checkpoint_becomes_traces(tmp_path: Path, aw_modules: None) -> None:
    src = tmp_path / "ckpt"
    src.mkdir()
    _write(src / "MarkorCreateNote_0.pkl.gz", [_episode()])
    _write(src / "SystemWifiTurnOn_0.pkl.gz", [_t3a_episode()])
    tally = import_traces("androidworld", src, tmp_path / "out")
    assert (tally.episodes, tally.steps, dict(tally.skipped)) == (2, 5, {})
    notes, wifi = load_traces([tmp_path / "out"])
    assert notes.name == "androidworld_MarkorCreateNote_0_0"
    assert [s.package for s in notes.steps] == [PKG] * 3
    # index 1 is the "New note" button: its centre on the [0, 1000] grid
    assert notes.steps[1].action == {"action": "click", "x": 500, "y": 125}
    assert notes.steps[1].target is not None and notes.steps[1].target["text"] == "New note"
    assert notes.steps[2].action == {"action": "type", "text": "milk", "x": 500, "y": 125,
                                     "enter": True}
    els = notes.steps[0].elements()
    assert [e.text for e in els] == ["Notes", "New note"]
    assert els[1].short_id == "new" and els[1].clickable
    assert notes.steps[2].elements()[0].text == "milk"
    info = json.loads((tmp_path / "out" / notes.name / "info.json").read_text())
    assert info["goal"] == "Add a note titled milk" and info["final_action"] == {
        "action": "finish", "status": "success"}
    assert (tmp_path / "out" / notes.name / "frames" / "0000.png").is_file()
    # T3A: the text action, and the after-list as the last screen
    assert wifi.steps[1].action == {"action": "click", "x": 500, "y": 156}
    assert [e.checked for s in wifi.steps for e in s.elements()] == [False, True]
    assert wifi.steps[0].size == (1080, 2400)  # screen_config's default


def test_androidworld_episode_without_trees_is_counted(tmp_path: Path, aw_modules: None
                                                       ) -> None:
    ep = _episode()
    ep["episode_data"].pop("before_ui_elements")  # an agent that keeps only screenshots
    _write(tmp_path / "t.pkl.gz", [ep, _episode()])
    tally = import_traces("androidworld", tmp_path / "t.pkl.gz", tmp_path / "out")
    assert tally.episodes == 1 and tally.skipped == {"episodes without accessibility trees": 1}


class _Evil:
    def __reduce__(self) -> tuple[Any, ...]:
        import os
        return (os.system, ("touch pwned",))


def test_androidworld_unpickler_calls_no_pickled_callable(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          aw_modules: None) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "evil.pkl.gz"
    _write(path, [{"episode_data": {}, "x": _Evil()}, _episode()])
    episodes = load_episodes(path)
    assert not (tmp_path / "pwned").exists()
    assert type(episodes[0]["x"]).__name__ == "system"  # a plain stand-in, never called
    el = episodes[1]["episode_data"]["before_ui_elements"][0][1]
    assert type(el).__module__ != UIElement.__module__ and el.text == "New note"


def test_cli_reconstruct_import_androidworld(tmp_path: Path, aw_modules: None,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path / "a.pkl.gz", [_episode()])
    assert main(["reconstruct", "import", "--format", "androidworld",
                 str(tmp_path / "a.pkl.gz"), str(tmp_path / "out")]) == 0
    assert "imported 1 episodes, 3 steps" in capsys.readouterr().out
    (tmp_path / "empty").mkdir()
    assert main(["reconstruct", "import", "--format", "androidworld", str(tmp_path / "empty"),
                 str(tmp_path / "o2")]) != 0
    err = capsys.readouterr().err
    assert "no *.pkl.gz files" in err and len(err.strip().splitlines()) == 1
