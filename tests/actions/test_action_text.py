"""Model text is read safely: a cap before any parsing, work linear in the text below it, only
the parser's own errors become ``ActionError``, and the defaults of ``finish`` and ``scroll``."""

from __future__ import annotations

import ast
import json
import re
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from phone_gym.actions import (
    ACTION_DEFAULTS,
    ACTION_DOCS,
    MAX_ACTION_TEXT,
    ActionError,
    PhoneAction,
    action_from_dict,
    format_action,
    parse_action,
    parser,
    space,
    to_action,
)
from phone_gym.envs import PhoneWorldEnv
from phone_gym.trainer.prompts import system_prompt

APPS = ["Contacts", "Clock", "Notes"]


# --------------------------------------------------------------------------- the cap


class Work:
    """Characters the parser reads: decoded by ``json`` (a failed decode reads up to where it
    failed, twice: its error counts the lines before that place), parsed by ``ast.parse``,
    and scanned by the parser's own regexes."""

    def __init__(self) -> None:
        self.chars = 0


class Counted:
    """A compiled pattern that adds what each ``search``/``match`` reads to a ``Work``."""

    def __init__(self, pattern: re.Pattern[str], work: Work) -> None:
        self.pattern, self.work = pattern, work

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        found = self.pattern.search(text, pos)
        self.work.chars += (found.end() if found else len(text)) - pos
        return found

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        found = self.pattern.match(text, pos)
        self.work.chars += (found.end() if found else len(text)) - pos
        return found


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> Work:
    counter = Work()
    raw_decode, parse = json.JSONDecoder.raw_decode, ast.parse

    def counted_raw_decode(self: json.JSONDecoder, text: str, idx: int = 0) -> Any:
        try:
            value, end = raw_decode(self, text, idx)
        except json.JSONDecodeError as err:
            counter.chars += err.pos
            raise
        except RecursionError:
            counter.chars += len(text) - idx
            raise
        counter.chars += end - idx
        return value, end

    def counted_parse(source: str, *args: Any, **kwargs: Any) -> Any:
        counter.chars += len(source)
        return parse(source, *args, **kwargs)

    monkeypatch.setattr(json.JSONDecoder, "raw_decode", counted_raw_decode)
    monkeypatch.setattr(ast, "parse", counted_parse)
    for name in ("_JSON_TOKEN", "_JSON_STRING_BODY", "_CALL_TOKEN", "_CALL_START"):
        monkeypatch.setattr(parser, name, Counted(getattr(parser, name), counter))
    for quote, pattern in list(parser._PY_STRING_BODY.items()):
        monkeypatch.setitem(parser._PY_STRING_BODY, quote, Counted(pattern, counter))
    return counter


def _read(text: str) -> None:
    try:
        parse_action(text)
    except ActionError:
        pass


def test_text_over_the_cap_is_refused_before_any_parsing(work: Work) -> None:
    text = "{" * 204_800
    start = time.thread_time()
    with pytest.raises(ActionError, match=f"204800 characters.*{MAX_ACTION_TEXT}"):
        parse_action(text)
    assert time.thread_time() - start < 0.05  # a length check: nothing was scanned
    assert work.chars == 0
    with pytest.raises(ActionError, match="MAX_ACTION_TEXT"):
        to_action("click(x=1, y=2) " + " " * MAX_ACTION_TEXT)


