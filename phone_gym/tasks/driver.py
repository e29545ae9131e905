"""The ``Driver`` oracles act through: it reads the UI element list (what an agent sees, or a
phone's ``uiautomator dump``) and builds actions on what it finds.

Oracles are generators: each helper here is itself a generator of ``PhoneAction``s, used with
``yield from``. Between actions the phone has moved on, so helpers look again at the fresh
screen. Oracles read state only to plan (``ui.state``, the ``DeviceState`` facade); they
change it only through actions. The same driver works in PhoneWorld, over adb and on the
virtual adb device, wherever the labels and ids match.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any, TypeVar

import numpy as np

from ..actions import PhoneAction
from ..verifiers.state import DeviceState
from ..world.a11y import UIElement
from ..world.locale import system_strings
from ..world.widgets import ANDROID_CLASS

T = TypeVar("T")
MAX_SCROLLS = 30
#: Kinds that float above the content (a PhoneWorld element hint): a target under one of
#: them is not tappable until scrolled clear.
OVERLAYS = frozenset({"fab", "toast", "keyboard", "key", "menu", "menu_item", "nav_bar", "drawer",
                      "speed_dial_item",
                      "icon_nav"})
MIN_HEIGHT = 20


class OracleError(RuntimeError):
    """The oracle could not find what it needed on screen (the screen is not what its script
    expects): the episode's oracle runner then starts over from a clean app."""


class Unrecoverable(OracleError):
    """The phone's state cannot lead to success any more (something the task does not allow
    was changed or deleted): no oracle can solve it from here."""


def _matches_kind(e: UIElement, kind: str) -> bool:
    if e.kind:
        return e.kind == kind
    return e.class_name == ANDROID_CLASS.get(kind, "")


