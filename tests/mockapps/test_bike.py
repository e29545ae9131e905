"""The Bike & Parking mini-program driven through phone actions: reached from WeChat, bike
filters and unlocking, ending a ride in a zone or outside one (the fee pop-up), passes,
car parks with filters and a paid reservation, paying a plate's parking, the capsule."""

from __future__ import annotations

import numpy as np
import pytest
from driving import fill, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, REGISTRY, TEMPLATES, Episode
from phone_gym.mockapps.bike.app import BikeApp, bikes_shown, hours, minutes, parks_shown
from phone_gym.mockapps.bike.fixtures import (
    add_bike,
    add_park,
    add_plan,
    add_plate,
    add_session,
    add_zone,
    set_location,
)
from phone_gym.mockapps.chat.fixtures import set_wallet
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.state import WorldState


def bike_of(device: Device) -> BikeApp:
    app = device.app("Bike")
    assert isinstance(app, BikeApp)
    return app


@pytest.fixture
def device() -> Device:
    """Three bikes, two zones, two passes, three car parks near Central Station, a plate with
    parking to pay; ¥500 in the wallet, PIN 246810."""
    dev = Device(APPS)
    state = WorldState(dev)
    add_bike(state, "100000001", "E-bike", 120, 35)
    add_bike(state, "100000002", "E-bike", 300, 80)
    add_bike(state, "100000003", "Bike", 60)
    add_zone(state, "Metro Exit B", 150)
    add_zone(state, "Library Steps", 90)
    add_plan(state, "Weekly pass", 7, 990)
    add_plan(state, "Monthly pass", 30, 2590)
    add_park(state, "Harbor Car Park", "Central Station", 400, 800, 0)
    add_park(state, "Station P2", "Central Station", 900, 1000, 5)
    add_park(state, "Eastside Deck", "Central Station", 1800, 600, 9)
    add_plate(state, "浙A12345")
    add_session(state, "浙A12345", "Station P2", 2, 1600)
    set_wallet(state, 50_000, "246810")
    set_location(state)
    return dev


def open_bike(device: Device) -> None:
    open_app(device, "Chat")
    tap(device, id="tab_discover")
    tap(device, id="mini_programs")
    tap(device, id="mini_bike")


def test_filters_sort_and_unlock_by_number(device: Device) -> None:
    open_bike(device)
    app = bike_of(device)
    assert [b.number for b in bikes_shown(app.data, app.ui)] == [
        "100000003", "100000001", "100000002"]
    tap(device, id="chip_e_bike")
    tap(device, id="tab_most_battery")
    assert [b.number for b in bikes_shown(app.data, app.ui)] == ["100000002", "100000001"]
    fill(device, "bike_number", "100000002")
    press(device, "back")
    tap(device, id="unlock")
    [ride] = list(app.data.rides)
    assert (ride.bike, ride.kind, ride.status) == ("100000002", "E-bike", "riding")
    assert shown(device, id="ride_title")


def test_end_ride_in_a_zone_is_free_outside_costs_a_fee(device: Device) -> None:
    open_bike(device)
    tap(device, "E-bike 100000001", kind="list_item")
    tap(device, id="unlock_bike")
    tap(device, "End at Library Steps", kind="list_item")
    tap(device, id="button_end_ride")
    [ride] = list(bike_of(device).data.rides)
    assert (ride.status, ride.zone, ride.fee, ride.cost) == ("ended", "Library Steps", 0, 300)
    press(device, "back")
    tap(device, "Bike 100000003", kind="list_item")
    tap(device, id="unlock_bike")
    tap(device, id="end_here")
    assert shown(device, "Outside a parking zone")
    tap(device, id="button_end_anyway")
    second = bike_of(device).data.rides.get(2)
    assert second is not None and (second.zone, second.fee, second.cost) == ("", 500, 650)


def test_buy_a_pass_with_the_pin(device: Device) -> None:
    open_bike(device)
    tap(device, id="tab_passes")
    tap(device, id="buy_2")
    fill(device, "pay_pin", "000000")
    press(device, "back")
    tap(device, id="button_pay")
    assert shown(device, "Incorrect PIN") and not list(bike_of(device).data.passes)
    fill(device, "pay_pin", "246810")
    press(device, "back")
    tap(device, id="button_pay")
    [bought] = list(bike_of(device).data.passes)
    assert bought.name == "Monthly pass" and device.system.wallet.balance == 50_000 - 2590


