"""The Clipper app driven through actions: it shows the clipboard and sets it to the text
typed; other apps' Copy and Paste meet it on the system clipboard."""

from __future__ import annotations

import pytest
from driving import fill, open_app, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS
from phone_gym.mockapps.clipper import APP, MANIFEST, TEMPLATES, ClipperApp
from phone_gym.mockapps.clipper.app import set_clipboard
from phone_gym.mockapps.clipper.fixtures import put_clipboard
from phone_gym.world import Device
from phone_gym.world.state import WorldState
from phone_gym.world.system import SystemState


@pytest.fixture
def device() -> Device:
    d = Device(APPS)
    open_app(d, "Clipper")
    return d


def test_registration() -> None:
    assert APP is ClipperApp and TEMPLATES == []
    assert (MANIFEST.name, MANIFEST.package, MANIFEST.order) == ("Clipper", "ca.zgrs.clipper",
                                                                  76)


def test_shows_and_sets_the_clipboard(device: Device) -> None:
    assert shown(device, "Clipper", kind="top_bar") and shown(device, "(empty)")
    tap(device, id="set_clipboard")
    assert device.toast_text == "Type some text first" and device.system.clipboard == ""
    fill(device, "clip_input", "Promo code AUTUMN25")
    tap(device, id="set_clipboard")
    assert device.system.clipboard == "Promo code AUTUMN25"
    assert device.toast_text == "Copied to clipboard"
    assert shown(device, "Promo code AUTUMN25", id="clipboard_text")
    assert device.snapshot()["clipboard"] == "Promo code AUTUMN25"
    tap(device, id="clear")
    assert device.system.clipboard == "Promo code AUTUMN25"  # clears the field only


def test_the_typed_text_is_transient(device: Device) -> None:
    fill(device, "clip_input", "draft")
    assert device.step(PhoneAction("close_app", app="Clipper")) is None
    open_app(device, "Clipper")
    tap(device, id="set_clipboard")
    assert device.system.clipboard == ""


def test_helpers_and_fixture() -> None:
    system = SystemState()
    assert not set_clipboard(system, "") and system.clipboard == ""
    assert set_clipboard(system, "x") and system.clipboard == "x"
    device = Device(APPS)
    put_clipboard(WorldState(device), "seeded")
    assert device.system.clipboard == "seeded"


def test_check_app() -> None:
    from phone_gym.testing import check_app

    check_app("Clipper", 300)
