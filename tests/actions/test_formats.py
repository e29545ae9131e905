"""Model-native action formats: real-looking replies parse to the expected action, both
directions round-trip, malformed replies raise ``ActionError``, and every prompt loads."""

from __future__ import annotations

from dataclasses import fields, replace
from importlib import resources

import pytest

from phone_gym.actions import ACTION_TYPES, ActionError, PhoneAction
from phone_gym.actions.formats import FORMATS, UITarsFormat, get_format, smart_resize

A = PhoneAction
#: The Qwen2.5-VL / UI-TARS-1.5 resized image of a 1080x2400 phone (smart_resize).
RESIZED = (1092, 2408)
PHONE = (1080, 2400)
_COORDS = ("x", "y", "x2", "y2")

# (format, reply as the model writes it, screen, expected action). The replies follow the
# public examples cited in each format's module docstring, thoughts included.
REPLIES: list[tuple[str, str, tuple[int, int], PhoneAction]] = [
    # --- Qwen2.5-VL: pixels of the resized image ---
    ("qwen25vl",
     "<thinking>\nThe Clock app is on the home screen, in the middle. I will tap it.\n"
     "</thinking>\n<tool_call>\n"
     '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [546, 1204]}}\n'
     "</tool_call>", RESIZED, A("click", x=500, y=500)),
    ("qwen25vl",
     "The search box is focused, so I type the name.\n<tool_call>\n"
     '{"name": "mobile_use", "arguments": {"action": "type", "text": "Alice Smith"}}\n'
     "</tool_call>", RESIZED, A("type", text="Alice Smith")),
    ("qwen25vl",
     "<thinking>The list continues below; swipe up to see more.</thinking>\n<tool_call>\n"
     '{"name": "mobile_use", "arguments": {"action": "swipe", "coordinate": [546, 1806], '
     '"coordinate2": [546, 602]}}\n</tool_call>', RESIZED, A("drag", x=500, y=750, x2=500, y2=250)),
    ("qwen25vl",
     '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "long_press", '
     '"coordinate": [273, 602], "time": 2}}\n</tool_call>', RESIZED, A("long_press", x=250, y=250)),
    ("qwen25vl",
     "I am in the wrong screen. Go back.\n<tool_call>\n"
     '{"name": "mobile_use", "arguments": {"action": "system_button", "button": "Back"}}\n'
     "</tool_call>", RESIZED, A("press", button="back")),
    ("qwen25vl",
     '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "open", "text": "Contacts"}}'
     "\n</tool_call>", RESIZED, A("open_app", app="Contacts")),
    ("qwen25vl",
     "The alarm is set. Task done.\n<tool_call>\n"
     '{"name": "mobile_use", "arguments": {"action": "terminate", "status": "success"}}\n'
     "</tool_call>", RESIZED, A("finish")),
    ("qwen25vl",
     '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "answer", "text": "3 PM"}}\n'
     "</tool_call>", RESIZED, A("answer", text="3 PM")),
    ("qwen25vl",
     '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "key", '
     '"text": "KEYCODE_APP_SWITCH"}}\n</tool_call>', RESIZED, A("press", button="recents")),
    # --- Qwen3-VL: the 0-999 grid ---
    ("qwen3vl",
     "Thought: the Settings gear is near the top right.\n<tool_call>\n"
     '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [905, 120]}}\n'
     "</tool_call>", PHONE, A("click", x=905, y=120)),
    ("qwen3vl",
     '<think>Scroll the settings list.</think>\n<tool_call>\n{"name": "mobile_use", '
     '"arguments": {"action": "swipe", "coordinate": [500, 800], "coordinate2": [500, 200]}}'
     "\n</tool_call>", PHONE, A("drag", x=500, y=800, x2=500, y2=200)),
    ("qwen3vl",
     '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "wait", "time": 3}}\n'
     "</tool_call>", PHONE, A("wait", seconds=3)),
    ("qwen3vl",
     "Wi-Fi cannot be found on this phone.\n<tool_call>\n"
     '{"name": "mobile_use", "arguments": {"action": "terminate", "status": "failure"}}\n'
     "</tool_call>", PHONE, A("finish", status="infeasible")),
    ("qwen3vl",
     '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "system_button", '
     '"button": "Home"}}\n</tool_call>', PHONE, A("press", button="home")),
    # --- UI-TARS-1.5: pixels of the resized image ---
    ("uitars",
     "Thought: The search bar is at the top of the screen. I will click it to start.\n"
     "Action: click(start_box='(546,602)')", RESIZED, A("click", x=500, y=250)),
    ("uitars",
     "Thought: Type the city and submit.\nAction: type(content='Paris\\n')", RESIZED,
     A("type", text="Paris\n")),
    ("uitars",
     "Thought: More results are below.\n"
     "Action: scroll(start_box='<|box_start|>(546,1204)<|box_end|>', direction='down')",
     RESIZED, A("scroll", x=500, y=500, direction="down")),
    ("uitars",
     "Thought: Hold the message to show its menu.\n"
     "Action: long_press(point='<point>273 602</point>')", RESIZED, A("long_press", x=250, y=250)),
    ("uitars",
     "Thought: Move the slider to the right.\n"
     "Action: drag(start_box='(273,1204)', end_box='(819,1204)')", RESIZED,
     A("drag", x=250, y=500, x2=750, y2=500)),
    ("uitars", "Thought: Open the clock.\nAction: open_app(app_name='Clock')", RESIZED,
     A("open_app", app="Clock")),
    ("uitars", "Thought: Return to the home screen.\nAction: press_home()", RESIZED,
     A("press", button="home")),
    ("uitars",
     "Thought: The next meeting is shown: 3 PM.\n"
     "Action: finished(content='The meeting is at 3 PM, isn\\'t it?')", RESIZED,
     A("answer", text="The meeting is at 3 PM, isn't it?")),
    # --- GLM / AutoGLM: the 0-999 grid ---
    ("glm",
     "<think>The user wants the settings; I am on the home screen, so I launch it.</think>\n"
     '<answer>do(action="Launch", app="Settings")</answer>', PHONE, A("open_app", app="Settings")),
    ("glm",
     "<think>Tap the search box at the top.</think>\n"
     '<answer>do(action="Tap", element=[500,250])</answer>', PHONE, A("click", x=500, y=250)),
    ("glm",
     "<think>Enter the reply.</think>\n"
     '<answer>do(action="Type", text="He said "hi" to me")</answer>', PHONE,
     A("type", text='He said "hi" to me')),
    ("glm",
     "<think>Scroll down to find the contact.</think>\n"
     '<answer>do(action="Swipe", start=[499,800], end=[499,200])</answer>', PHONE,
     A("drag", x=499, y=800, x2=499, y2=200)),
    ("glm", '<think>The page is loading.</think>\n<answer>do(action="Wait", '
     'duration="2 seconds")</answer>', PHONE, A("wait", seconds=2)),
    ("glm", '<think>Hold the photo.</think><answer>do(action="Long Press", '
     "element=[250,750])</answer>", PHONE, A("long_press", x=250, y=750)),
    ("glm", "<think>Done.</think>\n"
     '<answer>finish(message="The alarm is set for 7:00.")</answer>', PHONE,
     A("answer", text="The alarm is set for 7:00.")),
    ("glm", '<think>Wrong page.</think><answer>do(action="Back")</answer>', PHONE,
     A("press", button="back")),
    # --- AndroidWorld: screen pixels, or element indices ---
    ("androidworld",
     'Reason: The search icon is at the top of the screen.\nAction: {"action_type": "click", '
     '"x": 540, "y": 600}', PHONE, A("click", x=500, y=250)),
    ("androidworld",
     "Reason: The name field is element 4.\n"
     'Action: {"action_type": "input_text", "text": "Alice", "index": 4}', PHONE,
     A("type", text="Alice", index=4, enter=True)),
    ("androidworld",
     "Reason: The search box is at the top; replace its text.\n"
     'Action: {"action_type": "input_text", "text": "Paris", "x": 540, "y": 240, '
     '"clear_text": true}', PHONE, A("type", text="Paris", x=500, y=100, clear=True, enter=True)),
    ("androidworld",
     "Reason: The answer is in the list.\nAction: {'action_type': 'answer', 'text': 42}",
     PHONE, A("answer", text="42")),
    ("androidworld",
     'Reason: The contact is further down the list.\nAction: {"action_type": "swipe", '
     '"direction": "up"}', PHONE, A("scroll", direction="down")),
    ("androidworld",
     "Reason: There is no such setting on this phone.\n"
     'Action: {"action_type": "status", "goal_status": "infeasible"}', PHONE,
     A("finish", status="infeasible")),
    ("androidworld",
     'Reason: Open the contacts app.\nAction: {"action_type": "open_app", '
     '"app_name": "Contacts"}', PHONE, A("open_app", app="Contacts")),
    ("androidworld",
     'Reason: Element 7 is the Save button.\nAction: {"action_type": "click", "index": 7}',
     PHONE, A("click", index=7)),
    ("androidworld",
     'Reason: The screen shows 42 steps.\nAction: {"action_type": "answer", "text": "42"}',
     PHONE, A("answer", text="42")),
    # --- phone-gym's own ---
    ("phone_gym", "The Send button is at the bottom right.\nclick(x=905, y=940)", PHONE,
     A("click", x=905, y=940)),
    ("phone_gym", 'The field is focused.\ntype(text="Bob")', PHONE, A("type", text="Bob")),
    ("phone_gym", 'Scroll to see more.\nscroll(direction="down")', PHONE,
     A("scroll", direction="down")),
    ("phone_gym", 'Done.\nfinish(status="success")', PHONE, A("finish")),
]


