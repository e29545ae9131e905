"""The OsmAnd app driven through phone actions: search by name and by coordinates, the
place page (favourite, marker), the lists, and the track planner."""

from __future__ import annotations

import pytest
from driving import Driver, fill, long_press, open_app, press, shown, tap

from phone_gym.mockapps.osmand import OsmAndApp
from phone_gym.mockapps.osmand.app import TOWNS, decode_points, parse_coords, search
from phone_gym.mockapps.osmand.fixtures import near, passes_in_order
from phone_gym.world import Device


@pytest.fixture
def device() -> Device:
    d = Device([OsmAndApp])
    open_app(d, "OsmAnd")
    return d


def app_of(device: Device) -> OsmAndApp:
    app = device.apps["OsmAnd"]
    assert isinstance(app, OsmAndApp)
    return app


def test_search_by_name_and_coordinates() -> None:
    assert [r[0] for r in search("vad")] == ["Vaduz"]
    assert parse_coords("47.1415, 9.5215") == (47.1415, 9.5215)
    assert parse_coords("north") is None and search("") == []
    (point,) = search("47.1415, 9.5215")
    assert near(TOWNS["Vaduz"][0])(point[1]) and not near(47.2)(point[1])


def test_favourite_and_marker_from_the_place_page(device: Device) -> None:
    tap(device, desc="Search")
    fill(device, "search_field", "Balzers")
    tap(device, "Balzers", kind="list_item")
    tap(device, "Add to favourites")
    tap(device, "Save")
    tap(device, "Marker")
    data = app_of(device).data
    (fav,) = list(data.favorites)
    (marker,) = list(data.markers)
    assert fav.name == "Balzers" and (marker.lat, marker.lon) == TOWNS["Balzers"]


def test_a_track_through_points_in_order(device: Device) -> None:
    tap(device, desc="Menu")
    tap(device, "Plan a route")
    for town in ("Vaduz", "Schaan"):
        tap(device, "Add point")
        fill(device, "search_field", town)
        tap(device, town, kind="list_item")
    tap(device, "Add point")
    fill(device, "search_field", "47.2380, 9.5254")
    tap(device, id="result_0")
    assert shown(device, "3 points")
    tap(device, desc="Undo")
    tap(device, desc="Save")
    fill(device, "track_name", "Walk")
    tap(device, "Save", kind="button")
    (track,) = list(app_of(device).data.tracks)
    assert len(decode_points(track.points)) == 2
    assert passes_in_order(["Vaduz", "Schaan"])(track.points)
    assert not passes_in_order(["Schaan", "Vaduz"])(track.points)


def test_deleting_a_favourite(device: Device) -> None:
    app_of(device).data.favorites.new(name="Home", lat=47.1, lon=9.5)
    tap(device, desc="Menu")
    tap(device, "My favourites")
    long_press(device, "Home", kind="list_item")
    tap(device, "Delete", kind="menu_item")
    tap(device, id="button_delete")
    assert not list(app_of(device).data.favorites)


def test_check_app() -> None:
    from phone_gym.testing import check_app

    check_app("OsmAnd", 300)


def test_the_menu_button_opens_the_main_menu(device: Device) -> None:
    assert not shown(device, "Plan a route")  # no buttons for the menu's places on the map
    tap(device, desc="Menu")
    placed = Driver(device).find(id="navigation_drawer")
    assert placed is not None
    assert [(n.text, n.id) for n in placed.node.children if n.kind == "drawer_item"] == [
        ("Search", "menu_search"), ("My favourites", "favorites"),
        ("Map markers", "markers"), ("Tracks", "tracks"), ("Plan a route", "plan")]
    press(device, "back")  # back closes the menu, staying on the map
    assert not shown(device, id="navigation_drawer") and shown(device, id="map")
    tap(device, desc="Menu")
    tap(device, id="markers")
    assert shown(device, id="markers_list")
    press(device, "back")
    tap(device, desc="Menu")
    tap(device, id="menu_search")
    assert shown(device, id="search_field")
