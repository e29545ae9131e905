"""UI-TARS: ``Thought: ...`` then ``Action: click(start_box='(x,y)')``.

The mobile action space follows the ``MOBILE_USE`` prompt of bytedance/UI-TARS
(``codes/ui_tars/prompt.py``, and the UI-TARS-1.5 README's coordinate notes): ``click``,
``long_press``, ``type(content='')``, ``scroll(start_box, direction)``, ``open_app(app_name='')``,
``drag(start_box, end_box)``, ``press_home()``, ``press_back()`` and ``finished(content='')``.
From the same repository's computer action space, ``left_double`` (a double click),
``hotkey(key='enter')``, ``wait()`` (5 seconds) and ``call_user()`` (the task cannot be done)
are read and written too.

Points are read from ``start_box='(x,y)'``, ``'<|box_start|>(x,y)<|box_end|>'``, a box
``'[x1,y1,x2,y2]'`` or ``'(x1,y1,x2,y2)'`` (its centre), or the Doubao-style
``point='<point>x y</point>'`` (and ``start_point``/``end_point``). Coordinates: UI-TARS-1.5
writes absolute pixels of the resized image (``coords="pixels"``, the default: pass
``model_screen(w, h)`` as ``screen``); UI-TARS before 1.5 writes a relative 0-1000 grid
(``coords="relative"``: ``UITarsFormat(coords="relative")``).

``finished(content='...')`` with text is ``answer(text)``, without text ``finish()``; ``wait``
is written as ``wait()`` (5 seconds: other durations are not kept). No ``close_app`` or
``press recents`` (closest: ``press_home()``), nor element indices.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..action import ActionError, PhoneAction, _short
from .base import ActionFormat, Grid, Pixels, build, last_call, smart_resize

_NAMES = {
    "click": "click",
    "left_single": "click",
    "tap": "click",
    "left_double": "double_click",
    "double_click": "double_click",
    "long_press": "long_press",
    "type": "type",
    "scroll": "scroll",
    "drag": "drag",
    "swipe": "drag",
    "open_app": "open_app",
    "press_home": "home",
    "press_back": "back",
    "press_enter": "enter",
    "hotkey": "hotkey",
    "wait": "wait",
    "finished": "finished",
    "call_user": "call_user",
}
_HOTKEYS = {"enter": "enter", "return": "enter", "back": "back", "home": "home"}
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
#: Seconds ``wait()`` sleeps ("Sleep for 5s and take a screenshot", UI-TARS's prompt).
WAIT_SECONDS = 5.0
#: The processor limits of UI-TARS-1.5 (its README's ``smart_resize`` example).
MIN_PIXELS = 100 * 28 * 28
MAX_PIXELS = 16384 * 28 * 28


def _quote(text: str) -> str:
    """``text`` as a single-quoted Python string literal, UI-TARS's style."""
    body = json.dumps(text, ensure_ascii=False)[1:-1].replace('\\"', '"').replace("'", "\\'")
    return f"'{body}'"