class Driver:
    """Finds elements on the current screen and builds actions on them.

    ``elements`` returns the current UI element list (refreshed after every action);
    ``state`` is the phone's ``DeviceState`` (read-only by convention).
    """

    def __init__(self, elements: Callable[[], Sequence[UIElement]],
                 state: DeviceState | None = None, *,
                 pictures: Callable[[], Sequence[str]] | None = None,
                 routes: np.random.Generator | None = None, detours: bool = False,
                 spare: int = 0, locale: str = "en-US") -> None:
        self.elements = elements
        #: The phone's locale: an oracle looks for the labels its screens show in it.
        self.locale = locale
        self._state = state
        self._pictures = pictures
        #: Picks a route where the app offers several (``choose``); None: always the first.
        self.routes = routes
        #: Take recoverable detours (a wrong app first, then the right one): for SFT data
        #: that shows recovery.
        self.detours = detours
        #: Steps the task's budget leaves beyond the oracle's direct route: a longer route
        #: or a detour is taken only when it fits (``spend``).
        self.spare = spare
        #: Why the oracle takes its next steps (``why``), kept until changed.
        self.reason = ""

    # --- reasons and routes ----------------------------------------------------------------
    def why(self, reason: str) -> None:
        """Say why the next steps are taken ("The note lists three expenses; the second is
        still to add"): recorded with each step until the next ``why``."""
        self.reason = reason

    def choose(self, options: Sequence[T]) -> T:
        """One of ``options`` (several routes to the same end), picked from the episode's
        seed; the first when this driver picks no routes (a real phone)."""
        if not options:
            raise ValueError("Driver.choose needs at least one option")
        if self.routes is None or len(options) == 1:
            return options[0]
        return options[int(self.routes.integers(len(options)))]

    def spend(self, steps: int, margin: int = 2) -> bool:
        """Take ``steps`` more than the direct route if the budget's spare allows (keeping
        ``margin`` for seeds whose direct route is longer)."""
        if self.routes is None or steps > self.spare - margin:
            return False
        self.spare -= steps
        return True

    def picture_texts(self) -> list[str]:
        """The text drawn into pictures on screen now (a receipt, a page of a document): a
        vision model reads it from the pixels; the UI element list does not hold it."""
        if self._pictures is None:
            raise OracleError("this phone gives no picture text (read it from a screenshot)")
        return list(self._pictures())

    @property
    def state(self) -> Any:
        if self._state is None:
            raise OracleError("this driver has no device state to read")
        return self._state

    # --- finding -----------------------------------------------------------------------------
    def find_all(self, text: str | None = None, *, id: str | None = None,
                 desc: str | None = None, kind: str | None = None,
                 cls: str | None = None) -> list[UIElement]:
        """Matching elements on screen, topmost first (text matches exactly)."""
        elements = list(self.elements())
        elements.reverse()
        # the few candidates for the first key asked first (one pass), then every check
        if text is not None:
            elements = [e for e in elements if e.text == text]
        elif id is not None:
            elements = [e for e in elements if e.short_id == id]
        out = []
        for e in elements:
            if text is not None and e.text != text:
                continue
            if id is not None and e.short_id != id:
                continue
            if desc is not None and e.content_desc != desc:
                continue
            if kind is not None and not _matches_kind(e, kind):
                continue
            if cls is not None and e.short_class != cls:
                continue
            if e.bounds[3] - e.bounds[1] < MIN_HEIGHT or not e.enabled:
                continue
            out.append(e)
        return out

    def find(self, text: str | None = None, **query: Any) -> UIElement | None:
        """The topmost matching element on screen, or None."""
        found = self.find_all(text, **query)
        return found[0] if found else None

    def must(self, text: str | None = None, **query: Any) -> UIElement:
        found = self.find(text, **query)
        if found is None:
            raise OracleError(f"nothing matching text={text!r} {query} on screen")
        return found

    def usable(self, e: UIElement) -> bool:
        """Not clipped by scrolling, and its center not covered by an overlay (PhoneWorld
        knows both; on a real phone every element found counts as usable)."""
        if e.clipped and e.kind not in ("list", "column"):
            return False
        cx, cy = ((e.bounds[0] + e.bounds[2]) // 2, (e.bounds[1] + e.bounds[3]) // 2)
        for other in self.elements()[e.index + 1:]:
            if other.kind in OVERLAYS:
                x0, y0, x1, y1 = other.bounds
                if x0 <= cx < x1 and y0 <= cy < y1:
                    return False
        return True

    def _signature(self) -> list[tuple[str, tuple[int, int, int, int]]]:
        return [(e.text, e.bounds) for e in self.elements()]

    def seek(self, text: str | None = None,
             **query: Any) -> Generator[PhoneAction, None, bool]:
        """Scroll until a matching element is fully on screen (down first, then back up);
        returns whether one is (``yield from``'s value): an element that may be gone."""
        for direction in ("down", "up"):
            for _ in range(MAX_SCROLLS):
                found = self.find(text, **query)
                if found is not None and self.usable(found):
                    return True
                before = self._signature()
                yield PhoneAction("scroll", x=500, y=500, direction=direction)
                if self._signature() == before:
                    break
        return False

    def reveal(self, text: str | None = None, **query: Any) -> Iterator[PhoneAction]:
        """Scroll until a matching element is fully on screen (down first, then back up)."""
        if not (yield from self.seek(text, **query)):
            self.must(text, **query)

    # --- acting ------------------------------------------------------------------------------
    def tap(self, text: str | None = None, **query: Any) -> Iterator[PhoneAction]:
        """Click an element, scrolling to it first."""
        yield from self.reveal(text, **query)
        x, y = self.must(text, **query).center_norm
        yield PhoneAction("click", x=x, y=y)

    def long_press(self, text: str | None = None, **query: Any) -> Iterator[PhoneAction]:
        """Long-press an element, scrolling to it first."""
        yield from self.reveal(text, **query)
        x, y = self.must(text, **query).center_norm
        yield PhoneAction("long_press", x=x, y=y)

    def fill(self, field_id: str, text: str) -> Iterator[PhoneAction]:
        """Focus the text field ``field_id`` and make its value ``text``: an empty field is
        typed into; a filled one is replaced through long-press, "Select all", then typing."""
        yield from self.tap(id=field_id, kind="text_field")
        field = self.must(id=field_id, kind="text_field")
        if field.text == text:
            return
        if field.text:
            yield from self.long_press(id=field_id, kind="text_field")
            yield from self.tap(self.system_label("Select all"), kind="menu_item")
            if not text:
                yield from self.tap(id="key_delete")
                return
        yield PhoneAction("type", text=text)

    def system_label(self, key: str) -> str:
        """The system UI's label ``key`` (the English string: "Paste", "Select all") as the
        phone's locale shows it."""
        return system_strings(self.locale).t(key)

    def set_switch(self, label: str, on: bool) -> Iterator[PhoneAction]:
        """Flip the switch labelled ``label`` if it is not ``on`` already."""
        yield from self.reveal(label, kind="toggle")
        switch = self.must(label, kind="toggle")
        if switch.checked != on:
            x, y = switch.center_norm
            yield PhoneAction("click", x=x, y=y)

    def open_app(self, name: str) -> Iterator[PhoneAction]:
        """Launch an app (it resumes where it was, if it was running), by one of the routes
        a person takes (``choose``, when the budget's spare allows): the ``open_app``
        action, its icon on the home screen, or the app drawer (scrolled to the icon). With
        ``detours``, a wrong app is opened and left first."""
        if self.detours and self.spend(2):
            yield from self._detour(name)
        route = self.choose(("action", "home", "drawer"))
        if route == "home" and self.spend(1):
            yield PhoneAction("press", button="home")
            icon = self.find(id=f"home_{name.lower()}")
            if icon is not None and self.usable(icon):
                self.why(f"{name}'s icon is on the home screen: opening the app from it")
                x, y = icon.center_norm
                yield PhoneAction("click", x=x, y=y)
                return
            route = "drawer"  # not on this home page: the drawer has every app
        if route == "drawer" and self.spend(4):
            yield from self._from_drawer(name)
            return
        yield PhoneAction("open_app", app=name)

    def _detour(self, name: str) -> Iterator[PhoneAction]:
        """Open a wrong app from the home screen, see it is wrong, go back home."""
        yield PhoneAction("press", button="home")
        icons = [e for e in self.find_all(kind="app_icon")
                 if e.text and e.text != name and self.usable(e)]
        if not icons:
            return
        wrong = self.choose(icons)
        self.why(f"Opening {wrong.text} by mistake: it is not the app the task needs")
        x, y = wrong.center_norm
        yield PhoneAction("click", x=x, y=y)
        self.why(f"This is {wrong.text}, not {name}: back to the home screen")
        yield PhoneAction("press", button="home")

    def _from_drawer(self, name: str) -> Iterator[PhoneAction]:
        """Home, "All apps", then the app's icon, scrolled to. (Not the drawer's search:
        it needs the label the launcher shows, which the instruction may not give.)"""
        yield PhoneAction("press", button="home")
        yield from self.tap(id="all_apps")
        icon_id = f"drawer_{name.lower()}"
        self.why(f"Looking for {name} in the app drawer")
        if self.find(id=icon_id) is None:
            for _ in range(MAX_SCROLLS):
                before = self._signature()
                yield PhoneAction("scroll", x=500, y=600, direction="down")
                if self.find(id=icon_id) is not None or self._signature() == before:
                    break
        if self.find(id=icon_id) is None:  # not in the drawer (a mini-program)
            yield PhoneAction("open_app", app=name)
            return
        yield from self.tap(id=icon_id)

    def press(self, button: str) -> Iterator[PhoneAction]:
        yield PhoneAction("press", button=button)

    def finish(self, status: str = "success") -> Iterator[PhoneAction]:
        """End the episode: ``"success"``, or ``"infeasible"`` when the task cannot be done."""
        yield PhoneAction("finish", status=status)

    def answer(self, text: str) -> Iterator[PhoneAction]:
        yield PhoneAction("answer", text=text)


# --- what a step says -------------------------------------------------------------------------
_BUTTONS = {"back": "Go back", "home": "Go to the home screen", "enter": "Press Enter",
            "recents": "Open the recent apps", "volume_up": "Turn the volume up",
            "volume_down": "Turn the volume down"}


def _label(e: UIElement) -> str:
    text = e.text or e.content_desc or e.hint
    if not text:
        return e.short_id.replace("_", " ") or "the element"
    text = " ".join(text.split())
    return f"“{text[:40]}…”" if len(text) > 40 else f"“{text}”"


def element_at(elements: Sequence[UIElement], x: int, y: int) -> UIElement | None:
    """The topmost element under the point ``(x, y)`` in [0, 1000] that says what it is
    (text, description or id), preferring clickable ones."""
    hits = [e for e in elements if e.bounds_norm[0] <= x < e.bounds_norm[2]
            and e.bounds_norm[1] <= y < e.bounds_norm[3]]
    for want_click in (True, False):
        for e in reversed(hits):
            if (e.clickable or e.long_clickable or not want_click) and (
                    e.text or e.content_desc or e.short_id):
                return e
    return None


def step_instruction(action: PhoneAction, elements: Sequence[UIElement]) -> str:
    """A low-level instruction for ``action`` on the screen ``elements`` show ("Tap “Save”",
    "Type “milk” in the Title field"), as AndroidControl's step instructions read."""
    t = action.type
    if t in ("click", "double_click", "long_press"):
        verb = {"click": "Tap", "double_click": "Double-tap", "long_press": "Long-press"}[t]
        e = element_at(elements, action.x or 0, action.y or 0)
        return f"{verb} {_label(e)}" if e is not None else f"{verb} the screen"
    if t == "type":
        field = next((e for e in elements if e.focused and e.editable), None)
        where = f" in the {_label(field)} field" if field is not None else ""
        return f"Type “{action.text}”{where}"
    if t == "scroll":
        return f"Scroll {action.direction}"
    if t == "drag":
        return "Drag across the screen"
    if t == "press":
        return _BUTTONS.get(action.button or "", f"Press {action.button}")
    if t == "open_app":
        return f"Open the {action.app} app"
    if t == "close_app":
        return f"Close the {action.app} app"
    if t == "wait":
        return "Wait for the screen to settle"
    if t == "answer":
        return f"Answer “{action.text}”"
    if t == "finish":
        return "Report that the task cannot be done" if action.status == "infeasible" \
            else "Finish: the task is done"
    return t


def default_reason(action: PhoneAction, goal: str) -> str:
    """A reason for a step the oracle gave none for: the step's part in the task."""
    goal = goal.strip().rstrip(".")
    short = goal if len(goal) <= 120 else goal[:117] + "…"
    t = action.type
    if t == "open_app":
        return f"The task needs {action.app}: opening it. Task: {short}"
    if t == "answer":
        return "The screens shown hold the answer to the question"
    if t == "finish":
        return "Everything the task asks is done" if action.status != "infeasible" \
            else "What the task asks for is not on this phone"
    if t == "scroll":
        return f"What the task needs is not on screen yet. Task: {short}"
    if t == "type":
        return f"The field for the task's value is focused. Task: {short}"
    return f"The next step towards the task. Task: {short}"
