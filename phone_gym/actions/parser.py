"""Model text and dicts to ``PhoneAction``: a literal-only parser (function calls, JSON, Qwen
``<tool_call>``), ``format_action`` (the canonical call form) and ``to_action`` (any form).

The parser reads at most ``MAX_ACTION_TEXT`` characters and runs in time linear in the text:
the JSON objects and calls around other text are found by one scan each (``_json_spans``,
``_call_spans``), and each part of the text is decoded or parsed a bounded number of times.
"""

from __future__ import annotations

import ast
import json
import math
import numbers
import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

import numpy as np

from .action import (
    ACTION_DOCS,
    ACTION_FIELDS,
    ACTION_TYPES,
    COORD_MAX,
    INDEX_ACTIONS,
    MAX_ACTION_TEXT,
    OPTIONAL_FIELDS,
    ActionError,
    PhoneAction,
    _short,
    action_fields,
    missing_defaults,
    present_fields,
)

_COORD_FIELDS: tuple[str, ...] = ("x", "y", "x2", "y2")
_CHOICE_FIELDS: tuple[str, ...] = ("button", "direction", "status")
#: Keys that may hold the action name in a dict / JSON object.
_NAME_KEYS: tuple[str, ...] = ("action", "action_type", "type")

#: Other names accepted for actions (Qwen ``mobile_use`` names and common synonyms).
ACTION_ALIASES: dict[str, str] = {
    "tap": "click",
    "left_click": "click",
    "long_click": "long_press",
    "swipe": "drag",
    "input_text": "type",
    "key": "press",
    "system_button": "press",
    "open": "open_app",
    "terminate": "finish",
}
_CALL_NAMES: frozenset[str] = frozenset(ACTION_TYPES) | frozenset(ACTION_ALIASES)
_FIELD_ALIASES: dict[str, dict[str, str]] = {
    "press": {"key": "button", "text": "button"},
    "open_app": {"text": "app", "app_name": "app"},
    "close_app": {"text": "app", "app_name": "app"},
    "wait": {"time": "seconds", "duration": "seconds"},
}
#: Qwen ``long_press`` takes a duration; this action space has a fixed one.
_IGNORED_FIELDS: dict[str, tuple[str, ...]] = {"long_press": ("time", "duration")}
_BUTTON_ALIASES: dict[str, str] = {
    "return": "enter",
    "recent": "recents",
    "recent_apps": "recents",
    "app_switch": "recents",
    "overview": "recents",
}
_TERMINATE_STATUSES: dict[str, str] = {
    "success": "success",
    "failure": "infeasible",
    "infeasible": "infeasible",
}
_TOOL_NAMES: frozenset[str] = frozenset({"mobile_use", "computer_use"})
_ACCEPTED = (
    'expected one action as a call such as click(x=540, y=210) or type(text="Bob"), '
    'a JSON object such as {"action": "click", "x": 540, "y": 210}, or '
    '<tool_call>{"name": "mobile_use", "arguments": {"action": "click", '
    '"coordinate": [540, 210]}}</tool_call>; actions: ' + ", ".join(ACTION_TYPES)
)
_CALL_NAME = r"(?<![\w.])(?:" + "|".join(sorted(_CALL_NAMES, key=len, reverse=True)) + r")\s*\("
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
#: What the JSON scan stops at: brackets and string quotes.
_JSON_TOKEN = re.compile(r'[{}\[\]"]')
#: The body of a JSON string after its opening quote, up to its closing quote (no raw
#: control characters, as ``json.loads`` is strict about).
_JSON_STRING_BODY = re.compile(r'(?:[^"\\\x00-\x1f]|\\.)*')
#: Objects nested deeper than this are not actions: the scan drops them (and it bounds the
#: work per character).
_MAX_JSON_DEPTH = 32
#: What the call scan stops at: a whitelisted ``name(``, brackets and Python string quotes.
_CALL_TOKEN = re.compile(
    rf"(?P<call>{_CALL_NAME})|(?P<open>[(\[{{])|(?P<close>[)\]}}])|(?P<quote>'''|\"\"\"|['\"])",
    re.IGNORECASE,
)
#: Where a call starts, in prose.
_CALL_START = re.compile(f"(?P<call>{_CALL_NAME})", re.IGNORECASE)
#: The body of a Python string after its opening quote(s), by quote: a one-line string
#: ends at its quote or fails at a line end; a triple-quoted one is taken up to its
#: closing quotes (lazily) or fails at the end of the text.
_PY_STRING_BODY: dict[str, re.Pattern[str]] = {
    "'": re.compile(r"(?:[^'\\\n]|\\[\s\S])*"),
    '"': re.compile(r'(?:[^"\\\n]|\\[\s\S])*'),
    "'''": re.compile(r"(?:[^\\]|\\[\s\S])*?(?=''')"),
    '"""': re.compile(r'(?:[^\\]|\\[\s\S])*?(?=""")'),
}
_CLOSER: dict[str, str] = {"(": ")", "[": "]", "{": "}"}


