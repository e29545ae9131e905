"""Gboard's keyboard and Android's three-button navigation bar: what they draw (Material
icons on the keys, the toolbar strip, the SystemUI shapes), light and dark, and that their
accessibility elements (ids, texts, descriptions) stay what agents and oracles press."""

from __future__ import annotations

import numpy as np
import pytest
from driving import tap

from phone_gym.mockapps import APPS
from phone_gym.world import Device
from phone_gym.world import theme as T
from phone_gym.world.a11y import ui_elements
from phone_gym.world.icons import icon_mask
from phone_gym.world.keyboard import KEY_ICONS, STRIP_MIC, keyboard_node
from phone_gym.world.manifest import NIGHT_MODE_ON
from phone_gym.world.render import Renderer
from phone_gym.world.widgets_draw import KEY_ICON, NAV_UNIT

W, H = T.SCREEN_W, T.SCREEN_H  # rendered at full size: logical pixels are output pixels


def typing_device(*, dark: bool = False) -> Device:
    """A device with the keyboard up (the launcher's app search field has focus)."""
    device = Device(APPS)
    if dark:
        device.system.put_setting("secure", "ui_night_mode", NIGHT_MODE_ON)
    device.launcher.open_drawer()
    device.invalidate()
    tap(device, id="search_apps")
    assert device.keyboard_shown
    return device


def render(device: Device) -> np.ndarray:
    return Renderer(W, H).render(device.frame())


def rect_of(device: Device, node_id: str) -> tuple[int, int, int, int]:
    found = [p.rect for p in device.frame().items if p.node.id == node_id]
    assert found, node_id
    return found[-1]


def is_color(arr: np.ndarray, color: tuple[int, int, int], tol: int = 24) -> np.ndarray:
    return (np.abs(arr.astype(int) - color) <= tol).all(axis=-1)


def iou(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum() / max(1, (a | b).sum()))


@pytest.fixture(scope="module")
def light() -> tuple[Device, np.ndarray]:
    device = typing_device()
    return device, render(device)


@pytest.mark.parametrize(("key_id", "label"), [("key_shift", "⇧"), ("key_delete", "⌫"),
                                                ("key_enter", "↵")])
def test_function_keys_draw_their_material_icons(light: tuple[Device, np.ndarray],
                                                 key_id: str, label: str) -> None:
    device, arr = light
    colors = T.KEYBOARD_THEMES[""]
    x0, y0, x1, y1 = rect_of(device, key_id)
    ink = colors.on_enter if label == "↵" else colors.label
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    half = KEY_ICON // 2
    drawn = is_color(arr[cy - half:cy - half + KEY_ICON, cx - half:cx - half + KEY_ICON], ink,
                     tol=60)
    expected = np.asarray(icon_mask(KEY_ICONS[label], KEY_ICON)) > 127
    assert iou(drawn, expected) > 0.8, f"{key_id} does not show Material's {KEY_ICONS[label]}"