def _close(got: PhoneAction, want: PhoneAction, tol: int = 1) -> bool:
    """The same action, coordinates within ``tol`` units."""
    for f in fields(PhoneAction):
        a, b = getattr(got, f.name), getattr(want, f.name)
        if f.name in _COORDS and a is not None and b is not None:
            if abs(a - b) > tol:
                return False
        elif a != b:
            return False
    return True


@pytest.mark.parametrize(("name", "text", "screen", "want"), REPLIES,
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(REPLIES)])
def test_real_replies_parse_and_round_trip(name: str, text: str, screen: tuple[int, int],
                                           want: PhoneAction) -> None:
    fmt = get_format(name)
    got = fmt.parse(text, screen)
    assert got == want
    again = fmt.parse(fmt.render(got, screen), screen)  # render(parse(x)) is equivalent
    assert _close(again, got), (fmt.render(got, screen), again)


def test_each_format_has_four_real_replies() -> None:
    counts = {name: sum(r[0] == name for r in REPLIES) for name in FORMATS}
    assert all(n >= 4 for n in counts.values()), counts


#: One or more sample actions per type; ``index`` ones are kept for formats with indices.
SAMPLES: dict[str, list[PhoneAction]] = {
    "click": [A("click", x=0, y=0), A("click", x=333, y=777), A("click", x=1000, y=1000),
              A("click", index=3)],
    "double_click": [A("double_click", x=120, y=880), A("double_click", index=2)],
    "long_press": [A("long_press", x=640, y=90), A("long_press", index=11)],
    "type": [A("type", text='It\'s "quoted"\nand ünïcode'), A("type", text="Bob", index=5)],
    "scroll": [A("scroll", direction=d) for d in ("up", "down", "left", "right")]
    + [A("scroll", direction="down", index=6)],
    "drag": [A("drag", x=500, y=900, x2=510, y2=100)],
    "press": [A("press", button=b) for b in ("back", "home", "enter", "recents")],
    "open_app": [A("open_app", app="Clock")],
    "close_app": [A("close_app", app="Clock")],
    "wait": [A("wait", seconds=2)],
    "answer": [A("answer", text="7:30 AM, 'ok'")],
    "finish": [A("finish"), A("finish", status="infeasible")],
}
_SCREENS = (RESIZED, (720, 1280), (1440, 3200))


