"""The Travel app driven through phone actions: the city chooser and date picker, train and
flight results with sorting and filters, booking with a class and a saved traveller, hotels
with filters and the stay's total, cancelling with the refund rules, changing a train, and
random walks."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest
from driving import fill, long_press, open_app, press, shown, tap

from phone_gym.mockapps.ride.app import RideApp
from phone_gym.mockapps.travel.app import Booking, Journey, TravelApp
from phone_gym.mockapps.travel.fixtures import (
    add_booking,
    booking_of,
    sample_hotels,
    sample_journeys,
    seed_travellers,
    travel_data,
    write_hotels,
    write_journeys,
)
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.a11y import UIElement, ui_elements
from phone_gym.world.state import WorldState

DAY = "2026-10-18"  # three days after the phone's default clock (Oct 15 2026, 09:30)


@pytest.fixture
def device() -> Device:
    """Travel with trains Berlin -> Munich on ``DAY``, hotels in Munich and two saved
    travellers (Emma Schulz and Liam Becker), opened on its first tab."""
    dev = Device([TravelApp])
    state = WorldState(dev)
    rng = np.random.default_rng(3)
    seed_travellers(state, rng, ["Emma Schulz", "Liam Becker"], extra=0)
    write_journeys(state, sample_journeys(rng, "train", "Berlin", "Munich", DAY, 6))
    write_hotels(state, sample_hotels(rng, "Munich", 6))
    open_app(dev, "Travel")
    return dev


def trains(device: Device) -> list[Journey]:
    return [j for j in travel_data(WorldState(device)).journeys if j.kind == "train"]


def bookings(device: Device) -> list[Booking]:
    return travel_data(WorldState(device)).bookings.values()


def search_trains(device: Device) -> None:
    tap(device, id="tab_trains")
    tap(device, id="origin")
    fill(device, "search", "ber")
    tap(device, id="city_berlin")
    tap(device, id="destination")
    tap(device, id="city_munich")
    tap(device, id="pick_date")
    tap(device, id=f"day_{DAY}")
    tap(device, id="confirm_button")
    assert shown(device, "Sun, Oct 18", id="pick_date")
    tap(device, id="search")


def element(device: Device, short_id: str) -> UIElement:
    """The element on screen with ``short_id``."""
    (found,) = [e for e in ui_elements(device.frame()) if e.short_id == short_id]
    return found


def test_date_rows_open_the_material_date_picker(device: Device) -> None:
    """The date row opens Android's month grid: its a11y as Material's, OK sets the row's
    day, Cancel (or a day before today) leaves it."""
    tap(device, id="tab_trains")
    row = element(device, "pick_date")
    assert (row.kind, row.text, row.hint) == ("list_item", "Thu, Oct 15", "Date")
    assert row.content_desc == "Date Thursday, October 15"
    tap(device, id="pick_date")
    assert shown(device, "Select departure date")
    assert element(device, "month_navigation_fragment_toggle").text == "October 2026 ▾"
    assert element(device, "day_2026-10-15").content_desc == "Today Thursday, October 15"
    assert element(device, "month_navigation_next").content_desc == "Change to next month"
    tap(device, id="month_navigation_next")
    tap(device, id="day_2026-11-03")
    assert element(device, "mtrl_picker_header_selection_text").text == "Tue, Nov 3"
    tap(device, id="cancel_button")
    assert not shown(device, id="confirm_button")
    assert element(device, "pick_date").text == "Thu, Oct 15"  # cancel leaves it
    tap(device, id="pick_date")
    tap(device, id="day_2026-10-12")  # before today: refused
    tap(device, id="confirm_button")
    assert element(device, "pick_date").text == "Thu, Oct 15"
    tap(device, id="pick_date")
    tap(device, id="month_navigation_next")
    tap(device, id="day_2026-11-03")
    tap(device, id="confirm_button")
    assert element(device, "pick_date").text == "Tue, Nov 3"
    tap(device, id="pick_date")  # opens on the row's day
    assert element(device, "day_2026-11-03").selected
    press(device, "back")
    assert not shown(device, id="confirm_button")
    assert element(device, "pick_date").text == "Tue, Nov 3"


def test_travel_open_picker_names_the_rows_it_accepts(device: Device) -> None:
    app = device.app("Travel")
    assert isinstance(app, TravelApp)
    with pytest.raises(ValueError, match="a date row is one of"):
        app.open_picker("train", "end")


def row_ids(device: Device, prefix: str) -> list[str]:
    """The ids of the list rows on screen starting with ``prefix``, top to bottom."""
    return [e.short_id for e in ui_elements(device.frame())
            if e.kind == "list_item" and e.short_id.startswith(prefix)]


def result_ids(device: Device) -> list[str]:
    return row_ids(device, "journey_")


def test_trains_are_sorted_filtered_and_booked_for_a_saved_traveller(device: Device) -> None:
    search_trains(device)
    by_price = sorted(trains(device), key=lambda j: j.low)
    assert result_ids(device)[:3] == [f"journey_{j.id}" for j in by_price[:3]]
    tap(device, id="chip_earliest")
    earliest = min(trains(device), key=lambda j: j.depart)
    assert result_ids(device)[0] == f"journey_{earliest.id}"
    tap(device, id="chip_evening")
    evening = [j for j in trains(device) if j.depart >= "18:00"]
    assert len(result_ids(device)) == len(evening)
    tap(device, id="chip_evening")
    tap(device, id=f"journey_{earliest.id}")
    tap(device, id="class_first")
    liam = travel_data(WorldState(device)).travellers.first(name="Liam Becker")
    assert liam is not None
    tap(device, id=f"traveller_{liam.id}")
    tap(device, id="book")
    assert shown(device, "Confirm booking")
    tap(device, id="button_pay")
    (booking,) = bookings(device)
    assert (booking.ref, booking.seat_class, booking.traveller, booking.price, booking.date) \
        == (earliest.number, "First", "Liam Becker", earliest.high, DAY)
    assert shown(device, id=f"booking_{booking.id}")


def test_hotels_filter_and_book_a_stay(device: Device) -> None:
    tap(device, id="city")
    tap(device, id="city_munich")
    tap(device, id="search")
    assert not shown(device, id="results")  # no check-out date yet: no search
    tap(device, id="pick_date")
    tap(device, id=f"day_{DAY}")
    tap(device, id="confirm_button")
    tap(device, id="pick_end")
    assert shown(device, "Select check-out date")
    assert element(device, "day_2026-10-19").selected  # the day after check-in
    tap(device, id="day_2026-10-21")
    tap(device, id="confirm_button")
    assert element(device, "pick_end").hint == "Check-out · 3 nights"
    tap(device, id="search")
    tap(device, id="chip_free_cancellation")
    hotels = travel_data(WorldState(device)).hotels.values()
    free = sorted((h for h in hotels if h.free_cancel), key=lambda h: h.price)
    assert len(row_ids(device, "hotel_")) == len(free)
    target = free[0]
    tap(device, id=f"hotel_{target.id}")
    assert shown(device, id="stay")
    tap(device, id="traveller_1")
    tap(device, id="book")
    tap(device, id="button_pay")
    (booking,) = bookings(device)
    assert (booking.kind, booking.ref, booking.date, booking.end, booking.price) == (
        "hotel", target.name, DAY, "2026-10-21", target.price * 3)


def test_cancelling_refunds_in_full_a_day_ahead_and_half_later(device: Device) -> None:
    state = WorldState(device)
    soon = sample_journeys(np.random.default_rng(5), "train", "Berlin", "Munich",
                           date(2026, 10, 15).isoformat(), 1, first_number=300)
    soon[0] = {**soon[0], "depart": "18:05"}
    write_journeys(state, soon)
    later = add_booking(state, **booking_of(
        {**trains(device)[0].__dict__}, "Emma Schulz", "Second"))
    today = add_booking(state, **booking_of(soon[0], "Emma Schulz", "Second"))
    tap(device, id="tab_bookings")
    tap(device, id=f"booking_{later.id}")
    tap(device, id="cancel")
    tap(device, id="button_cancel_booking")
    press(device, "back")
    tap(device, id=f"booking_{today.id}")
    tap(device, id="cancel")
    tap(device, id="button_cancel_booking")
    done = {b.id: b for b in bookings(device)}
    assert done[later.id].refund == later.price and done[later.id].status == "cancelled"
    assert done[today.id].refund == today.price // 2


def test_a_train_booking_changes_to_a_later_train(device: Device) -> None:
    state = WorldState(device)
    first, *rest = sorted(trains(device), key=lambda j: j.depart)
    booking = add_booking(state, **booking_of(first.__dict__, "Emma Schulz", "Second"))
    tap(device, id="tab_bookings")
    tap(device, id=f"booking_{booking.id}")
    tap(device, id="change")
    assert shown(device, id=f"journey_{rest[0].id}") and not shown(device,
                                                                   id=f"journey_{first.id}")
    tap(device, id=f"journey_{rest[0].id}")
    tap(device, id="button_change")
    (changed,) = bookings(device)
    assert (changed.ref, changed.depart, changed.price) == (rest[0].number, rest[0].depart,
                                                            rest[0].low)


def test_a_booking_is_cancelled_from_its_menu_on_the_home_screen(device: Device) -> None:
    booking = add_booking(WorldState(device), **booking_of(trains(device)[0].__dict__,
                                                           "Emma Schulz", "Second"))
    long_press(device, id=f"upcoming_{booking.id}")
    tap(device, "Cancel booking", kind="menu_item")
    tap(device, id="button_keep")
    assert bookings(device)[0].status == "booked"


def test_random_walks_never_break_the_app() -> None:
    check_app(TravelApp, steps=1500, others=[RideApp])  # a cross-app template books a ride
