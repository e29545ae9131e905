"""The fixed phone action space, shared by mock and real phones.

Coordinates are integers normalized to ``[0, 1000]`` over the screen: ``(0, 0)`` is
the top-left corner and ``(1000, 1000)`` the bottom-right one.

Scrolling follows AndroidWorld: ``scroll(direction="down")`` reveals what is *below*
(the content moves up, as a finger swiping upwards would move it).
"""

from __future__ import annotations

import ast
import json
import math
import numbers
import re
import string
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
from gymnasium import spaces

ACTION_TYPES: tuple[str, ...] = (
    "click",
    "double_click",
    "long_press",
    "type",
    "scroll",
    "drag",
    "press",
    "open_app",
    "close_app",
    "wait",
    "answer",
    "finish",
)
BUTTONS: tuple[str, ...] = ("back", "home", "enter", "recents")
DIRECTIONS: tuple[str, ...] = ("up", "down", "left", "right")
FINISH_STATUSES: tuple[str, ...] = ("success", "infeasible")
COORD_MAX = 1000
MAX_WAIT_SECONDS = 60.0
MAX_TEXT_LENGTH = 500

#: The fields each action type takes, in their canonical order.
ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "click": ("x", "y"),
    "double_click": ("x", "y"),
    "long_press": ("x", "y"),
    "type": ("text",),
    "scroll": ("x", "y", "direction"),
    "drag": ("x", "y", "x2", "y2"),
    "press": ("button",),
    "open_app": ("app",),
    "close_app": ("app",),
    "wait": ("seconds",),
    "answer": ("text",),
    "finish": ("status",),
}

#: One line per action, used in error messages and in model prompts.
ACTION_DOCS: dict[str, str] = {
    "click": "click(x, y): tap the point (x, y), integers in [0, 1000]",
    "double_click": "double_click(x, y): tap twice quickly at (x, y)",
    "long_press": "long_press(x, y): touch and hold at (x, y)",
    "type": "type(text): type text into the focused text field",
    "scroll": "scroll(x, y, direction): scroll at (x, y); direction up|down|left|right, "
    "'down' reveals what is below",
    "drag": "drag(x, y, x2, y2): drag from (x, y) to (x2, y2)",
    "press": "press(button): press a system button: back|home|enter|recents",
    "open_app": "open_app(app): launch an app by its name",
    "close_app": "close_app(app): force-stop an app by its name",
    "wait": "wait(seconds): wait, 0 to 60 seconds",
    "answer": "answer(text): give the answer to a question and end the episode",
    "finish": "finish(status): end the episode; status success|infeasible",
}


class ActionError(ValueError):
    """An action that cannot be parsed or is out of range."""


@dataclass(frozen=True)
class PhoneAction:
    """One phone action. Only the fields of its ``type`` (see ``ACTION_FIELDS``) are set."""

    type: str
    x: int | None = None
    y: int | None = None
    x2: int | None = None
    y2: int | None = None
    text: str | None = None
    direction: str | None = None
    button: str | None = None
    app: str | None = None
    seconds: float | None = None
    status: str | None = None

    def __post_init__(self) -> None:
        validate(self)

    def to_dict(self) -> dict[str, Any]:
        """``{"action": type, field: value, ...}`` with only this type's fields."""
        out: dict[str, Any] = {"action": self.type}
        for name in ACTION_FIELDS[self.type]:
            out[name] = getattr(self, name)
        return out

    @property
    def point(self) -> tuple[int, int]:
        """``(x, y)`` for pointer actions."""
        if self.x is None or self.y is None:
            raise ActionError(f"{self.type} has no point")
        return self.x, self.y


_ALL_FIELDS = tuple(f.name for f in fields(PhoneAction) if f.name != "type")