def _samples(fmt_name: str, kind: str) -> list[PhoneAction]:
    fmt = FORMATS[fmt_name]
    return [a for a in SAMPLES[kind] if a.index is None or fmt.indices]


def _writable(fmt_name: str, action: PhoneAction, screen: tuple[int, int]) -> str | None:
    """The rendered text, or None when the format says (naming a closest alternative) that
    this value has no equivalent."""
    try:
        return FORMATS[fmt_name].render(action, screen)
    except ActionError as err:
        assert "closest" in str(err), err
        return None


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_action_types_are_all_accounted_for(name: str) -> None:
    fmt = FORMATS[name]
    groups = [set(fmt.supported), set(fmt.converted), set(fmt.unsupported)]
    assert set().union(*groups) == set(ACTION_TYPES)
    assert sum(len(g) for g in groups) == len(ACTION_TYPES)  # each type in one group


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_parse_render_round_trips_supported_actions(name: str) -> None:
    fmt = FORMATS[name]
    for kind in fmt.supported:
        written = 0
        for action in _samples(name, kind):
            for screen in _SCREENS:
                text = _writable(name, action, screen)
                if text is None:
                    continue
                written += 1
                got = fmt.parse(text, screen)
                assert _close(got, action), (name, action, text, got)
        assert written, f"{name} wrote no {kind}"


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_converted_actions_parse_as_their_equivalent(name: str) -> None:
    fmt = FORMATS[name]
    for kind, back in fmt.converted.items():
        for action in _samples(name, kind):
            got = fmt.parse(fmt.render(action, RESIZED), RESIZED)
            assert got.type == back
            if kind == "scroll":  # a swipe from the scroll point, the finger against it
                assert got.x2 is not None and got.y2 is not None
                assert _close(replace(got, x2=None, y2=None, type="click"),
                              A("click", x=action.x, y=action.y))
                dx, dy = got.x2 - got.point[0], got.y2 - got.point[1]
                want = {"down": dy < 0, "up": dy > 0, "right": dx < 0, "left": dx > 0}
                assert want[action.direction or "down"], (action, got)
            if kind == "wait":
                assert got.seconds is not None and got.seconds > 0


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_unsupported_actions_name_the_closest_alternative(name: str) -> None:
    fmt = FORMATS[name]
    for kind in fmt.unsupported:
        for action in _samples(name, kind):
            with pytest.raises(ActionError, match="closest"):
                fmt.render(action, RESIZED)


