"""The phone action type: ``PhoneAction``, its fields and checks, ``ActionError``.

Coordinates are integers normalized to ``[0, 1000]`` over the screen: ``(0, 0)`` is
the top-left corner and ``(1000, 1000)`` the bottom-right one.

Scrolling follows AndroidWorld: ``scroll(direction="down")`` reveals what is *below*
(the content moves up, as a finger swiping upwards would move it).

Fields with a default (``ACTION_DEFAULTS``) may be left out: ``finish()`` is
``finish(status="success")`` and ``scroll(direction="down")`` scrolls at the screen centre.

Element-index actions (``INDEX_ACTIONS``) name a UI element instead of a point, as
AndroidWorld's ``JSONAction.index`` does: ``click(index=3)``, ``type(text="Bob", index=2)``
(tap the element, then type), ``scroll(direction="down", index=5)`` (scroll within it). The
env resolves the index against the element list of its current observation
(``info["ui_elements"]``); an action carries either ``index`` or a point, not both.

``type`` has optional fields (``OPTIONAL_FIELDS``), written only when set: a point
(``type(text="Bob", x=500, y=300)`` taps there first), ``clear=True`` (empty the field
before typing) and ``enter=True`` (press Enter after typing). Together they are
AndroidWorld's ``input_text``, which taps the field (an element ``index`` or ``x``/``y``),
clears it when ``clear_text`` is set, types and presses Enter
(``android_world/env/actuation.py``, ``execute_adb_action``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

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
#: Longest model text ``parse_action`` reads (characters): longer text is an ``ActionError``
#: before any parsing. One action with a few hundred characters of reasoning around it fits.
MAX_ACTION_TEXT = 10_000

#: Action types that may name a UI element by ``index`` instead of a point (``x``, ``y``).
INDEX_ACTIONS: tuple[str, ...] = ("click", "double_click", "long_press", "type", "scroll")
#: Largest element index accepted (screens list a few hundred elements at most).
MAX_INDEX = 9999

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

#: Fields an action may add to its ``ACTION_FIELDS``, in canonical order: only set ones are
#: written. ``type``: a point to tap first (``x`` and ``y`` together, not with ``index``),
#: ``clear`` (empty the field first) and ``enter`` (press Enter after), both ``True`` when set.
OPTIONAL_FIELDS: dict[str, tuple[str, ...]] = {"type": ("x", "y", "clear", "enter")}
#: Optional fields that are flags: ``True`` when set (``False`` is stored as unset).
FLAG_FIELDS: tuple[str, ...] = ("clear", "enter")

#: Fields an action may leave out, in groups that are filled together when all of a group
#: is missing: ``finish()`` ends with success, and ``scroll(direction=...)`` scrolls at the
#: screen centre, as AndroidWorld's scroll (a direction, no point) does: its
#: ``execute_adb_action`` starts a screen-wide scroll at the middle of the screen
#: (android_world/env/actuation.py).
ACTION_DEFAULTS: dict[str, dict[str, Any]] = {
    "finish": {"status": "success"},
    "scroll": {"x": COORD_MAX // 2, "y": COORD_MAX // 2},
}

#: One line per action, used in error messages and in model prompts (the trainer's: kept
#: short, so ``type``'s ``OPTIONAL_FIELDS`` are documented above, not here).
ACTION_DOCS: dict[str, str] = {
    "click": "click(x, y): tap the point (x, y), integers in [0, 1000]; or click(index): tap "
    "the centre of UI element number index",
    "double_click": "double_click(x, y) or double_click(index): tap twice quickly at (x, y) "
    "or on element index",
    "long_press": "long_press(x, y) or long_press(index): touch and hold at (x, y) or on "
    "element index",
    "type": "type(text): type text into the focused text field; type(text, index): tap "
    "element index first, then type",
    "scroll": "scroll(x, y, direction): scroll at (x, y), by default the screen centre "
    "(500, 500); direction up|down|left|right, 'down' reveals what is below; "
    "scroll(direction, index): scroll within element index",
    "drag": "drag(x, y, x2, y2): drag from (x, y) to (x2, y2)",
    "press": "press(button): press a system button: back|home|enter|recents",
    "open_app": "open_app(app): launch an app by its name",
    "close_app": "close_app(app): force-stop an app by its name",
    "wait": "wait(seconds): wait, 0 to 60 seconds",
    "answer": "answer(text): give the answer to a question and end the episode (one value, "
    "or JSON naming it)",
    "finish": "finish(status): end the episode; status success (the default) or infeasible",
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
    index: int | None = None
    clear: bool | None = None
    enter: bool | None = None

    def __post_init__(self) -> None:
        if isinstance(self.type, str):
            for name, value in missing_defaults(self.type, vars(self)).items():
                object.__setattr__(self, name, value)  # frozen: set once, before checks
        for name in FLAG_FIELDS:
            if getattr(self, name) is False:  # unset and False are the same action
                object.__setattr__(self, name, None)
        validate(self)

    def to_dict(self) -> dict[str, Any]:
        """``{"action": type, field: value, ...}`` with only this action's fields (its
        ``OPTIONAL_FIELDS`` when set)."""
        out: dict[str, Any] = {"action": self.type}
        for name in present_fields(self):
            out[name] = getattr(self, name)
        return out

    @property
    def point(self) -> tuple[int, int]:
        """``(x, y)`` for pointer actions."""
        if self.x is None or self.y is None:
            hint = (f" (it names element {self.index}: the env resolves it to a point)"
                    if self.index is not None else "")
            raise ActionError(f"{self.type} has no point{hint}")
        return self.x, self.y


def action_fields(kind: str, indexed: bool = False) -> tuple[str, ...]:
    """The fields of a ``kind`` action, in canonical order: ``ACTION_FIELDS[kind]``, or with
    ``indexed`` (an ``INDEX_ACTIONS`` type naming an element) its point replaced by ``index``."""
    wanted = ACTION_FIELDS[kind]
    if not indexed:
        return wanted
    return tuple(name for name in wanted if name not in ("x", "y")) + ("index",)


def present_fields(action: PhoneAction) -> tuple[str, ...]:
    """The fields ``action`` has, in canonical order: ``action_fields`` of its type, then its
    ``OPTIONAL_FIELDS`` that are set."""
    wanted = action_fields(action.type, action.index is not None)
    extra = tuple(name for name in OPTIONAL_FIELDS.get(action.type, ())
                  if name not in wanted and getattr(action, name) is not None)
    return wanted + extra


def missing_defaults(kind: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The ``ACTION_DEFAULTS`` of ``kind`` whose whole group is missing (absent or None) from
    ``given``; a group given in part is left to the checks (``scroll`` needs both x and y).
    An action naming an element by ``index`` gets no default point."""
    if given.get("index") is not None:
        return {}
    group = ACTION_DEFAULTS.get(kind, {})
    if all(given.get(name) is None for name in group):
        return dict(group)
    return {}


