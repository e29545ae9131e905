"""GLM / AutoGLM: ``<think>...</think><answer>do(action="Tap", element=[x,y])</answer>``.

The action syntax follows zai-org/Open-AutoGLM (``phone_agent/config/prompts_zh.py`` and
``prompts_en.py``, executed by ``phone_agent/actions/handler.py``): ``do(action="Tap",
element=[x,y])``, ``"Double Tap"``, ``"Long Press"``, ``do(action="Type", text="...")`` (and
``"Type_Name"``), ``do(action="Swipe", start=[x1,y1], end=[x2,y2])``, ``do(action="Launch",
app="...")``, ``"Back"``, ``"Home"``, ``do(action="Wait", duration="2 seconds")`` and
``finish(message="...")``. ``"Enter"`` (found in AutoGLM-derived prompts) presses enter.
Coordinates are a relative 0-999 grid (``g / 1000`` of the screen, "from (0,0) at the top
left to (999,999) at the bottom right"); an element given as a box ``[x1,y1,x2,y2]`` is read
as its centre.

``finish(message="...")`` with text is ``answer(text)``, with an empty message ``finish()``.
``scroll`` is written as the ``Swipe`` that does it (it parses back as ``drag``). Not
convertible: ``Take_over``, ``Interact``, ``Note``, ``Call_API`` (no phone-gym equivalent:
``ActionError``); ``close_app``, ``press recents`` and ``finish(status="infeasible")`` cannot
be written (closest: ``do(action="Home")``, ``finish(message=...)`` saying why), nor element
indices.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..action import ActionError, PhoneAction, _short
from .base import ActionFormat, Grid, build, last_call, number, scroll_swipe, tag_body

_ACTIONS = {
    "tap": "click",
    "double tap": "double_click",
    "long press": "long_press",
    "type": "type",
    "type_name": "type",
    "swipe": "drag",
    "launch": "open_app",
    "back": "back",
    "home": "home",
    "enter": "enter",
    "wait": "wait",
}
_NO_EQUIVALENT = ("take_over", "interact", "note", "call_api")
#: A ``Type`` whose text holds unescaped double quotes, read as Open-AutoGLM's own
#: ``parse_action`` does (everything between ``text="`` and the final ``")``).
_LOOSE_TYPE = re.compile(r'do\(\s*action\s*=\s*"Type(?:_Name)?"\s*,\s*text\s*=\s*"(.*)"\s*\)\s*$',
                         re.DOTALL)
_GRID = Grid(999)


class GLMFormat(ActionFormat):
    """AutoGLM's ``do(...)`` / ``finish(...)`` calls on the 0-999 grid."""

    name = "glm"
    supported = frozenset(
        {"click", "double_click", "long_press", "type", "drag", "press", "open_app", "wait",
         "answer", "finish"}
    )
    converted = {"scroll": "drag"}
    unsupported = {"close_app": 'do(action="Home")'}

    def _point(self, value: Any, what: str) -> tuple[int, int]:
        if isinstance(value, (list, tuple)) and len(value) == 4:
            nums = [number(v, what) for v in value]
            value = [(nums[0] + nums[2]) / 2, (nums[1] + nums[3]) / 2]
        if not isinstance(value, (list, tuple)) or len(value) != 2:
            raise ActionError(f"{what} must be [x, y] on the 0-999 grid, got {_short(value)}")
        return _GRID.to_unit((number(value[0], what), number(value[1], what)), (1000, 1000))

    def _parse(self, text: str, screen: tuple[int, int]) -> PhoneAction:
        body = tag_body(text, "answer") or text
        try:
            name, args, kwargs = last_call(body, {"do": "do", "finish": "finish"})
        except ActionError:
            loose = _LOOSE_TYPE.search(body)
            if loose:
                return build("type", text=loose.group(1))
            raise ActionError(
                'expected do(action="Tap", element=[x,y]) or another AutoGLM action, or '
                f'finish(message="..."), got {_short(text)}'
            ) from None
        if args:
            raise ActionError(f"{name}(...) takes keyword arguments only, e.g. "
                              'do(action="Back")')
        if name == "finish":
            message = kwargs.get("message", "")
            if not isinstance(message, str):
                raise ActionError(f"finish message must be a string, got {_short(message)}")
            return build("answer", text=message) if message.strip() else build("finish")
        action = kwargs.get("action")
        if not isinstance(action, str):
            raise ActionError(f'do(...) needs action="...", got {_short(kwargs)}')
        key = action.strip().lower()
        if key in _NO_EQUIVALENT:
            raise ActionError(f"AutoGLM's {action} has no phone-gym equivalent")
        if key not in _ACTIONS:
            raise ActionError(
                f"unknown AutoGLM action {action!r}; actions: Tap, Double Tap, Long Press, "
                f"Type, Swipe, Launch, Back, Home, Enter, Wait, and finish(message=...)"
            )
        kind = _ACTIONS[key]
        if kind in ("click", "double_click", "long_press"):
            x, y = self._point(kwargs.get("element"), "element")
            return build(kind, x=x, y=y)
        if kind == "drag":
            x, y = self._point(kwargs.get("start"), "start")
            x2, y2 = self._point(kwargs.get("end"), "end")
            return build("drag", x=x, y=y, x2=x2, y2=y2)
        if kind == "type":
            return build("type", text=kwargs.get("text"))
        if kind == "open_app":
            return build("open_app", app=kwargs.get("app"))
        if kind in ("back", "home", "enter"):
            return build("press", button=kind)
        duration = kwargs.get("duration", "1 seconds")
        if isinstance(duration, str):
            found = re.search(r"\d+(?:\.\d+)?", duration)
            if found is None:
                raise ActionError(f'Wait duration must be like "2 seconds", got {duration!r}')
            duration = found.group()
        return build("wait", seconds=number(duration, "Wait duration"))

    def _render(self, action: PhoneAction, screen: tuple[int, int]) -> str:
        return f"<answer>{self._call(action)}</answer>"

    def _call(self, action: PhoneAction) -> str:
        kind = action.type
        names = {"click": "Tap", "double_click": "Double Tap", "long_press": "Long Press"}
        if kind in names:
            x, y = _GRID.from_unit(action.point, (1000, 1000))
            return f'do(action="{names[kind]}", element=[{x},{y}])'
        if kind in ("drag", "scroll"):
            if kind == "drag":
                assert action.x2 is not None and action.y2 is not None
                x, y, x2, y2 = (*action.point, action.x2, action.y2)
            else:
                x, y, x2, y2 = scroll_swipe(action)
            (x, y), (x2, y2) = (_GRID.from_unit(p, (1000, 1000)) for p in ((x, y), (x2, y2)))
            return f'do(action="Swipe", start=[{x},{y}], end=[{x2},{y2}])'
        if kind == "type":
            return f"do(action=\"Type\", text={json.dumps(action.text, ensure_ascii=False)})"
        if kind == "open_app":
            return f"do(action=\"Launch\", app={json.dumps(action.app, ensure_ascii=False)})"
        if kind == "press":
            if action.button == "recents":
                raise ActionError('the glm format has no recents button; closest: '
                                  'do(action="Home")')
            return f'do(action="{str(action.button).title()}")'
        if kind == "wait":
            return f'do(action="Wait", duration="{action.seconds:g} seconds")'
        if kind == "answer":
            return f"finish(message={json.dumps(action.text, ensure_ascii=False)})"
        if kind == "finish":
            if action.status != "success":
                raise ActionError('the glm format cannot say a task is infeasible; closest: '
                                  'finish(message="...") saying why')
            return 'finish(message="")'
        raise ActionError(f"the glm format cannot write {kind}")  # pragma: no cover


GLM = GLMFormat()