def _coerce_coord(name: str, value: Any) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise ActionError(f"{name} must be an integer in [0, {COORD_MAX}], got {value!r}")
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        number = float(value)
        if not math.isfinite(number):
            raise ActionError(f"{name} must be a finite number, got {value!r}")
        return math.floor(number + 0.5)
    raise ActionError(f"{name} must be an integer in [0, {COORD_MAX}], got {_short(value)}")


def _coerce_index(value: Any) -> int:
    """An element index: an integer, a whole float (``3.0``) or a string of digits (``"3"``,
    as models write JSON)."""
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    if isinstance(value, (bool, np.bool_)):
        raise ActionError(f"index must be an integer (a UI element's index), got {value!r}")
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real) and float(value).is_integer():
        return int(float(value))
    raise ActionError(f"index must be an integer (a UI element's index), got {_short(value)}")


def _coerce_seconds(value: Any) -> Any:
    if isinstance(value, (bool, np.bool_)):
        raise ActionError(f"wait needs seconds as a finite number, got {value!r}")
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    raise ActionError(f"wait needs seconds as a finite number, got {_short(value)}")


def _coerce_flag(name: str, value: Any) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise ActionError(f"{name} must be true or false, got {_short(value)}")


def _build(kind: str, values: Mapping[Any, Any]) -> PhoneAction:
    """Check ``values`` has exactly ``kind``'s fields (``ACTION_DEFAULTS`` fill the ones left
    out; ``OPTIONAL_FIELDS`` may be added, None meaning unset), coerce numbers, and
    validate."""
    indexed = kind in INDEX_ACTIONS and values.get("index") is not None
    if indexed and (values.get("x") is not None or values.get("y") is not None):
        raise ActionError(f"{kind} takes either index or x and y, not both: {ACTION_DOCS[kind]}")
    wanted = action_fields(kind, indexed)
    optional = [name for name in OPTIONAL_FIELDS.get(kind, ())
                if name not in wanted and values.get(name) is not None]
    values = {**values, **missing_defaults(kind, values)}
    values = {key: value for key, value in values.items()
              if key in wanted or value is not None or key not in OPTIONAL_FIELDS.get(kind, ())}
    unknown = [key for key in values if key not in wanted and key not in optional]
    if unknown:
        names = ", ".join(_short(key, 40) for key in unknown)
        raise ActionError(f"{kind} takes no {names}: {ACTION_DOCS[kind]}")
    missing = [name for name in wanted if name not in values]
    if missing:
        raise ActionError(f"{kind} needs {', '.join(missing)}: {ACTION_DOCS[kind]}")
    kwargs: dict[str, Any] = {}
    for name in (*wanted, *optional):
        value = values[name]
        if name in ("clear", "enter"):
            value = _coerce_flag(name, value)
        elif name in _COORD_FIELDS:
            value = _coerce_coord(name, value)
        elif name == "index":
            value = _coerce_index(value)
        elif name == "seconds":
            value = _coerce_seconds(value)
        elif not isinstance(value, str):
            raise ActionError(f"{kind} needs {name} as a string, got {_short(value)}")
        kwargs[name] = value
    return PhoneAction(type=kind, **kwargs)


