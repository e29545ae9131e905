"""The Draw app driven through phone actions: drawing on the canvas, colors, undo, and
saving (name and extension) into /sdcard/Pictures."""

from __future__ import annotations

import pytest
from driving import act, fill, open_app, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.draw import DrawApp
from phone_gym.mockapps.draw.app import COLORS, file_name
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.kit import decode_strokes


def canvas_box(device: Device) -> tuple[int, int, int, int]:
    """The canvas's visible bounds in 0..1000 of the screen."""
    (canvas,) = [e for e in ui_elements(device.frame()) if e.short_id == "canvas"]
    return canvas.bounds_norm


@pytest.fixture
def device() -> Device:
    d = Device([DrawApp])
    open_app(d, "Draw")
    return d


def app_of(device: Device) -> DrawApp:
    app = device.apps["Draw"]
    assert isinstance(app, DrawApp)
    return app


def drag(device: Device) -> None:
    x0, y0, x1, y1 = canvas_box(device)
    act(device, PhoneAction("drag", x=x0 + 50, y=y0 + 50, x2=x1 - 50, y2=y1 - 50))


def test_strokes_take_the_chosen_color_and_undo(device: Device) -> None:
    drag(device)
    tap(device, id="color")
    tap(device, desc="Color Red")
    drag(device)
    strokes = decode_strokes(app_of(device).ui.strokes)
    assert [s.color for s in strokes] == [COLORS["Black"], COLORS["Red"]]
    tap(device, desc="Undo")
    assert len(decode_strokes(app_of(device).ui.strokes)) == 1


def test_save_writes_the_drawing_into_pictures(device: Device) -> None:
    drag(device)
    tap(device, desc="Save")
    fill(device, "file_name", "tempus_maria")
    tap(device, "svg", kind="radio")
    tap(device, "OK")
    saved = device.system.files["/sdcard/Pictures/tempus_maria.svg"]
    assert saved.mime == "image/svg" and decode_strokes(saved.content)
    tap(device, desc="Save")
    tap(device, "OK")  # the same name again: asks before replacing
    tap(device, "Replace")
    assert file_name("a.png", "png") == "a.png" and file_name("a", "jpg") == "a.jpg"


def test_check_app() -> None:
    from phone_gym.testing import check_app

    check_app("Draw", 300)
