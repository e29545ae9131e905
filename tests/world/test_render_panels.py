"""Dialogs and drawers: their tiles are keyed by shape (not by title) and made from two
supersampled bands of corners, pixel-identical to drawing the whole panel with the
``Painter``."""

from __future__ import annotations

import numpy as np
import pytest

from phone_gym.world import render as R
from phone_gym.world import theme as T
from phone_gym.world.layout import Frame
from phone_gym.world.painter import SS, Look, Painter, Tile
from phone_gym.world.theme import DEFAULT_PALETTE
from phone_gym.world.widgets import Node
from phone_gym.world.widgets_draw import DRAW, PANELS, _panel_tile


def _whole(look: Look, font_scale: float) -> tuple[np.ndarray | None, ...]:
    painter = Painter(look, font_scale, True, SS)
    DRAW[look.kind](painter, look)
    tile = painter.tile()
    return tile.rgb, np.array(tile.solid), tile.pre, tile.inv


@pytest.mark.parametrize("kind", sorted(PANELS))
@pytest.mark.parametrize("size", [(540, 1200), (1080, 2400), (333, 777)])
def test_panel_tiles_equal_whole_drawings(kind: str, size: tuple[int, int]) -> None:
    width, height = size
    font_scale = min(width / T.SCREEN_W, height / T.SCREEN_H)
    made = 0
    for lw, lh in ((984, 480), (984, 1028), (700, 2400), (301, 150), (1080, 91)):
        tw = (lw * width + T.SCREEN_W // 2) // T.SCREEN_W
        th = (lh * height + T.SCREEN_H // 2) // T.SCREEN_H
        look = Look(kind, "", "", "", "", "", None, None, True, False, False, None,
                    (142, 142, 142), lw, lh, tw, th, DEFAULT_PALETTE)
        tile = _panel_tile(look, font_scale)
        if tile is None:
            continue  # too short for bands: drawn whole
        made += 1
        for ours, theirs in zip((tile.rgb, np.array(tile.solid), tile.pre, tile.inv),
                                _whole(look, font_scale), strict=True):
            assert ours is not None and theirs is not None
            assert np.array_equal(ours, theirs), (kind, size, lw, lh)
    assert made >= 3


def test_a_dialog_tile_is_drawn_once_whatever_its_title(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    drawn: list[str] = []
    real = R.draw_tile

    def counting(look: Look, font_scale: float) -> Tile:
        drawn.append(look.kind)
        return real(look, font_scale)

    monkeypatch.setattr(R, "draw_tile", counting)
    renderer = R.Renderer(270, 600, cache=R.TileCache())
    for title in ("Delete contact?", "Sort by", "Select date"):
        frame = Frame()
        frame.add(Node("dialog", text=title, id="dialog"), (48, 900, 1032, 1400))
        frame.add(Node("text", text=title, id="title"), (96, 940, 984, 1000), parent=0)
        renderer.render(frame)
    assert drawn.count("dialog") == 1
    assert drawn.count("text") == 3


def test_pixels_are_numpys_view_of_the_image() -> None:
    """``painter.pixels`` (one pass of Pillow's raw encoder) gives ``np.asarray``'s array."""
    from PIL import Image

    from phone_gym.world.painter import pixels

    rng = np.random.default_rng(0)
    for mode, shape in (("RGB", (3,)), ("RGBA", (4,)), ("L", ())):
        for w, h in ((1, 1), (540, 98), (333, 1201), (7, 3)):
            arr = rng.integers(0, 256, (h, w, *shape), dtype=np.uint8)
            img = Image.frombytes(mode, (w, h), arr.tobytes())
            got = pixels(img)
            assert got.dtype == np.uint8 and np.array_equal(got, np.asarray(img)), (mode, w, h)
            assert np.array_equal(got, arr)