class UITarsFormat(ActionFormat):
    """UI-TARS ``Action:`` calls; ``coords`` is ``"pixels"`` (UI-TARS-1.5, resized image) or
    ``"relative"`` (earlier UI-TARS, 0-1000)."""

    name = "uitars"
    supported = frozenset(
        {"click", "double_click", "long_press", "type", "scroll", "drag", "open_app", "press",
         "answer", "finish"}
    )
    converted = {"wait": "wait"}
    unsupported = {"close_app": "press_home()"}

    def __init__(self, coords: str = "pixels") -> None:
        if coords not in ("pixels", "relative"):
            raise ValueError(f"coords must be 'pixels' or 'relative', got {coords!r}")
        self.coords_mode = coords
        self.coords: Pixels | Grid = Pixels() if coords == "pixels" else Grid(1000)

    def model_screen(self, width: int, height: int) -> tuple[int, int]:
        """UI-TARS-1.5 answers in pixels of the resized image; the relative grid does not
        depend on the size."""
        if self.coords_mode == "pixels":
            return smart_resize(width, height, min_pixels=MIN_PIXELS, max_pixels=MAX_PIXELS)
        return width, height

    def _point(self, value: Any, what: str, screen: tuple[int, int]) -> tuple[int, int]:
        if isinstance(value, (list, tuple)):
            numbers = [float(v) for v in value if isinstance(v, (int, float))]
            if len(numbers) != len(value):
                numbers = []
        elif isinstance(value, str):
            numbers = [float(v) for v in _NUMBER.findall(value)]
        else:
            numbers = []
        if len(numbers) == 4:  # a box: its centre
            numbers = [(numbers[0] + numbers[2]) / 2, (numbers[1] + numbers[3]) / 2]
        if len(numbers) != 2:
            raise ActionError(f"{what} must be a point '(x,y)' or a box, got {_short(value)}")
        return self.coords.to_unit((numbers[0], numbers[1]), screen)

    def _start(self, kwargs: dict[str, Any], args: list[Any], screen: tuple[int, int],
               end: bool = False) -> tuple[int, int]:
        keys = ("end_box", "end_point") if end else ("start_box", "point", "start_point")
        for key in keys:
            if key in kwargs:
                return self._point(kwargs[key], key, screen)
        index = 1 if end else 0
        if len(args) > index:
            return self._point(args[index], keys[0], screen)
        raise ActionError(f"missing {keys[0]}='(x,y)'")

    def _parse(self, text: str, screen: tuple[int, int]) -> PhoneAction:
        at = text.rfind("Action:")
        part = text[at + len("Action:") :] if at != -1 else text
        try:
            name, args, kwargs = last_call(part, _NAMES)
        except ActionError:
            raise ActionError(
                "expected 'Action: click(start_box=\\'(x,y)\\')' or another UI-TARS action "
                f"({', '.join(sorted(_NAMES))}), got {_short(text)}"
            ) from None
        if name in ("click", "double_click", "long_press"):
            x, y = self._start(kwargs, args, screen)
            return build(name, x=x, y=y)
        if name == "drag":
            x, y = self._start(kwargs, args, screen)
            x2, y2 = self._start(kwargs, args, screen, end=True)
            return build("drag", x=x, y=y, x2=x2, y2=y2)
        if name == "scroll":
            direction = kwargs.get("direction")
            if not isinstance(direction, str):
                raise ActionError("scroll needs direction='down' (or up, left, right)")
            has_point = any(k in kwargs for k in ("start_box", "point", "start_point"))
            direction = direction.strip().lower()
            if not has_point:
                return build("scroll", direction=direction)
            x, y = self._start(kwargs, args, screen)
            return build("scroll", x=x, y=y, direction=direction)
        if name == "type":
            return build("type", text=kwargs.get("content", args[0] if args else None))
        if name == "open_app":
            return build("open_app", app=kwargs.get("app_name", args[0] if args else None))
        if name in ("home", "back", "enter"):
            return build("press", button=name)
        if name == "hotkey":
            key = str(kwargs.get("key", args[0] if args else "")).strip().lower()
            if key not in _HOTKEYS:
                raise ActionError(f"hotkey {key!r} has no phone-gym button; keys: enter, back, "
                                  "home")
            return build("press", button=_HOTKEYS[key])
        if name == "wait":
            return build("wait", seconds=WAIT_SECONDS)
        if name == "call_user":
            return build("finish", status="infeasible")
        content = kwargs.get("content", args[0] if args else "")
        if not isinstance(content, str):
            raise ActionError(f"finished content must be a string, got {_short(content)}")
        return build("answer", text=content) if content.strip() else build("finish")

    def _render(self, action: PhoneAction, screen: tuple[int, int]) -> str:
        return f"Action: {self._call(action, screen)}"

    def _box(self, point: tuple[int, int], screen: tuple[int, int]) -> str:
        x, y = self.coords.from_unit(point, screen)
        return f"'({x},{y})'"

    def _call(self, action: PhoneAction, screen: tuple[int, int]) -> str:
        kind = action.type
        if kind in ("click", "double_click", "long_press"):
            name = "left_double" if kind == "double_click" else kind
            return f"{name}(start_box={self._box(action.point, screen)})"
        if kind == "scroll":
            return (f"scroll(start_box={self._box(action.point, screen)}, "
                    f"direction='{action.direction}')")
        if kind == "drag":
            assert action.x2 is not None and action.y2 is not None
            return (f"drag(start_box={self._box(action.point, screen)}, "
                    f"end_box={self._box((action.x2, action.y2), screen)})")
        if kind == "type":
            return f"type(content={_quote(action.text or '')})"
        if kind == "open_app":
            return f"open_app(app_name={_quote(action.app or '')})"
        if kind == "press":
            if action.button == "enter":
                return "hotkey(key='enter')"
            if action.button == "recents":
                raise ActionError("the uitars format has no recents button; closest: "
                                  "press_home()")
            return f"press_{action.button}()"
        if kind == "wait":
            return "wait()"
        if kind == "answer":
            return f"finished(content={_quote(action.text or '')})"
        if kind == "finish":
            return "finished()" if action.status == "success" else "call_user()"
        raise ActionError(f"the uitars format cannot write {kind}")  # pragma: no cover


#: UI-TARS-1.5: absolute pixels of the resized image.
UITARS = UITarsFormat("pixels")
