"""Qwen2.5-VL and Qwen3-VL ``mobile_use``: one tool call in ``<tool_call>`` tags.

The model answers ``<tool_call>{"name": "mobile_use", "arguments": {"action": "click",
"coordinate": [x, y]}}</tool_call>`` after its thoughts. Actions and fields follow the
``mobile_use`` tool of the Qwen cookbooks (QwenLM/Qwen2.5-VL ``cookbooks/mobile_agent.ipynb``
and ``cookbooks/utils/agent_function_call.py``, class ``MobileUse``; QwenLM/Qwen3-VL
``cookbooks/mobile_agent.ipynb``): ``key`` (text), ``click`` (coordinate), ``long_press``
(coordinate, time), ``swipe`` (coordinate, coordinate2), ``type`` (text), ``system_button``
(button: Back, Home, Menu, Enter), ``open`` (text), ``wait`` (time), ``answer`` (text) and
``terminate`` (status: success or failure).

Coordinates: Qwen2.5-VL writes absolute pixels of the image *after* its processor resized it
(``smart_resize``: pass ``model_screen(w, h)`` as ``screen``); Qwen3-VL writes a relative
0-999 grid (``g / 1000`` of the screen), whatever the image size.

Conversions: ``swipe`` is ``drag``; ``scroll`` is written as the swipe that does it (it parses
back as ``drag``); ``press recents`` is ``key`` ``app_switch``; the hold time of
``long_press`` is not kept (phone-gym's long press has a fixed length); ``wait`` without
``time`` waits 2 seconds. No ``double_click`` or ``close_app``, nor element indices.
"""

from __future__ import annotations

import json
from typing import Any

from ..action import ActionError, PhoneAction, _short
from .base import (
    ActionFormat,
    Grid,
    Pixels,
    build,
    last_json_object,
    number,
    pair,
    scroll_swipe,
    smart_resize,
    tag_body,
)

_BUTTONS = {"back": "back", "home": "home", "enter": "enter"}
#: ``key`` names (adb keyevent syntax, ``KEYCODE_`` optional) that are phone-gym buttons.
_KEYS = {
    "back": "back",
    "home": "home",
    "enter": "enter",
    "app_switch": "recents",
    "recent_apps": "recents",
    "recents": "recents",
}
_TERMINATE = {"success": "success", "failure": "infeasible", "fail": "infeasible"}
#: Seconds of a ``wait`` that names no ``time``.
DEFAULT_WAIT = 2.0
#: The hold time written for ``long_press`` (the model's own examples use 2 seconds).
LONG_PRESS_TIME = 2


