"""AndroidWorld's JSON actions: ``Reason: ...`` then ``Action: {"action_type": "click", ...}``.

Action types and keys follow google-research/android_world ``android_world/env/json_action.py``
(``JSONAction``: ``action_type``, ``index``, ``x``, ``y``, ``text``, ``direction``,
``app_name``, ``goal_status``) and its agents' prompts (``android_world/agents/m3a.py``,
``t3a.py``): ``click``, ``double_tap``, ``long_press`` (a point ``x``/``y`` in screen pixels,
or an element ``index``), ``input_text`` (``text``, optionally into element ``index``),
``scroll`` (``direction``, optionally within element ``index``), ``swipe`` (a finger
``direction``: swiping up scrolls down), ``navigate_back``, ``navigate_home``,
``keyboard_enter``, ``open_app`` (``app_name``), ``wait``, ``status`` (``goal_status``
``complete`` or ``infeasible``) and ``answer`` (``text``).

AndroidWorld's ``wait`` sleeps 1 second (``android_world/env/actuation.py``): other
durations are not kept. Its ``scroll`` has no point (it scrolls the screen centre or an
element): a scroll at another point is written without it. ``input_text`` at a point
``x``/``y`` (tap, then type) is two phone-gym actions and raises ``ActionError``: tap first,
or name the element ``index``. No ``drag``, ``close_app`` or ``press recents``.
"""

from __future__ import annotations

import json
from typing import Any

from ..action import ActionError, PhoneAction, _short
from .base import ActionFormat, Pixels, build, last_json_object, number

_POINTERS = {"click": "click", "double_tap": "double_click", "long_press": "long_press"}
_BUTTONS = {"navigate_back": "back", "navigate_home": "home", "keyboard_enter": "enter"}
#: A ``swipe`` moves the finger, a ``scroll`` the view: the directions are opposite.
_SWIPE_TO_SCROLL = {"up": "down", "down": "up", "left": "right", "right": "left"}
_STATUS = {"complete": "success", "infeasible": "infeasible"}
#: Seconds AndroidWorld's ``wait`` sleeps.
WAIT_SECONDS = 1.0
_PIXELS = Pixels()


def _index(obj: dict[str, Any]) -> int | None:
    value = obj.get("index")
    if value is None:
        return None
    if isinstance(value, bool):
        raise ActionError(f"index must be an integer, got {value!r}")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ActionError(f"index must be an integer, got {_short(value)}") from None


class AndroidWorldFormat(ActionFormat):
    """AndroidWorld ``JSONAction`` objects, points in screen pixels."""

    name = "androidworld"
    indices = True
    supported = frozenset(
        {"click", "double_click", "long_press", "type", "scroll", "press", "open_app",
         "answer", "finish"}
    )
    converted = {"wait": "wait"}
    unsupported = {
        "drag": 'scroll with a direction ({"action_type": "scroll", "direction": "down"})',
        "close_app": '{"action_type": "navigate_home"}',
    }

    def _parse(self, text: str, screen: tuple[int, int]) -> PhoneAction:
        obj = last_json_object(text, "action_type")
        if obj is None:
            raise ActionError(
                'expected Action: {"action_type": "click", "x": 540, "y": 1200} or another '
                f"AndroidWorld JSON action, got {_short(text)}"
            )
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
            if has_point:
                raise ActionError(
                    "input_text at x/y is a tap then typing: send click first, then input_text "
                    "without x/y, or name the element index"
                )
            return build("type", text=obj.get("text"), index=index)
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
            return build("answer", text=obj.get("text"))
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

    def _render(self, action: PhoneAction, screen: tuple[int, int]) -> str:
        return "Action: " + json.dumps(self._obj(action, screen), ensure_ascii=False)

    def _obj(self, action: PhoneAction, screen: tuple[int, int]) -> dict[str, Any]:
        kind = action.type
        index = getattr(action, "index", None)
        where: dict[str, Any] = {} if index is None else {"index": index}
        if kind in ("click", "double_click", "long_press"):
            names = {v: k for k, v in _POINTERS.items()}
            if index is None:
                x, y = _PIXELS.from_unit(action.point, screen)
                where = {"x": x, "y": y}
            return {"action_type": names[kind], **where}
        if kind == "type":
            return {"action_type": "input_text", "text": action.text, **where}
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
