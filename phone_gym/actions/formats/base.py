"""The ``ActionFormat`` base class and what the model-native formats share: coordinate
scaling, literal-only extraction of calls and JSON objects from model text, the Qwen
``smart_resize`` rule and prompt templates.

Every format reads model text with ``json`` or ``ast.literal_eval`` on literal arguments
only: nothing a model writes is ever evaluated.
"""

from __future__ import annotations

import ast
import json
import math
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any

from ..action import COORD_MAX, MAX_ACTION_TEXT, ActionError, PhoneAction, _short
from ..parser import _parse_expr, action_from_dict

#: A swipe that stands for ``scroll`` moves the finger this share of the screen (in
#: ``[0, 1000]`` units), as the real phone's ``scroll_swipe`` does with 0.35.
SCROLL_SPAN = 350
#: The finger's move (dx, dy) in ``[0, 1000]`` units that scrolls content ``direction``:
#: scrolling down drags the content up (AndroidWorld's convention, see ``phone_gym.actions``).
SCROLL_FINGER: dict[str, tuple[int, int]] = {
    "down": (0, -SCROLL_SPAN),
    "up": (0, SCROLL_SPAN),
    "right": (-SCROLL_SPAN, 0),
    "left": (SCROLL_SPAN, 0),
}
#: Parse attempts ``last_call`` makes at most (a reply holds one call, a few at most).
MAX_CALL_ATTEMPTS = 256
#: The languages every format's prompt is written in (the phone's ``LOCALES``).
PROMPT_LOCALES: tuple[str, ...] = ("en-US", "zh-CN")
_PLACEHOLDER = re.compile(r"\{(instruction|width|height)\}")
_HEADER = re.compile(r"\A\s*<!--.*?-->\s*", re.DOTALL)


class ActionFormat:
    """One model family's action syntax, converted both ways to ``PhoneAction``.

    ``parse(text, screen)`` reads the model's whole reply (thoughts around the action are
    fine) and raises ``ActionError`` for malformed output; ``render(action, screen)`` writes
    the reply that model would give for ``action`` (``ActionError`` for an action the format
    cannot express, naming the closest alternative). ``screen`` is ``(width, height)`` in
    pixels of the image the model saw (see ``model_screen``). ``prompt()`` is the system
    prompt template, a package-data file ``prompts/<name>.md`` users can read and change.

    ``supported`` lists the action types with an exact round trip (``parse(render(a)) == a``,
    coordinates within one unit; a value the format lacks, such as a button, still raises);
    ``converted`` maps the types written as an equivalent that parses back differently (a
    ``scroll`` as a swipe, which parses as ``drag``; a ``wait`` whose duration the format does
    not carry) to the type they parse back to; ``unsupported`` maps the types the format
    cannot write to their closest alternative.
    """

    name: str = ""
    supported: frozenset[str] = frozenset()
    converted: Mapping[str, str] = {}
    unsupported: Mapping[str, str] = {}
    #: Whether ``PhoneAction.index`` (element-index actions) can be written in this format.
    indices: bool = False
    #: What this format writes of a ``type``'s optional fields: ``"point"`` (tap x/y first),
    #: ``"clear"`` and ``"enter"`` (``PhoneAction``'s ``OPTIONAL_FIELDS``).
    typing: frozenset[str] = frozenset()

    def parse(self, text: str, screen: tuple[int, int]) -> PhoneAction:
        """The action in the model's reply ``text``; ``ActionError`` when there is none."""
        check_screen(screen)
        return self._parse(check_text(text), screen)

    def render(self, action: PhoneAction, screen: tuple[int, int]) -> str:
        """The model's own output text for ``action``."""
        check_screen(screen)
        if not isinstance(action, PhoneAction):
            raise ActionError(f"expected a PhoneAction, got {_short(action)}")
        if action.type in self.unsupported:
            raise ActionError(
                f"the {self.name} format has no {action.type} action; closest: "
                f"{self.unsupported[action.type]}"
            )
        if getattr(action, "index", None) is not None and not self.indices:
            raise ActionError(
                f"the {self.name} format has no element indices: give {action.type} a point, "
                f"or use the androidworld or phone_gym format"
            )
        if action.type == "type":
            options = {"point": action.x is not None, "clear": bool(action.clear),
                       "enter": bool(action.enter)}
            missing = [name for name, used in options.items() if used and name not in self.typing]
            if missing:
                raise ActionError(
                    f"the {self.name} format types into the focused field only (no "
                    f"{', '.join(missing)}); closest: a click on the field, the type, then "
                    f"press enter, one action each (or the androidworld or phone_gym format)"
                )
        return self._render(action, screen)

    def prompt(self, locale: str = "en-US") -> str:
        """The system prompt template in ``locale``'s language (``PROMPT_LOCALES``:
        ``prompts/<name>.md`` in en-US, ``prompts/<name>.<locale>.md`` otherwise), its
        header comment, which lists the placeholders, left out."""
        if locale not in PROMPT_LOCALES:
            raise ValueError(f"prompt locale {locale!r}; accepted: {', '.join(PROMPT_LOCALES)}")
        suffix = "" if locale == PROMPT_LOCALES[0] else f".{locale}"
        path = resources.files(__package__).joinpath("prompts").joinpath(
            f"{self.name}{suffix}.md")
        return _HEADER.sub("", path.read_text(encoding="utf-8"), count=1)

    def system_prompt(
        self, instruction: str, screen: tuple[int, int], template: str | None = None,
        locale: str = "en-US",
    ) -> str:
        """``template`` (by default ``prompt(locale)``) with ``{instruction}``, ``{width}``
        and ``{height}`` filled in; other braces (JSON in the prompt) are left as they are."""
        check_screen(screen)
        values = {"instruction": instruction, "width": str(screen[0]), "height": str(screen[1])}
        text = self.prompt(locale) if template is None else template
        return _PLACEHOLDER.sub(lambda m: values[m.group(1)], text)

    def model_screen(self, width: int, height: int) -> tuple[int, int]:
        """The size of the image the model sees for a ``width`` x ``height`` screenshot
        (formats whose model resizes the image and answers in its pixels override this)."""
        return width, height

    def _parse(self, text: str, screen: tuple[int, int]) -> PhoneAction:
        raise NotImplementedError

    def _render(self, action: PhoneAction, screen: tuple[int, int]) -> str:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


