"""AndroidWorld's JSON actions: ``Reason: ...`` then ``Action: {"action_type": "click", ...}``.

Action types and keys follow google-research/android_world (at d9c569f)
``android_world/env/json_action.py`` (``JSONAction``: ``action_type``, ``index``, ``x``,
``y``, ``text``, ``direction``, ``app_name``, ``goal_status``, ``keycode``, ``clear_text``),
and what they do follows ``android_world/env/actuation.py`` (``execute_adb_action``) and its
agents' prompts (``android_world/agents/m3a.py``, ``t3a.py``):

- ``click``, ``double_tap``, ``long_press``: a point ``x``/``y`` in screen pixels, or an
  element ``index``.
- ``input_text``: taps the element ``index`` or the point ``x``/``y`` when given, empties
  the field when ``clear_text`` is true (``actuation.py``: Ctrl+A, then Delete), types
  ``text`` and presses Enter (as M3A's and T3A's prompts tell the model: the action taps
  the field, types and presses Enter). It reads as ``type(text, index | x, y,
  clear=True, enter=True)``; a ``type`` without ``enter`` is written as ``input_text`` too
  (AndroidWorld has no typing without Enter), so it parses back with ``enter``.
- ``scroll`` (``direction``, optionally within element ``index``); ``swipe`` (a finger
  ``direction``: swiping up scrolls down); ``navigate_back``, ``navigate_home``,
  ``keyboard_enter``; ``open_app`` (``app_name``: AndroidWorld's app names and aliases, as
  ``adb_utils._PATTERN_TO_ACTIVITY`` lists them, are in the apps' manifests); ``wait`` (1
  second: other durations are not kept); ``status`` (``goal_status`` ``complete`` or
  ``infeasible``) and ``answer`` (``text``). A ``text`` that is not a string is read as
  ``str(text)``, as ``JSONAction`` does (``{"action_type": "answer", "text": 42}``).

Its ``scroll`` has no point (it scrolls the screen centre or an element): a scroll at
another point is written without it. No ``drag``, ``close_app`` or ``press recents``.

**Reaching ``env.step``.** ``androidworld_object`` tells an AndroidWorld action by its JSON
shape: a dict, or text whose last JSON object (or Python dict literal, which AndroidWorld's
``agent_utils.extract_json`` also reads) has an ``action_type`` of AndroidWorld's
(``ACTION_TYPES``) and only ``JSONAction``'s keys (``KEYS``); text with a ``<tool_call>`` is
Qwen's. Both envs read such an action with this format, its x/y in pixels of the phone's
screen (PhoneWorld's 1080 x 2400; the coordinates of ``info["ui_elements"]`` bounds), so
``{"action_type": "click", "x": 540, "y": 1200}`` taps the centre. To force a reading: for
AndroidWorld's, step with ``ANDROIDWORLD.parse(text, env.unwrapped.screen_size)`` (a
``PhoneAction``); for phone-gym's ``[0, 1000]`` grid, name the action under phone-gym's key
``"action"`` (``{"action": "click", "x": 500, "y": 500}``) or step with
``parse_action(text)``. ``parse_action`` and ``to_action`` always read phone-gym's way.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from typing import Any

from ..action import MAX_ACTION_TEXT, ActionError, PhoneAction, _short
from ..parser import _last_json_object
from ..space import RAW_TEXT
from .base import ActionFormat, Pixels, build, check_screen, last_json_object, number

#: AndroidWorld's action types (``json_action._ACTION_TYPES``, less ``unknown``, a no-op).
ACTION_TYPES: tuple[str, ...] = (
    "click", "double_tap", "scroll", "swipe", "input_text", "navigate_home", "navigate_back",
    "keyboard_enter", "open_app", "status", "wait", "long_press", "answer",
)
#: ``JSONAction``'s fields: ``JSONAction(**obj)`` refuses an object with any other key.
KEYS: frozenset[str] = frozenset({
    "action_type", "index", "x", "y", "text", "direction", "goal_status", "app_name",
    "keycode", "clear_text",
})
_POINTERS = {"click": "click", "double_tap": "double_click", "long_press": "long_press"}
_BUTTONS = {"navigate_back": "back", "navigate_home": "home", "keyboard_enter": "enter"}
#: A ``swipe`` moves the finger, a ``scroll`` the view: the directions are opposite.
_SWIPE_TO_SCROLL = {"up": "down", "down": "up", "left": "right", "right": "left"}
_STATUS = {"complete": "success", "infeasible": "infeasible"}
#: Seconds AndroidWorld's ``wait`` sleeps.
WAIT_SECONDS = 1.0
_PIXELS = Pixels()
#: A flat ``{...}``: AndroidWorld's actions hold no nested object.
_FLAT_OBJECT = re.compile(r"\{[^{}]*\}")


def _index(obj: Mapping[str, Any]) -> int | None:
    value = obj.get("index")
    if value is None:
        return None
    if isinstance(value, bool):
        raise ActionError(f"index must be an integer, got {value!r}")
    try:
        return int(value)  # JSONAction: ``int(self.index)``
    except (TypeError, ValueError, OverflowError):
        raise ActionError(f"index must be an integer, got {_short(value)}") from None


def _text(obj: Mapping[str, Any]) -> str | None:
    """``text`` as ``JSONAction`` keeps it: a value that is not a string becomes ``str()``."""
    value = obj.get("text")
    return value if value is None or isinstance(value, str) else str(value)


def _dict_literal(span: str) -> Any:
    """A flat ``{...}`` as JSON, else as a Python literal (literal-only), else None."""
    try:
        return json.loads(span)
    except (ValueError, RecursionError):
        pass
    try:
        return ast.literal_eval(span)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _last_dict_literal(text: str) -> dict[str, Any] | None:
    """The last flat Python dict literal of ``text`` with an ``action_type``, or None."""
    found = None
    for match in _FLAT_OBJECT.finditer(text):
        obj = _dict_literal(match.group())
        if isinstance(obj, dict) and "action_type" in obj:
            found = obj
    return found


def is_androidworld(obj: Any) -> bool:
    """Whether ``obj`` has AndroidWorld's JSON shape: a mapping whose ``action_type`` is one
    of ``ACTION_TYPES`` and whose keys are all ``KEYS``."""
    return (isinstance(obj, Mapping) and obj.get("action_type") in ACTION_TYPES
            and all(key in KEYS for key in obj))


def androidworld_object(value: Any) -> dict[str, Any] | None:
    """The AndroidWorld action ``value`` is or holds (``is_androidworld``), or None: a
    mapping, text (its last action-like JSON object, the one ``parse_action`` reads, or
    without one its last flat dict literal), or a ``RAW_TEXT`` action-space sample's text.
    Text with a ``<tool_call>`` (Qwen's) or longer than ``MAX_ACTION_TEXT`` holds none."""
    if isinstance(value, Mapping) and value.get("action_type") is not None and not isinstance(
            value.get("action_type"), str):
        value = value.get("text") if _raw_sample(value) else None
    if isinstance(value, Mapping):
        return dict(value) if is_androidworld(value) else None
    if not isinstance(value, str) or len(value) > MAX_ACTION_TEXT or "<tool_call>" in value:
        return None
    if "{" not in value:
        return None
    obj = _last_json_object(value)
    if obj is None:
        obj = _last_dict_literal(value)
    return obj if is_androidworld(obj) else None


def _raw_sample(sample: Mapping[str, Any]) -> bool:
    """Whether an action-space sample passes a whole action as text (``RAW_TEXT``)."""
    kind: Any = sample.get("action_type")
    try:
        return int(kind) == RAW_TEXT and not isinstance(kind, bool)
    except (TypeError, ValueError):
        return False


class AndroidWorldFormat(ActionFormat):
    """AndroidWorld ``JSONAction`` objects, points in screen pixels."""

    name = "androidworld"
    indices = True
    typing = frozenset({"point", "clear", "enter"})
    supported = frozenset(
        {"click", "double_click", "long_press", "scroll", "press", "open_app", "answer",
         "finish"}
    )
    converted = {"wait": "wait", "type": "type"}
    unsupported = {
        "drag": 'scroll with a direction ({"action_type": "scroll", "direction": "down"})',
        "close_app": '{"action_type": "navigate_home"}',
    }

    def _parse(self, text: str, screen: tuple[int, int]) -> PhoneAction:
        obj = last_json_object(text, "action_type") or _last_dict_literal(text)
        if obj is None:
            raise ActionError(
                'expected Action: {"action_type": "click", "x": 540, "y": 1200} or another '
                f"AndroidWorld JSON action, got {_short(text)}"
            )
        return self.read(obj, screen)

    def read(self, obj: Mapping[str, Any], screen: tuple[int, int]) -> PhoneAction:
        """The ``PhoneAction`` of an AndroidWorld JSON action ``obj`` (a dict), its x/y in
        pixels of ``screen``; ``ActionError`` for one AndroidWorld would refuse."""
        check_screen(screen)
        kind = obj.get("action_type")
        index = _index(obj)
        has_point = obj.get("x") is not None or obj.get("y") is not None
        if index is not None and has_point:
            raise ActionError("give either an element index or x/y, not both")
        x = y = None
        if has_point:
            if obj.get("x") is None or obj.get("y") is None:
                raise ActionError(f"{kind} needs both x and y")
            x, y = _PIXELS.to_unit((number(obj["x"], "x"), number(obj["y"], "y")), screen)
        if kind in _POINTERS:
            if index is None and not has_point:
                raise ActionError(f"{kind} needs x and y (pixels) or an element index")
            return build(_POINTERS[kind], x=x, y=y, index=index)
        if kind == "input_text":
            return self._input_text(obj, x, y, index)
        if kind in ("scroll", "swipe"):
            direction = obj.get("direction")
            if not isinstance(direction, str) or direction.lower() not in _SWIPE_TO_SCROLL:
                raise ActionError(f"{kind} needs direction up, down, left or right, got "
                                  f"{_short(direction)}")
            direction = direction.lower()
            if kind == "swipe":
                direction = _SWIPE_TO_SCROLL[direction]
            return build("scroll", x=x, y=y, direction=direction, index=index)
        if kind in _BUTTONS:
            return build("press", button=_BUTTONS[kind])
        if kind == "open_app":
            return build("open_app", app=obj.get("app_name"))
        if kind == "wait":
            return build("wait", seconds=WAIT_SECONDS)
        if kind == "answer":
            return build("answer", text=_text(obj))
        if kind == "status":
            status = obj.get("goal_status")
            if status not in _STATUS:
                raise ActionError(f"status needs goal_status complete or infeasible, got "
                                  f"{_short(status)}")
            return build("finish", status=_STATUS[status])
        raise ActionError(
            f"unknown action_type {_short(kind)}; AndroidWorld actions: click, double_tap, "
            f"long_press, input_text, scroll, swipe, navigate_back, navigate_home, "
            f"keyboard_enter, open_app, wait, status, answer"
        )

    @staticmethod
    def _input_text(obj: Mapping[str, Any], x: int | None, y: int | None,
                    index: int | None) -> PhoneAction:
        """``input_text`` as ``execute_adb_action`` carries it out: tap the element or point
        (when given), clear the field (``clear_text``), type, press Enter."""
        text = _text(obj)
        if not text:
            raise ActionError("input_text needs text (AndroidWorld types nothing without it)")
        clear = obj.get("clear_text")
        if clear is not None and not isinstance(clear, bool):
            raise ActionError(f"clear_text must be true or false, got {_short(clear)}")
        return build("type", text=text, x=x, y=y, index=index, clear=clear or None, enter=True)

    def _render(self, action: PhoneAction, screen: tuple[int, int]) -> str:
        return "Action: " + json.dumps(self._obj(action, screen), ensure_ascii=False)

    def _obj(self, action: PhoneAction, screen: tuple[int, int]) -> dict[str, Any]:
        kind = action.type
        index = getattr(action, "index", None)
        where: dict[str, Any] = {} if index is None else {"index": index}
        if kind in ("click", "double_click", "long_press", "type") and action.x is not None:
            x, y = _PIXELS.from_unit(action.point, screen)
            where = {"x": x, "y": y}
        if kind in ("click", "double_click", "long_press"):
            names = {v: k for k, v in _POINTERS.items()}
            return {"action_type": names[kind], **where}
        if kind == "type":
            clear = {"clear_text": True} if action.clear else {}
            return {"action_type": "input_text", "text": action.text, **where, **clear}
        if kind == "scroll":
            return {"action_type": "scroll", "direction": action.direction, **where}
        if kind == "press":
            names = {v: k for k, v in _BUTTONS.items()}
            if action.button not in names:
                raise ActionError('the androidworld format has no recents button; closest: '
                                  '{"action_type": "navigate_home"}')
            return {"action_type": names[str(action.button)]}
        if kind == "open_app":
            return {"action_type": "open_app", "app_name": action.app}
        if kind == "wait":
            return {"action_type": "wait"}
        if kind == "answer":
            return {"action_type": "answer", "text": action.text}
        if kind == "finish":
            status = "complete" if action.status == "success" else "infeasible"
            return {"action_type": "status", "goal_status": status}
        raise ActionError(f"the androidworld format cannot write {kind}")  # pragma: no cover


ANDROIDWORLD = AndroidWorldFormat()
