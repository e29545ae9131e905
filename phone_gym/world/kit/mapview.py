"""A map screen's content: a street map (``world.maps``) that a drag pans and a double tap
zooms, with pins for places and floating controls at fixed boxes over it.

The app keeps a ``MapState`` in its ``ui`` (the view and the time of the last tap on the
map, which tells a double tap); the handlers here update it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from .. import maps
from .. import theme as T
from ..maps import Label, MapView
from ..widgets import Handler, Node

PIN_W, PIN_H = 84, 110


@dataclass
class MapState:
    """What a map shows and the time of its last tap (two taps at once: a double tap)."""

    view: MapView
    last_tap: datetime | None = None

    def pan(self, x0: int, y0: int, x1: int, y1: int, width: int, height: int) -> None:
        """A drag from ``(x0, y0)`` to ``(x1, y1)`` in 0..1000 of the map's box moves it."""
        self.view = self.view.panned((x1 - x0) * width / 1000, (y1 - y0) * height / 1000)

    def tap(self, now: datetime) -> None:
        """A tap; the second tap of a double tap zooms in."""
        if self.last_tap == now:
            self.view = self.view.zoomed(1)
            self.last_tap = None
        else:
            self.last_tap = now

    def zoom(self, step: int) -> None:
        self.view = self.view.zoomed(step)


@dataclass(frozen=True)
class Pin:
    """A place's marker: tapping it calls ``on_click``; ``name`` is its description."""

    name: str
    lat: float
    lon: float
    on_click: Handler | None = None
    id: str = ""
    color: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class Control:
    """A floating button at ``at`` (x0, y0, x1, y1 in the map's box): a ``glyph`` (round)
    or a ``text`` label (a pill); ``style`` ``square`` for OsmAnd's rounded squares."""

    desc: str
    on_click: Handler
    at: tuple[int, int, int, int]
    glyph: str = ""
    text: str = ""
    id: str = ""
    style: str = ""
    color: tuple[int, int, int] | None = None  # the fill (default: the surface colour)


def MapCanvas(state: MapState, now: datetime, *, height: int, labels: Sequence[Label] = (),
              pins: Sequence[Pin] = (), controls: Sequence[Control] = (),
              route: Sequence[tuple[float, float]] = (), id: str = "map",
              desc: str = "Map") -> Node:
    """The map of ``state.view`` across the screen, ``height`` tall: its ``labels`` and
    ``route`` drawn, a ``Pin`` node over each pin's place that shows, and the ``controls``."""
    if height <= 0:
        raise ValueError(f"height must be positive; got {height!r}")
    width = T.SCREEN_W
    node = Node("map", text=maps.encode(state.view, labels, route), id=id, desc=desc,
                height=height)
    node.on_stroke = lambda x0, y0, x1, y1: state.pan(x0, y0, x1, y1, width, height)
    node.on_click = lambda: state.tap(now)
    kids: list[Node] = []
    for pin in pins:
        x, y = state.view.to_screen(pin.lat, pin.lon, width, height)
        box = (x - PIN_W // 2, y - PIN_H, x + PIN_W // 2, y)
        if box[0] < 0 or box[2] > width or box[1] < 0 or box[3] > height:
            continue  # off the map
        kids.append(Node("pin", desc=pin.name, id=pin.id or f"pin_{pin.name}", at=box,
                         height=PIN_H, on_click=pin.on_click, color=pin.color))
    for c in controls:
        kids.append(Node("map_button", text=c.text, glyph=c.glyph, desc=c.desc,
                         id=c.id, at=c.at, height=c.at[3] - c.at[1], on_click=c.on_click,
                         style=c.style, color=c.color))
    node.children = kids
    return node

