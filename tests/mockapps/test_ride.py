"""The Ride app driven through phone actions: choosing a destination, ride options and
prices, promo codes, scheduling, the live trip advancing with the clock, cancelling with
and without a fee, rating with a tip, and random walks."""

from __future__ import annotations

import numpy as np
import pytest
from driving import act, fill, open_app, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.ride.app import CANCEL_FEE, RideApp, Trip, price_of
from phone_gym.mockapps.ride.fixtures import (
    add_live_trip,
    add_past_trip,
    place,
    ride_data,
    seed_places,
)
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.state import WorldState


@pytest.fixture
def device() -> Device:
    """A phone with Ride seeded (places, options), opened on "Where to?"."""
    dev = Device([RideApp])
    seed_places(WorldState(dev), np.random.default_rng(0))
    open_app(dev, "Ride")
    return dev


def trips(device: Device) -> list[Trip]:
    return ride_data(WorldState(device)).trips.values()


def wait(device: Device, minutes: int) -> None:
    """``wait`` actions (at most a minute each) for ``minutes`` minutes."""
    for _ in range(minutes):
        act(device, PhoneAction("wait", seconds=60))


def test_a_ride_to_a_saved_place_is_booked_and_advances_with_the_clock(device: Device) -> None:
    work = place(WorldState(device), "Work")
    assert shown(device, "Work") and shown(device, "Home")
    tap(device, id=f"place_{work.id}")
    assert shown(device, id="option_economy") and not shown(device, id="option_xl", text="● XL")
    tap(device, id="option_xl")
    fill(device, "note", "Blue door")
    tap(device, id="confirm")
    (trip,) = trips(device)
    assert (trip.destination, trip.option, trip.status, trip.note) == ("Work", "XL",
                                                                       "requested", "Blue door")
    assert shown(device, "Finding a driver")
    wait(device, 2)
    assert not shown(device, "Finding a driver") and shown(device, id="driver")
    wait(device, 40)
    assert shown(device, "Arrived")


def test_search_finds_places_and_a_promo_code_takes_its_percent_off(device: Device) -> None:
    fill(device, "search", "station")
    station = place(WorldState(device), "Central Station")
    tap(device, id=f"place_{station.id}")
    fill(device, "promo", "autumn30")
    tap(device, id="apply_promo")
    assert shown(device, "This code has expired")
    fill(device, "promo", "RIDE20")
    tap(device, id="apply_promo")
    assert shown(device, id="promo_applied")
    tap(device, id="option_economy")
    tap(device, id="confirm")
    (trip,) = trips(device)
    economy = ride_data(WorldState(device)).options.first(name="Economy")
    assert economy is not None
    assert trip.promo == "RIDE20" and trip.price == price_of(economy, station, 20)


def test_a_scheduled_ride_waits_for_its_time(device: Device) -> None:
    home = place(WorldState(device), "Home")
    tap(device, id=f"place_{home.id}")
    tap(device, id="option_comfort")
    tap(device, id="schedule")
    fill(device, "hour", "18")
    fill(device, "minute", "45")
    tap(device, id="button_ok")
    assert shown(device, "Pickup: today 18:45")
    tap(device, id="confirm")
    (trip,) = trips(device)
    assert trip.status == "scheduled" and trip.scheduled.endswith("T18:45:00")


def test_cancelling_is_free_at_first_then_costs_a_fee(device: Device) -> None:
    state = WorldState(device)
    add_live_trip(state, "City Airport", "Economy", 1)
    act(device, PhoneAction("close_app", app="Ride"))
    open_app(device, "Ride")
    tap(device, id="current_ride")
    tap(device, id="cancel_ride")
    assert shown(device, "You will not be charged.")
    tap(device, id="button_keep_ride")
    wait(device, 6)
    tap(device, id="cancel_ride")
    assert shown(device, id="button_cancel_ride")
    tap(device, id="button_cancel_ride")
    (trip,) = trips(device)
    assert trip.status == "cancelled" and trip.fee == CANCEL_FEE


def test_a_completed_trip_is_rated_with_a_tip(device: Device) -> None:
    state = WorldState(device)
    trip = add_past_trip(state, "Grand Theater", state.device.system.now.replace(hour=7),
                         "Comfort")
    tap(device, id="tab_activity")
    tap(device, id=f"trip_{trip.id}")
    tap(device, id="submit_rating")
    assert ride_data(state).trips[trip.id].rating == 0  # no stars chosen yet
    tap(device, id="stars_4")
    tap(device, id="tip_2")
    tap(device, id="submit_rating")
    rated = ride_data(state).trips[trip.id]
    assert (rated.rating, rated.tip) == (4, 200)
    assert shown(device, id="rated")


def test_random_walks_never_break_the_app() -> None:
    check_app(RideApp, steps=1500, others=[])