def _check_coord(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionError(f"{name} must be an integer in [0, {COORD_MAX}], got {value!r}")
    if not 0 <= value <= COORD_MAX:
        raise ActionError(
            f"{name}={_short(value)} is out of range: coordinates are in [0, {COORD_MAX}]"
        )


def _check_choice(name: str, value: Any, allowed: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise ActionError(f"{name}={value!r} is not one of {', '.join(allowed)}")


def validate(action: PhoneAction) -> None:
    """Raise ``ActionError`` unless ``action`` is well formed and in range."""
    kind = action.type
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise ActionError(f"unknown action {kind!r}; known actions: {', '.join(ACTION_TYPES)}")
    wanted = ACTION_FIELDS[kind]
    for name in _ALL_FIELDS:
        value = getattr(action, name)
        if name in wanted and value is None:
            raise ActionError(f"{kind} needs {name}: {ACTION_DOCS[kind]}")
        if name not in wanted and value is not None:
            raise ActionError(f"{kind} takes no {name}: {ACTION_DOCS[kind]}")
    for name in ("x", "y", "x2", "y2"):
        if name in wanted:
            _check_coord(name, getattr(action, name))
    if kind in ("type", "answer"):
        if not isinstance(action.text, str):
            raise ActionError(f"{kind} needs text as a string, got {action.text!r}")
        if len(action.text) > MAX_TEXT_LENGTH:
            raise ActionError(f"{kind} text is longer than {MAX_TEXT_LENGTH} characters")
        if kind == "type" and action.text == "":
            raise ActionError("type needs non-empty text")
    if kind == "scroll":
        _check_choice("direction", action.direction, DIRECTIONS)
    if kind == "press":
        _check_choice("button", action.button, BUTTONS)
    if kind in ("open_app", "close_app") and (
        not isinstance(action.app, str) or not action.app.strip()
    ):
        raise ActionError(f"{kind} needs an app name, got {action.app!r}")
    if kind == "wait":
        s = action.seconds
        if isinstance(s, bool) or not isinstance(s, (int, float)) or not math.isfinite(s):
            raise ActionError(f"wait needs seconds as a finite number, got {s!r}")
        if not 0 <= s <= MAX_WAIT_SECONDS:
            raise ActionError(f"wait seconds={_short(s)} is out of range [0, {MAX_WAIT_SECONDS:g}]")
    if kind == "finish":
        _check_choice("status", action.status, FINISH_STATUSES)


# --------------------------------------------------------------------------------------
# Parsing, formatting and conversion
# --------------------------------------------------------------------------------------

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
_CALL_RE = re.compile(
    r"(?<![\w.])(" + "|".join(sorted(_CALL_NAMES, key=len, reverse=True)) + r")\s*\(",
    re.IGNORECASE,
)
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_MAX_CLOSE_PARENS = 256


def _short(value: Any, limit: int = 80) -> str:
    """A bounded ``repr`` for error messages that never raises."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not escape
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


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


def _coerce_seconds(value: Any) -> Any:
    if isinstance(value, (bool, np.bool_)):
        raise ActionError(f"wait needs seconds as a finite number, got {value!r}")
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    raise ActionError(f"wait needs seconds as a finite number, got {_short(value)}")


def _build(kind: str, values: Mapping[Any, Any]) -> PhoneAction:
    """Check ``values`` has exactly ``kind``'s fields, coerce numbers, and validate."""
    wanted = ACTION_FIELDS[kind]
    unknown = [key for key in values if key not in wanted]
    if unknown:
        names = ", ".join(_short(key, 40) for key in unknown)
        raise ActionError(f"{kind} takes no {names}: {ACTION_DOCS[kind]}")
    missing = [name for name in wanted if name not in values]
    if missing:
        raise ActionError(f"{kind} needs {', '.join(missing)}: {ACTION_DOCS[kind]}")
    kwargs: dict[str, Any] = {}
    for name in wanted:
        value = values[name]
        if name in _COORD_FIELDS:
            value = _coerce_coord(name, value)
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
        except Exception:  # noqa: BLE001
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
    values: dict[str, Any] = {}
    for field, arg in zip(order, node.args, strict=False):
        values[field] = _literal(arg)
    for keyword in node.keywords:
        if keyword.arg is None:
            raise ActionError("**kwargs is not allowed in an action call")
        if keyword.arg in values:
            raise ActionError(f"{name} got {keyword.arg} twice")
        values[keyword.arg] = _literal(keyword.value)
    return _from_named(name, values)


def _last_json_object(text: str) -> dict[str, Any] | None:
    """The last top-level JSON object in ``text`` that looks like an action."""
    decoder = json.JSONDecoder()
    found = None
    start = text.find("{")
    while start != -1:
        try:
            obj, end = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):
            start = text.find("{", start + 1)
            continue
        if _looks_like_action(obj):
            found = obj
            start = text.find("{", end)
        else:
            start = text.find("{", start + 1)
    return found


def _last_call(text: str) -> ast.Call | None:
    """The last ``name(...)`` in ``text`` with a whitelisted name that parses as a call."""
    for match in reversed(list(_CALL_RE.finditer(text))):
        close = match.end() - 1
        for _ in range(_MAX_CLOSE_PARENS):
            close = text.find(")", close + 1)
            if close == -1:
                break
            node = _parse_expr(text[match.start() : close + 1])
            if node is not None:
                if _is_action_call(node):
                    assert isinstance(node, ast.Call)
                    return node
                break
    return None


def parse_action(text: str) -> PhoneAction:
    """Parse one action from model output.

    Accepts ``click(x=540, y=210)`` (or positional ``click(540, 210)``), a JSON object
    ``{"action": "click", "x": 540, "y": 210}``, or a Qwen ``mobile_use`` tool call
    ``<tool_call>{"name": "mobile_use", "arguments": {...}}</tool_call>``. Around other
    text, the last ``<tool_call>`` block wins, else the last action-like JSON object, else
    the last whitelisted call. Nothing is ever evaluated: call arguments must be literals.
    Float coordinates are rounded to the nearest integer. Raises ``ActionError``.
    """
    if not isinstance(text, str):
        raise ActionError(f"expected a string, got {_short(text)}; {_ACCEPTED}")
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
    """The canonical call form, e.g. ``click(x=540, y=210)`` or ``type(text="Bob")``.

    ``parse_action(format_action(a)) == a`` for every valid action.
    """
    if not isinstance(action, PhoneAction):
        raise ActionError(f"expected a PhoneAction, got {_short(action)}")
    args = ", ".join(
        f"{name}={_format_value(getattr(action, name))}" for name in ACTION_FIELDS[action.type]
    )
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


# --------------------------------------------------------------------------------------
# Gymnasium action space
# --------------------------------------------------------------------------------------

#: Characters of the ``"text"`` sub-space: printable ASCII letters, digits, space, punctuation.
TEXT_CHARSET: str = string.ascii_letters + string.digits + " " + string.punctuation
_COORD_INDEX: dict[str, int] = {"x": 0, "y": 1, "x2": 2, "y2": 3}
#: ``action_type`` of a sample whose ``text`` holds a whole action string to parse (used by
#: ``to_sample`` to pass model output through vector envs; never drawn by ``sample()``).
RAW_TEXT = -1


def make_action_space(app_names: Sequence[str], max_text_length: int = 64) -> spaces.Dict:
    """The gymnasium ``Dict`` space for phone actions over the given apps.

    Keys: ``action_type`` (index into ``ACTION_TYPES``), ``coords`` (x, y, x2, y2),
    ``text``, ``direction`` / ``button`` / ``app`` / ``status`` (indices into
    ``DIRECTIONS``, ``BUTTONS``, ``app_names``, ``FINISH_STATUSES``) and ``seconds``.
    Convert samples with ``action_from_sample``.
    """
    if isinstance(app_names, str):
        raise TypeError("app_names must be a sequence of app names, not a single string")
    if len(app_names) == 0:
        raise ValueError("app_names is empty: the action space needs at least one app")
    for name in app_names:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"app_names must be non-blank strings, got {name!r}")
    if isinstance(max_text_length, bool) or not isinstance(max_text_length, int):
        raise TypeError(f"max_text_length must be an integer, got {max_text_length!r}")
    if not 1 <= max_text_length <= MAX_TEXT_LENGTH:
        raise ValueError(f"max_text_length={max_text_length} is not in [1, {MAX_TEXT_LENGTH}]")
    return spaces.Dict(
        {
            "action_type": spaces.Discrete(len(ACTION_TYPES)),
            "coords": spaces.Box(0, COORD_MAX, shape=(4,), dtype=np.int64),
            "text": spaces.Text(min_length=1, max_length=max_text_length, charset=TEXT_CHARSET),
            "direction": spaces.Discrete(len(DIRECTIONS)),
            "button": spaces.Discrete(len(BUTTONS)),
            "app": spaces.Discrete(len(app_names)),
            "seconds": spaces.Box(0.0, 10.0, shape=(1,), dtype=np.float32),
            "status": spaces.Discrete(len(FINISH_STATUSES)),
        }
    )


