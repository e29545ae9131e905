"""The screen kit, part 4: media whose content is only in the pixels (``kit.media``): a
picture of text and a canvas drawn on by dragging."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from driving import act
from test_kit import colors, element, elements, region, render, start

from phone_gym.actions import PhoneAction
from phone_gym.world import App, Route, Screen
from phone_gym.world.kit import Canvas, Picture, Stroke, decode_strokes, encode_strokes
from phone_gym.world.manifest import AppManifest
from phone_gym.world.widgets import TopBar

RECEIPT = ["Date, Item, Amount", "2023-10-12, Coffee beans, 14.50", "2023-10-13, Taxi, 22.00"]


@dataclass
class SketchUi:
    strokes: list[Stroke] = field(default_factory=list)
    lines: list[str] = field(default_factory=lambda: list(RECEIPT))


class SketchApp(App):
    manifest = AppManifest("Sketch", "com.example.sketch")
    ui: SketchUi

    def initial_ui(self) -> SketchUi:
        return SketchUi()

    def draw(self, x0: int, y0: int, x1: int, y1: int) -> None:
        self.ui.strokes.append(Stroke(x0, y0, x1, y1, (200, 30, 30)))

    def view(self, route: Route) -> Screen:
        return Screen(top_bar=TopBar("Sketch"), content=[
            Picture(self.ui.lines, desc="Photo of a receipt", height=300),
            Canvas(self.ui.strokes, self.draw, height=500),
        ])


def sketch(device: object) -> SketchUi:
    app = device.apps["Sketch"]  # type: ignore[attr-defined]
    assert isinstance(app, SketchApp)
    return app.ui


def test_a_picture_shows_its_text_in_pixels_only() -> None:
    device = start(SketchApp)
    picture = element(device, "picture")
    assert picture.text == "" and picture.content_desc == "Photo of a receipt"
    assert picture.class_name == "android.widget.ImageView"
    assert not any("Coffee" in (e.text + e.content_desc) for e in elements(device))
    image = render(device)
    before = region(image, picture.bounds)
    assert colors(before) > 4  # ink on paper
    sketch(device).lines = ["Date, Item, Amount"]
    device.invalidate()
    assert not np.array_equal(region(render(device), picture.bounds), before)


def test_a_drag_on_the_canvas_draws_a_stroke() -> None:
    device = start(SketchApp)
    canvas = element(device, "canvas")
    x0, y0, x1, y1 = canvas.bounds_norm
    blank = region(render(device), canvas.bounds)
    act(device, PhoneAction("drag", x=x0 + 10, y=y0 + 10, x2=x1 - 10, y2=y1 + 200))
    (stroke,) = sketch(device).strokes
    assert stroke.x0 < 100 and stroke.y0 < 100 and stroke.x1 > 900 and stroke.y1 == 1000
    drawn = region(render(device), canvas.bounds)
    assert not np.array_equal(drawn, blank)
    assert element(device, "canvas").text == ""  # strokes are pixels, not text
    act(device, PhoneAction("click", x=(x0 + x1) // 2, y=(y0 + y1) // 2))  # a tap: a dot
    assert sketch(device).strokes[-1] == Stroke(500, 500, 500, 500, (200, 30, 30))


def test_strokes_round_trip_through_text() -> None:
    strokes = [Stroke(1, 2, 3, 4, (5, 6, 7)), Stroke(0, 0, 1000, 1000)]
    assert decode_strokes(encode_strokes(strokes)) == strokes
    assert decode_strokes("") == [] and decode_strokes("1 2 3") == []
