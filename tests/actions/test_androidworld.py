"""The ``androidworld`` action format behaves as AndroidWorld (google-research/android_world
at d9c569f): ``input_text`` taps its field (an index or x/y), clears it (``clear_text``),
types and presses Enter (``env/actuation.py``, ``execute_adb_action``); ``open_app`` takes
AndroidWorld's app names (``env/adb_utils.py``, ``_PATTERN_TO_ACTIVITY`` and
``_DEFAULT_URIS``); and an AndroidWorld JSON action reaching ``env.step`` (a dict, text, or
a vector env's sample) is read in pixels of the 1080 x 2400 screen."""

from __future__ import annotations

from typing import Any

import pytest

from phone_gym.actions import (
    RAW_TEXT,
    ActionError,
    PhoneAction,
    batch_actions,
    format_action,
    parse_action,
    to_sample,
)
from phone_gym.actions.formats import FORMATS, get_format
from phone_gym.actions.formats.androidworld import ANDROIDWORLD, androidworld_object
from phone_gym.envs import PhoneWorldEnv
from phone_gym.envs.marks import resolve_index, typing_parts
from phone_gym.mockapps import APPS
from phone_gym.real.commands import CLEAR_FIELD, to_commands
from phone_gym.world import Device

A = PhoneAction
PHONE = (1080, 2400)


def clipper() -> tuple[PhoneWorldEnv, dict[str, Any]]:
    """An episode on Clipper, whose text field sets the clipboard on Enter (its
    ``on_submit``), and the field's element."""
    env = PhoneWorldEnv(task="SystemCopyToClipboard", screenshot=False)
    env.reset(seed=0)
    _, _, _, _, info = env.step({"action_type": "open_app", "app_name": "Clipper"})
    assert info["action_error"] is None
    return env, field(info)


def field(info: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in info["ui_elements"] if e["editable"])


