"""The Maps app driven through phone actions: the location prompt, search with filters and
sorting, the place page (save to lists, a new list), directions by mode and navigation,
saved lists, and location sharing."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import numpy as np
import pytest
from driving import Driver, fill, long_press, open_app, press, shown, tap

from phone_gym.mockapps.maps import MapsApp
from phone_gym.mockapps.maps.app import (
    Place,
    duration_text,
    is_open,
    search,
    travel_minutes,
)
from phone_gym.mockapps.maps.fixtures import ALL_NAMES, city_rows
from phone_gym.world import Device

NOON = datetime(2026, 10, 15, 12, 0)


def element(device: Device, **query: str) -> Any:
    """The matching widget on screen (it must be there)."""
    found = Driver(device).find(**query)
    assert found is not None, query
    return found.node


def app_of(device: Device) -> MapsApp:
    app = device.apps["Maps"]
    assert isinstance(app, MapsApp)
    return app


def city(device: Device, location: str = "allowed") -> MapsApp:
    """A device with a fixed little city: two cafes and a landmark."""
    app = app_of(device)
    data = app.data
    data.places.new(name="Little Bean", kind="Cafe", address="3 Mill Lane", rating=4.6,
                    price=1, opens="07:00", closes="18:00", x=300, y=200)
    data.places.new(name="Copper Kettle", kind="Cafe", address="61 King Street", rating=4.8,
                    price=2, opens="11:00", closes="20:00", x=100, y=100)
    data.places.new(name="Clock Tower", kind="Landmark", address="Tower Hill", rating=4.2,
                    price=0, opens="08:00", closes="18:00", x=-800, y=1200)
    data.location = location
    return app


@pytest.fixture
def device() -> Device:
    d = Device([MapsApp])
    city(d)
    open_app(d, "Maps")
    return d


def test_pure_helpers() -> None:
    place = Place(1, "A", "Cafe", "x", 4.0, 1, "08:00", "12:00", 0, 0)
    assert is_open(place, datetime(2026, 1, 1, 9, 0)) and not is_open(place, NOON)
    assert travel_minutes(800, "Walk") == 10 and travel_minutes(800, "Drive") == 4
    assert duration_text(65) == "1 hr 5 min" and duration_text(60) == "1 hr"
    rows = city_rows(np.random.default_rng(3))
    assert sorted(r["name"] for r in rows) == sorted(ALL_NAMES)
    assert rows == city_rows(np.random.default_rng(3))  # a pure function of the seed


def test_search_filters_and_sort(device: Device) -> None:
    places = list(app_of(device).data.places)
    at_930 = datetime(2026, 10, 15, 9, 30)
    assert [p.name for p in search(places, "cafe", {"Open now"}, "Rating", at_930, True)] == [
        "Little Bean"]
    assert [p.name for p in search(places, "cafes", set(), "Rating", at_930, True)] == [
        "Copper Kettle", "Little Bean"]
    assert [p.name for p in search(places, "", {"Within 1 km"}, "Distance", at_930, True)] == [
        "Copper Kettle", "Little Bean"]
    tap(device, id="search_bar")
    fill(device, "search_field", "cafe")
    tap(device, "Open now", kind="chip")
    assert shown(device, "Little Bean") and not shown(device, "Copper Kettle")


def test_location_prompt_is_stored_and_deny_hides_distances() -> None:
    d = Device([MapsApp])
    app = city(d, location="")
    open_app(d, "Maps")
    assert shown(d, id="button_deny")
    tap(d, id="button_deny")
    assert app.data.location == "denied" and app.data.location_grants == 0
    tap(d, "Within 1 km", kind="chip") if shown(d, "Within 1 km", kind="chip") else None
    tap(d, id="search_bar")
    tap(d, "Within 1 km", kind="chip")
    assert "Within 1 km" not in app.ui.filters  # no location: the filter stays off


def test_only_this_time_asks_again_and_counts_as_a_grant() -> None:
    d = Device([MapsApp])
    app = city(d, location="")
    open_app(d, "Maps")
    tap(d, id="button_once")
    assert app.data.location == "once" and app.data.location_grants == 1
    app.stop()
    assert app.asking


def test_save_to_lists_and_a_new_list(device: Device) -> None:
    tap(device, id="search_bar")
    fill(device, "search_field", "Clock Tower")
    tap(device, "Clock Tower", kind="list_item")
    tap(device, id="save")
    tap(device, "Want to go", kind="checkbox")
    tap(device, id="button_new_list")
    fill(device, "list_name", "Weekend")
    tap(device, id="button_create")
    tap(device, "Weekend", kind="checkbox")
    tap(device, id="button_done")
    saved = {(s.list, s.place) for s in app_of(device).data.saved}
    assert saved == {("Want to go", "Clock Tower"), ("Weekend", "Clock Tower")}
    assert shown(device, "Saved in Want to go, Weekend")


def test_directions_by_mode_and_navigation(device: Device) -> None:
    tap(device, id="search_bar")
    fill(device, "search_field", "Clock Tower")
    tap(device, "Clock Tower", kind="list_item")
    tap(device, id="directions")
    tap(device, id="origin")
    fill(device, "search_field", "Little Bean")
    tap(device, "Little Bean", kind="list_item")
    tap(device, "Walk")
    metres = 1100 + 1000
    summary = element(device, id="route_summary").text
    assert summary == f"{duration_text(travel_minutes(metres, 'Walk'))} · 2.1 km"
    tap(device, id="start")
    (trip,) = list(app_of(device).data.trips)
    assert (trip.origin, trip.destination, trip.mode) == ("Little Bean", "Clock Tower", "Walk")


def test_removing_from_a_list_keeps_the_place_in_others(device: Device) -> None:
    data = app_of(device).data
    data.saved.new(list="Favourites", place="Little Bean")
    data.saved.new(list="Want to go", place="Little Bean")
    tap(device, id="saved")
    tap(device, "Favourites", kind="list_item")
    long_press(device, "Little Bean", kind="list_item")
    tap(device, "Remove", kind="menu_item")
    assert [(s.list, s.place) for s in data.saved] == [("Want to go", "Little Bean")]


def test_location_sharing(device: Device) -> None:
    tap(device, desc="Location sharing")
    tap(device, id="new_share")
    fill(device, "share_number", "+1 415-555-0101")
    tap(device, id="share_for")
    tap(device, "15 minutes")
    tap(device, id="button_share")
    (share,) = list(app_of(device).data.shares)
    assert (share.number, share.minutes) == ("+1 415-555-0101", 15)
    long_press(device, "+1 415-555-0101", kind="list_item")
    tap(device, "Stop", kind="menu_item")
    assert not list(app_of(device).data.shares)
    press(device, "back")


def test_check_app() -> None:
    from phone_gym.testing import check_app

    check_app("Maps", 300)
