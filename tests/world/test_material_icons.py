"""Material icons: names, drawing, the legacy symbols they replace, and launcher icons."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from phone_gym.mockapps import APPS
from phone_gym.world import icons
from phone_gym.world.glyphs import reload_fonts, system_fonts_hidden, weight_face
from phone_gym.world.manifest import ICON_SHAPES, AppManifest
from phone_gym.world.painter import Look, Painter
from phone_gym.world.system_ui import icon_node
from phone_gym.world.widgets_draw import draw_tile

NAMES = ("search", "more_vert", "arrow_back", "menu", "add", "delete", "edit", "share", "star",
         "folder", "description", "image", "music_note", "play_arrow", "pause", "skip_next",
         "directions_car", "restaurant", "calendar_month", "eco", "graphic_eq")


def ink(img: Image.Image) -> np.ndarray:
    return np.asarray(img.convert("L")) < 128


@pytest.mark.parametrize("name", NAMES)
def test_named_icons_draw_distinct_shapes(name: str) -> None:
    glyph = icons.icon_glyph(name)
    assert len(glyph) == 1 and 0xE000 <= ord(glyph) <= 0xF8FF  # the font's private use area
    drawn = ink(icons.icon_image(name, 48, (0, 0, 0), (255, 255, 255)))
    assert 20 < drawn.sum() < 48 * 48 * 0.8  # a shape, not a blank or a filled box
    assert drawn[:, :24].any() and drawn[:, 24:].any()  # centered on its box


def test_icons_differ_and_masks_are_cached() -> None:
    masks = {n: icons.icon_mask(n, 48).tobytes() for n in NAMES}
    assert len(set(masks.values())) == len(NAMES)
    assert icons.icon_mask("search", 48) is icons.icon_mask("search", 48)


def test_unknown_icon_names_close_matches() -> None:
    with pytest.raises(ValueError, match="did you mean.*search"):
        icons.icon_glyph("serch")
    with pytest.raises(ValueError, match="accepted"):
        icons.icon_glyph("no-such-icon-at-all")
    with pytest.raises(ValueError, match="size"):
        icons.icon_mask("search", 0)


def test_legacy_symbols_map_to_material_icons() -> None:
    assert all(icons.is_icon(n) for n in icons.LEGACY.values())
    assert icons.material_name("🔍") == icons.material_name("search") == "search"
    assert icons.material_name("⋮") == "more_vert" and icons.material_name("✎") == "edit"
    assert icons.material_name("❤️") == "favorite"  # an emoji selector is dropped
    assert icons.material_name("A") is None and icons.material_name("Hi") is None
    # the navigation bar's shapes stay Android's own (vector symbols)
    assert all(icons.material_name(s) is None for s in "◀●■○")


def _glyph_tile(glyph: str) -> np.ndarray:
    look = Look("icon", "", "", "Search", "", glyph, None, None, True, False, False, None,
                (255, 255, 255), 120, 120, 60, 60)
    return draw_tile(look, 0.5).rgb


def test_icon_widgets_draw_the_material_icon_for_a_name_or_a_legacy_symbol() -> None:
    by_name, by_symbol = _glyph_tile("search"), _glyph_tile("🔍")
    assert np.array_equal(by_name, by_symbol)
    assert not np.array_equal(by_name, _glyph_tile("delete"))
    assert (by_name.min(axis=2) < 128).any()
    assert not np.array_equal(by_name, _glyph_tile("S"))  # not a letter


def test_every_launcher_icon_is_a_material_icon_on_a_shape() -> None:
    for app in APPS:
        m = app.manifest
        assert icons.is_icon(m.icon), f"{m.name}: {m.icon!r} is not a Material icon name"
        assert len(m.icon) > 1 and m.icon_shape in ICON_SHAPES
    tiles = set()
    for app in APPS:
        node = icon_node(app.manifest, lambda: None)
        look = Look("app_icon", node.text, "", node.desc, node.style, node.glyph, node.color,
                    None, True, False, False, None, (40, 60, 90), 270, 300, 135, 150)
        tiles.add(draw_tile(look, 0.5).rgb.tobytes())
        if node.style == "tricolor":  # Chrome's ring is drawn, not a glyph
            continue
        letter = look._replace(glyph=app.manifest.label[:1])
        assert draw_tile(letter, 0.5).rgb.tobytes() != draw_tile(look, 0.5).rgb.tobytes()
    assert len(tiles) == len(APPS)  # each app's icon is its own


def test_manifest_icon_is_validated() -> None:
    assert AppManifest("Pics", "com.example.pics", icon="📷").icon == "photo_camera"
    assert AppManifest("Pics", "com.example.pics").icon == "apps"
    with pytest.raises(ValueError, match="Material icon 'P'"):
        AppManifest("Pics", "com.example.pics", icon="P")
    with pytest.raises(ValueError, match="did you mean.*photo_camera"):
        AppManifest("Pics", "com.example.pics", icon="photo_camra")
    with pytest.raises(ValueError, match="icon_shape 'blob'; accepted: circle"):
        AppManifest("Pics", "com.example.pics", icon="image", icon_shape="blob")


def test_text_weights() -> None:
    assert weight_face("regular") != weight_face("medium") != weight_face("bold")
    with pytest.raises(ValueError, match="accepted: regular, medium, bold"):
        weight_face("heavy")
    look = Look("text", "", "", "", "", "", None, None, True, False, False, None,
                (255, 255, 255), 400, 80, 400, 80)
    drawn = {}
    for weight in ("regular", "medium", "bold"):
        p = Painter(look, 1.0, False, ss=1)
        p.text(10, 40, "Medium titles", 40, (0, 0, 0), weight=weight)
        drawn[weight] = ink(p.img).sum()
    assert drawn["regular"] < drawn["medium"] < drawn["bold"]  # heavier weights, more ink
    p = Painter(look, 1.0, False, ss=1)
    p.text(10, 40, "Medium titles", 40, (0, 0, 0), bold=True)
    assert ink(p.img).sum() == drawn["medium"]  # bold text is Material's Medium


def test_icon_font_is_the_packages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHONE_GYM_NO_SYSTEM_FONTS", "1")
    assert system_fonts_hidden()
    icons.icon_font.cache_clear()
    reload_fonts()
    assert icons.icon_font(24).path == str(icons.ICON_FONT)
    monkeypatch.setattr(icons, "ICON_FONT", icons.FONT_DIR.parent / "elsewhere.ttf")
    icons.icon_font.cache_clear()
    with pytest.raises(RuntimeError, match="not one of the package's fonts"):
        icons.icon_font(24)
    monkeypatch.undo()
    icons.icon_font.cache_clear()
