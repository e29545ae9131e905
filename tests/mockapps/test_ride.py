"""The Ride app driven through phone actions: choosing a destination, ride options and
prices, promo codes, scheduling, the live trip advancing with the clock, cancelling with
and without a fee, rating with a tip, and random walks."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest
from driving import Driver, act, drive, fill, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.ride.app import (
    CANCEL_FEE,
    MAX_DAYS_AHEAD,
    RideApp,
    Trip,
    pickup_at,
    price_of,
)
from phone_gym.mockapps.ride.fixtures import (
    add_live_trip,
    add_past_trip,
    place,
    ride_data,
    schedule_pickup,
    seed_places,
)
from phone_gym.tasks.driver import Driver as OracleDriver
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.state import WorldState
from phone_gym.world.widgets import Node


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


def node(device: Device, id: str) -> Node:
    """The node with ``id`` on screen."""
    found = Driver(device).find(id=id)
    assert found is not None, id
    return found.node


def open_schedule(device: Device, name: str = "Home", option: str = "comfort") -> None:
    """From "Where to?": ``name``'s ride options, ``option`` chosen, "Schedule a ride"."""
    tap(device, id=f"place_{place(WorldState(device), name).id}")
    tap(device, id=f"option_{option}")
    tap(device, id="schedule")


def pick_time(device: Device, hour: int, minute: int) -> None:
    """With the time row's picker open (24-hour face): the hour, the minute, OK."""
    tap(device, desc=f"{hour} hours")
    tap(device, desc=f"{minute} minutes")
    tap(device, id="material_timepicker_ok_button")


def test_a_scheduled_ride_waits_for_its_time(device: Device) -> None:
    open_schedule(device)
    tap(device, id="schedule_time")
    assert shown(device, id="material_clock_face")  # Android's picker, not a stepper
    assert not shown(device, id="hour_increase") and not shown(device, id="hour")
    pick_time(device, 18, 45)
    assert shown(device, "18:45", id="schedule_time")
    tap(device, id="set_pickup")
    assert shown(device, "Pickup: today 18:45", id="schedule")
    tap(device, id="confirm")
    (trip,) = trips(device)
    now = device.system.now
    assert trip.status == "scheduled" and trip.scheduled == f"{now:%Y-%m-%d}T18:45:00"
    assert (trip.driver, trip.car) == ("", "")


def test_the_schedule_screen_is_uber_s_date_and_time_rows(device: Device) -> None:
    """What an agent reads: the rows (text and description), the notes and the docked
    button; each row opens Android's Material picker on its value."""
    now = device.system.now
    open_schedule(device)
    assert shown(device, "Schedule a ride", kind="top_bar")
    day = node(device, "schedule_date")
    hour = (now + timedelta(hours=1)).replace(minute=0)  # the next full hour at first
    assert day.text == ("Today" if hour.date() == now.date() else "Tomorrow")
    assert day.desc == f"Pickup date {hour:%A, %B} {hour.day}"
    assert node(device, "schedule_time").text == f"{hour:%H}:00"
    assert node(device, "schedule_time").desc == f"Pickup time {hour:%H}:00"
    assert shown(device, id="set_pickup") and shown(device, id="pickup_now")
    assert shown(device, id="schedule_note_days")
    tap(device, id="schedule_date")
    assert shown(device, id="month_navigation_fragment_toggle")
    assert node(device, f"day_{hour.date().isoformat()}").selected
    tap(device, id="cancel_button")
    tap(device, id="schedule_time")
    assert node(device, "material_hour_tv").text == f"{hour:%H}"


def test_the_pickers_set_another_day_and_time(device: Device) -> None:
    now = device.system.now
    later = (now + timedelta(days=3)).date()
    open_schedule(device, "Work", "xl")
    tap(device, id="schedule_date")
    if later.month != now.month:
        tap(device, id="month_navigation_next")
    tap(device, id=f"day_{later.isoformat()}")
    tap(device, id="confirm_button")
    assert shown(device, f"{later:%a, %b} {later.day}", id="schedule_date")
    tap(device, id="schedule_time")
    pick_time(device, 7, 15)
    tap(device, id="set_pickup")
    assert shown(device, f"Pickup: {later:%a, %b} {later.day} 07:15", id="schedule")
    tap(device, id="confirm")
    (trip,) = trips(device)
    assert (trip.option, trip.scheduled) == ("XL", f"{later.isoformat()}T07:15:00")


