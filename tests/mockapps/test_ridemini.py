"""The Ride mini-program driven through phone actions: reached from WeChat, destination
suggestions, car types with estimates and ETAs, coupons, paying with the PIN, scheduled
rides, cancelling (free when scheduled, a fee after two minutes), trip history."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest
from driving import fill, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, REGISTRY, TEMPLATES, Episode
from phone_gym.mockapps.chat.fixtures import set_wallet
from phone_gym.mockapps.ridemini.app import CANCEL_FEE, RideMiniApp, plate_for, suggestions
from phone_gym.mockapps.ridemini.fixtures import (
    add_coupon,
    add_trip,
    estimate,
    next_trip_id,
    seed_cars,
    seed_places,
)
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.state import WorldState


def ride_of(device: Device) -> RideMiniApp:
    app = device.app("RideMini")
    assert isinstance(app, RideMiniApp)
    return app


@pytest.fixture
def device() -> Device:
    """The places (Xintiandi 8 km away), the car types, two coupons; ¥800, PIN 112233."""
    dev = Device(APPS)
    state = WorldState(dev)
    seed_places(state, {"Xintiandi": 8_000})
    seed_cars(state, [9, 4, 6, 3, 2])
    add_coupon(state, "Night owl", 500, 0)
    add_coupon(state, "Airport special", 2000, 20_000)
    set_wallet(state, 80_000, "112233")
    return dev


def to_cars(device: Device, pickup: str = "") -> None:
    open_app(device, "Chat")
    tap(device, id="tab_discover")
    tap(device, id="mini_programs")
    tap(device, id="mini_ridemini")
    assert shown(device, "Ride safely")
    tap(device, id="button_got_it")
    if pickup:
        fill(device, "pickup", pickup)
    fill(device, "destination", "xintian")
    press(device, "back")
    tap(device, "Xintiandi", kind="list_item")


def pay(device: Device) -> None:
    tap(device, id="confirm")
    fill(device, "pay_pin", "112233")
    press(device, "back")
    tap(device, id="button_pay")


def test_suggestions_and_estimates(device: Device) -> None:
    app = ride_of(device)
    assert [p.name for p in suggestions(app.data, "hongqiao")] == [
        "Hongqiao Airport T2", "Hongqiao Railway Station"]
    to_cars(device)
    assert shown(device, "¥26.00") and shown(device, "4 min away")
    assert estimate(1, 8_000) == 2600


def test_ride_now_with_a_coupon_pays_and_shows_the_plate(device: Device) -> None:
    to_cars(device)
    tap(device, id="car_2")
    tap(device, id="coupons")
    tap(device, "Airport special", kind="list_item")
    assert shown(device, "This coupon can't be used for this fare")
    tap(device, "Night owl", kind="list_item")
    pay(device)
    [trip] = list(ride_of(device).data.trips)
    assert (trip.car, trip.status, trip.fare, trip.paid, trip.coupon) == (
        "Express", "ongoing", 2600, 2100, "Night owl")
    assert shown(device, "Finding you a driver…") and not shown(device, id="trip_plate")
    device.wait(30)
    assert shown(device, f"Plate {plate_for(trip.id)}")
    assert ride_of(device).data.coupons.get(1).used  # type: ignore[union-attr]
    assert device.system.wallet.balance == 80_000 - 2100


def test_schedule_then_cancel_for_free(device: Device) -> None:
    to_cars(device, "88 Wenhua St")
    tap(device, id="tab_schedule")
    fill(device, "day", "2026-12-02")
    fill(device, "time", "07:45")
    press(device, "back")
    tap(device, id="car_3")
    pay(device)
    [trip] = list(ride_of(device).data.trips)
    assert (trip.pickup, trip.when, trip.status) == ("88 Wenhua St", "2026-12-02 07:45",
                                                     "scheduled")
    tap(device, id="cancel_trip")
    assert shown(device, "Cancelling is free.")
    tap(device, id="button_cancel_trip")
    assert ride_of(device).data.trips.get(1).status == "cancelled"  # type: ignore[union-attr]
    assert device.system.wallet.balance == 80_000


def test_cancelling_a_late_ride_costs_a_fee(device: Device) -> None:
    asked = (device.system.now - timedelta(minutes=6)).strftime("%Y-%m-%d %H:%M")
    add_trip(WorldState(device), "Xintiandi", "Taxi", asked, 3000, "ongoing")
    open_app(device, "Chat")
    tap(device, id="tab_discover")
    tap(device, id="mini_programs")
    tap(device, id="mini_ridemini")
    tap(device, id="button_close")
    tap(device, id="my_trips")
    tap(device, id="trip_1")
    tap(device, id="cancel_trip")
    assert shown(device, "A ¥5.00 cancellation fee applies.")
    tap(device, id="button_cancel_trip")
    assert ride_of(device).data.trips.get(1).fee == CANCEL_FEE  # type: ignore[union-attr]
    assert device.system.wallet.balance == 80_000 + 3000 - CANCEL_FEE


def test_check_app() -> None:
    assert check_app("RideMini", 1500).steps == 1500


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
def test_book_and_tell_refuses_every_plate_dumped(seed: int) -> None:
    ep = episode("RideMiniBookAndTell", seed)
    right = plate_for(next_trip_id(ep.initial))
    every = [str(t["plate"]) for t in ep.initial["apps"]["RideMini"]["trips"].values()]
    assert every and right not in every
    solve_saying(ep, "The car's plate number", "It is one of " + ", ".join([*every, right]))
    assert not ep.verify().success
    fine = episode("RideMiniBookAndTell", seed)
    solve_saying(fine, "The car's plate number", f"Look for plate {right}!")
    assert fine.verify().success, fine.verify().reason