class QwenMobileUse(ActionFormat):
    """Qwen ``mobile_use`` tool calls; ``coords`` is ``Pixels()`` (Qwen2.5-VL) or
    ``Grid(999)`` (Qwen3-VL)."""

    supported = frozenset(
        {"click", "long_press", "type", "drag", "press", "open_app", "wait", "answer", "finish"}
    )
    converted = {"scroll": "drag"}
    unsupported = {
        "double_click": "two click actions at the same point",
        "close_app": 'system_button "Home" (press home)',
    }

    def __init__(self, name: str, coords: Pixels | Grid, resize: bool) -> None:
        self.name = name
        self.coords = coords
        self.resize = resize

    def model_screen(self, width: int, height: int) -> tuple[int, int]:
        """Qwen2.5-VL answers in pixels of the resized image (``smart_resize``); Qwen3-VL's
        grid does not depend on the size."""
        return smart_resize(width, height) if self.resize else (width, height)

    def _parse(self, text: str, screen: tuple[int, int]) -> PhoneAction:
        body = tag_body(text, "tool_call")
        obj: Any = None
        if body is not None:
            try:
                obj = json.loads(body)
            except (ValueError, RecursionError):
                obj = last_json_object(body, "name") or last_json_object(body, "action")
        else:
            obj = last_json_object(text, "name") or last_json_object(text, "action")
        if not isinstance(obj, dict):
            raise ActionError(
                'expected <tool_call>{"name": "mobile_use", "arguments": {"action": ...}}'
                f"</tool_call>, got {_short(text)}"
            )
        args: Any = obj
        if "name" in obj:
            if obj.get("name") != "mobile_use":
                raise ActionError(f"unknown tool {_short(obj.get('name'))}; expected mobile_use")
            args = obj.get("arguments")
            if isinstance(args, str):
                try:
                    args = json.loads(args)
                except (ValueError, RecursionError):
                    args = None
            if not isinstance(args, dict):
                raise ActionError(f"mobile_use arguments must be an object, got {_short(args)}")
        return self._from_args(args, screen)

    def _point(self, args: dict[str, Any], key: str, screen: tuple[int, int]) -> tuple[int, int]:
        if key not in args:
            raise ActionError(f"{args.get('action')} needs {key} [x, y]")
        return self.coords.to_unit(pair(args[key], key), screen)

    def _from_args(self, args: dict[str, Any], screen: tuple[int, int]) -> PhoneAction:
        kind = args.get("action")
        if not isinstance(kind, str):
            raise ActionError(f"mobile_use arguments have no action: {_short(args)}")
        kind = kind.strip().lower()
        if kind in ("click", "long_press"):
            x, y = self._point(args, "coordinate", screen)
            return build(kind, x=x, y=y)
        if kind == "swipe":
            x, y = self._point(args, "coordinate", screen)
            x2, y2 = self._point(args, "coordinate2", screen)
            return build("drag", x=x, y=y, x2=x2, y2=y2)
        if kind in ("type", "answer"):
            return build(kind, text=args.get("text"))
        if kind == "open":
            return build("open_app", app=args.get("text"))
        if kind == "wait":
            seconds = args.get("time")
            return build("wait", seconds=DEFAULT_WAIT if seconds is None else number(
                seconds, "wait time"))
        if kind == "terminate":
            status = str(args.get("status", "success")).strip().lower()
            if status not in _TERMINATE:
                raise ActionError(f"terminate status must be success or failure, got {status!r}")
            return build("finish", status=_TERMINATE[status])
        if kind == "system_button":
            button = str(args.get("button", "")).strip().lower()
            if button not in _BUTTONS:
                raise ActionError(
                    f"system_button {button!r} has no phone-gym equivalent; buttons: Back, "
                    f"Home, Enter (and key app_switch for recents)"
                )
            return build("press", button=_BUTTONS[button])
        if kind == "key":
            key = str(args.get("text", "")).strip().lower().removeprefix("keycode_")
            if key not in _KEYS:
                raise ActionError(
                    f"key {key!r} has no phone-gym equivalent; keys: {', '.join(_KEYS)}"
                )
            return build("press", button=_KEYS[key])
        raise ActionError(
            f"unknown mobile_use action {kind!r}; actions: key, click, long_press, swipe, "
            f"type, system_button, open, wait, answer, terminate"
        )

    def _render(self, action: PhoneAction, screen: tuple[int, int]) -> str:
        args = self._to_args(action, screen)
        call = {"name": "mobile_use", "arguments": args}
        return f"<tool_call>\n{json.dumps(call, ensure_ascii=False)}\n</tool_call>"

    def _to_args(self, action: PhoneAction, screen: tuple[int, int]) -> dict[str, Any]:
        kind = action.type
        if kind in ("click", "long_press"):
            args: dict[str, Any] = {
                "action": kind, "coordinate": list(self.coords.from_unit(action.point, screen))
            }
            if kind == "long_press":
                args["time"] = LONG_PRESS_TIME
            return args
        if kind in ("drag", "scroll"):
            if kind == "drag":
                assert action.x2 is not None and action.y2 is not None
                x, y, x2, y2 = (*action.point, action.x2, action.y2)
            else:
                x, y, x2, y2 = scroll_swipe(action)
            return {
                "action": "swipe",
                "coordinate": list(self.coords.from_unit((x, y), screen)),
                "coordinate2": list(self.coords.from_unit((x2, y2), screen)),
            }
        if kind in ("type", "answer"):
            return {"action": kind, "text": action.text}
        if kind == "open_app":
            return {"action": "open", "text": action.app}
        if kind == "wait":
            return {"action": "wait", "time": action.seconds}
        if kind == "finish":
            status = "success" if action.status == "success" else "failure"
            return {"action": "terminate", "status": status}
        if kind == "press":
            if action.button == "recents":
                return {"action": "key", "text": "app_switch"}
            return {"action": "system_button", "button": str(action.button).title()}
        raise ActionError(f"the {self.name} format cannot write {kind}")  # pragma: no cover


#: Qwen2.5-VL: absolute pixels of the resized image.
QWEN25VL = QwenMobileUse("qwen25vl", Pixels(), resize=True)
#: Qwen3-VL: the relative 0-999 grid.
QWEN3VL = QwenMobileUse("qwen3vl", Grid(999), resize=False)
