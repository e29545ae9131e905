"""Helpers for tests that drive a ``Device`` with actions, finding widgets on its frame (the
placed nodes, with their widget kinds and unclipped rects: more than the UI element list
that oracles read through ``phone_gym.mockapps.Driver``)."""

from __future__ import annotations

from collections.abc import Iterator

from phone_gym.actions import PhoneAction
from phone_gym.world import Device
from phone_gym.world import theme as T
from phone_gym.world.layout import Placed

MAX_SCROLLS = 30
OVERLAYS = ("fab", "toast", "keyboard", "menu")


class OracleError(RuntimeError):
    """Nothing matching was found on screen."""


def center(placed: Placed) -> tuple[int, int]:
    """The normalized [0, 1000] center of a placed node's visible rect."""
    x0, y0, x1, y1 = placed.rect
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    return (cx * 1000 + T.SCREEN_W - 1) // T.SCREEN_W, (cy * 1000 + T.SCREEN_H - 1) // T.SCREEN_H


class Driver:
    """Finds placed nodes on the device's frame and builds actions on them."""

    def __init__(self, device: Device) -> None:
        self.device = device

    @property
    def system(self):  # noqa: ANN201 - SystemState, read-only by convention
        return self.device.system

    def app(self, name: str):  # noqa: ANN201 - the App, read-only by convention
        app = self.device.app(name)
        if app is None:
            raise OracleError(f"no app {name!r}")
        return app

    def find(self, text: str | None = None, *, id: str | None = None, desc: str | None = None,
             kind: str | None = None) -> Placed | None:
        """The first visible node matching all given fields (text matches exactly)."""
        for placed in reversed(self.device.frame().items):
            node = placed.node
            if text is not None and node.text != text:
                continue
            if id is not None and node.id != id:
                continue
            if desc is not None and node.desc != desc:
                continue
            if kind is not None and node.kind != kind:
                continue
            y0, y1 = placed.rect[1], placed.rect[3]
            if y1 - y0 < 20:
                continue
            return placed
        return None

    def reveal(self, text: str | None = None, **query: str) -> Iterator[PhoneAction]:
        """Scroll until a matching node is on screen (down first, then back up)."""
        for direction in ("down", "up"):
            for _ in range(MAX_SCROLLS):
                found = self.find(text, **query)
                if found is not None and self._fully_visible(found):
                    return
                before = self.device.scroll.copy()
                yield PhoneAction("scroll", x=500, y=500, direction=direction)
                if self.device.scroll == before:
                    break
        if self.find(text, **query) is None:
            raise OracleError(f"nothing matching text={text!r} {query} on screen")

    def _fully_visible(self, placed: Placed) -> bool:
        """Not clipped by scrolling, and its center not covered by an overlay."""
        if placed.rect != placed.full and placed.node.kind not in ("list", "column"):
            return False
        x0, y0, x1, y1 = placed.rect
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        items = self.device.frame().items
        start = next(i for i, p in enumerate(items) if p is placed) + 1
        for other in items[start:]:
            if other.node.kind in OVERLAYS and other.parent == -1:
                ox0, oy0, ox1, oy1 = other.rect
                if ox0 <= cx < ox1 and oy0 <= cy < oy1:
                    return False
        return True

    def tap(self, text: str | None = None, **query: str) -> Iterator[PhoneAction]:
        """Click a node, scrolling to it first."""
        yield from self.reveal(text, **query)
        x, y = center(self._must(text, **query))
        yield PhoneAction("click", x=x, y=y)

    def long_press(self, text: str | None = None, **query: str) -> Iterator[PhoneAction]:
        """Long-press a node, scrolling to it first."""
        yield from self.reveal(text, **query)
        x, y = center(self._must(text, **query))
        yield PhoneAction("long_press", x=x, y=y)

    def fill(self, field_id: str, text: str) -> Iterator[PhoneAction]:
        """Focus a text field and make its value ``text``: an empty field is typed into;
        a filled one is replaced through long-press, "Select all", then typing."""
        yield from self.tap(id=field_id, kind="text_field")
        field = self._must(id=field_id, kind="text_field")
        if field.node.text == text:
            return
        if field.node.text:
            yield from self.long_press(id=field_id, kind="text_field")
            yield from self.tap("Select all", kind="menu_item")
            if not text:
                yield from self.tap(id="key_delete")
                return
        yield PhoneAction("type", text=text)

    def open_app(self, name: str) -> Iterator[PhoneAction]:
        """Launch an app. It resumes where it was if it was running; oracles start on a
        fresh device, so it opens on its first screen."""
        yield PhoneAction("open_app", app=name)

    def press(self, button: str) -> Iterator[PhoneAction]:
        yield PhoneAction("press", button=button)

    def _must(self, text: str | None = None, **query: str) -> Placed:
        found = self.find(text, **query)
        if found is None:
            raise OracleError(f"nothing matching text={text!r} {query} on screen")
        return found


def act(device: Device, action: PhoneAction) -> None:
    """Carry out one action; it must not fail."""
    error = device.step(action)
    assert error is None, error


def drive(device: Device, actions: Iterator[PhoneAction]) -> None:
    """Carry out a driver helper's actions (the helper looks at the fresh screen each time)."""
    for action in actions:
        act(device, action)


def tap(device: Device, text: str | None = None, **query: str) -> None:
    """Click a widget, scrolling to it first."""
    drive(device, Driver(device).tap(text, **query))


def long_press(device: Device, text: str | None = None, **query: str) -> None:
    drive(device, Driver(device).long_press(text, **query))


def fill(device: Device, field_id: str, text: str) -> None:
    drive(device, Driver(device).fill(field_id, text))


def press(device: Device, button: str) -> None:
    act(device, PhoneAction("press", button=button))


def open_app(device: Device, name: str) -> None:
    act(device, PhoneAction("open_app", app=name))


def type_text(device: Device, text: str) -> None:
    act(device, PhoneAction("type", text=text))


def shown(device: Device, text: str | None = None, **query: str) -> bool:
    """Whether a matching widget is on screen now."""
    return Driver(device).find(text, **query) is not None
