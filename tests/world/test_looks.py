"""Each app's own look (``AppLook`` in its manifest): validation, readable palettes, the
renderer drawing with the foreground app's palette, and Settings' dark theme."""

from __future__ import annotations

import numpy as np
import pytest
from driving import Driver, open_app, press, tap

from phone_gym.mockapps import APPS
from phone_gym.world import Device
from phone_gym.world import theme as T
from phone_gym.world.layout import Frame, place_bar, place_column
from phone_gym.world.manifest import DEFAULT_LOOK, AppLook, AppManifest
from phone_gym.world.render import Renderer, TileCache
from phone_gym.world.widgets import ListItem, Node, TopBar

MANIFESTS = {app.manifest.name: app.manifest for app in APPS}
PALETTES = [(name, i, pal) for name, m in MANIFESTS.items()
            for i, pal in enumerate(m.look.palettes)]


def test_every_app_declares_its_look() -> None:
    assert len(MANIFESTS) == 64
    bare = [name for name, m in MANIFESTS.items() if m.look is DEFAULT_LOOK or not m.look.models]
    assert bare == []


@pytest.mark.parametrize(("app", "i", "pal"), PALETTES, ids=[f"{a}-{i}" for a, i, _ in PALETTES])
def test_palettes_are_readable(app: str, i: int, pal: T.Palette) -> None:
    """WCAG: body text >= 4.5 on the screen and on cards; secondary text >= 3; the app bar's
    title >= 2.5 (large bold text on the real apps' own bars, e.g. Simple Mobile Tools'
    white on orange is 2.8)."""
    assert T.contrast(pal.text, pal.bg) >= 4.5
    assert T.contrast(pal.text, pal.surface) >= 4.5
    assert T.contrast(pal.text_2, pal.bg) >= 3.0
    assert T.contrast(pal.top_bar_fg, pal.top_bar_bg) >= 2.5
    assert T.contrast(pal.on_primary, pal.primary) >= 2.5


def test_default_palette_is_the_house_style() -> None:
    pal = T.DEFAULT_PALETTE
    assert (pal.bg, pal.primary, pal.top_bar_bg, pal.text) == (T.BG, T.PRIMARY, T.TOP_BAR_BG,
                                                               T.TEXT)
    assert DEFAULT_LOOK.palette(night=True) is pal


@pytest.mark.parametrize(("kw", "needle"), [
    ({"dark": "dim"}, "accepted: light, dark, system"),
    ({"navigation": "hamburger"}, "accepted: none, bottom_bar"),
    ({"row_leading": "photo"}, "accepted: none, avatar"),
    ({"actions": ("serch",)}, "did you mean 'search'"),
    ({"navigation": "bottom_bar"}, "needs nav_items"),
    ({"navigation": "tabs", "nav_items": ("A", "B"), "nav_icons": ("home",)}, "one icon per"),
    ({"dark": "system"}, "needs a dark_palette"),
    ({"dark": "dark", "dark_palette": T.make_palette((1, 2, 3))}, "dark background"),
    ({"light": (1, 2, 3)}, "theme.Palette"),
])
def test_bad_looks_say_what_is_accepted(kw: dict, needle: str) -> None:
    with pytest.raises(ValueError, match=needle.replace("(", r"\(")):
        AppLook(**kw)


def test_bad_palettes_and_manifest_look() -> None:
    with pytest.raises(ValueError, match="ints in 0..255"):
        T.Palette(bg=(0, 0, 300))
    with pytest.raises(ValueError, match="accepted: left, center"):
        T.Palette(title_align="right")
    with pytest.raises(ValueError, match="accepted: 'surface', 'colored'"):
        T.make_palette((1, 2, 3), bar="blue")
    with pytest.raises(ValueError, match="look must be an AppLook"):
        AppManifest("X", "com.example.x", look="dark")  # type: ignore[arg-type]