_ALL_FIELDS = tuple(f.name for f in fields(PhoneAction) if f.name != "type")


def _check_coord(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionError(f"{name} must be an integer in [0, {COORD_MAX}], got {value!r}")
    if not 0 <= value <= COORD_MAX:
        raise ActionError(
            f"{name}={_short(value)} is out of range: coordinates are in [0, {COORD_MAX}]"
        )


def _check_index(value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionError(f"index must be an integer (a UI element's index), got {_short(value)}")
    if not 0 <= value <= MAX_INDEX:
        raise ActionError(f"index={_short(value)} is out of range: element indices are in "
                          f"[0, {MAX_INDEX}]")


def _check_choice(name: str, value: Any, allowed: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise ActionError(f"{name}={value!r} is not one of {', '.join(allowed)}")


@cache
def _field_rules(kind: str, indexed: bool) -> tuple[tuple[str, bool], ...]:
    """``(field, needed)`` in field order for ``validate``: the fields a ``kind`` action needs
    (True) and those it must not have (False); its optional fields are neither."""
    wanted = action_fields(kind, indexed)
    optional = OPTIONAL_FIELDS.get(kind, ())
    return tuple((name, name in wanted) for name in _ALL_FIELDS
                 if name in wanted or name not in optional)


def validate(action: PhoneAction) -> None:
    """Raise ``ActionError`` unless ``action`` is well formed and in range."""
    kind = action.type
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise ActionError(f"unknown action {kind!r}; known actions: {', '.join(ACTION_TYPES)}")
    indexed = action.index is not None
    if indexed and kind not in INDEX_ACTIONS:
        raise ActionError(f"{kind} takes no index: only {', '.join(INDEX_ACTIONS)} name a UI "
                          f"element by index; {ACTION_DOCS[kind]}")
    if indexed and (action.x is not None or action.y is not None):
        raise ActionError(f"{kind} takes either index or x and y, not both: {ACTION_DOCS[kind]}")
    wanted = action_fields(kind, indexed)
    optional = OPTIONAL_FIELDS.get(kind, ())
    if indexed:
        _check_index(action.index)
    for name, needed in _field_rules(kind, indexed):  # the first field that breaks a rule
        value = getattr(action, name)
        if needed and value is None:
            raise ActionError(f"{kind} needs {name}: {ACTION_DOCS[kind]}")
        if not needed and value is not None:
            raise ActionError(f"{kind} takes no {name}: {ACTION_DOCS[kind]}")
    if "x" in optional and (action.x is None) != (action.y is None):
        raise ActionError(f"{kind} takes a point to tap first as both x and y")
    for name in ("x", "y", "x2", "y2"):
        if name in wanted or getattr(action, name) is not None:
            _check_coord(name, getattr(action, name))
    for name in FLAG_FIELDS:
        if getattr(action, name) is not None and getattr(action, name) is not True:
            raise ActionError(f"{name} must be true or false, got {_short(getattr(action, name))}")
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


def _short(value: Any, limit: int = 80) -> str:
    """A bounded ``repr`` for error messages that never raises."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not escape
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