def _sample_index(sample: Mapping[str, Any], key: str, size: int) -> int:
    if key not in sample:
        raise ActionError(f"sample has no {key!r}")
    value = sample[key]
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value.reshape(()).item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ActionError(f"sample {key} must be an integer index, got {_short(value)}")
    index = int(value)
    if not 0 <= index < size:
        raise ActionError(f"sample {key}={index} is out of range [0, {size})")
    return index


def _sample_vector(sample: Mapping[str, Any], key: str, size: int) -> list[Any]:
    if key not in sample:
        raise ActionError(f"sample has no {key!r}")
    value = sample[key]
    if isinstance(value, np.ndarray):
        value = value.reshape(-1).tolist() if value.ndim <= 1 else None
    elif isinstance(value, numbers.Number) and size == 1:
        value = [value]
    if not isinstance(value, (list, tuple)) or len(value) != size:
        raise ActionError(f"sample {key} must hold {size} numbers, got {_short(sample[key])}")
    return list(value)


def action_from_sample(sample: Mapping[str, Any], app_names: Sequence[str]) -> PhoneAction:
    """Convert a sample of ``make_action_space(app_names)`` to a ``PhoneAction``.

    Only the entries the chosen ``action_type`` needs are read.
    """
    if not isinstance(sample, Mapping):
        raise ActionError(f"expected a mapping sample, got {_short(sample)}")
    raw = sample.get("action_type")
    if isinstance(raw, np.ndarray) and raw.size == 1:
        raw = raw.reshape(()).item()
    if isinstance(raw, numbers.Integral) and not isinstance(raw, bool) and int(raw) == RAW_TEXT:
        text = sample.get("text")
        if not isinstance(text, str):
            raise ActionError(f"a raw-text sample needs text, got {_short(text)}")
        return parse_action(text)
    kind = ACTION_TYPES[_sample_index(sample, "action_type", len(ACTION_TYPES))]
    values: dict[str, Any] = {}
    for name in ACTION_FIELDS[kind]:
        if name in _COORD_INDEX:
            values[name] = _sample_vector(sample, "coords", 4)[_COORD_INDEX[name]]
        elif name == "seconds":
            values[name] = _sample_vector(sample, "seconds", 1)[0]
        elif name == "text":
            values[name] = sample.get("text")
        elif name == "direction":
            values[name] = DIRECTIONS[_sample_index(sample, "direction", len(DIRECTIONS))]
        elif name == "button":
            values[name] = BUTTONS[_sample_index(sample, "button", len(BUTTONS))]
        elif name == "status":
            values[name] = FINISH_STATUSES[_sample_index(sample, "status", len(FINISH_STATUSES))]
        elif name == "app":
            if not app_names:
                raise ActionError(f"{kind} from a sample needs app_names")
            values[name] = app_names[_sample_index(sample, "app", len(app_names))]
    return _build(kind, values)


