"""The Phone app driven through phone actions: the keypad, placing and ending a call (an
outgoing call-log entry), recents from the shared call log, contacts, and the DIAL intent."""

from __future__ import annotations

import numpy as np
import pytest
from driving import Driver, act, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.phone import PhoneApp
from phone_gym.mockapps.phone.app import recent_calls
from phone_gym.mockapps.phone.fixtures import seed_calls
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.manifest import Intent
from phone_gym.world.state import WorldState


def rows(device: Device) -> list[str]:
    return [p.node.text for p in device.frame().items if p.node.kind == "list_item"]


@pytest.fixture
def device() -> Device:
    """A phone with a contact and two calls in the log, on the Phone app's keypad."""
    dev = Device([PhoneApp])
    s = dev.system
    s.add_contact("Maria Garcia", "+1 415-555-0101")
    s.calls.new(number="+14155550101", name="Maria Garcia", date="2023-10-15T09:00:00",
                duration=65, kind="incoming")
    s.calls.new(number="+12125550177", date="2023-10-15T11:00:00", kind="missed")
    dev.invalidate()
    act(dev, PhoneAction("open_app", app="Phone"))
    return dev


def dial(device: Device, digits: str) -> None:
    for d in digits:
        tap(device, id=f"dial_{d}")


def test_the_keypad_types_deletes_and_calls(device: Device) -> None:
    assert shown(device, "Enter a number")
    dial(device, "6465")
    tap(device, id="delete_digit")
    dial(device, "550123")
    assert shown(device, "646550123")
    tap(device, id="call")
    assert shown(device, "646550123", id="callee") and shown(device, "End call")
    call = recent_calls(device.system)[0]
    assert (call.number, call.kind, call.duration) == ("646550123", "outgoing", 0)
    device.system.advance(42)
    tap(device, id="end_call")
    ended = device.system.calls.get(call.id)
    assert ended is not None and 42 <= ended.duration <= 45  # each action takes a moment
    assert shown(device, "Keypad")


def test_a_number_too_short_is_not_called(device: Device) -> None:
    dial(device, "1")
    before = len(device.system.calls)
    tap(device, id="call")  # disabled
    assert len(device.system.calls) == before


def test_recents_newest_first_and_call_back(device: Device) -> None:
    tap(device, id="tab_recents")
    assert rows(device) == ["+12125550177", "Maria Garcia"]
    tap(device, "Maria Garcia", kind="list_item")
    call = recent_calls(device.system)[0]
    assert (call.name, call.kind) == ("Maria Garcia", "outgoing")
    press(device, "back")  # ends the call
    assert rows(device)[0] == "Maria Garcia"


def test_contacts_tab_calls_a_contact(device: Device) -> None:
    tap(device, id="tab_contacts")
    assert rows(device) == ["Maria Garcia"]
    tap(device, "Maria Garcia", kind="list_item")
    assert recent_calls(device.system)[0].name == "Maria Garcia"


def test_tel_links_fill_the_keypad(device: Device) -> None:
    device.start_intent(Intent("android.intent.action.VIEW", data="tel:+16465550199"))
    assert shown(device, "+16465550199")
    assert Driver(device).find(id="call") is not None


def test_seeded_calls_are_in_the_log() -> None:
    dev = Device([PhoneApp])
    seed_calls(WorldState(dev), np.random.default_rng(0), ["+16465550101", "+17185550102"])
    act(dev, PhoneAction("open_app", app="Phone"))
    tap(dev, id="tab_recents")
    assert rows(dev) == ["+17185550102", "+16465550101"]


def test_check_app() -> None:
    report = check_app(PhoneApp, 3000)
    assert not report.problems, report.problems