@pytest.mark.parametrize("name", [n for n, f in FORMATS.items() if not f.indices])
def test_index_actions_need_a_format_with_indices(name: str) -> None:
    with pytest.raises(ActionError, match="element indices"):
        FORMATS[name].render(A("click", index=3), RESIZED)


def test_pixel_coordinates_round_trip_within_one_unit() -> None:
    for name in ("qwen25vl", "uitars", "androidworld"):
        fmt = FORMATS[name]
        for screen in _SCREENS:
            for x in range(0, 1001, 7):
                action = A("click", x=x, y=1000 - x)
                assert _close(fmt.parse(fmt.render(action, screen), screen), action)


def test_uitars_relative_grid_and_boxes() -> None:
    relative = UITarsFormat(coords="relative")
    assert relative.parse("Action: click(start_box='(500,250)')", (64, 64)) == A(
        "click", x=500, y=250)
    assert relative.parse("Thought: x\nAction: click(start_box='[480, 240, 520, 260]')",
                          (64, 64)) == A("click", x=500, y=250)
    written = relative.render(A("click", x=500, y=250), PHONE)
    assert written == "Action: click(start_box='(500,250)')"
    assert relative.model_screen(*PHONE) == PHONE
    with pytest.raises(ValueError, match="pixels"):
        UITarsFormat(coords="normalized")


def test_model_screen_is_the_resized_image() -> None:
    assert smart_resize(*PHONE) == RESIZED
    assert FORMATS["qwen25vl"].model_screen(*PHONE) == RESIZED
    assert FORMATS["uitars"].model_screen(*PHONE) == RESIZED
    assert FORMATS["qwen3vl"].model_screen(*PHONE) == PHONE
    w, h = smart_resize(4000, 9000)  # over max_pixels: scaled down, multiples of 28
    assert w % 28 == 0 and h % 28 == 0 and w * h <= 16384 * 28 * 28
    assert smart_resize(10, 10) == (56, 56)  # under min_pixels: scaled up