def _split_name(d: Mapping[Any, Any]) -> tuple[Any, dict[Any, Any]]:
    """Return the action name (under "action", "action_type" or "type") and the rest."""
    names = [d[key] for key in _NAME_KEYS if key in d]
    if not names:
        raise ActionError(
            f"no action name in {_short(d)}: expected a key 'action' (or 'action_type'/'type')"
        )
    if len(names) > 1 and (not all(isinstance(n, str) for n in names) or len(set(names)) > 1):
        raise ActionError(f"ambiguous action name in {_short(d)}: {_short(names)}")
    return names[0], {key: value for key, value in d.items() if key not in _NAME_KEYS}


def _from_named(name: Any, values: Mapping[Any, Any]) -> PhoneAction:
    """Build an action from a possibly aliased name and Qwen-style fields."""
    if not isinstance(name, str):
        raise ActionError(f"action name must be a string, got {_short(name)}; {_ACCEPTED}")
    raw = name.strip().lower()
    kind = ACTION_ALIASES.get(raw, raw)
    if kind not in ACTION_FIELDS:
        raise ActionError(f"unknown action {name!r}; known actions: {', '.join(ACTION_TYPES)}")
    fields_: dict[Any, Any] = dict(values)
    for key, pair in (("coordinate", ("x", "y")), ("coordinate2", ("x2", "y2"))):
        if key not in fields_:
            continue
        point = fields_.pop(key)
        if isinstance(point, np.ndarray):
            point = point.tolist()
        if not isinstance(point, (list, tuple)) or len(point) != 2:
            raise ActionError(f"{key} must be a pair [x, y], got {_short(point)}")
        for field, value in zip(pair, point, strict=True):
            if field in fields_:
                raise ActionError(f"{kind} got both {key} and {field}")
            fields_[field] = value
    for alias, field in _FIELD_ALIASES.get(kind, {}).items():
        if alias in fields_:
            if field in fields_:
                raise ActionError(f"{kind} got both {alias} and {field}")
            fields_[field] = fields_.pop(alias)
    for ignored in _IGNORED_FIELDS.get(kind, ()):
        fields_.pop(ignored, None)
    for field in _CHOICE_FIELDS:
        if isinstance(fields_.get(field), str):
            fields_[field] = fields_[field].strip().lower()
    button = fields_.get("button")
    if kind == "press" and isinstance(button, str):
        button = button.removeprefix("keycode_")
        fields_["button"] = _BUTTON_ALIASES.get(button, button)
    status = fields_.get("status")
    if raw == "terminate" and isinstance(status, str):
        fields_["status"] = _TERMINATE_STATUSES.get(status, status)
    return _build(kind, fields_)


def _looks_like_action(obj: Any) -> bool:
    return isinstance(obj, dict) and (
        any(key in obj for key in _NAME_KEYS) or ("name" in obj and "arguments" in obj)
    )


def _from_json_obj(obj: Any) -> PhoneAction:
    """Build an action from a decoded JSON object, unwrapping tool calls."""
    if not isinstance(obj, dict):
        raise ActionError(f"expected a JSON object, got {_short(obj)}; {_ACCEPTED}")
    if "name" in obj and "arguments" in obj and not any(key in obj for key in _NAME_KEYS):
        tool, args = obj["name"], obj["arguments"]
        if isinstance(args, str):
            args = _loads(args)
        if not isinstance(args, dict):
            raise ActionError(f"tool call arguments must be an object, got {_short(args)}")
        if isinstance(tool, str) and tool.strip().lower() in _TOOL_NAMES:
            obj = args
        elif any(key in args for key in _NAME_KEYS):
            raise ActionError(f"tool call {_short(tool)} also names an action in its arguments")
        else:
            obj = {"action": tool, **args}
    name, rest = _split_name(obj)
    return _from_named(name, rest)


def _loads(text: str) -> Any:
    """``json.loads`` that raises ``ActionError`` instead."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as err:
        raise ActionError(f"invalid JSON {_short(text)}: {err}; {_ACCEPTED}") from None


def _parse_expr(text: str) -> ast.expr | None:
    """The expression ``text`` holds, or None when it is not one."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return None


def _literal(node: ast.expr) -> Any:
    if isinstance(node, ast.Starred):
        raise ActionError("*args is not allowed in an action call")
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError) as err:
        try:
            source = ast.unparse(node)
        except (ValueError, RecursionError):
            source = "?"
        raise ActionError(
            f"action arguments must be literals (numbers, strings, lists), got {_short(source)}"
        ) from err


