"""Tiles reduced only where they were drawn on (``Painter.tile`` with ``boxes``) have the
pixels of tiles reduced whole, for every kind the painter draws."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from phone_gym.world import painter as P
from phone_gym.world import theme as T
from phone_gym.world.painter import SS, Look, Painter, Tile
from phone_gym.world.widgets_draw import DRAW, draw_tile

TEXTS = ("", "Settings", "Élan vital: ÇÀ ÿ — quite a long line of words " * 3,
         "你好，世界 Hello", "Done ★ ✓ ● ▶")
BGS = ((250, 250, 252), (32, 33, 36))
SIZES = ((1080, 147), (984, 196), (400, 140), (216, 260))
#: Styles some kinds need, or that draw them differently
STYLES: dict[str, tuple[str, ...]] = {
    "dial": ("", "30:600:180:1"), "button": ("", "secondary", "text", "danger"),
    "text": ("", "title", "link", "caption"), "text_field": ("", "multiline"),
    "tab": ("", "top"), "keyboard": ("",), "key": ("",), "board": ("", "hours:4:80"),
    "day": ("", "header", "today"), "time_chip": ("", "small"), "bubble": ("", "out"),
    "event_chip": ("", "block"), "drawer_header": ("colored", "plain"), "canvas": ("",),
}
EXTRAS: dict[str, object] = {"top_bar": (True, 2), "slider": (0, 10, 4), "list_item": "toggle"}
SKIP = {"map", "canvas", "picture"}  # (their own drawing, with ``p.d``: never boxed)


def looks(fast: bool) -> list[tuple[Look, float]]:
    out = []
    kinds = sorted(k for k in DRAW if ":" not in k and k not in SKIP)
    for n, kind in enumerate(kinds):
        texts = TEXTS if not fast else (TEXTS[1 + n % 4],)
        sizes = SIZES if not fast else (SIZES[n % len(SIZES)],)
        for text, style, (lw, lh), bg, scale, state in itertools.product(
                texts, STYLES.get(kind, ("",)), sizes, BGS if not fast else BGS[n % 2:][:1],
                (0.5, 0.37) if not fast else (0.5,), range(3) if not fast else (n % 3,)):
            look = Look(kind, text, "Lunch at noon" if state == 1 else "",
                        "Label" if state == 2 else "", style, "A" if state == 1 else "",
                        None, state == 1, state != 2, state == 2, state == 1,
                        EXTRAS.get(kind), bg, lw, lh, max(1, round(lw * scale)),
                        max(1, round(lh * scale)))
            out.append((look, scale))
    return out


def same(a: Tile, b: Tile) -> bool:
    return (a.solid == b.solid and a.opaque == b.opaque and a.clear == b.clear
            and all((x is None and y is None) or (x is not None and y is not None
                                                  and np.array_equal(x, y))
                    for x, y in ((a.rgb, b.rgb), (a.pre, b.pre), (a.inv, b.inv))))


def check(cases: list[tuple[Look, float]], monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    boxed: dict[str, int] = {}
    real = Painter._boxed

    def counting(self: Painter, boxes: list[tuple[int, int, int, int]]) -> np.ndarray | None:
        arr = real(self, boxes)
        if arr is not None:
            boxed[self.look.kind] = boxed.get(self.look.kind, 0) + 1
        return arr

    monkeypatch.setattr(Painter, "_boxed", counting)
    for look, scale in cases:
        ours = draw_tile(look, scale)
        with monkeypatch.context() as m:
            m.setattr(P, "BOXED_SHARE", 0.0)  # reduce every tile whole
            whole = draw_tile(look, scale)
        assert same(ours, whole), look
    return boxed


def test_boxed_tiles_equal_whole_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    boxed = check(looks(fast=True), monkeypatch)
    assert {"top_bar", "button"} <= set(boxed), boxed  # the boxed path was taken


@pytest.mark.slow  # every kind in many texts, states, sizes and scales
def test_boxed_tiles_equal_whole_ones_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    boxed = check(looks(fast=False), monkeypatch)
    assert {"top_bar", "button", "status_bar", "tab", "bubble", "keyboard", "icon"} <= set(boxed), \
        boxed


def test_drawing_the_painter_does_not_follow_reduces_the_tile_whole() -> None:
    look = Look("text", "", "", "", "", "", None, None, True, False, False, None,
                (250, 250, 252), 400, 200, 200, 100)
    painter = Painter(look, 0.5, False, SS)
    painter.rect(10, 10, 60, 60, (200, 30, 30))  # followed: a box
    assert painter.boxes
    painter.d.line((300, 150, 390, 190), fill=(0, 0, 0), width=3)  # not followed
    assert painter.boxes is None
    tile = painter.tile()
    assert tile.rgb[85:95, 150:195].min() < 100  # the line is there


def test_a_full_opaque_rect_makes_the_tile_one_color_again() -> None:
    look = Look("top_bar", "", "", "", "", "", None, None, True, False, False, None,
                (250, 250, 252), 1080, 147, 540, 74)
    painter = Painter(look, 0.5, False, SS)
    painter.rect(100, 20, 200, 60, (0, 0, 0))
    painter.rect(0, 0, 1080, 147, T.DEFAULT_PALETTE.top_bar_bg)
    assert painter.boxes == [] and painter.fill == T.DEFAULT_PALETTE.top_bar_bg
    tile = painter.tile()
    assert (tile.rgb == T.DEFAULT_PALETTE.top_bar_bg).all()
