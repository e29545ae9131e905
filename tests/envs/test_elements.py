"""Agents that read the screen as elements (issue 13, point 4): element-index actions,
the text-only element observation and the set-of-marks screenshot, in PhoneWorld-v0 and in
RealPhone-v0 over the virtual adb device."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import phone_gym  # noqa: F401  (registers the ids)
from phone_gym.actions import ActionError, PhoneAction, format_action, parse_action, to_sample
from phone_gym.actions.space import RAW_TEXT, action_from_sample
from phone_gym.envs.marks import MARK_COLORS, draw_marks, resolve_index
from phone_gym.envs.phone_world import PhoneWorldEnv
from phone_gym.envs.real_phone import RealPhoneEnv
from phone_gym.virtual import VirtualAdbServer, VirtualPhone
from phone_gym.world.a11y import ui_elements

SERIAL = "emulator-5554"
POINTER = ("click", "double_click", "long_press")


# --- the action ---------------------------------------------------------------------------
@pytest.mark.parametrize("text, expected", [
    ("click(index=3)", PhoneAction("click", index=3)),
    ("long_press(index=0)", PhoneAction("long_press", index=0)),
    ("double_click(index=7)", PhoneAction("double_click", index=7)),
    ('type(text="Bob", index=2)', PhoneAction("type", text="Bob", index=2)),
    ('scroll(direction="down", index=5)', PhoneAction("scroll", direction="down", index=5)),
    # AndroidWorld's JSON actions (JSONAction: action_type, index, text, direction)
    ('{"action_type": "click", "index": 4}', PhoneAction("click", index=4)),
    ('{"action_type": "input_text", "text": "hi", "index": "6"}',
     PhoneAction("type", text="hi", index=6)),
    ('{"action_type": "scroll", "direction": "up", "index": 1.0}',
     PhoneAction("scroll", direction="up", index=1)),
])
def test_index_actions_parse_and_round_trip(text: str, expected: PhoneAction) -> None:
    action = parse_action(text)
    assert action == expected and action.x is None and action.y is None
    assert parse_action(format_action(action)) == action
    assert "x" not in action.to_dict() and action.to_dict()["index"] == expected.index
    sample = to_sample(action, ["Contacts"])  # the space has no index: it travels as text
    assert sample["action_type"] == RAW_TEXT
    assert action_from_sample(sample, ["Contacts"]) == action


@pytest.mark.parametrize("text, message", [
    ("click(index=3, x=1, y=2)", "either index or x and y"),
    ('scroll(direction="up", index=3, x=4)', "either index or x and y"),
    ('open_app(app="Notes", index=2)', "takes no"),
    ("press(button='back', index=1)", "takes no"),
    ("click(index=-1)", "out of range"),
    ("click(index=True)", "must be an integer"),
    ("click(index=2.5)", "must be an integer"),
    ('click(index="two")', "must be an integer"),
])
def test_bad_index_actions_are_errors(text: str, message: str) -> None:
    with pytest.raises(ActionError, match=message):
        parse_action(text)
    with pytest.raises(ActionError):
        PhoneAction("open_app", app="Notes", index=1)
    with pytest.raises(ActionError, match="resolves it to a point"):
        _ = PhoneAction("click", index=1).point


def test_resolve_index_acts_at_the_elements_centre() -> None:
    elements = [{"index": 0, "bounds_norm": [0, 0, 1000, 100], "center_norm": [500, 50],
                 "focused": False},
                {"index": 1, "bounds_norm": [100, 200, 300, 400], "center_norm": [200, 300],
                 "focused": True},
                {"index": 2, "bounds_norm": [10, 10, 10, 50], "center_norm": [10, 30],
                 "focused": False}]
    assert resolve_index(PhoneAction("click", index=1), elements) == [
        PhoneAction("click", x=200, y=300)]
    assert resolve_index(PhoneAction("type", text="a", index=0), elements) == [
        PhoneAction("click", x=500, y=50), PhoneAction("type", text="a")]
    assert resolve_index(PhoneAction("type", text="a", index=1), elements) == [
        PhoneAction("type", text="a")]  # it has focus: no tap to move its cursor
    assert resolve_index(PhoneAction("scroll", direction="left", index=1), elements) == [
        PhoneAction("scroll", x=200, y=300, direction="left")]
    plain = PhoneAction("click", x=1, y=2)
    assert resolve_index(plain, elements) == [plain]
    with pytest.raises(ActionError, match="no UI element with index 3: this screen has "
                                          "elements 0 to 2"):
        resolve_index(PhoneAction("click", index=3), elements)
    with pytest.raises(ActionError, match="no visible area"):
        resolve_index(PhoneAction("long_press", index=2), elements)


# --- an agent that acts only by element index -----------------------------------------------
def _area(e: dict[str, Any]) -> int:
    x0, y0, x1, y1 = e["bounds_norm"]
    return (x1 - x0) * (y1 - y0)


def _under(elements: Sequence[dict[str, Any]], x: int, y: int,
           scrollable: bool = False) -> dict[str, Any] | None:
    """The smallest visible element holding (x, y) (the topmost of equal ones)."""
    holding = [e for e in elements if _area(e) > 0 and (e["scrollable"] or not scrollable)
               and e["bounds_norm"][0] <= x < e["bounds_norm"][2]
               and e["bounds_norm"][1] <= y < e["bounds_norm"][3]]
    return min(reversed(holding), key=_area, default=None)


def index_agent(action: PhoneAction, elements: Sequence[dict[str, Any]]) -> str:
    """The oracle's ``action`` as an agent that names elements writes it: pointer actions
    and typing by the index of the element (read from the element list), never a point."""
    if action.type in POINTER:
        target = _under(elements, *action.point)
        assert target is not None, f"no element under {format_action(action)}"
        return f"{action.type}(index={target['index']})"
    if action.type == "type":
        focused = [e for e in elements if e["focused"] and e["editable"]]
        if focused:
            return format_action(PhoneAction("type", text=action.text,
                                             index=focused[-1]["index"]))
    if action.type == "scroll":  # at the element's centre, or (no index) the screen's
        target = _under(elements, *action.point, scrollable=True)
        if target is not None and (action.point != (500, 500)
                                   or tuple(target["center_norm"]) == action.point):
            return f'scroll(direction="{action.direction}", index={target["index"]})'
        return f'scroll(direction="{action.direction}")'
    return format_action(action)


def check_text_observation(obs: dict[str, Any], info: dict[str, Any]) -> None:
    """The ``ui`` text lists every element with its index, class, text and bounds."""
    assert "screenshot" not in obs
    lines = obs["ui"].splitlines()
    assert len(lines) == len(info["ui_elements"])
    for line, e in zip(lines, info["ui_elements"], strict=True):
        bounds = ",".join(map(str, e["bounds_norm"]))
        assert line.startswith(f"[{e['index']}] {e['class_name'].rsplit('.', 1)[-1]}")
        assert f"bounds=({bounds})" in line
        if e["text"]:
            assert e["text"][:40] in line


@pytest.mark.parametrize("task", ["ContactsAddContact", "NotesDeleteNote", "ClockDisableAlarm",
                                  "SettingsTurnOffWifi"])
def test_an_index_only_agent_solves_tasks_as_the_oracle_does(task: str) -> None:
    env = gym.make("PhoneWorld-v0", task=task, screenshot=False, ui_in_obs=True)
    world = env.unwrapped
    assert isinstance(world, PhoneWorldEnv)
    obs, info = env.reset(seed=3)
    by_index, done, steps = 0, False, 0
    while not done:
        check_text_observation(obs, info)
        text = index_agent(world.oracle_action(), info["ui_elements"])
        by_index += "index=" in text
        obs, reward, terminated, truncated, info = env.step(text)
        assert info["action_error"] is None, (text, info["action_error"])
        assert info["action"] == format_action(parse_action(text))
        done, steps = terminated or truncated, steps + 1
    assert terminated and info["success"] and reward == 1.0, info["verdict"]
    assert by_index >= 1


def test_a_stale_or_unknown_index_is_an_error_and_a_no_op() -> None:
    env = PhoneWorldEnv(task="NotesDeleteNote", ui_in_obs=True)
    env.reset(seed=0)
    _, _, _, _, info = env.step('press(button="home")')
    home = list(info["ui_elements"])
    obs, _, _, _, info = env.step('open_app(app="Notes")')
    assert len(info["ui_elements"]) < len(home)  # Notes lists fewer elements than the home
    stale = len(home) - 1  # an index of the screen before
    version, shot = env.device.version, obs["screenshot"]
    obs2, reward, terminated, truncated, info2 = env.step(f"click(index={stale})")
    assert info2["action_error"].startswith(f"no UI element with index {stale}: this screen "
                                            f"has elements 0 to {len(info['ui_elements']) - 1}")
    assert info2["action"] == f"click(index={stale})"
    assert env.device.version == version and np.array_equal(obs2["screenshot"], shot)
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert info2["ui_elements"] == info["ui_elements"]
    # typing by index taps the element first: into the search field, which takes focus
    _, _, _, _, info2 = env.step('open_app(app="Notes")')
    search = next(e for e in info2["ui_elements"] if e["editable"])
    _, _, _, _, info3 = env.step(f'type(text="Car", index={search["index"]})')
    assert info3["action_error"] is None
    field = next(e for e in info3["ui_elements"] if e["editable"])
    assert field["focused"] and field["text"] == "Car"


def test_index_actions_through_the_action_space_of_a_vector_env() -> None:
    from phone_gym.actions import batch_actions

    env = PhoneWorldEnv(task="NotesDeleteNote")
    env.reset(seed=0)
    _, _, _, _, info = env.step('open_app(app="Notes")')
    search = next(e for e in info["ui_elements"] if e["editable"])
    batch = batch_actions([f"click(index={search['index']})"], env.app_names)
    sample = {key: value[0] for key, value in batch.items()}
    _, _, _, _, info = env.step(sample)
    assert info["action_error"] is None and info["action"] == f"click(index={search['index']})"
    assert next(e for e in info["ui_elements"] if e["editable"])["focused"]


# --- set of marks -----------------------------------------------------------------------------
def _label_corner(e: dict[str, Any], size: tuple[int, int]) -> tuple[int, int]:
    width, height = size
    x0, y0 = e["bounds_norm"][:2]
    return round(x0 * width / 1000) + 1, round(y0 * height / 1000) + 1


def test_set_of_marks_numbers_each_element_in_its_colour() -> None:
    marked = PhoneWorldEnv(task="ContactsAddContact", set_of_marks=True, render_mode="rgb_array")
    plain = PhoneWorldEnv(task="ContactsAddContact")
    obs, info = marked.reset(seed=0)
    raw, _ = plain.reset(seed=0)
    assert marked.observation_space.contains(obs)
    assert not np.array_equal(obs["screenshot"], raw["screenshot"])
    rendered = marked.render()
    assert rendered is not None and np.array_equal(rendered, raw["screenshot"])  # unmarked
    again, _ = marked.reset(seed=0)
    assert np.array_equal(again["screenshot"], obs["screenshot"])  # deterministic
    elements = info["ui_elements"]
    frame_elements = ui_elements(marked.device.frame())
    assert np.array_equal(draw_marks(raw["screenshot"], frame_elements), obs["screenshot"])
    size = (540, 1200)
    corners = [_label_corner(e, size) for e in elements]
    checked = 0
    for i, e in enumerate(elements):  # labels no later element covers: the index's colour
        if _area(e) == 0 or corners[i] in corners[i + 1:]:
            continue
        x, y = corners[i]
        assert tuple(obs["screenshot"][y, x]) == MARK_COLORS[e["index"] % len(MARK_COLORS)]
        checked += 1
    assert checked >= 10
    # a step to another screen draws that screen's elements
    obs, _, _, _, info = marked.step('open_app(app="Contacts")')
    raw, *_ = plain.step('open_app(app="Contacts")')
    assert np.array_equal(draw_marks(raw["screenshot"], info["ui_elements"]), obs["screenshot"])
    with pytest.raises(ValueError, match="accepted: a PIL image or a uint8"):
        draw_marks(np.zeros((4, 4)), elements)


def test_marks_script_writes_the_readme_image(tmp_path: Any) -> None:
    from PIL import Image

    from phone_gym.envs.marks import main

    out = main(["--out", str(tmp_path / "som.png"), "--steps", "1"])
    image = np.asarray(Image.open(out).convert("RGB"))
    assert image.shape == (1200, 540, 3)
    env = PhoneWorldEnv(task="ContactsAddContact", set_of_marks=True)
    env.reset(seed=0)
    obs, *_ = env.step(env.oracle_action())
    assert np.array_equal(image, obs["screenshot"])


# --- RealPhone-v0 over the virtual device ---------------------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VirtualAdbServer]:
    mp = pytest.MonkeyPatch()
    mp.setenv("ADBUTILS_ADB_PATH", "/bin/false")  # no adb binary ever runs
    with VirtualAdbServer([VirtualPhone(SERIAL)]) as srv:
        yield srv
    mp.undo()


def test_real_phone_resolves_indices_and_marks_the_screen(server: VirtualAdbServer) -> None:
    env = RealPhoneEnv(serial=SERIAL, port=server.port, settle=0.0, timeout=3.0,
                       task="SettingsWifiOff", ui_in_obs=True, set_of_marks=True,
                       render_mode="rgb_array")
    obs, info = env.reset(seed=0)
    obs, _, _, _, info = env.step('open_app(app="Settings")')
    assert info["action_error"] is None
    shot, screen = obs["screenshot"], env.render()
    assert screen is not None and not np.array_equal(shot, screen)  # render(): unmarked
    assert np.array_equal(shot, draw_marks(screen, info["ui_elements"]))
    lines = obs["ui"].splitlines()
    network = next(e for e in info["ui_elements"] if e["text"] == "Network & internet")
    assert re.match(rf"\[{network['index']}\] \w+ \"Network & internet\"", lines[network["index"]])
    before = len(info["ui_elements"])
    obs, _, _, _, info = env.step(f"click(index={network['index']})")
    assert info["action_error"] is None and info["action"] == f"click(index={network['index']})"
    assert any(e["text"] == "Internet" for e in info["ui_elements"]), [
        e["text"] for e in info["ui_elements"]]
    _, _, _, _, info = env.step(f"click(index={before + 50})")
    assert info["action_error"].startswith(f"no UI element with index {before + 50}")
    env.close()
    blind = RealPhoneEnv(serial=SERIAL, port=server.port, settle=0.0, timeout=3.0,
                         task="SettingsWifiOff", ui_tree=False, screenshot=False)
    blind.reset(seed=0)
    _, _, _, _, info = blind.step("click(index=0)")
    assert "need the UI tree" in info["action_error"]
    blind.close()