def _is_action_call(node: ast.expr | None) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id.lower() in _CALL_NAMES
    )


def _from_call(node: ast.Call) -> PhoneAction:
    """Build an action from a whitelisted call node with literal arguments."""
    assert isinstance(node.func, ast.Name)
    name = node.func.id
    raw = name.lower()
    kind = ACTION_ALIASES.get(raw, raw)
    order = ACTION_FIELDS[kind]
    if len(node.args) > len(order):
        raise ActionError(
            f"{name} takes at most {len(order)} positional arguments: {ACTION_DOCS[kind]}"
        )
    args = [_literal(arg) for arg in node.args]
    if kind == "scroll" and len(args) == 1 and isinstance(args[0], str):
        order = ("direction",)  # scroll("down"): AndroidWorld's scroll has only a direction
    values: dict[str, Any] = dict(zip(order, args, strict=False))
    for keyword in node.keywords:
        if keyword.arg is None:
            raise ActionError("**kwargs is not allowed in an action call")
        if keyword.arg in values:
            raise ActionError(f"{name} got {keyword.arg} twice")
        values[keyword.arg] = _literal(keyword.value)
    return _from_named(name, values)


class _Strings:
    """String skipping for one scan: ``skip(text, quote, start)`` is the index after the
    string whose opening quote ends at ``start``, or None when it never closes.

    A string that never closes fails at the same place from every later opening quote of
    its kind before that place (such a quote is escaped inside the failed string), so that
    place is remembered and those quotes fail at once: each character is read once.
    """

    def __init__(self, bodies: Mapping[str, re.Pattern[str]]) -> None:
        self.bodies = bodies
        self.failed: dict[str, int] = {}

    def skip(self, text: str, quote: str, start: int) -> int | None:
        if start <= self.failed.get(quote, -1):
            return None
        body = self.bodies[quote].match(text, start)
        end = len(text) if body is None else body.end()  # None: a triple quote never closes
        if text.startswith(quote, end):
            return end + len(quote)
        self.failed[quote] = end
        return None


@dataclass
class _Span:
    """A balanced ``{...}`` (JSON) of the text, with the balanced objects inside it."""

    start: int
    end: int  # the index of the closing brace
    inner: list[_Span] = dataclass_field(default_factory=list)


def _nest(closed: list[tuple[int, int]]) -> list[_Span]:
    """The outermost of balanced spans given in the order they close (an inner one closes
    first), each holding the ones inside it."""
    top: list[_Span] = []
    for start, end in closed:
        inner: list[_Span] = []
        while top and top[-1].start > start:
            inner.append(top.pop())
        inner.reverse()
        top.append(_Span(start, end, inner))
    return top


def _json_spans(text: str) -> list[_Span]:
    """The outermost balanced ``{...}`` of ``text``, in order, by one scan.

    Brackets inside JSON strings do not count, and quotes count only inside brackets (prose
    has apostrophes and quotes). A closing bracket that does not match, a string that never
    closes, or nesting deeper than ``_MAX_JSON_DEPTH`` drops the brackets open there; the
    balanced objects found inside them are kept.
    """
    closed: list[tuple[int, int]] = []
    stack: list[int] = []  # where the open brackets are (ints: nothing for the GC to track)
    strings = _Strings({'"': _JSON_STRING_BODY})
    pos = 0
    while True:
        if not stack:  # prose: only an opening brace matters
            pos = text.find("{", pos)
            if pos == -1:
                break
        match = _JSON_TOKEN.search(text, pos)
        if match is None:
            break
        char, at = match.group(), match.start()
        pos = at + 1
        if char == '"':
            if stack:
                end = strings.skip(text, '"', pos)
                if end is None:
                    stack.clear()
                else:
                    pos = end
        elif char in "{[":
            if len(stack) >= _MAX_JSON_DEPTH:
                stack.clear()
            stack.append(at)
        elif stack:
            start = stack.pop()
            if _CLOSER[text[start]] != char:
                stack.clear()
            elif char == "}":
                closed.append((start, at))
    return _nest(closed)