def test_car_park_filters_and_reservation(device: Device) -> None:
    open_bike(device)
    tap(device, id="tab_parking")
    fill(device, "place", "Central Station")
    press(device, "back")
    tap(device, id="find_parks")
    app = bike_of(device)
    tap(device, id="tab_lowest_price")
    assert [p.name for p in parks_shown(app.data, app.ui)] == [
        "Eastside Deck", "Harbor Car Park", "Station P2"]
    tap(device, id="chip_within_1_km")
    tap(device, id="chip_has_free_spaces")
    assert [p.name for p in parks_shown(app.data, app.ui)] == ["Station P2"]
    tap(device, "Station P2", kind="list_item")
    tap(device, id="reserve")
    fill(device, "day", "2026-12-03")
    fill(device, "start", "09:00")
    fill(device, "end", "11:30")
    press(device, "back")
    fill(device, "plate", "浙A12345")
    press(device, "back")
    tap(device, id="pay")
    fill(device, "pay_pin", "246810")
    press(device, "back")
    tap(device, id="button_pay")
    [r] = list(app.data.reservations)
    assert (r.park_name, r.day, r.start, r.end, r.plate, r.total) == (
        "Station P2", "2026-12-03", "09:00", "11:30", "浙A12345", 3000)
    assert app.data.parks.get(2).free == 4  # type: ignore[union-attr]


def test_pay_parking_for_a_plate(device: Device) -> None:
    open_bike(device)
    tap(device, id="tab_parking")
    tap(device, id="pay_parking")
    fill(device, "pay_plate", "浙a12345")
    press(device, "back")
    assert shown(device, "1 unpaid")
    tap(device, id="pay_session_1")
    fill(device, "pay_pin", "246810")
    press(device, "back")
    tap(device, id="button_pay")
    assert bike_of(device).data.sessions.get(1).status == "paid"  # type: ignore[union-attr]
    assert device.system.wallet.balance == 50_000 - 1600


def test_capsule_closes_back_to_wechat(device: Device) -> None:
    open_bike(device)
    tap(device, id="capsule_close")
    assert device.foreground == "Chat" and shown(device, id="mini_bike")


def test_hours_and_minutes() -> None:
    assert minutes("09:30") == 570 and minutes("25:00") is None and minutes("x") is None
    assert hours("09:00", "11:30") == 3 and hours("11:00", "09:00") == 0


def test_check_app() -> None:
    assert check_app("Bike", 1500).steps == 1500


def test_the_location_prompt_is_asked_once_and_kept() -> None:
    dev = Device(APPS)
    state = WorldState(dev)
    add_bike(state, "100000009", "Bike", 80)
    open_bike(dev)
    assert shown(dev, "Allow Bike & Parking to use your location?")
    tap(dev, id="button_deny")
    app = bike_of(dev)
    assert app.data.location == "denied" and shown(dev, "Turn on location to see bikes nearby")
    fill(dev, "bike_number", "100000009")
    press(dev, "back")
    tap(dev, id="unlock")
    assert [r.bike for r in app.data.rides] == ["100000009"]


# --- verifier regressions (red-team review) ----------------------------------------------
def episode(task_id: str, seed: int = 0) -> Episode:
    return Episode(TEMPLATES[task_id], Device(REGISTRY.apps), np.random.default_rng(seed))


def solve_saying(ep: Episode, prefix: str, text: str) -> None:
    """Run the template's oracle on the device, typing ``text`` where it types a message
    starting with ``prefix`` (no answer, no finish)."""
    ui = ep.driver()
    for action in ep.template.oracle(ui, ep.params):
        if action.type in ("answer", "finish"):
            continue
        if action.type == "type" and str(action.text).startswith(prefix):
            action = PhoneAction("type", text=text)
        ep.device.step(action)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_reserve_and_tell_refuses_every_car_park_named(seed: int) -> None:
    ep = episode("BikeReserveAndTell", seed)
    p = ep.params
    every = [str(r["name"]) for r in ep.initial["apps"]["Bike"]["parks"].values()]
    assert p["names"][0] in every and len(every) > 1
    solve_saying(ep, "I reserved a space at", "One of these: " + ", ".join(every))
    assert not ep.verify().success
    fine = episode("BikeReserveAndTell", seed)
    solve_saying(fine, "I reserved a space at", f"Booked {p['names'][0]}, see you there")
    assert fine.verify().success, fine.verify().reason