# --------------------------------------------------------------------------------------
# Checks and building
# --------------------------------------------------------------------------------------


def check_screen(screen: Any) -> None:
    """Raise ``ValueError`` unless ``screen`` is ``(width, height)`` in positive pixels."""
    if (
        not isinstance(screen, (tuple, list))
        or len(screen) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in screen)
    ):
        raise ValueError(
            f"screen must be (width, height) in pixels, positive integers; got {_short(screen)}"
        )


def check_text(text: Any) -> str:
    """``text`` stripped; ``ActionError`` for a non-string, empty or too long text."""
    if not isinstance(text, str):
        raise ActionError(f"expected the model's reply as a string, got {_short(text)}")
    if len(text) > MAX_ACTION_TEXT:
        raise ActionError(
            f"model reply is {len(text)} characters long; at most {MAX_ACTION_TEXT} are read"
        )
    if not text.strip():
        raise ActionError("empty model reply: expected one action")
    return text.strip()


def build(kind: str, **values: Any) -> PhoneAction:
    """A checked ``PhoneAction`` (floats rounded, defaults filled, ``ActionError`` on bad
    values); ``None`` values are left out."""
    return action_from_dict({"action": kind, **{k: v for k, v in values.items() if v is not None}})


def number(value: Any, what: str) -> float:
    """A finite number from a model's value (an int, a float or a numeric string)."""
    if isinstance(value, bool):
        raise ActionError(f"{what} must be a number, got {value!r}")
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            raise ActionError(f"{what} must be a number, got {_short(value)}") from None
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ActionError(f"{what} must be a finite number, got {_short(value)}")
    return float(value)