def _last_action_in(obj: Any) -> dict[str, Any] | None:
    """The last action-like object in a decoded JSON value (one inside an action-like
    object does not count)."""
    if _looks_like_action(obj):
        return obj  # type: ignore[no-any-return]
    values = obj.values() if isinstance(obj, dict) else obj if isinstance(obj, list) else ()
    for value in reversed(list(values)):
        found = _last_action_in(value)
        if found is not None:
            return found
    return None


def _last_in_span(text: str, span: _Span) -> dict[str, Any] | None:
    """The last action-like object of ``span``: in its decoded value, or when it does not
    decode, in the balanced objects inside it."""
    try:
        return _last_action_in(json.loads(text[span.start : span.end + 1]))
    except (ValueError, RecursionError):
        pass
    for inner in reversed(span.inner):
        found = _last_in_span(text, inner)
        if found is not None:
            return found
    return None


def _last_json_object(text: str) -> dict[str, Any] | None:
    """The last JSON object in ``text`` that looks like an action (an object nested in an
    action-like one does not count). Each character is decoded at most ``_MAX_JSON_DEPTH``
    times (once per balanced object around it)."""
    for span in reversed(_json_spans(text)):
        found = _last_in_span(text, span)
        if found is not None:
            return found
    return None


def _call_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every whitelisted ``name(...)`` of ``text`` whose parentheses
    balance (``end`` is the closing one), by one scan.

    Inside a call, brackets must match and Python strings are skipped; outside calls, other
    brackets and quotes are prose. A closing bracket that does not match or a string that
    never closes drops the calls open there.
    """
    spans: list[tuple[int, int]] = []
    stack: list[int] = []  # where each open bracket, or the name of each open call, starts
    strings = _Strings(_PY_STRING_BODY)
    pos = 0
    while (match := (_CALL_TOKEN if stack else _CALL_START).search(text, pos)) is not None:
        pos = match.end()
        if match.lastgroup in ("call", "open"):
            stack.append(match.start())
        elif match.lastgroup == "close":
            start = stack.pop()
            if _CLOSER.get(text[start], ")") != match.group():
                stack.clear()
            elif text[start] not in _CLOSER:  # a call's name
                spans.append((start, match.start()))
        else:
            end = strings.skip(text, match.group(), pos)
            if end is None:
                stack.clear()
            else:
                pos = end
    return spans


def _last_call(text: str) -> ast.Call | None:
    """The last whitelisted call in ``text`` (by where it starts) that parses.

    Calls are tried from the last one back; a call that holds one that did not parse does
    not parse either and is skipped, so the calls parsed do not overlap: linear time.
    """
    failed_end = len(text)  # the smallest end of a call that did not parse
    for start, end in sorted(_call_spans(text), reverse=True):
        if end >= failed_end:
            continue  # it holds a call that did not parse
        node = _parse_expr(text[start : end + 1])
        if _is_action_call(node):
            assert isinstance(node, ast.Call)
            return node
        failed_end = end
    return None


def parse_action(text: str) -> PhoneAction:
    """Parse one action from model output.

    Accepts ``click(x=540, y=210)`` (or positional ``click(540, 210)``), a JSON object
    ``{"action": "click", "x": 540, "y": 210}``, or a Qwen ``mobile_use`` tool call
    ``<tool_call>{"name": "mobile_use", "arguments": {...}}</tool_call>``. Around other
    text, the last ``<tool_call>`` block wins, else the last action-like JSON object, else
    the last whitelisted call. Nothing is ever evaluated: call arguments must be literals.
    Float coordinates are rounded to the nearest integer. Raises ``ActionError``, also for
    text longer than ``MAX_ACTION_TEXT`` characters (before reading any of it).
    """
    if not isinstance(text, str):
        raise ActionError(f"expected a string, got {_short(text)}; {_ACCEPTED}")
    if len(text) > MAX_ACTION_TEXT:
        raise ActionError(
            f"action text is {len(text)} characters long; at most {MAX_ACTION_TEXT} are read "
            f"(MAX_ACTION_TEXT): send one action, e.g. click(x=540, y=210), with little text "
            f"around it"
        )
    stripped = text.strip()
    if not stripped:
        raise ActionError(f"empty action text; {_ACCEPTED}")
    node = _parse_expr(stripped)
    if _is_action_call(node):
        assert isinstance(node, ast.Call)
        return _from_call(node)
    if stripped.startswith("{"):
        try:
            obj = json.loads(stripped)
        except (ValueError, RecursionError):
            obj = None
        if obj is None and isinstance(node, ast.Dict):
            try:  # a Python dict literal such as {'action': 'click', ...}
                obj = _literal(node)
            except ActionError:
                obj = None
        if isinstance(obj, dict):
            return _from_json_obj(obj)
    if "<tool_call>" in stripped:
        body = stripped.rsplit("<tool_call>", 1)[1].split("</tool_call>", 1)[0].strip()
        try:
            obj = json.loads(body)
        except (ValueError, RecursionError):
            obj = _last_json_object(body)
        if obj is None:
            raise ActionError(f"<tool_call> holds no JSON object: {_short(body)}; {_ACCEPTED}")
        return _from_json_obj(obj)
    obj = _last_json_object(stripped)
    if obj is not None:
        return _from_json_obj(obj)
    call = _last_call(stripped)
    if call is not None:
        return _from_call(call)
    raise ActionError(f"could not parse an action from {_short(text)}; {_ACCEPTED}")


def _format_value(value: Any) -> str:
    if isinstance(value, str):
        # A JSON string literal is also a Python one; lone surrogates (which JSON would
        # pair up) are written as \uXXXX escapes so they survive the round trip.
        dumped = json.dumps(value, ensure_ascii=False)
        return _SURROGATE_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", dumped)
    return repr(value)


def format_action(action: PhoneAction) -> str:
    """The canonical call form, e.g. ``click(x=540, y=210)``, ``type(text="Bob")``,
    ``click(index=3)`` or ``type(text="Bob", index=3, clear=True, enter=True)``.

    ``parse_action(format_action(a)) == a`` for every valid action.
    """
    if not isinstance(action, PhoneAction):
        raise ActionError(f"expected a PhoneAction, got {_short(action)}")
    names = present_fields(action)
    args = ", ".join(f"{name}={_format_value(getattr(action, name))}" for name in names)
    return f"{action.type}({args})"


def action_from_dict(d: Mapping[str, Any]) -> PhoneAction:
    """Build an action from ``{"action": name, field: value, ...}`` (``PhoneAction.to_dict``).

    The name may also be under ``"action_type"`` or ``"type"``. Unknown keys, missing
    fields and unknown names raise ``ActionError``; float coordinates are rounded.
    """
    if not isinstance(d, Mapping):
        raise ActionError(f"expected a mapping, got {_short(d)}")
    name, rest = _split_name(d)
    if not isinstance(name, str) or name not in ACTION_FIELDS:
        raise ActionError(
            f"unknown action {_short(name)}; known actions: {', '.join(ACTION_TYPES)}"
        )
    return _build(name, rest)


def to_action(
    value: PhoneAction | str | Mapping[str, Any], app_names: Sequence[str] | None = None
) -> PhoneAction:
    """Turn any accepted action form into a ``PhoneAction``; a bad action raises
    ``ActionError``.

    A ``PhoneAction`` is returned as is, a string goes to ``parse_action``, a mapping with
    a non-string ``"action_type"`` is a space sample (``action_from_sample``), any other
    mapping goes to ``action_from_dict``. Only the parser's errors become ``ActionError``
    (a ``ValueError``, e.g. numpy's on a malformed sample); anything else (a ``Timeout`` of
    your signal handler, ``KeyboardInterrupt``, an error of your own ``Mapping``) propagates.
    """
    from .space import action_from_sample  # the space builds on this module

    try:
        if isinstance(value, PhoneAction):
            return value
        if isinstance(value, str):
            return parse_action(value)
        if isinstance(value, Mapping):
            if "action_type" in value and not isinstance(value["action_type"], str):
                return action_from_sample(value, app_names or ())
            return action_from_dict(value)
    except ActionError:
        raise
    except ValueError as err:
        raise ActionError(f"invalid action {_short(value)}: {err}") from err
    raise ActionError(
        f"expected a PhoneAction, an action string, an action dict "
        f"{{'action': name, ...}} or an action-space sample, got {_short(value)}"
    )