def to_sample(action: PhoneAction | str, app_names: Sequence[str]) -> dict[str, Any]:
    """An action in the layout of ``make_action_space(app_names)`` samples.

    A string that parses is encoded like the action it names; one that does not (or an app
    not in ``app_names``) is passed on as ``action_type=RAW_TEXT`` with the text, so the env
    reports the error in ``info["action_error"]`` instead of this call raising.
    """
    sample: dict[str, Any] = {
        "action_type": RAW_TEXT, "coords": np.zeros(4, np.int64), "text": "",
        "direction": 0, "button": 0, "app": 0,
        "seconds": np.zeros(1, np.float32), "status": 0,
    }
    if isinstance(action, str):
        try:
            action = parse_action(action)
        except ActionError:
            sample["text"] = action
            return sample
    if action.app is not None and action.app not in app_names:
        sample["text"] = format_action(action)
        return sample
    sample["action_type"] = ACTION_TYPES.index(action.type)
    for name, i in _COORD_INDEX.items():
        value = getattr(action, name)
        if value is not None:
            sample["coords"][i] = value
    if action.text is not None:
        sample["text"] = action.text
    if action.direction is not None:
        sample["direction"] = DIRECTIONS.index(action.direction)
    if action.button is not None:
        sample["button"] = BUTTONS.index(action.button)
    if action.app is not None:
        sample["app"] = list(app_names).index(action.app)
    if action.seconds is not None:
        sample["seconds"][0] = action.seconds
    if action.status is not None:
        sample["status"] = FINISH_STATUSES.index(action.status)
    return sample


def batch_actions(actions: Sequence[PhoneAction | str], app_names: Sequence[str]) -> dict[str, Any]:
    """Actions for a vector env's ``step``: one ``to_sample`` per env, stacked the way
    Gymnasium batches a ``Dict`` space (arrays, and a tuple for ``text``)."""
    samples = [to_sample(a, app_names) for a in actions]
    batch: dict[str, Any] = {}
    for key in samples[0] if samples else ():
        values = [s[key] for s in samples]
        batch[key] = tuple(values) if key == "text" else np.stack(
            [np.asarray(v) for v in values])
    return batch


def to_action(
    value: PhoneAction | str | Mapping[str, Any], app_names: Sequence[str] | None = None
) -> PhoneAction:
    """Turn any accepted action form into a ``PhoneAction``; only ever raises ``ActionError``.

    A ``PhoneAction`` is returned as is, a string goes to ``parse_action``, a mapping with
    a non-string ``"action_type"`` is a space sample (``action_from_sample``), any other
    mapping goes to ``action_from_dict``.
    """
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
    except Exception as err:  # the contract is ActionError only
        raise ActionError(f"invalid action {_short(value)}: {type(err).__name__}: {err}") from err
    raise ActionError(
        f"expected a PhoneAction, an action string, an action dict "
        f"{{'action': name, ...}} or an action-space sample, got {_short(value)}"
    )
