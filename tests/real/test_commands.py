"""The action-to-adb mapping: pixels, swipes, keys, packages and shell quoting."""

from __future__ import annotations

import shlex

import pytest

from phone_gym.actions import ActionError, PhoneAction
from phone_gym.mockapps import REGISTRY
from phone_gym.real.commands import input_text_arg, to_commands, to_pixels
from phone_gym.real.packages import app_packages, is_package_name

DEFAULT_PACKAGES = app_packages(None, REGISTRY.package_map())

SIZE = (1080, 2400)


def cmds(**kw: object) -> list[str]:
    return to_commands(PhoneAction(**kw), SIZE, DEFAULT_PACKAGES)  # type: ignore[arg-type]


def test_pixels_scale_and_clamp() -> None:
    assert to_pixels(500, 500, SIZE) == (540, 1200)
    assert to_pixels(1000, 1000, SIZE) == (1079, 2399)
    assert to_pixels(0, 0, (720, 1600)) == (0, 0)


def test_pointer_actions() -> None:
    assert cmds(type="click", x=500, y=250) == ["input tap 540 600"]
    assert cmds(type="double_click", x=500, y=250) == ["input tap 540 600; input tap 540 600"]
    assert cmds(type="long_press", x=500, y=250) == ["input swipe 540 600 540 600 800"]
    assert cmds(type="drag", x=100, y=100, x2=900, y2=100) == ["input swipe 108 240 972 240 500"]


@pytest.mark.parametrize(("direction", "end"), [
    ("down", (540, 360)), ("up", (540, 2040)), ("right", (162, 1200)), ("left", (918, 1200))])
def test_scroll_moves_the_finger_against_the_content(direction: str,
                                                      end: tuple[int, int]) -> None:
    (line,) = cmds(type="scroll", x=500, y=500, direction=direction)
    assert line == f"input swipe 540 1200 {end[0]} {end[1]} 300"


def test_keys_apps_wait() -> None:
    assert cmds(type="press", button="back") == ["input keyevent KEYCODE_BACK"]
    assert cmds(type="press", button="recents") == ["input keyevent KEYCODE_APP_SWITCH"]
    assert cmds(type="open_app", app="settings") == [
        "monkey --pct-syskeys 0 -p com.android.settings -c android.intent.category.LAUNCHER 1"]
    assert cmds(type="close_app", app="Settings") == ["am force-stop com.android.settings"]
    # force-stopping the clock would cancel the owner's alarms: home, then a background kill
    assert cmds(type="close_app", app="Clock") == ["input keyevent KEYCODE_HOME",
                                                   "am kill com.google.android.deskclock"]
    assert cmds(type="wait", seconds=2.5) == ["sleep 2.5"]
    assert cmds(type="finish", status="success") == []
    with pytest.raises(ActionError, match="unknown app 'Nope'"):
        cmds(type="open_app", app="Nope")


@pytest.mark.parametrize("text", ["'; rm -rf / #", "$(reboot)", "`id`", 'a "b" \\c', "x;y&&z|w",
                                  "50% off", "it's"])
def test_typed_text_is_one_literal_shell_word(text: str) -> None:
    (line,) = cmds(type="type", text=text)
    words = shlex.split(line)
    assert words[:2] == ["input", "text"] and len(words) == 3
    assert words[2].replace("%s", " ") == text


def test_text_input_cannot_type_is_an_action_error() -> None:
    with pytest.raises(ActionError, match="printable ASCII"):
        input_text_arg("héllo")
    with pytest.raises(ActionError, match="%s"):
        input_text_arg("100%sure")


def test_packages_extend_and_validate() -> None:
    packages = app_packages({"Markor": "net.gsantner.markor"}, REGISTRY.package_map())
    assert packages["Markor"] == "net.gsantner.markor" and packages["Settings"]
    for bad in ("rm -rf", "com.x;reboot", "single", "com..x"):
        assert not is_package_name(bad)
        with pytest.raises(ValueError, match="Android package"):
            app_packages({"Bad": bad})