def test_cancel_and_back_leave_the_pickup_unchanged(device: Device) -> None:
    open_schedule(device)
    tap(device, id="schedule_time")
    pick_time(device, 20, 30)
    tap(device, id="set_pickup")
    tap(device, id="schedule")
    tap(device, id="schedule_time")
    tap(device, desc="22 hours")
    tap(device, id="material_timepicker_cancel_button")
    assert shown(device, "20:30", id="schedule_time")
    tap(device, id="schedule_date")
    tap(device, id="month_navigation_next")
    press(device, "back")  # closes the picker, not the screen
    assert shown(device, id="set_pickup") and shown(device, "Today", id="schedule_date")
    tap(device, id="schedule_time")
    pick_time(device, 21, 0)
    press(device, "back")  # leaving the screen keeps the pickup set before
    assert shown(device, "Pickup: today 20:30", id="schedule")
    tap(device, id="schedule")
    tap(device, id="pickup_now")
    assert shown(device, "Pickup: Now", id="schedule")
    tap(device, id="confirm")
    (trip,) = trips(device)
    assert (trip.status, trip.scheduled) == ("requested", "")


def test_a_past_or_far_pickup_cannot_be_set(device: Device) -> None:
    now = device.system.now
    open_schedule(device)
    tap(device, id="schedule_time")
    pick_time(device, 0, 0)  # today, already gone
    assert shown(device, "Choose a pickup time later than now", id="schedule_error")
    assert not node(device, "set_pickup").enabled
    far = now.date() + timedelta(days=MAX_DAYS_AHEAD + 1)
    tap(device, id="schedule_date")
    for _ in range((far.year - now.year) * 12 + far.month - now.month):
        tap(device, id="month_navigation_next")
    tap(device, id=f"day_{far.isoformat()}")
    tap(device, id="confirm_button")
    assert shown(device, id="schedule_error")
    tap(device, id="set_pickup")  # disabled: nothing happens
    assert shown(device, id="schedule_error")
    press(device, "back")
    assert shown(device, "Pickup: Now", id="schedule")


def test_a_12_hour_phone_shows_and_picks_am_pm(device: Device) -> None:
    device.system.put_setting("system", "time_12_24", "12")
    open_schedule(device)
    tap(device, id="schedule_time")
    assert shown(device, id="material_clock_period_pm_button")
    tap(device, id="material_clock_period_pm_button")
    tap(device, desc="6 o'clock")
    tap(device, desc="45 minutes")
    tap(device, id="material_timepicker_ok_button")
    assert shown(device, "6:45 PM", id="schedule_time")
    tap(device, id="set_pickup")
    assert shown(device, "Pickup: today 6:45 PM", id="schedule")


@pytest.mark.parametrize("bad", ["18:45", "2024-10-15 18:45:00", "tomorrow", ""])
def test_a_pickup_must_be_a_date_and_time(bad: str) -> None:
    with pytest.raises(ValueError, match="YYYY-MM-DDTHH:MM"):
        pickup_at(bad)


def test_the_oracle_helper_goes_through_both_pickers(device: Device) -> None:
    """``schedule_pickup`` picks another day in the month grid and a minute between the
    clock face's marks, as a person taps them."""
    now = device.system.now
    tap(device, id=f"place_{place(WorldState(device), 'Home').id}")
    tap(device, id="option_economy")
    when = (now + timedelta(days=2)).replace(hour=9, minute=37)
    ui = OracleDriver(lambda: ui_elements(device.frame()), WorldState(device))
    drive(device, schedule_pickup(ui, when))
    assert shown(device, f"Pickup: {when:%a, %b} {when.day} 09:37", id="schedule")


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


def test_the_right_time_on_another_day_is_a_wrong_scheduled_ride() -> None:
    """The schedule screen picks a day as well: a ride at the asked time tomorrow fails."""
    from phone_gym.mockapps import REGISTRY, Episode
    from phone_gym.mockapps.ride.app import RideApp

    template = REGISTRY.template("RideScheduleRide")
    phone = Device([RideApp])
    ep = Episode(template, phone, np.random.default_rng(0))
    answer, _ = ep.solve()
    assert ep.verify(answer, ep.end_status).success
    app = phone.apps["Ride"]
    (trip,) = [t for t in app.data.trips if t.status == "scheduled"]
    day = (phone.system.now + timedelta(days=1)).date().isoformat()
    app.data.trips = tuple(t if t is not trip else type(t)(**{**vars(t), "scheduled":
                                                                f"{day}{t.scheduled[10:]}"})
                           for t in app.data.trips)
    final = ep.host.snapshot(template)
    assert not template.judge(ep.initial, final, ep.params, answer, ep.end_status).success
