"""The slider widget (Android's SeekBar): the node, touch-to-value geometry, its tile, its
accessibility node, and the device setting it by a tap or by a drag that starts on it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

import numpy as np
import pytest
from driving import act, open_app, press

from phone_gym.actions import PhoneAction
from phone_gym.world import App, Device, Route, Screen
from phone_gym.world import theme as T
from phone_gym.world.a11y import format_element, to_xml, ui_elements
from phone_gym.world.layout import Frame, Placed, place_column
from phone_gym.world.render import Renderer, TileCache, rect_to_px
from phone_gym.world.widgets import (
    SLIDER_INSET,
    Dialog,
    DialogButton,
    Slider,
    Spacer,
    Text,
    TopBar,
    slider_value_at,
    slider_x,
)

# --- a tiny app with a slider ---------------------------------------------------------------


@dataclass
class Level:
    value: int = 50
    dialog: bool = False
    tall: bool = False  # content taller than the screen (it scrolls)


class LevelApp(App):
    name = "Level"
    package = "com.example.level"

    data: Level

    def initial_data(self) -> Level:
        return Level()

    def set_value(self, value: int) -> None:
        self.data.value = value

    def view(self, route: Route) -> Screen:
        content = [Text("Volume", id="title"),
                   Slider("Volume", self.data.value, 0, 100, self.set_value, id="volume")]
        if self.data.tall:
            content += [Spacer(400) for _ in range(8)]
        dialog = None
        if self.data.dialog:
            dialog = Dialog("Hello", "A dialog over the slider", [
                DialogButton("OK", lambda: setattr(self.data, "dialog", False))])
        return Screen(top_bar=TopBar("Level"), content=content, dialog=dialog)


def level(device: Device) -> Level:
    app = device.apps["Level"]
    assert isinstance(app, LevelApp)
    return app.data


def slider(device: Device) -> Placed:
    return next(p for p in device.frame().items if p.node.kind == "slider")


def norm(px: float, py: float) -> tuple[int, int]:
    """Pixels to [0, 1000] coordinates that land back on (about) the same pixel."""
    return round(px * 1000 / T.SCREEN_W), (round(py) * 1000 + T.SCREEN_H - 1) // T.SCREEN_H


@pytest.fixture
def device() -> Device:
    d = Device([LevelApp])
    open_app(d, "Level")
    return d


# --- the node --------------------------------------------------------------------------------


def test_the_node_holds_its_range_and_reports_its_value_as_a_seekbar_does() -> None:
    node = Slider("Brightness level", 128, 0, 255, lambda v: None, id="brightness")
    assert (node.kind, node.id, node.desc) == ("slider", "brightness", "Brightness level")
    assert node.text == "128.0"  # a SeekBar's progress, as uiautomator reports it
    assert node.range_info == (0, 255, 128)
    assert node.clickable and not node.long_clickable and not node.editable
    assert Slider("x", 300, 0, 255, lambda v: None).range_info == (0, 255, 255)  # clamped
    assert Slider("x", -4, 0, 255, lambda v: None).text == "0.0"
    assert not Slider("x", 1, 0, 2, None).clickable  # type: ignore[arg-type]


def test_touch_position_maps_onto_the_track() -> None:
    node = Slider("x", 0, 0, 255, lambda v: None)
    x0, x1 = 48, 1032
    assert slider_value_at(node, x0, x1, x0 + SLIDER_INSET) == 0
    assert slider_value_at(node, x0, x1, x1 - SLIDER_INSET) == 255
    assert slider_value_at(node, x0, x1, 0) == 0  # past the ends: the end values
    assert slider_value_at(node, x0, x1, 5000) == 255
    assert slider_value_at(node, x0, x1, (x0 + x1) // 2) in (127, 128)
    for value in range(256):  # slider_x is the inverse
        assert slider_value_at(node, x0, x1, round(slider_x(node, x0, x1, value))) == value


def test_a_range_not_starting_at_zero() -> None:
    node = Slider("x", 20, 10, 30, lambda v: None)
    assert slider_value_at(node, 0, 1000, SLIDER_INSET) == 10
    assert slider_value_at(node, 0, 1000, 500) == 20
    assert slider_x(node, 0, 1000, 30) == 1000 - SLIDER_INSET


# --- accessibility and pixels ------------------------------------------------------------------


def slider_frame(value: int) -> Frame:
    frame = Frame(package="com.example.level")
    place_column(frame, [Slider("Volume", value, 0, 100, lambda v: None, id="volume")],
                 T.PAD, T.SCREEN_W - T.PAD, 400, (0, 0, T.SCREEN_W, T.SCREEN_H))
    return frame


def test_exported_as_a_seekbar() -> None:
    (element,) = ui_elements(slider_frame(40))
    assert element.class_name == "android.widget.SeekBar"
    assert (element.text, element.content_desc, element.hint) == ("40.0", "Volume", "0-100")
    assert element.clickable and not element.scrollable and not element.checkable
    assert format_element(element).startswith('[0] SeekBar "40.0" desc="Volume"')
    node = ET.fromstring(to_xml(slider_frame(40)).encode()).find(".//node")
    assert node is not None
    assert node.get("class") == "android.widget.SeekBar" and node.get("text") == "40.0"
    assert node.get("resource-id") == "com.example.level:id/volume"


def test_drawn_with_the_thumb_at_its_value_and_cached() -> None:
    renderer = Renderer(1080, 2400, cache=TileCache())
    images = {}
    for value in (0, 50, 100):
        frame = slider_frame(value)
        placed = frame.items[0]
        x0, y0, x1, y1 = rect_to_px(placed.full, 1080, 2400)
        img = renderer.render(frame)
        thumb = round(slider_x(placed.node, x0, x1, value))
        cy = (y0 + y1) // 2
        assert tuple(img[cy, thumb]) == T.PRIMARY  # the thumb
        assert tuple(img[cy - 40, thumb]) == T.BG  # above it: nothing
        images[value] = img
    assert not np.array_equal(images[0], images[50])
    tiles = len(renderer.cache)
    renderer.render(slider_frame(50))
    assert len(renderer.cache) == tiles  # the same value: the cached tile
    img = images[50]
    left, right = img[cy, x0 + SLIDER_INSET + 4], img[cy, x1 - SLIDER_INSET - 4]
    assert tuple(left) == T.PRIMARY and tuple(right) != T.PRIMARY  # filled up to the thumb


# --- the device --------------------------------------------------------------------------------


def test_a_tap_sets_the_value_under_the_finger(device: Device) -> None:
    placed = slider(device)
    x0, y0, x1, y1 = placed.full
    cy = (y0 + y1) // 2
    assert device.step(PhoneAction("click", x=0, y=0), px=(x0 + SLIDER_INSET + 1, cy)) is None
    assert level(device).value == 0
    device.step(PhoneAction("click", x=0, y=0), px=(round(slider_x(placed.node, x0, x1, 73)), cy))
    assert level(device).value == 73
    assert slider(device).node.text == "73.0"  # the frame was rebuilt
    x, y = norm(x1 - 2, cy)
    act(device, PhoneAction("click", x=x, y=y))  # beyond the track's end: the maximum
    assert level(device).value == 100


def test_a_drag_that_starts_on_the_slider_sets_the_value_where_it_ends(device: Device) -> None:
    placed = slider(device)
    x0, y0, x1, y1 = placed.full
    cy = (y0 + y1) // 2
    thumb = slider_x(placed.node, x0, x1, 50)
    x, y = norm(thumb, cy)
    x2, _ = norm(slider_x(placed.node, x0, x1, 80), cy)
    act(device, PhoneAction("drag", x=x, y=y, x2=x2, y2=y))
    assert level(device).value == 80
    assert slider(device).node.text == "80.0"
    x, _ = norm(slider_x(placed.node, x0, x1, 80), cy)
    act(device, PhoneAction("drag", x=x, y=y, x2=0, y2=y + 600))  # ends off the slider
    assert level(device).value == 0  # the thumb stops at the start, whatever the y
    act(device, PhoneAction("drag", x=x, y=y, x2=999, y2=y))
    assert level(device).value == 100


def test_drags_elsewhere_keep_their_meaning(device: Device) -> None:
    level(device).tall = True
    device.invalidate()
    placed = slider(device)
    y = norm(0, (placed.full[1] + placed.full[3]) // 2)[1]
    act(device, PhoneAction("drag", x=500, y=y + 200, x2=500, y2=y))  # below it: a scroll
    assert level(device).value == 50
    assert device.scroll[("Level", Route("main"))] > 0
    act(device, PhoneAction("drag", x=500, y=5, x2=500, y2=600))  # from the top: the shade
    assert device.shade_open and level(device).value == 50
    press(device, "back")
    assert not device.shade_open


def test_a_dialog_over_the_slider_blocks_it(device: Device) -> None:
    level(device).dialog = True
    device.invalidate()
    placed = slider(device)
    cy = (placed.full[1] + placed.full[3]) // 2
    x, y = norm(slider_x(placed.node, placed.full[0], placed.full[2], 50), cy)
    act(device, PhoneAction("drag", x=x, y=y, x2=900, y2=y))
    assert level(device).value == 50