def test_text_up_to_the_cap_is_read() -> None:
    call = "click(x=1, y=2)"
    text = "so " * ((MAX_ACTION_TEXT - len(call)) // 3) + call
    text = " " * (MAX_ACTION_TEXT - len(text)) + text
    assert len(text) == MAX_ACTION_TEXT
    assert parse_action(text) == PhoneAction("click", x=1, y=2)
    with pytest.raises(ActionError, match="MAX_ACTION_TEXT"):
        parse_action(" " + text)


def test_text_over_the_cap_is_a_no_op_step() -> None:
    env = PhoneWorldEnv(task="ClockDisableAlarm", screenshot=False, ui_in_obs=True)
    obs, _ = env.reset(seed=0)
    after, reward, terminated, truncated, info = env.step("{" * 204_800)
    assert "MAX_ACTION_TEXT" in info["action_error"] and info["action"] is None
    assert after["ui"] == obs["ui"] and reward == 0.0 and not terminated


def _repeat(unit: str) -> Callable[[int], str]:
    return lambda n: unit * (n // len(unit))


#: Texts that made the parser quadratic (a failed JSON decode counts the lines up to where it
#: failed, at every brace; a call was tried against 256 closing parentheses) or could.
PATHOLOGICAL: dict[str, Callable[[int], str]] = {
    "braces": _repeat("{"),
    "parens": _repeat("("),
    "quotes": _repeat('"'),
    "tool_calls": _repeat("<tool_call>"),
    "open_objects": _repeat('{"a":'),
    "open_arrays": _repeat('{"a":['),
    "key_strings": _repeat('{"'),
    "open_calls": _repeat("click("),
    "bad_calls": _repeat("click(, "),
    "escaped_quotes": _repeat("click(\\'"),
    "escaped_triples": _repeat("click('''\\'''"),
    "closed_bad_calls": lambda n: "click(, " * (n // 9) + ")" * (n // 9),
    "deep_bad_objects": _repeat('{"a":' * 30 + "1x" + "}" * 30),
    "deep_objects": lambda n: '{"a":' * (n // 6) + "1x" + "}" * (n // 6),
    "unclosed_strings": _repeat('{"a": "x\n'),
    "prose": _repeat("I'll tap (the) \"OK\" button {maybe} [now]. "),
}


@pytest.mark.parametrize("name", list(PATHOLOGICAL))
def test_work_is_linear_in_the_text(name: str, work: Work) -> None:
    make = PATHOLOGICAL[name]
    n = MAX_ACTION_TEXT // 4
    reads = []
    for size in (n, 4 * n):
        text = make(size)
        assert size - 200 <= len(text) <= MAX_ACTION_TEXT
        work.chars = 0
        _read(text)
        reads.append(work.chars)
        # each character is decoded at most once per JSON object around it (at most
        # _MAX_JSON_DEPTH deep) and scanned a few times more
        assert work.chars <= (parser._MAX_JSON_DEPTH + 8) * len(text), name
    assert reads[1] <= 4.5 * reads[0], (name, reads)


def _cpu_seconds(text: str) -> float:
    """The least CPU time of this thread (other processes do not count) to read ``text``."""
    best = float("inf")
    for _ in range(7):
        start = time.thread_time()
        _read(text)
        best = min(best, time.thread_time() - start)
    return best


#: Issue 10's inputs (``'{' * 9000``...), and many objects inside one that does not decode.
TIMED: dict[str, Callable[[int], str]] = {
    "braces": _repeat("{"),
    "parens": _repeat("("),
    "quotes": _repeat('"'),
    "tool_calls": _repeat("<tool_call>"),
    "siblings": lambda n: "{" + "{}" * (n // 2 - 1) + "}",
}


@pytest.mark.parametrize("name", list(TIMED))
def test_time_is_linear_in_the_text(name: str) -> None:
    text = TIMED[name](9000)
    with pytest.raises(ActionError, match="could not parse|holds no JSON"):
        parse_action(text)
    small = TIMED[name](2250)
    # 4 times the text: about 4 times the time (quadratic work would be 16 times; the
    # margin is for caches and clocks shared with other processes on a busy machine)
    assert _cpu_seconds(text) < 10 * _cpu_seconds(small)


# ------------------------------------------------------------------- what the scans find


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'll click(x=1, y=2) now", PhoneAction("click", x=1, y=2)),
        ("click(the button I'm on) then click(3, 4)", PhoneAction("click", x=3, y=4)),
        ('Done: answer(text="click(1, 2)") ok', PhoneAction("answer", text="click(1, 2)")),
        ("type(text='''two\nlines''') sent", PhoneAction("type", text="two\nlines")),
        ('a {"b": 1} then {"action": "click", "x": 3, "y": 4}', PhoneAction("click", x=3, y=4)),
        ('an open { brace, {"action": "wait", "seconds": 2}', PhoneAction("wait", seconds=2)),
        ('x {"t": "} {", "next": {"action": "press", "button": "back"}} y',
         PhoneAction("press", button="back")),
        ('[{"action": "click", "x": 5, "y": 6}]', PhoneAction("click", x=5, y=6)),
        ('ok {"action": "click", "x": 5, "y": 6} {"a": {"action": "wait", "seconds": 1}}',
         PhoneAction("wait", seconds=1)),
        ('deep: ' + '{"a": ' * 40 + '{"action": "wait", "seconds": 3}' + "}" * 40,
         PhoneAction("wait", seconds=3)),
        ("click(, ) but click(7, 8)", PhoneAction("click", x=7, y=8)),
        ("tap(1, click(, ))  click(9, 9)", PhoneAction("click", x=9, y=9)),
    ],
)
def test_actions_found_around_other_text(text: str, expected: PhoneAction) -> None:
    assert parse_action(text) == expected


def test_a_call_that_holds_a_broken_call_does_not_parse() -> None:
    with pytest.raises(ActionError, match="could not parse"):
        parse_action("see tap(1, click(, )) here")


# ------------------------------------------------------------- only the parser's errors


class Timeout(Exception):
    """What a user's signal handler raises (e.g. a per-step time limit)."""


def _timeout(*args: Any, **kwargs: Any) -> Any:
    raise Timeout("step took too long")


@pytest.mark.parametrize(
    ("module", "name", "value"),
    [
        (parser, "parse_action", "click(x=1, y=2)"),
        (parser, "_last_json_object", 'I do {"action": "click", "x": 1, "y": 2}'),
        (parser, "_from_named", '{"action": "click", "x": 1, "y": 2}'),
        (parser, "_build", {"action": "click", "x": 1, "y": 2}),
        (space, "_build", {"action_type": 0, "coords": [1, 2, 0, 0]}),
    ],
)
def test_other_exceptions_propagate(monkeypatch: pytest.MonkeyPatch, module: Any, name: str,
                                    value: Any) -> None:
    monkeypatch.setattr(module, name, _timeout)
    with pytest.raises(Timeout):
        to_action(value, APPS)


def test_other_exceptions_propagate_from_an_env_step(monkeypatch: pytest.MonkeyPatch) -> None:
    env = PhoneWorldEnv(task="ClockDisableAlarm", screenshot=False)
    env.reset(seed=0)
    monkeypatch.setattr(parser, "parse_action", _timeout)
    with pytest.raises(Timeout):
        env.step("click(x=1, y=2)")
    monkeypatch.undo()
    *_, info = env.step("click(x=1, y=2)")
    assert info["action_error"] is None


def test_value_errors_of_the_parser_become_action_errors(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def bad(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("no such value")

    monkeypatch.setattr(parser, "_from_named", bad)
    with pytest.raises(ActionError, match="no such value"):
        to_action("click(x=1, y=2)")
    sample = {"action_type": np.array([0, 1]), "coords": np.zeros(4)}  # numpy's ValueError
    with pytest.raises(ActionError):
        to_action(sample, APPS)


# ---------------------------------------------------------------- finish() and scroll()


SUCCESS = PhoneAction("finish", status="success")
CENTRE = PhoneAction("scroll", x=500, y=500, direction="down")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("finish()", SUCCESS),
        ("Task done. finish()", SUCCESS),
        ("terminate()", SUCCESS),
        ({"action": "finish"}, SUCCESS),
        ('{"action": "finish"}', SUCCESS),
        ('{"action_type": "finish"}', SUCCESS),
        ('<tool_call>{"name": "mobile_use", "arguments": {"action": "terminate"}}</tool_call>',
         SUCCESS),
        ('finish(status="infeasible")', PhoneAction("finish", status="infeasible")),
        ('scroll(direction="down")', CENTRE),
        ('scroll("down")', CENTRE),
        ({"action": "scroll", "direction": "down"}, CENTRE),
        ('{"action_type": "scroll", "direction": "down"}', CENTRE),
        ('<tool_call>{"name": "mobile_use", "arguments": {"action": "scroll", '
         '"direction": "down"}}</tool_call>', CENTRE),
        ('scroll(x=10, y=20, direction="up")', PhoneAction("scroll", x=10, y=20, direction="up")),
    ],
)
def test_defaults_in_every_form(value: Any, expected: PhoneAction) -> None:
    assert to_action(value) == expected
    assert parse_action(format_action(expected)) == expected


def test_defaults_on_the_action_type() -> None:
    assert PhoneAction("finish") == SUCCESS
    assert PhoneAction("scroll", direction="down") == CENTRE
    assert action_from_dict({"action": "finish"}) == SUCCESS
    assert ACTION_DEFAULTS["scroll"] == {"x": 500, "y": 500}


@pytest.mark.parametrize("value", ['scroll(x=10, direction="down")',
                                   {"action": "scroll", "y": 10, "direction": "down"},
                                   "scroll()", 'finish(status="maybe")'])
def test_a_default_group_is_all_or_nothing(value: Any) -> None:
    with pytest.raises(ActionError, match="scroll needs|status="):
        to_action(value)


def test_docs_and_prompt_describe_the_defaults() -> None:
    assert "(500, 500)" in ACTION_DOCS["scroll"] and "default" in ACTION_DOCS["scroll"]
    assert "success (the default)" in ACTION_DOCS["finish"]
    prompt = system_prompt(APPS)
    assert ACTION_DOCS["scroll"] in prompt and ACTION_DOCS["finish"] in prompt


def test_finish_without_status_ends_a_phone_world_episode() -> None:
    env = PhoneWorldEnv(task="ClockDisableAlarm", screenshot=False)
    env.reset(seed=0)
    _, _, terminated, _, info = env.step("finish()")
    assert terminated and info["action_error"] is None
    assert info["action"] == 'finish(status="success")'


def test_scroll_without_a_point_scrolls_at_the_centre() -> None:
    shots = []
    for action in ('scroll(direction="down")', 'scroll(x=500, y=500, direction="down")'):
        env = PhoneWorldEnv(task="ContactsAddContact", obs_size=(270, 600))
        env.reset(seed=3)
        before, *_ = env.step('open_app(app="Contacts")')
        obs, _, _, _, info = env.step(action)
        assert info["action_error"] is None
        assert info["action"] == 'scroll(x=500, y=500, direction="down")'
        assert not np.array_equal(obs["screenshot"], before["screenshot"])  # it scrolled
        shots.append(obs["screenshot"])
    assert np.array_equal(shots[0], shots[1])
