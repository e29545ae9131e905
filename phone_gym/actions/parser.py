"""Model text and dicts to ``PhoneAction``: a literal-only parser (function calls, JSON, Qwen
``<tool_call>``), ``format_action`` (the canonical call form) and ``to_action`` (any form)."""

from __future__ import annotations

import ast
import json
import math
import numbers
import re
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .action import (
    ACTION_DOCS,
    ACTION_FIELDS,
    ACTION_TYPES,
    COORD_MAX,
    ActionError,
    PhoneAction,
    _short,
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
_CALL_RE = re.compile(
    r"(?<![\w.])(" + "|".join(sorted(_CALL_NAMES, key=len, reverse=True)) + r")\s*\(",
    re.IGNORECASE,
)
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_MAX_CLOSE_PARENS = 256


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


def to_action(
    value: PhoneAction | str | Mapping[str, Any], app_names: Sequence[str] | None = None
) -> PhoneAction:
    """Turn any accepted action form into a ``PhoneAction``; only ever raises ``ActionError``.

    A ``PhoneAction`` is returned as is, a string goes to ``parse_action``, a mapping with
    a non-string ``"action_type"`` is a space sample (``action_from_sample``), any other
    mapping goes to ``action_from_dict``.
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
    except Exception as err:  # the contract is ActionError only
        raise ActionError(f"invalid action {_short(value)}: {type(err).__name__}: {err}") from err
    raise ActionError(
        f"expected a PhoneAction, an action string, an action dict "
        f"{{'action': name, ...}} or an action-space sample, got {_short(value)}"
    )

