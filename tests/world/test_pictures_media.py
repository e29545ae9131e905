"""Product pictures (an object chosen from the product's name) and the media kit's picture
blocks: cover grids, cover art and the camera's photo preview."""

from __future__ import annotations

import numpy as np
import pytest

from phone_gym.world import pictures
from phone_gym.world import theme as T
from phone_gym.world.kit.media import Cover, CoverArt, CoverGrid, PhotoPreview
from phone_gym.world.layout import Frame, place_column
from phone_gym.world.render import Renderer
from phone_gym.world.widgets import Node

NAMES = {"Stride Trail Runner": "shoe", "Arden Wireless Earbuds": "headphones",
         "Trekker Daypack": "bag", "Tempo Field Watch": "watch", "Hearth Tea Kettle": "mug",
         "Lumen Crew Tee": "shirt", "Pixel Phone Case": "phone", "The Cookbook": "book",
         "Cucina Cast Iron Skillet": "pan", "Mystery Gift": "box"}


def test_a_product_shows_the_object_its_name_says() -> None:
    drawn = {}
    for name, obj in NAMES.items():
        assert pictures.product_object(name) == obj
        kind, seed = pictures.decode(pictures.product(name))
        assert kind == "product" and pictures.PRODUCTS[seed % len(pictures.PRODUCTS)] == obj
        assert pictures.product(name) == pictures.product(name)  # stable
        drawn[obj] = pictures.render(kind, seed, 160, 160)
    assert len({a.tobytes() for a in drawn.values()}) == len(NAMES)  # every object differs
    # the same object with another seed: another backdrop or colour, the same object
    a = pictures.render("product", 2 * len(pictures.PRODUCTS) + 2, 160, 160)
    b = pictures.render("product", 5 * len(pictures.PRODUCTS) + 2, 160, 160)
    assert a.tobytes() != b.tobytes()


def test_the_kit_blocks_refuse_what_is_not_a_picture() -> None:
    with pytest.raises(ValueError, match="pictures.encode"):
        CoverArt("sunset")
    with pytest.raises(ValueError, match="pictures.encode"):
        PhotoPreview("pic:selfie:1", None)
    with pytest.raises(ValueError, match="columns"):
        CoverGrid([], lambda i: None, columns=0)
    with pytest.raises(ValueError, match="Camera"):
        CoverGrid([Cover("Camera", "3", "")], lambda i: None)


def _shot(content: list[Node]) -> np.ndarray:
    """``content`` placed down a bare screen and rendered at a quarter size."""
    frame = Frame()
    place_column(frame, content, T.PAD, T.SCREEN_W - T.PAD, 200, (0, 0, T.SCREEN_W, T.SCREEN_H))
    return Renderer(270, 600, cache_tiles=False).render(frame)


def test_covers_draw_their_picture_and_words() -> None:
    pic = pictures.encode("landscape", 4)
    opened: list[int] = []
    grid = CoverGrid([Cover("Camera", "12", pic), Cover("Pets", "3",
                                                        pictures.encode("pet", 2))],
                     opened.append)
    named = _shot([grid])
    unnamed = _shot([CoverGrid([Cover("", "", pic), Cover("", "", pictures.encode("pet", 2))],
                               opened.append)])
    assert named.std() > 20 and named.tobytes() != unnamed.tobytes()  # the words are drawn
    art = _shot([CoverArt(pictures.encode("album", 1))])
    assert art.tobytes() != _shot([CoverArt(pictures.encode("album", 2))]).tobytes()