MALFORMED: list[tuple[str, str]] = [
    ("qwen25vl", "I will click the button."),
    ("qwen25vl", '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click"}}\n'
     "</tool_call>"),
    ("qwen25vl", '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
     '"coordinate": [5000, 10]}}\n</tool_call>'),
    ("qwen25vl", '<tool_call>\n{"name": "browser", "arguments": {"action": "click"}}'
     "\n</tool_call>"),
    ("qwen25vl", '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "fly"}}'
     "\n</tool_call>"),
    ("qwen25vl", '<tool_call>\n{"name": "mobile_use", "arguments": {"action": '
     '"system_button", "button": "Menu"}}\n</tool_call>'),
    ("qwen3vl", '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
     '"coordinate": [1200, 10]}}\n</tool_call>'),
    ("qwen3vl", '<tool_call>{"name": "mobile_use", "arguments": {"action": "terminate", '
     '"status": "maybe"}}</tool_call>'),
    ("uitars", "Thought: I am not sure what to do."),
    ("uitars", "Action: click(start_box=__import__('os').system('id'))"),
    ("uitars", "Action: click(start_box='(1,2,3)')"),
    ("uitars", "Action: scroll(start_box='(5,5)')"),
    ("uitars", "Action: hotkey(key='volume_up')"),
    ("glm", "<think>hmm</think><answer>tap the button</answer>"),
    ("glm", '<answer>do(action="Take_over", message="login")</answer>'),
    ("glm", '<answer>do(action="Fly", element=[1,2])</answer>'),
    ("glm", '<answer>do(action="Tap", element=[1500,2])</answer>'),
    ("glm", '<answer>do(action="Tap", element=open("x"))</answer>'),
    ("androidworld", "Reason: nothing to do.\nAction: none"),
    ("androidworld", 'Action: {"action_type": "click"}'),
    ("androidworld", 'Action: {"action_type": "click", "x": 5, "y": 5, "index": 2}'),
    ("androidworld", 'Action: {"action_type": "input_text", "text": "a", "x": 5}'),
    ("androidworld", 'Action: {"action_type": "input_text", "text": ""}'),
    ("androidworld", 'Action: {"action_type": "input_text", "text": "a", "clear_text": "no"}'),
    ("androidworld", 'Action: {"action_type": "click", "x": 1081, "y": 5}'),
    ("androidworld", 'Action: {"action_type": "status", "goal_status": "done"}'),
    ("androidworld", 'Action: {"action_type": "unknown"}'),
    ("phone_gym", "tap somewhere nice"),
    ("phone_gym", "click(x=1, y=__import__('os'))"),
]


@pytest.mark.parametrize(("name", "text"), MALFORMED,
                         ids=[f"{m[0]}-{i}" for i, m in enumerate(MALFORMED)])
def test_malformed_replies_raise_action_error(name: str, text: str) -> None:
    with pytest.raises(ActionError):
        FORMATS[name].parse(text, PHONE)


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_bad_inputs(name: str) -> None:
    fmt = FORMATS[name]
    for text in ("", "   ", "x" * 20_000):
        with pytest.raises(ActionError):
            fmt.parse(text, PHONE)
    with pytest.raises(ActionError):
        fmt.parse(None, PHONE)  # type: ignore[arg-type]
    with pytest.raises(ActionError):
        fmt.render("click(x=1, y=2)", PHONE)  # type: ignore[arg-type]
    for screen in ((0, 10), (10,), "1080x2400", (10.5, 20)):
        with pytest.raises(ValueError, match="screen"):
            fmt.parse("click(x=1, y=2)", screen)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_prompts_load_and_fill(name: str) -> None:
    fmt = FORMATS[name]
    path = resources.files("phone_gym.actions.formats").joinpath("prompts").joinpath(f"{name}.md")
    assert path.is_file()
    assert path.read_text(encoding="utf-8").lstrip().startswith("<!--")  # placeholder docs
    template = fmt.prompt()
    assert "{instruction}" in template and "<!--" not in template
    filled = fmt.system_prompt("Set an alarm for 7:00", (1092, 2408))
    assert "Set an alarm for 7:00" in filled and "{instruction}" not in filled
    assert "{width}" not in filled and "{height}" not in filled
    custom = fmt.system_prompt("Call Bob", PHONE, template='Task: {instruction} {"a": 1}')
    assert custom == 'Task: Call Bob {"a": 1}'


def test_get_format() -> None:
    assert get_format("qwen3vl") is FORMATS["qwen3vl"]
    assert set(FORMATS) == {"phone_gym", "qwen25vl", "qwen3vl", "uitars", "glm", "androidworld"}
    with pytest.raises(ValueError, match="did you mean 'uitars'"):
        get_format("ui-tars")
    with pytest.raises(ValueError, match="known formats"):
        get_format("nothing-like-it")