def pixel_centre(element: dict[str, Any]) -> dict[str, int]:
    """The element's centre in screen pixels, as an AndroidWorld agent reads its bbox."""
    x0, y0, x1, y1 = element["bounds"]
    return {"x": (x0 + x1) // 2, "y": (y0 + y1) // 2}


# --- input_text: tap, clear, type, Enter ----------------------------------------------------
def test_input_text_presses_enter_after_typing() -> None:
    env, box = clipper()
    clipboard = env.device.system.clipboard
    _, _, _, _, info = env.step('Reason: type the key into the field.\nAction: {"action_type": '
                                f'"input_text", "text": "KEY-1", "index": {box["index"]}}}')
    assert info["action_error"] is None
    assert info["action"] == f'type(text="KEY-1", index={box["index"]}, enter=True)'
    assert env.device.system.clipboard == "KEY-1" != clipboard  # Enter submitted the field
    # phone-gym's own type presses no Enter: typed, not submitted
    _, _, _, _, info = env.step('type(text="-2")')
    assert field(info)["text"] == "KEY-1-2" and env.device.system.clipboard == "KEY-1"


def test_input_text_at_a_point_taps_there_first() -> None:
    env, box = clipper()
    assert not box["focused"]
    _, _, _, _, info = env.step({"action_type": "input_text", "text": "here", **pixel_centre(box)})
    assert info["action_error"] is None, info["action_error"]
    assert field(info)["text"] == "here" and env.device.system.clipboard == "here"
    x, y = box["center_norm"]
    assert info["action"] == f'type(text="here", x={x}, y={y}, enter=True)'


def test_clear_text_empties_the_field_before_typing() -> None:
    env, box = clipper()
    env.step(f'type(text="old text", index={box["index"]})')
    aw = {"action_type": "input_text", "text": "new", "index": box["index"]}
    _, _, _, _, info = env.step({**aw, "clear_text": True})
    assert info["action_error"] is None
    assert field(info)["text"] == "new" and env.device.system.clipboard == "new"
    _, _, _, _, info = env.step({**aw, "clear_text": False})  # appends, as without it
    assert field(info)["text"] == "newnew"


def test_typing_parts_split_input_text_as_actuation_does() -> None:
    typed = A("type", text="Bob", x=500, y=300, clear=True, enter=True)
    assert typing_parts(typed) == [A("click", x=500, y=300), A("type", text="Bob", clear=True),
                                   A("press", button="enter")]
    assert typing_parts(A("type", text="Bob", enter=True)) == [A("type", text="Bob"),
                                                               A("press", button="enter")]
    assert typing_parts(A("type", text="Bob")) == [A("type", text="Bob")]
    elements = [{"index": 0, "bounds_norm": [0, 0, 100, 100], "center_norm": [50, 50],
                 "focused": False}]
    assert resolve_index(A("type", text="a", index=0, enter=True), elements) == [
        A("click", x=50, y=50), A("type", text="a"), A("press", button="enter")]
    # the device carries out only the split parts: a whole one is an error, not half done
    device = Device(APPS)
    assert "split it first" in (device.step(typed) or "")
    with pytest.raises(ActionError, match="split it first"):
        to_commands(typed, PHONE, {})
    # a real phone clears the field as AndroidWorld does, then types
    assert to_commands(A("type", text="hi", clear=True), PHONE, {}) == [
        *CLEAR_FIELD, "input text hi"]
    assert CLEAR_FIELD == ("input keycombination 113 29", "input keyevent 67")


def test_type_options_are_checked_and_round_trip() -> None:
    full = A("type", text="Bob", index=3, clear=True, enter=True)
    assert format_action(full) == 'type(text="Bob", index=3, clear=True, enter=True)'
    assert full.to_dict() == {"action": "type", "text": "Bob", "index": 3, "clear": True,
                              "enter": True}
    for action in (full, A("type", text="Bob", x=1, y=2, enter=True), A("type", text="a")):
        assert parse_action(format_action(action)) == action
        sample = to_sample(action, ["Clipper"])
        assert (sample["action_type"] == RAW_TEXT) == (action != A("type", text="a"))
    assert A("type", text="a", clear=False, enter=False) == A("type", text="a")
    assert "clear" not in A("type", text="a", clear=False).to_dict()
    for bad, message in ((dict(x=1), "both x and y"), (dict(x=1, y=2, index=3), "either index"),
                         (dict(clear="yes"), "true or false"), (dict(enter=1), "true or false")):
        with pytest.raises(ActionError, match=message):
            A("type", text="a", **bad)
    with pytest.raises(ActionError, match="takes no enter"):
        A("click", x=1, y=2, enter=True)
    with pytest.raises(ActionError, match="true or false"):
        parse_action('type(text="a", clear="yes")')


def test_androidworld_renders_input_text_exactly_and_other_formats_refuse() -> None:
    fmt = get_format("androidworld")
    for action in (A("type", text="Bob", index=3, clear=True, enter=True),
                   A("type", text="Bob", x=500, y=250, enter=True)):
        assert fmt.parse(fmt.render(action, PHONE), PHONE) == action
    assert fmt.render(A("type", text="Bob", x=500, y=250, clear=True, enter=True), PHONE) == (
        'Action: {"action_type": "input_text", "text": "Bob", "x": 540, "y": 600, '
        '"clear_text": true}')
    assert fmt.parse(fmt.render(A("type", text="Bob"), PHONE), PHONE) == A(
        "type", text="Bob", enter=True)  # AndroidWorld has no typing without Enter
    for name, other in FORMATS.items():
        if name in ("androidworld", "phone_gym"):
            continue
        with pytest.raises(ActionError, match="closest"):
            other.render(A("type", text="Bob", enter=True), (1092, 2408))
        assert other.render(A("type", text="Bob"), (1092, 2408))
    assert "presses Enter" in fmt.prompt() and "clear_text" in fmt.prompt()


# --- app names ----------------------------------------------------------------------------
#: ``_PATTERN_TO_ACTIVITY`` of android_world/env/adb_utils.py (d9c569f): each pattern's
#: names, and the PhoneWorld app that is that app (None: PhoneWorld has no such app).
AW_APP_PATTERNS: dict[str, str | None] = {
    "google chrome|chrome": "Chrome",
    "google chat": None,
    "settings|system settings": "Settings",
    "youtube|yt": "Video",
    "google play|play store|gps": None,
    "gmail|gemail|google mail|google email|google mail client": "Mail",
    "google maps|gmaps|maps|google map": "Maps",
    "google photos|gphotos|photos|google photo|google pics|google images": None,
    "google calendar|gcal": None,  # Google's calendar: PhoneWorld's is Simple Calendar
    "camera": "Camera",
    "audio recorder": "Recorder",
    "google drive|gdrive|drive": None,
    "google keep|gkeep|keep": None,
    "grubhub": None,
    "tripadvisor": None,
    "starbucks": None,
    "google docs|gdocs|docs": None,
    "google sheets|gsheets|sheets": None,
    "google slides|gslides|slides": None,
    "google voice|voice": None,
    "clock": "Clock",
    "google search|google": None,
    "contacts": "Contacts",
    "facebook|fb": None,
    "whatsapp|wa": None,
    "instagram|ig": None,
    "twitter|tweet": "Social",  # com.twitter.android
    "snapchat|sc": None,
    "telegram|tg": None,
    "linkedin": None,
    "spotify|spot": "Spotify",
    "netflix": None,
    "amazon shopping|amazon|amzn": None,
    "tiktok|tt": None,
    "discord": None,
    "reddit": None,
    "pinterest": None,
    "android world": None,
    "files": "Files",
    "markor": "Markor",
    "clipper": "Clipper",
    "messages": "Messages",
    "simple sms messenger|simple sms": "Messages",
    "dialer|phone": "Phone",
    "simple calendar pro|simple calendar": "Calendar",
    "simple gallery pro|simple gallery": "Gallery",
    "miniwob": None,
    "simple draw pro": "Draw",
    "pro expense|pro expense app": "Expense",
    "broccoli|broccoli app|broccoli recipe app|recipe app": "Broccoli",
    "caa|caa test|context aware access": None,
    "osmand": "OsmAnd",
    "tasks|tasks app|tasks.org": "Todo",  # AndroidWorld writes "tasks.org:", a regex
    "open tracks sports tracker|activity tracker|open tracks|opentracks": "OpenTracks",
    "joplin|joplin app": "Joplin",
    "vlc|vlc app|vlc player": "VLC",
    "retro music|retro|retro player": "Music",
}
#: ``_DEFAULT_URIS``: names ``launch_app`` opens with a VIEW intent of the app's kind.
AW_DEFAULT_APPS = {"calendar": "Calendar", "browser": "Chrome", "contacts": "Contacts",
                   "email": "Mail", "gallery": "Gallery"}
AW_NAMES = [(name, app) for pattern, app in AW_APP_PATTERNS.items()
            for name in pattern.split("|")] + list(AW_DEFAULT_APPS.items())


@pytest.fixture(scope="module")
def device() -> Device:
    return Device(APPS)


@pytest.mark.parametrize(("name", "app"), AW_NAMES, ids=[n for n, _ in AW_NAMES])
def test_androidworld_app_names_open_the_right_app(device: Device, name: str,
                                                   app: str | None) -> None:
    for spelled in (name, name.title(), name.upper()):
        found = device.app(spelled)
        assert (found.manifest.name if found else None) == app, spelled


def test_open_app_with_androidworld_names_through_the_env() -> None:
    env = PhoneWorldEnv(task="SystemCopyToClipboard", screenshot=False)
    env.reset(seed=0)
    for name, app in (("Simple Draw Pro", "Draw"), ("Simple Gallery Pro", "Gallery"),
                      ("simple calendar pro", "Calendar"), ("Pro Expense", "Expense")):
        _, _, _, _, info = env.step(f'Action: {{"action_type": "open_app", "app_name": "{name}"}}')
        assert info["action_error"] is None and env.device.foreground == app, name


# --- pixels at env.step -------------------------------------------------------------------
def test_androidworld_json_at_env_step_is_in_screen_pixels() -> None:
    env = PhoneWorldEnv(task="ContactsAddContact", screenshot=False)
    assert env.screen_size == PHONE
    _, info = env.reset(seed=0)
    contacts = next(e for e in info["ui_elements"] if e["text"] == "Contacts")
    _, _, _, _, info = env.step({"action_type": "click", **pixel_centre(contacts)})
    assert info["action_error"] is None and env.device.foreground == "Contacts"
    got = parse_action(info["action"])  # the element's centre, within a unit of [0, 1000]
    assert all(abs(a - b) <= 1 for a, b in zip(got.point, contacts["center_norm"], strict=True))
    for value in ({"action_type": "click", "x": 540, "y": 1200},
                  '{"action_type": "click", "x": 540, "y": 1200}',
                  "Reason: the middle.\nAction: {'action_type': 'click', 'x': 540, 'y': 1200}",
                  {key: v[0] for key, v in batch_actions(
                      ['Action: {"action_type": "click", "x": 540, "y": 1200}'],
                      env.app_names).items()}):
        _, _, _, _, info = env.step(value)
        assert info["action"] == "click(x=500, y=500)", value
    # phone-gym's own key forces the [0, 1000] grid; a pixel off the screen is an error
    _, _, _, _, info = env.step({"action": "click", "x": 540, "y": 999})
    assert info["action"] == "click(x=540, y=999)"
    _, _, _, _, info = env.step({"action_type": "click", "x": 540, "y": 2401})
    assert "outside the 1080x2400 image" in info["action_error"]
    assert ANDROIDWORLD.parse('{"action_type": "click", "x": 540, "y": 1200}',
                              env.screen_size) == A("click", x=500, y=500)


@pytest.mark.parametrize("value", [
    {"action_type": "click", "x": 540, "y": 1200},
    {"action_type": "input_text", "text": "a", "index": 2, "clear_text": True},
    'Reason: x\nAction: {"action_type": "status", "goal_status": "complete"}',
    "{'action_type': 'swipe', 'direction': 'up'}",
    {"action_type": -1, "text": '{"action_type": "wait"}'},
])
def test_androidworld_json_shape_is_told(value: Any) -> None:
    assert androidworld_object(value) is not None


@pytest.mark.parametrize("value", [
    {"action": "click", "x": 540, "y": 1200},  # phone-gym's key
    {"action_type": "click", "x": 5, "y": 5, "duration": 2},  # a key JSONAction lacks
    {"action_type": "finish"},  # not an AndroidWorld action type
    {"action_type": 0, "coords": [1, 2, 0, 0]},  # an action-space sample
    '<tool_call>{"name": "mobile_use", "arguments": {"action_type": "click", "x": 1, '
    '"y": 2}}</tool_call>',
    'click(x=540, y=120)',
    '{"action_type": "click", "index": 1} then {"action": "click", "x": 1, "y": 2}',
    PhoneAction("click", x=1, y=2),
])
def test_other_actions_are_not_read_as_androidworld(value: Any) -> None:
    assert androidworld_object(value) is None


# --- RealPhone-v0 over the virtual adb device -------------------------------------------------
def test_real_phone_reads_androidworld_actions_in_its_screen_pixels() -> None:
    from phone_gym.envs.real_phone import RealPhoneEnv
    from phone_gym.real import SafetyGuard
    from phone_gym.virtual import VirtualAdbServer, VirtualPhone

    mp = pytest.MonkeyPatch()
    mp.setenv("ADBUTILS_ADB_PATH", "/bin/false")  # no adb binary ever runs
    phone = VirtualPhone("emulator-5554")
    try:
        with VirtualAdbServer([phone]) as server:
            env = RealPhoneEnv(serial="emulator-5554", port=server.port, settle=0.0,
                               timeout=3.0, task="SettingsWifiOff", ui_in_obs=True,
                               guard=SafetyGuard(any_app=True))
            assert env.screen_size is None
            env.reset(seed=0)
            assert env.screen_size == PHONE
            _, _, _, _, info = env.step('Action: {"action_type": "open_app", '
                                        '"app_name": "clipper"}')
            assert info["action_error"] is None
            box = field(info)
            _, _, _, _, info = env.step({"action_type": "input_text", "text": "via adb",
                                         **pixel_centre(box)})
            assert info["action_error"] is None, info["action_error"]
            assert phone.device.system.clipboard == "via adb"  # tapped, typed, Enter
            _, _, _, _, info = env.step({"action_type": "open_app",
                                         "app_name": "Simple Draw Pro"})
            assert info["action_error"] is None and info["action"] == 'open_app(app="Draw")'
            assert phone.device.foreground == "Draw"
            env.close()
    finally:
        mp.undo()