def pair(value: Any, what: str) -> tuple[float, float]:
    """``[x, y]`` as two numbers."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ActionError(f"{what} must be a pair [x, y], got {_short(value)}")
    return number(value[0], f"{what}[0]"), number(value[1], f"{what}[1]")


# --------------------------------------------------------------------------------------
# Coordinates
# --------------------------------------------------------------------------------------


class Pixels:
    """Absolute pixels of the ``(width, height)`` image the model saw."""

    label = "pixels"

    def to_unit(self, point: tuple[float, float], screen: tuple[int, int]) -> tuple[int, int]:
        out = []
        for value, size, axis in zip(point, screen, "xy", strict=True):
            if not 0 <= value <= size:
                raise ActionError(
                    f"{axis}={value:g} is outside the {screen[0]}x{screen[1]} image "
                    f"(pixels, 0 to {size})"
                )
            out.append(round_half_up(value * COORD_MAX / size))
        return out[0], out[1]

    def from_unit(self, point: tuple[int, int], screen: tuple[int, int]) -> tuple[int, int]:
        return (
            min(screen[0] - 1, round_half_up(point[0] * screen[0] / COORD_MAX)),
            min(screen[1] - 1, round_half_up(point[1] * screen[1] / COORD_MAX)),
        )


class Grid:
    """A relative grid: ``g`` means ``g / 1000`` of the screen, ``0 <= g <= top`` (Qwen3-VL
    and AutoGLM write 0-999, UI-TARS before 1.5 writes 0-1000). A value of 1000 is read
    as the far edge in every grid."""

    label = "grid"

    def __init__(self, top: int) -> None:
        self.top = top

    def to_unit(self, point: tuple[float, float], screen: tuple[int, int]) -> tuple[int, int]:
        out = []
        for value, axis in zip(point, "xy", strict=True):
            if not 0 <= value <= COORD_MAX:
                raise ActionError(
                    f"{axis}={value:g} is outside the relative grid 0 to {self.top}"
                )
            out.append(round_half_up(value))
        return out[0], out[1]

    def from_unit(self, point: tuple[int, int], screen: tuple[int, int]) -> tuple[int, int]:
        return min(self.top, point[0]), min(self.top, point[1])


def round_half_up(value: float) -> int:
    """``value`` rounded to the nearest integer, halves up (not to even)."""
    return math.floor(value + 0.5)


def scroll_swipe(action: PhoneAction) -> tuple[int, int, int, int]:
    """The finger's start and end in ``[0, 1000]`` units of a swipe that does ``action``
    (a scroll at a point)."""
    x, y = action.point
    dx, dy = SCROLL_FINGER[action.direction or "down"]
    return x, y, max(0, min(COORD_MAX, x + dx)), max(0, min(COORD_MAX, y + dy))


def smart_resize(
    width: int,
    height: int,
    factor: int = 28,
    min_pixels: int = 4 * 28 * 28,
    max_pixels: int = 16384 * 28 * 28,
) -> tuple[int, int]:
    """The ``(width, height)`` a Qwen2.5-VL-style processor resizes an image to: each side a
    multiple of ``factor``, the area within ``[min_pixels, max_pixels]``, the aspect ratio
    kept. Mirrors ``smart_resize`` of ``qwen_vl_utils/vision_process.py`` (QwenLM/Qwen2.5-VL),
    whose defaults these are; models that answer in resized pixels (Qwen2.5-VL, UI-TARS-1.5)
    see this size."""
    if width <= 0 or height <= 0:
        raise ValueError(f"image size must be positive, got {width}x{height}")
    h_bar = max(factor, round(height / factor) * factor)
    w_bar = max(factor, round(width / factor) * factor)
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h_bar = max(factor, math.floor(height / beta / factor) * factor)
        w_bar = max(factor, math.floor(width / beta / factor) * factor)
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return w_bar, h_bar


# --------------------------------------------------------------------------------------
# Literal-only extraction
# --------------------------------------------------------------------------------------


def _literal(node: ast.expr, what: str) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        raise ActionError(
            f"{what}: arguments must be literals (strings, numbers, lists)"
        ) from None


def last_call(text: str, names: Mapping[str, str]) -> tuple[str, list[Any], dict[str, Any]]:
    """The last call ``name(...)`` in ``text`` whose name ``names`` knows (matched case-
    insensitively) and that parses as Python with literal arguments: ``(canonical name,
    positional args, keyword args)``. ``names`` maps a lower-case name to its canonical one.
    ``ActionError`` when there is none; at most ``MAX_CALL_ATTEMPTS`` spans are parsed."""
    lookup = names.get
    starts = [
        m for m in re.finditer(r"(?<![\w.])([A-Za-z_]\w*)\s*\(", text)
        if lookup(m.group(1).lower()) is not None
    ]
    closes = [i for i, ch in enumerate(text) if ch == ")"]
    attempts = 0
    for match in reversed(starts):
        for end in (i for i in closes if i > match.end() - 1):
            attempts += 1
            if attempts > MAX_CALL_ATTEMPTS:
                raise ActionError("no action call found (too many unbalanced calls)")
            node = _parse_expr(text[match.start() : end + 1])
            if node is None:
                continue
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                break
            name = lookup(node.func.id.lower())
            assert name is not None
            if any(isinstance(arg, ast.Starred) for arg in node.args) or any(
                kw.arg is None for kw in node.keywords
            ):
                raise ActionError(f"{node.func.id}(...): *args and **kwargs are not allowed")
            args = [_literal(arg, node.func.id) for arg in node.args]
            kwargs = {kw.arg: _literal(kw.value, node.func.id) for kw in node.keywords}
            return name, args, kwargs  # type: ignore[return-value]
    raise ActionError("no action call found")


def last_json_object(text: str, key: str) -> dict[str, Any] | None:
    """The last JSON object in ``text`` (by where it starts) that has ``key``, or None."""
    decoder = json.JSONDecoder()
    starts = [i for i, ch in enumerate(text) if ch == "{"]
    for start in reversed(starts):
        try:
            obj, _ = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):
            continue
        if isinstance(obj, dict) and key in obj:
            return obj
    return None


def tag_body(text: str, tag: str) -> str | None:
    """The body of the last ``<tag>...</tag>`` of ``text`` (the closing tag may be missing,
    as in a reply cut at a stop string), or None."""
    at = text.rfind(f"<{tag}>")
    if at == -1:
        return None
    body = text[at + len(tag) + 2 :]
    return body.split(f"</{tag}>", 1)[0].strip()
