"""The ``Driver`` oracles act through: it reads the UI element list (what an agent sees, or a
phone's ``uiautomator dump``) and builds actions on what it finds.

Oracles are generators: each helper here is itself a generator of ``PhoneAction``s, used with
``yield from``. Between actions the phone has moved on, so helpers look again at the fresh
screen. Oracles read state only to plan (``ui.state``, the ``DeviceState`` facade); they
change it only through actions. The same driver works in PhoneWorld, over adb and on the
virtual adb device, wherever the labels and ids match.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..actions import PhoneAction
from ..verifiers.state import DeviceState
from ..world.a11y import UIElement
from ..world.widgets import ANDROID_CLASS

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
                 state: DeviceState | None = None) -> None:
        self.elements = elements
        self._state = state

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
        out = []
        for e in reversed(list(self.elements())):
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

    def reveal(self, text: str | None = None, **query: Any) -> Iterator[PhoneAction]:
        """Scroll until a matching element is fully on screen (down first, then back up)."""
        for direction in ("down", "up"):
            for _ in range(MAX_SCROLLS):
                found = self.find(text, **query)
                if found is not None and self.usable(found):
                    return
                before = self._signature()
                yield PhoneAction("scroll", x=500, y=500, direction=direction)
                if self._signature() == before:
                    break
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
            yield from self.tap("Select all", kind="menu_item")
            if not text:
                yield from self.tap(id="key_delete")
                return
        yield PhoneAction("type", text=text)

    def set_switch(self, label: str, on: bool) -> Iterator[PhoneAction]:
        """Flip the switch labelled ``label`` if it is not ``on`` already."""
        yield from self.reveal(label, kind="toggle")
        switch = self.must(label, kind="toggle")
        if switch.checked != on:
            x, y = switch.center_norm
            yield PhoneAction("click", x=x, y=y)

    def open_app(self, name: str) -> Iterator[PhoneAction]:
        """Launch an app (it resumes where it was, if it was running)."""
        yield PhoneAction("open_app", app=name)

    def press(self, button: str) -> Iterator[PhoneAction]:
        yield PhoneAction("press", button=button)

    def finish(self, status: str = "success") -> Iterator[PhoneAction]:
        """End the episode: ``"success"``, or ``"infeasible"`` when the task cannot be done."""
        yield PhoneAction("finish", status=status)

    def answer(self, text: str) -> Iterator[PhoneAction]:
        yield PhoneAction("answer", text=text)