def _bar_frame(pal: T.Palette) -> Frame:
    frame = Frame(palette=pal)
    frame.add(Node("screen", id="content"), (0, 0, T.SCREEN_W, T.SCREEN_H))
    place_bar(frame, TopBar("Inbox"), (0, T.STATUS_H, T.SCREEN_W, T.STATUS_H + T.TOP_BAR_H))
    place_column(frame, [ListItem("Ann", subtitle="hi", glyph="A")], T.PAD,
                 T.SCREEN_W - T.PAD, 400, (0, 0, T.SCREEN_W, T.SCREEN_H))
    return frame


def test_renderer_draws_with_the_frames_palette_and_keeps_tiles_apart() -> None:
    """One shared cache, two palettes: the same nodes draw in each palette's colors, and
    drawing the first again reuses nothing of the second."""
    cache = TileCache()
    r = Renderer(270, 600, cache=cache)
    orange = T.make_palette((246, 124, 1), dark=True, bg=(66, 66, 66), bar="colored")
    plain = r.render(_bar_frame(T.DEFAULT_PALETTE))
    dark = r.render(_bar_frame(orange))
    assert tuple(plain[300, 10]) == T.DEFAULT_PALETTE.bg
    assert tuple(dark[300, 10]) == (66, 66, 66)
    assert tuple(dark[T.STATUS_H // 4 + 30, 3]) == orange.top_bar_bg
    assert tuple(plain[T.STATUS_H // 4 + 30, 3]) == T.DEFAULT_PALETTE.top_bar_bg
    assert np.array_equal(r.render(_bar_frame(T.DEFAULT_PALETTE)), plain)


def _shot(device: Device, app: str) -> np.ndarray:
    open_app(device, app)
    return Renderer(270, 600).render(device.frame())


def _dark_theme(device: Device, on: bool) -> None:
    """Settings > Display > Dark theme, switched by taps as a person does."""
    open_app(device, "Settings")
    tap(device, "Display")
    if bool(Driver(device).find(id="dark_theme").node.checked) != on:  # type: ignore[union-attr]
        tap(device, id="dark_theme")
    assert device.system.get_setting("secure", "ui_night_mode") == ("2" if on else "1")
    assert device.night is on
    press(device, "home")


def test_settings_dark_theme_switches_the_apps_that_follow_the_system() -> None:
    """Joplin follows the system (DayNight): its screen turns dark; Uber is light only and
    Spotify dark only: neither changes."""
    assert MANIFESTS["Joplin"].look.dark == "system"
    assert MANIFESTS["Ride"].look.dark == "light" and MANIFESTS["Spotify"].look.dark == "dark"
    device = Device(APPS)
    _dark_theme(device, False)
    before = {app: _shot(device, app) for app in ("Joplin", "Ride", "Spotify")}
    press(device, "home")
    _dark_theme(device, True)
    after = {app: _shot(device, app) for app in ("Joplin", "Ride", "Spotify")}
    joplin = MANIFESTS["Joplin"].look
    assert tuple(before["Joplin"][400, 4]) == joplin.light.bg
    assert tuple(after["Joplin"][400, 4]) == joplin.dark_palette.bg  # type: ignore[union-attr]
    assert T.luminance(tuple(after["Joplin"][400, 4])) < 64  # type: ignore[arg-type]
    assert np.array_equal(before["Ride"], after["Ride"])
    assert np.array_equal(before["Spotify"], after["Spotify"])
    press(device, "home")
    _dark_theme(device, False)
    assert np.array_equal(_shot(device, "Joplin"), before["Joplin"])


def test_launcher_and_keyboard_keep_the_systems_colors() -> None:
    """A dark app in front does not recolor the keyboard; the launcher stays default."""
    device = Device(APPS)
    launcher = Renderer(270, 600).render(device.frame())
    assert device.frame().palette is T.DEFAULT_PALETTE
    open_app(device, "Spotify")
    assert device.frame().palette == MANIFESTS["Spotify"].look.dark_palette
    press(device, "home")
    assert np.array_equal(Renderer(270, 600).render(device.frame()), launcher)