def test_keys_are_gboard_rounded_keys_on_the_board(light: tuple[Device, np.ndarray]) -> None:
    device, arr = light
    colors = T.KEYBOARD_THEMES[""]
    x0, y0, x1, y1 = rect_of(device, "key_q")
    assert tuple(arr[(y0 + y1) // 2, x0 + 6]) == colors.key
    assert tuple(arr[y0 + 1, x0 + 1]) == colors.board  # a rounded corner shows the board
    sx0, sy0, sx1, sy1 = rect_of(device, "key_shift")
    assert tuple(arr[sy0 + 10, (sx0 + sx1) // 2]) == colors.function
    ex0, ey0, ex1, ey1 = rect_of(device, "key_enter")
    assert tuple(arr[(ey0 + ey1) // 2, (ex0 + ex1) // 2 - 50]) == colors.enter
    assert tuple(arr[ey0 + 4, ex0 + 4]) == colors.board  # the enter key is a pill


def test_toolbar_strip_shows_the_mic(light: tuple[Device, np.ndarray]) -> None:
    device, arr = light
    kx0, ky0, kx1, _ = rect_of(device, "keyboard")
    colors = T.KEYBOARD_THEMES[""]
    size = 56
    cx, cy = kx1 - 78, ky0 + T.KEYBOARD_STRIP_H // 2 + 4
    drawn = is_color(arr[cy - size // 2:cy + size // 2, cx - size // 2:cx + size // 2],
                     colors.strip_icon, tol=60)
    expected = np.asarray(icon_mask(STRIP_MIC, size)) > 127
    assert iou(drawn, expected) > 0.7
    assert rect_of(device, "key_q")[1] >= ky0 + T.KEYBOARD_STRIP_H  # the keys sit below it


def test_dark_theme_draws_gboard_dark_with_the_same_elements() -> None:
    lit, dark = typing_device(), typing_device(dark=True)
    arr = render(dark)
    colors = T.KEYBOARD_THEMES["dark"]
    x0, y0, x1, y1 = rect_of(dark, "key_q")
    assert tuple(arr[(y0 + y1) // 2, x0 + 6]) == colors.key
    assert tuple(arr[y0 - 4, (x0 + x1) // 2]) == colors.board
    assert is_color(arr[y0:y1, x0:x1], colors.label, tol=40).sum() > 200  # a light "q"
    ex0, ey0, ex1, ey1 = rect_of(dark, "key_enter")
    assert tuple(arr[(ey0 + ey1) // 2, (ex0 + ex1) // 2 - 50]) == colors.enter

    def a11y(device: Device) -> list[tuple[str, str, str, tuple[int, int, int, int]]]:
        return [(e.short_id, e.text, e.content_desc, e.bounds)
                for e in ui_elements(device.frame())
                if e.short_id.startswith("key") or e.short_id in ("back", "home",
                                                                   "recent_apps")]
    assert a11y(dark) == a11y(lit)
    assert len(a11y(lit)) > 30


def test_keyboard_style_is_checked() -> None:
    with pytest.raises(ValueError, match="accepted"):
        T.keyboard_colors("sepia")
    assert {k.style for row in keyboard_node(str, dark=True).children
            for k in row.children} == {"dark"}


def test_nav_buttons_keep_their_ids_and_descriptions() -> None:
    device = Device(APPS)
    found = {e.short_id: e.content_desc for e in ui_elements(device.frame())
             if e.short_id in ("back", "home", "recent_apps")}
    assert found == {"back": "Back", "home": "Home", "recent_apps": "Overview"}


def test_nav_buttons_are_androids_triangle_disc_and_rounded_square() -> None:
    device = Device(APPS)
    arr = render(device)
    u = NAV_UNIT
    fg = (242, 243, 246)  # on the launcher's dark navigation bar

    def at(node_id: str, dx: float, dy: float) -> bool:
        x0, y0, x1, y1 = rect_of(device, node_id)
        x, y = round((x0 + x1) / 2 + dx * u), round((y0 + y1) / 2 + dy * u)
        return bool(is_color(arr[y:y + 1, x:x + 1], fg, tol=30)[0, 0])

    # back: a left-pointing triangle, wide on the right, a point on the left
    assert at("back", 5, -5) and at("back", 5, 5) and at("back", -5, 0)
    assert not at("back", -5, -5) and not at("back", -5, 5)
    assert not at("back", -8, 0) and not at("back", 8, 0)
    # home: a 14-unit disc (its box's corners stay the bar's colour)
    assert at("home", 0, 0) and at("home", 6.5, 0) and at("home", 0, -6.5)
    assert not at("home", 6, 6) and not at("home", 8, 0)
    # overview: a 14-unit square with small rounded corners
    assert at("recent_apps", 5.5, 5.5) and at("recent_apps", -5.5, -5.5)
    assert not at("recent_apps", 8, 0) and not at("recent_apps", 6.9, 6.9)
