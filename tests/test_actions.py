"""Tests for parsing, formatting and converting phone actions."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pytest
from gymnasium import spaces
from hypothesis import given, settings
from hypothesis import strategies as st

from phone_gym.actions import (
    ACTION_FIELDS,
    ACTION_TYPES,
    BUTTONS,
    DIRECTIONS,
    FINISH_STATUSES,
    MAX_TEXT_LENGTH,
    TEXT_CHARSET,
    ActionError,
    PhoneAction,
    action_from_dict,
    action_from_sample,
    format_action,
    make_action_space,
    parse_action,
    to_action,
)

APPS = ("Clock", "Contacts", "Settings")

#: One example of every action type, with its fields in canonical order.
EXAMPLES: dict[str, PhoneAction] = {
    "click": PhoneAction("click", x=540, y=210),
    "double_click": PhoneAction("double_click", x=0, y=1000),
    "long_press": PhoneAction("long_press", x=12, y=34),
    "type": PhoneAction("type", text="Bob"),
    "scroll": PhoneAction("scroll", x=500, y=600, direction="down"),
    "drag": PhoneAction("drag", x=1, y=2, x2=3, y2=4),
    "press": PhoneAction("press", button="back"),
    "open_app": PhoneAction("open_app", app="Clock"),
    "close_app": PhoneAction("close_app", app="Contacts"),
    "wait": PhoneAction("wait", seconds=2),
    "answer": PhoneAction("answer", text="42"),
    "finish": PhoneAction("finish", status="success"),
}

#: Qwen ``mobile_use`` arguments for every action type.
QWEN_ARGS: dict[str, tuple[dict[str, Any], PhoneAction]] = {
    "click": ({"action": "click", "coordinate": [540, 210]}, EXAMPLES["click"]),
    "double_click": ({"action": "double_click", "coordinate": [0, 1000]}, EXAMPLES["double_click"]),
    "long_press": (
        {"action": "long_press", "coordinate": [12, 34], "time": 2},
        EXAMPLES["long_press"],
    ),
    "type": ({"action": "type", "text": "Bob"}, EXAMPLES["type"]),
    "scroll": (
        {"action": "scroll", "coordinate": [500, 600], "direction": "down"},
        EXAMPLES["scroll"],
    ),
    "drag": (
        {"action": "swipe", "coordinate": [1, 2], "coordinate2": [3, 4]},
        EXAMPLES["drag"],
    ),
    "press": ({"action": "system_button", "button": "Back"}, EXAMPLES["press"]),
    "open_app": ({"action": "open", "text": "Clock"}, EXAMPLES["open_app"]),
    "close_app": ({"action": "close_app", "text": "Contacts"}, EXAMPLES["close_app"]),
    "wait": ({"action": "wait", "time": 2}, EXAMPLES["wait"]),
    "answer": ({"action": "answer", "text": "42"}, EXAMPLES["answer"]),
    "finish": ({"action": "terminate", "status": "success"}, EXAMPLES["finish"]),
}


def tool_call(arguments: dict[str, Any]) -> str:
    payload = {"name": "mobile_use", "arguments": arguments}
    return f"<tool_call>\n{json.dumps(payload)}\n</tool_call>"


def test_examples_cover_every_action_type() -> None:
    assert set(EXAMPLES) == set(ACTION_TYPES) == set(QWEN_ARGS)


# ------------------------------------------------------------------ parse_action forms


@pytest.mark.parametrize("kind", ACTION_TYPES)
def test_keyword_call_form(kind: str) -> None:
    action = EXAMPLES[kind]
    args = ", ".join(f"{k}={json.dumps(v)}" for k, v in action.to_dict().items() if k != "action")
    assert parse_action(f"{kind}({args})") == action


@pytest.mark.parametrize("kind", ACTION_TYPES)
def test_positional_call_form(kind: str) -> None:
    action = EXAMPLES[kind]
    args = ", ".join(json.dumps(getattr(action, name)) for name in ACTION_FIELDS[kind])
    assert parse_action(f"{kind}({args})") == action


@pytest.mark.parametrize("kind", ACTION_TYPES)
@pytest.mark.parametrize("name_key", ["action", "action_type", "type"])
def test_json_form(kind: str, name_key: str) -> None:
    action = EXAMPLES[kind]
    d = action.to_dict()
    d[name_key] = d.pop("action")
    assert parse_action(json.dumps(d)) == action


@pytest.mark.parametrize("kind", ACTION_TYPES)
def test_qwen_tool_call_form(kind: str) -> None:
    arguments, expected = QWEN_ARGS[kind]
    assert parse_action(tool_call(arguments)) == expected


def test_literal_examples() -> None:
    assert parse_action("click(x=540, y=210)") == PhoneAction("click", x=540, y=210)
    assert parse_action("click(540, 210)").point == (540, 210)
    assert parse_action('type(text="Bob")').text == "Bob"
    assert parse_action('press(button="back")').button == "back"
    assert parse_action('finish(status="success")').status == "success"
    assert parse_action("wait(seconds=2)").seconds == 2
    assert parse_action("wait(seconds=0.5)").seconds == 0.5
    assert parse_action('{"action": "click", "x": 540, "y": 210}').point == (540, 210)
    text = (
        '<tool_call>{"name": "mobile_use", "arguments": {"action": "click", '
        '"coordinate": [540, 210]}}</tool_call>'
    )
    assert parse_action(text) == PhoneAction("click", x=540, y=210)


def test_mixed_positional_and_keyword() -> None:
    assert parse_action('scroll(10, 20, direction="up")') == PhoneAction(
        "scroll", x=10, y=20, direction="up"
    )


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"action": "key", "text": "home"}, PhoneAction("press", button="home")),
        ({"action": "key", "button": "Enter"}, PhoneAction("press", button="enter")),
        ({"action": "system_button", "button": "Home"}, PhoneAction("press", button="home")),
        (
            {"action": "system_button", "button": "KEYCODE_BACK"},
            PhoneAction("press", button="back"),
        ),
        ({"action": "terminate", "status": "failure"}, PhoneAction("finish", status="infeasible")),
        ({"action": "wait", "time": 1.5}, PhoneAction("wait", seconds=1.5)),
        ({"action": "long_press", "coordinate": [5, 6]}, PhoneAction("long_press", x=5, y=6)),
        ({"action": "click", "coordinate": [10.4, 10.6]}, PhoneAction("click", x=10, y=11)),
    ],
)
def test_qwen_mappings(arguments: dict[str, Any], expected: PhoneAction) -> None:
    assert parse_action(tool_call(arguments)) == expected


def test_qwen_arguments_as_json_string() -> None:
    payload = {"name": "mobile_use", "arguments": json.dumps({"action": "type", "text": "hi"})}
    assert parse_action(f"<tool_call>{json.dumps(payload)}</tool_call>").text == "hi"


def test_tool_call_named_after_the_action() -> None:
    payload = {"name": "click", "arguments": {"x": 7, "y": 8}}
    assert parse_action(json.dumps(payload)) == PhoneAction("click", x=7, y=8)


def test_aliases_in_call_form() -> None:
    assert parse_action("tap(3, 4)") == PhoneAction("click", x=3, y=4)
    assert parse_action("swipe(1, 2, 3, 4)") == PhoneAction("drag", x=1, y=2, x2=3, y2=4)
    assert parse_action('terminate("failure")') == PhoneAction("finish", status="infeasible")
    assert parse_action('open("Clock")') == PhoneAction("open_app", app="Clock")
    assert parse_action("click(coordinate=[9, 8])") == PhoneAction("click", x=9, y=8)
    assert parse_action('press(button="Back")') == PhoneAction("press", button="back")


def test_surrounding_text() -> None:
    assert parse_action("Thought: tap Bob.\nAction: click(x=1, y=2)") == PhoneAction(
        "click", x=1, y=2
    )
    fenced = 'I will type.\n```json\n{"action": "type", "text": "hi there"}\n```\nDone.'
    assert parse_action(fenced) == PhoneAction("type", text="hi there")
    two_calls = "First click(x=1, y=2), then finally click(x=3, y=4)."
    assert parse_action(two_calls).point == (3, 4)
    two_tool_calls = tool_call({"action": "click", "coordinate": [1, 1]}) + tool_call(
        {"action": "type", "text": "last"}
    )
    assert parse_action("Thought: ...\n" + two_tool_calls) == PhoneAction("type", text="last")
    # A tool_call wins over a call in the thought; a JSON object over a call.
    assert parse_action("click(x=1, y=1) " + tool_call({"action": "answer", "text": "a"})).type == (
        "answer"
    )
    assert parse_action('click(x=1, y=1) {"action": "wait", "seconds": 3}').seconds == 3
    # Parentheses inside strings and non-action JSON objects are handled.
    assert parse_action('Action: type(text="a) b") ok').text == "a) b"
    assert parse_action('{"thought": "x"} then press(button="home")').button == "home"


def test_python_dict_literal() -> None:
    assert parse_action("{'action': 'click', 'x': 1, 'y': 2}") == PhoneAction("click", x=1, y=2)


def test_float_coordinates_round() -> None:
    assert parse_action("click(x=10.5, y=999.4)").point == (11, 999)
    assert parse_action('{"action": "click", "x": 0.2, "y": 1000.49}').point == (0, 1000)


def test_text_with_json_and_tool_call_inside_round_trips() -> None:
    action = PhoneAction("type", text='<tool_call>{"action": "click"}</tool_call> click(x=1, y=2)')
    assert parse_action(format_action(action)) == action


# ------------------------------------------------------------------ rejections

GARBAGE = [
    "",
    "   ",
    "hello",
    "click(",
    "click)",
    "__import__('os').system('x')",
    "click(x=eval('1'), y=2)",
    "click(x=__import__('os').getpid(), y=2)",
    "os.system(1)",
    "{not json",
    "[1, 2]",
    "click(*[1, 2])",
    "click(**{'x': 1, 'y': 2})",
    "click(x=1, x=2)",
    "click(1, 2, 3)",
    "click(x=1)",
    "click(x=1, y=2, z=3)",
    "unknown(x=1)",
    "lambda: 1",
    "click(x=float('nan'), y=1)",
    '{"action": "click", "x": NaN, "y": 1}',
    '{"action": "click", "x": Infinity, "y": 1}',
    "click(x=1e400, y=1)",
    "click(x=-5, y=1)",
    "click(x=1001, y=1)",
    "click(x=1, y=1000.6)",
    "click(x=True, y=1)",
    '{"action": "click", "x": true, "y": 1}',
    "click(x='5', y=1)",
    "click(x=[1], y=1)",
    "click(x=1+2j, y=1)",
    'press(button="menu")',
    'press(button="volume_up")',
    'scroll(x=1, y=1, direction="north")',
    'finish(status="maybe")',
    'terminate(status="maybe")',
    'type(text="")',
    "type(text=5)",
    'open_app(app=" ")',
    "wait(seconds=-1)",
    "wait(seconds=61)",
    "wait(seconds=True)",
    "wait(seconds='2')",
    '{"action": "click", "action_type": "type", "x": 1, "y": 2}',
    '{"x": 1, "y": 2}',
    "<tool_call>not json</tool_call>",
    '<tool_call>{"name": "mobile_use", "arguments": {"action": "fly"}}</tool_call>',
    '<tool_call>{"name": "mobile_use", "arguments": [1]}</tool_call>',
    tool_call({"action": "click", "coordinate": [1, 2, 3]}),
    tool_call({"action": "click", "coordinate": [1, 2], "x": 1}),
    tool_call({"action": "system_button", "button": "Menu"}),
    "click(x=0x" + "f" * 5000 + ", y=1)",
    "click(x=" + "9" * 5000 + ", y=1)",
    "(" * 500 + ")" * 500,
    "{" * 5000,
    "[" * 5000 + "]" * 5000,
    "click(x=" + "(" * 300 + "1" + ")" * 300 + ", y=1)",
]


@pytest.mark.parametrize("text", GARBAGE)
def test_garbage_raises_action_error(text: str) -> None:
    with pytest.raises(ActionError):
        parse_action(text)
    with pytest.raises(ActionError):
        to_action(text)


def test_error_message_says_what_is_accepted() -> None:
    with pytest.raises(ActionError, match=r"click\(x=540, y=210\)") as info:
        parse_action("hello")
    assert "mobile_use" in str(info.value)
    assert "double_click" in str(info.value)


def test_parse_never_evaluates(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("eval/exec must never be called")

    monkeypatch.setattr(builtins, "eval", boom)
    monkeypatch.setattr(builtins, "exec", boom)
    assert parse_action("click(x=1, y=2)").point == (1, 2)
    with pytest.raises(ActionError):
        parse_action("click(x=eval('1'), y=2)")


@pytest.mark.parametrize("bad", [None, 5, 1.5, math.nan, b"click(1, 2)", [1, 2], ("click",)])
def test_parse_action_rejects_non_strings(bad: Any) -> None:
    with pytest.raises(ActionError):
        parse_action(bad)


# ------------------------------------------------------------------ format / round trip


def test_format_action_canonical() -> None:
    assert format_action(PhoneAction("click", x=540, y=210)) == "click(x=540, y=210)"
    assert format_action(PhoneAction("type", text="Bob")) == 'type(text="Bob")'
    assert format_action(PhoneAction("type", text='a"b\nc')) == 'type(text="a\\"b\\nc")'
    assert format_action(PhoneAction("drag", x=1, y=2, x2=3, y2=4)) == "drag(x=1, y=2, x2=3, y2=4)"
    assert (
        format_action(PhoneAction("scroll", x=1, y=2, direction="up"))
        == 'scroll(x=1, y=2, direction="up")'
    )
    assert format_action(PhoneAction("wait", seconds=2.5)) == "wait(seconds=2.5)"
    assert format_action(PhoneAction("finish", status="infeasible")) == (
        'finish(status="infeasible")'
    )


@pytest.mark.parametrize(
    "text",
    ["\ud800", "a\udc00b", "\ud83d\ude00", "\U0001f600 \u00e9\u2028\x00\x85\\", "'\"\r\n\t"],
)
def test_awkward_text_round_trips(text: str) -> None:
    for kind in ("type", "answer"):
        action = PhoneAction(kind, text=text)
        assert parse_action(format_action(action)) == action
    assert parse_action(format_action(PhoneAction("open_app", app=text))).app == text


@pytest.mark.parametrize("kind", ACTION_TYPES)
def test_format_examples_round_trip(kind: str) -> None:
    action = EXAMPLES[kind]
    assert parse_action(format_action(action)) == action
    assert format_action(parse_action(format_action(action))) == format_action(action)


coord = st.integers(0, 1000)
any_text = st.text(alphabet=st.characters(exclude_categories=()), max_size=MAX_TEXT_LENGTH)
app_name = st.text(alphabet=st.characters(exclude_categories=()), min_size=1).filter(str.strip)
seconds = st.one_of(st.integers(0, 60), st.floats(0, 60, allow_nan=False))


def actions(text: st.SearchStrategy[str] = any_text) -> st.SearchStrategy[PhoneAction]:
    """Every valid PhoneAction."""
    return st.one_of(
        st.builds(
            PhoneAction, st.sampled_from(["click", "double_click", "long_press"]), coord, coord
        ),
        st.builds(lambda t: PhoneAction("type", text=t), text.filter(bool)),
        st.builds(
            lambda x, y, d: PhoneAction("scroll", x=x, y=y, direction=d),
            coord,
            coord,
            st.sampled_from(DIRECTIONS),
        ),
        st.builds(PhoneAction, st.just("drag"), coord, coord, coord, coord),
        st.builds(lambda b: PhoneAction("press", button=b), st.sampled_from(BUTTONS)),
        st.builds(
            lambda k, a: PhoneAction(k, app=a),
            st.sampled_from(["open_app", "close_app"]),
            app_name if text is any_text else text.filter(str.strip),
        ),
        st.builds(lambda s: PhoneAction("wait", seconds=s), seconds),
        st.builds(lambda t: PhoneAction("answer", text=t), text),
        st.builds(lambda s: PhoneAction("finish", status=s), st.sampled_from(FINISH_STATUSES)),
    )


@settings(max_examples=500)
@given(actions())
def test_round_trip_property(action: PhoneAction) -> None:
    text = format_action(action)
    parsed = parse_action(text)
    assert parsed == action
    assert type(parsed.seconds) is type(action.seconds)
    assert format_action(parsed) == text


@settings(max_examples=300)
@given(actions(st.text(max_size=MAX_TEXT_LENGTH)))
def test_dict_and_json_round_trip_property(action: PhoneAction) -> None:
    assert action_from_dict(action.to_dict()) == action
    assert to_action(action.to_dict()) == action
    assert parse_action(json.dumps(action.to_dict())) == action
    assert to_action(action) is action


# ------------------------------------------------------------------ action_from_dict


def test_action_from_dict() -> None:
    assert action_from_dict({"action": "click", "x": 1, "y": 2}) == PhoneAction("click", x=1, y=2)
    assert action_from_dict({"type": "type", "text": "t"}) == PhoneAction("type", text="t")
    assert action_from_dict({"action": "click", "x": np.int64(3), "y": 4.4}).point == (3, 4)
    assert action_from_dict({"action": "wait", "seconds": np.float32(0.5)}).seconds == 0.5


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {"x": 1, "y": 2},
        {"action": "click", "x": 1},
        {"action": "click", "x": 1, "y": 2, "text": "a"},
        {"action": "click", "x": 1, "y": 2, "z": 3},
        {"action": "tap", "x": 1, "y": 2},
        {"action": "fly"},
        {"action": 3},
        {"action": None},
        {"action": "click", "type": "scroll", "x": 1, "y": 2},
        {"action": "click", "coordinate": [1, 2]},
        {"action": "press", "button": "Menu"},
        {"action": "press", "button": np.array(["back", "home"])},
        {"action": np.array(["click"]), "type": "click"},
        {"action": "click", "x": np.array([1, 2]), "y": 1},
        {"action": "click", "x": math.inf, "y": 1},
        {"action": "click", "x": np.bool_(True), "y": 1},
        {"action": "finish", "status": "failure"},
        {"action": "type", "text": ""},
        {"action": "type", "text": "x" * (MAX_TEXT_LENGTH + 1)},
        {"action": "open_app", "app": 5},
        {("action",): "click"},
    ],
)
def test_action_from_dict_rejects(bad: dict[Any, Any]) -> None:
    with pytest.raises(ActionError):
        action_from_dict(bad)
    with pytest.raises(ActionError):
        to_action(bad)


# ------------------------------------------------------------------ action space


def test_make_action_space_keys() -> None:
    space = make_action_space(APPS, max_text_length=20)
    assert isinstance(space, spaces.Dict)
    assert set(space.spaces) == {
        "action_type",
        "coords",
        "text",
        "direction",
        "button",
        "app",
        "seconds",
        "status",
    }
    assert space["action_type"].n == len(ACTION_TYPES)
    assert space["app"].n == len(APPS)
    assert space["direction"].n == 4
    assert space["button"].n == 4
    assert space["status"].n == 2
    coords = space["coords"]
    assert coords.shape == (4,) and coords.dtype == np.int64
    assert coords.low.min() == 0 and coords.high.max() == 1000
    assert space["seconds"].shape == (1,) and space["seconds"].dtype == np.float32
    assert space["text"].max_length == 20 and space["text"].min_length == 1
    assert set(TEXT_CHARSET) >= set("aZ09 .,!?-_")
    assert all(c.isprintable() and c.isascii() for c in TEXT_CHARSET)


def test_make_action_space_rejects_empty_apps() -> None:
    with pytest.raises(ValueError, match="app_names"):
        make_action_space([])
    with pytest.raises(ValueError, match="max_text_length"):
        make_action_space(APPS, max_text_length=0)


def test_action_from_sample_uses_the_chosen_fields() -> None:
    sample = {
        "action_type": np.int64(ACTION_TYPES.index("drag")),
        "coords": np.array([1, 2, 3, 4], dtype=np.int64),
        "text": "hello",
        "direction": np.int64(1),
        "button": np.int64(2),
        "app": np.int64(2),
        "seconds": np.array([1.5], dtype=np.float32),
        "status": np.int64(1),
    }
    assert action_from_sample(sample, APPS) == PhoneAction("drag", x=1, y=2, x2=3, y2=4)
    expected = {
        "click": PhoneAction("click", x=1, y=2),
        "type": PhoneAction("type", text="hello"),
        "scroll": PhoneAction("scroll", x=1, y=2, direction=DIRECTIONS[1]),
        "press": PhoneAction("press", button=BUTTONS[2]),
        "open_app": PhoneAction("open_app", app="Settings"),
        "wait": PhoneAction("wait", seconds=1.5),
        "finish": PhoneAction("finish", status=FINISH_STATUSES[1]),
    }
    for kind, action in expected.items():
        sample["action_type"] = np.int64(ACTION_TYPES.index(kind))
        assert action_from_sample(sample, APPS) == action
        assert to_action(sample, APPS) == action
    # Only the chosen action's fields are read: a missing "app" does not matter for click.
    assert action_from_sample({"action_type": 0, "coords": [5, 6, 7, 8]}, APPS).point == (5, 6)


@pytest.mark.parametrize(
    "bad",
    [
        {"action_type": 99, "coords": [1, 2, 3, 4]},
        {"action_type": -1},
        {"action_type": True, "coords": [1, 2, 3, 4]},
        {"action_type": 1.0, "coords": [1, 2, 3, 4]},
        {"action_type": 0, "coords": [1, 2]},
        {"action_type": 0},
        {"action_type": 0, "coords": np.zeros((2, 2))},
        {"action_type": ACTION_TYPES.index("open_app"), "app": 3},
        {"action_type": ACTION_TYPES.index("press"), "button": 4},
        {"action_type": ACTION_TYPES.index("type"), "text": ""},
        {"action_type": ACTION_TYPES.index("type"), "text": None},
        {"action_type": ACTION_TYPES.index("wait"), "seconds": [math.nan]},
    ],
)
def test_action_from_sample_rejects(bad: dict[str, Any]) -> None:
    with pytest.raises(ActionError):
        action_from_sample(bad, APPS)
    with pytest.raises(ActionError):
        to_action(bad, APPS)


def test_sample_needs_app_names() -> None:
    sample = {"action_type": ACTION_TYPES.index("open_app"), "app": 0}
    with pytest.raises(ActionError, match="app_names"):
        to_action(sample)
    assert to_action(sample, APPS) == PhoneAction("open_app", app="Clock")


def test_every_sample_converts_over_many_seeds() -> None:
    space = make_action_space(APPS)
    seen: set[str] = set()
    for seed in range(2000):
        space.seed(seed)
        action = action_from_sample(space.sample(), APPS)
        assert isinstance(action, PhoneAction)
        seen.add(action.type)
    assert seen == set(ACTION_TYPES)


@settings(max_examples=200)
@given(
    seed=st.integers(0, 2**32 - 1),
    apps=st.lists(st.text(min_size=1).filter(str.strip), min_size=1, max_size=5),
    max_len=st.integers(1, MAX_TEXT_LENGTH),
)
def test_every_sample_converts_property(seed: int, apps: list[str], max_len: int) -> None:
    space = make_action_space(apps, max_text_length=max_len)
    space.seed(seed)
    for _ in range(5):
        sample = space.sample()
        action = to_action(sample, apps)
        assert action.type == ACTION_TYPES[int(sample["action_type"])]
        if action.app is not None:
            assert action.app in apps


# ------------------------------------------------------------------ to_action


class BrokenMapping(Mapping[str, Any]):
    """A mapping whose lookups fail with an unexpected exception."""

    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("broken")

    def __iter__(self) -> Iterator[str]:
        return iter(["action"])

    def __len__(self) -> int:
        return 1

    def __contains__(self, key: object) -> bool:
        return True


@pytest.mark.parametrize(
    "bad",
    [None, 0, 1.5, math.nan, [1, 2], ("click", 1, 2), b"click(1, 2)", object()],
)
def test_to_action_rejects_other_types(bad: Any) -> None:
    with pytest.raises(ActionError):
        to_action(bad)


def test_to_action_lets_errors_of_a_mapping_through() -> None:
    with pytest.raises(RuntimeError, match="broken"):  # not the parser's: not an ActionError
        to_action(BrokenMapping())


def test_to_action_dispatch() -> None:
    action = PhoneAction("click", x=1, y=2)
    assert to_action(action) is action
    assert to_action("click(1, 2)") == action
    assert to_action({"action": "click", "x": 1, "y": 2}) == action
    assert to_action({"action_type": "click", "x": 1, "y": 2}) == action
    assert to_action({"action_type": 0, "coords": [1, 2, 0, 0]}, APPS) == action


def test_to_action_error_names_accepted_forms() -> None:
    with pytest.raises(ActionError, match="PhoneAction") as info:
        to_action(None)
    assert "sample" in str(info.value)


def _assert_only_action_error(value: Any, app_names: Any = None) -> None:
    try:
        action = to_action(value, app_names)
    except ActionError:
        return
    assert isinstance(action, PhoneAction)


@settings(max_examples=500)
@given(st.text())
def test_to_action_on_arbitrary_text(text: str) -> None:
    _assert_only_action_error(text)


call_like = st.builds(
    lambda name, args: f"{name}({', '.join(args)})",
    st.sampled_from([*ACTION_TYPES, "tap", "swipe", "terminate", "key", "os.system", "eval"]),
    st.lists(
        st.one_of(
            st.integers().map(str),
            st.floats().map(repr),
            st.text().map(json.dumps),
            st.sampled_from(["x=", "y=", "text=", "button=", "seconds="]).flatmap(
                lambda k: st.one_of(st.integers(), st.floats(), st.text()).map(
                    lambda v: k + (json.dumps(v) if isinstance(v, str) else repr(v))
                )
            ),
            st.text(max_size=5),
        ),
        max_size=5,
    ),
)


@settings(max_examples=500)
@given(call_like, st.text(max_size=20), st.text(max_size=20))
def test_to_action_on_call_like_text(call: str, before: str, after: str) -> None:
    _assert_only_action_error(call)
    _assert_only_action_error(before + call + after)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=10), children, max_size=3)
    ),
    max_leaves=10,
)
field_keys = st.sampled_from(
    [
        "action",
        "action_type",
        "type",
        "x",
        "y",
        "x2",
        "y2",
        "text",
        "direction",
        "button",
        "app",
        "seconds",
        "status",
        "coordinate",
        "coordinate2",
        "time",
        "name",
        "arguments",
        "coords",
    ]
)
action_names = st.sampled_from([*ACTION_TYPES, "swipe", "terminate", "open", "fly"])
dict_values = st.one_of(
    json_values,
    action_names,
    st.integers(-2, 1002),
    st.sampled_from([*BUTTONS, *DIRECTIONS, *FINISH_STATUSES, "Back", "failure"]),
    st.builds(np.int64, st.integers(-5, 20)),
    st.builds(lambda xs: np.array(xs), st.lists(st.integers(-5, 1005), max_size=5)),
)
arbitrary_dicts = st.dictionaries(
    st.one_of(field_keys, st.text(max_size=5), st.integers()), dict_values, max_size=6
)


@settings(max_examples=500)
@given(arbitrary_dicts, st.sampled_from([None, APPS, ()]))
def test_to_action_on_arbitrary_dicts(d: dict[Any, Any], app_names: Any) -> None:
    _assert_only_action_error(d, app_names)
    try:
        text = json.dumps(
            {k: v for k, v in d.items() if not isinstance(v, np.ndarray)}, default=int
        )
    except (TypeError, ValueError):
        return
    _assert_only_action_error(text)
    _assert_only_action_error(f"<tool_call>{text}</tool_call>")
    _assert_only_action_error(
        f'<tool_call>{{"name": "mobile_use", "arguments": {text}}}</tool_call>'
    )


@settings(max_examples=200)
@given(st.one_of(json_values, st.binary(), st.complex_numbers(), st.tuples(st.integers())))
def test_to_action_on_arbitrary_values(value: Any) -> None:
    _assert_only_action_error(value)
