"""Media blocks whose content is in the pixels: a picture that carries text (a receipt
photo, a recipe card, a video frame) and a canvas a finger draws on.

Android reports no text for an ``ImageView`` or a custom-drawn ``View``: the accessibility
tree shows the picture's content description only, so an agent must read a receipt from
the screenshot, as it would on a phone. ``Picture`` draws ``lines`` on a paper-colored
card; ``Canvas`` draws the strokes it is given and reports new ones (a ``drag`` across it)
to ``on_stroke(x0, y0, x1, y1)`` in 0..1000 of its own box.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..widgets import Handler, Node, StrokeHandler

RGB = tuple[int, int, int]
PAPER: RGB = (250, 246, 236)
PICTURE_H = 560
CANVAS_H = 760


def Picture(lines: Sequence[str], *, desc: str, id: str = "picture", height: int = PICTURE_H,
            color: RGB = PAPER, on_click: Handler | None = None, picture: str = "") -> Node:
    """A photo of a page of text: ``lines`` drawn (not in the accessibility tree), ``desc``
    its content description (say what it is, never what it says). With ``picture``
    (``pictures.encode(kind, seed)``) it is that drawn picture, ``lines`` drawn in it."""
    return Node("picture", text="\n".join(lines), desc=desc, id=id, height=height,
                color=color, on_click=on_click, style=picture)


@dataclass(frozen=True)
class Stroke:
    """A straight stroke in 0..1000 canvas coordinates, in one color."""

    x0: int
    y0: int
    x1: int
    y1: int
    color: RGB = (28, 28, 32)

    def encode(self) -> str:
        r, g, b = self.color
        return f"{self.x0} {self.y0} {self.x1} {self.y1} {r} {g} {b}"


def encode_strokes(strokes: Sequence[Stroke]) -> str:
    """The strokes as the canvas node's text (what its tile is drawn from)."""
    return ";".join(s.encode() for s in strokes)


def decode_strokes(text: str) -> list[Stroke]:
    out = []
    for part in text.split(";"):
        nums = [int(v) for v in part.split()]
        if len(nums) == 7:
            out.append(Stroke(nums[0], nums[1], nums[2], nums[3], (nums[4], nums[5], nums[6])))
    return out


def Canvas(strokes: Sequence[Stroke], on_stroke: StrokeHandler, *, desc: str = "Canvas",
           id: str = "canvas", height: int = CANVAS_H) -> Node:
    """A drawing surface: a ``drag`` across it calls ``on_stroke`` with the stroke's ends (a
    tap, a dot: both ends the same point, at the canvas's center as the device reports a
    tap's point only to ``on_click``)."""
    node = Node("canvas", text=encode_strokes(strokes), desc=desc, id=id, height=height)
    node.on_stroke = on_stroke
    node.on_click = lambda: on_stroke(500, 500, 500, 500)
    return node
