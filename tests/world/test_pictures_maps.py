"""Procedural pictures and the map renderer: determinism, content, pans and zooms that keep
pins under their places, and OsmAnd's map screen in the accessibility tree."""

from __future__ import annotations

import numpy as np
import pytest
from driving import act, open_app

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.osmand import OsmAndApp
from phone_gym.mockapps.osmand.app import MAP_H, TOWNS
from phone_gym.world import Device, pictures
from phone_gym.world.a11y import ui_elements
from phone_gym.world.kit.mapview import MapState
from phone_gym.world.maps import MapView, decode, encode, tile

RECEIPT = "2023-10-12, Taxi ride, 22.00\n2023-10-13, Parking, 4.50"


@pytest.mark.parametrize("kind", pictures.KINDS)
def test_same_seed_same_bytes_and_seeds_differ(kind: str) -> None:
    a = pictures._render.__wrapped__(kind, 3, "", 200, 160)  # uncached: drawn twice
    b = pictures._render.__wrapped__(kind, 3, "", 200, 160)
    assert a.tobytes() == b.tobytes()
    assert pictures.render(kind, 3, 200, 160).tobytes() != \
        pictures.render(kind, 4, 200, 160).tobytes()


@pytest.mark.parametrize("kind", pictures.KINDS)
def test_every_kind_is_more_than_a_flat_tile(kind: str) -> None:
    img = pictures.render(kind, 7, 240, 240).astype(float)
    assert img.std(axis=(0, 1)).mean() > 12
    assert len(np.unique(img.reshape(-1, 3), axis=0)) >= 5  # shapes, not one fill


def test_receipt_text_is_drawn_in_its_pixels() -> None:
    with_text = pictures.render("receipt", 1, 600, 500, RECEIPT)
    blank = pictures.render("receipt", 1, 600, 500, "")
    other = pictures.render("receipt", 1, 600, 500, "2023-10-12, Bus, 2.00")
    assert with_text.tobytes() != blank.tobytes() != other.tobytes()
    dark = (with_text.sum(axis=2) < 200).sum()  # ink of the glyphs
    assert dark > 500


def test_classify_and_bad_kinds() -> None:
    assert pictures.classify(["2023-10-12, Taxi ride, 22.00"]) == "receipt"
    assert pictures.classify(["Sprint goals", "1. Ship the beta"]) == "document"
    assert pictures.classify(["A grey cat asleep on a sofa"]) == "pet"
    assert pictures.classify(["A chocolate cake with candles"]) == "food"
    assert pictures.classify(["A sandy beach at sunset"]) == "landscape"
    assert pictures.decode(pictures.encode("album", 5)) == ("album", 5)
    assert pictures.decode("primary") is None
    with pytest.raises(ValueError, match="landscape"):
        pictures.encode("selfie", 1)
    with pytest.raises(ValueError, match="width"):
        pictures.render("food", 1, 0, 10)


def test_map_tiles_are_seeded_and_cached() -> None:
    a = tile(1, 16, 1.0, 0, 0)
    assert tile(1, 16, 1.0, 0, 0) is a  # cached
    assert np.asarray(tile.__wrapped__(1, 16, 1.0, 0, 0)).tobytes() == np.asarray(a).tobytes()
    assert np.asarray(tile(2, 16, 1.0, 0, 0)).tobytes() != np.asarray(a).tobytes()


def test_map_encoding_and_bad_zoom() -> None:
    view = MapView(4, 47.1, 9.5, 10.0, -20.0, 15)
    assert decode(encode(view))[0] == view
    with pytest.raises(ValueError, match="zoom"):
        MapView(4, 47.1, 9.5, zoom=30)


def test_pan_and_zoom_keep_places_under_their_points() -> None:
    view = MapView(4, 47.14151, 9.52154, zoom=15)
    lat, lon = TOWNS["Vaduz"]
    x, y = view.to_screen(lat, lon, 1080, 2000)
    moved = view.panned(100, -50)
    assert moved.to_screen(lat, lon, 1080, 2000) == (x + 100, y - 50)
    zoomed = view.zoomed(1)
    zx, zy = zoomed.to_screen(lat, lon, 1080, 2000)
    assert (zx - 540, zy - 1000) == (2 * (x - 540), 2 * (y - 1000))
    state = MapState(view)
    from datetime import datetime
    t = datetime(2024, 1, 1)
    state.tap(t)
    assert state.view.zoom == 15
    state.tap(t)  # a second tap at once: a double tap
    assert state.view.zoom == 16


def _pins(device: Device) -> dict[str, tuple[int, int]]:
    out = {}
    for e in ui_elements(device.frame()):
        if e.resource_id.endswith("id/pin_" + e.content_desc):
            x0, y0, x1, y1 = e.bounds
            out[e.content_desc] = ((x0 + x1) // 2, y1)
    return out


def test_osmand_map_pans_zooms_and_pins_follow() -> None:
    device = Device([OsmAndApp])
    open_app(device, "OsmAnd")
    pins = _pins(device)
    assert "Vaduz" in pins
    ids = {e.resource_id.split("/")[-1] for e in ui_elements(device.frame())}
    assert {"map", "search", "zoom_in", "zoom_out", "my_location", "compass",
            "drawer_toggle"} <= ids
    vx, vy = pins["Vaduz"]
    act(device, PhoneAction("drag", x=400, y=500, x2=450, y2=460))  # drag pans the map
    after = _pins(device)["Vaduz"]
    assert after != (vx, vy)
    view = device.current_app.ui.map.view  # type: ignore[union-attr]
    lat, lon = TOWNS["Vaduz"]
    mx, my = view.to_screen(lat, lon, 1080, MAP_H)
    assert abs(after[1] - (my + 110)) <= 2 and abs(after[0] - mx) <= 2  # pin on its place
    zoom = view.zoom
    act(device, PhoneAction("click", x=300, y=330))
    assert device.current_app.ui.map.view.zoom == zoom  # type: ignore[union-attr]
    act(device, PhoneAction("double_click", x=300, y=330))
    assert device.current_app.ui.map.view.zoom == zoom + 1  # type: ignore[union-attr]


def test_fitted_shows_every_point_and_latlon_inverts_metres() -> None:
    view = MapView(seed=1, lat0=51.5, lon0=-0.12, zoom=15)
    lat, lon = view.latlon(700.0, -300.0)
    assert view.metres(lat, lon) == pytest.approx((700.0, -300.0), abs=0.01)
    points = [(51.5, -0.12), view.latlon(2500.0, 1800.0)]
    fit = view.fitted(points, 1080, 760, margin=100)
    for p in points:
        x, y = fit.to_screen(*p, 1080, 760)
        assert 100 <= x <= 980 and 100 <= y <= 660
    assert fit.zoom < 15  # the points are too far apart for the first zoom
    with pytest.raises(ValueError, match="at least one"):
        view.fitted([], 1080, 760)


def _maps_device() -> Device:
    from phone_gym.mockapps.maps import MapsApp
    from phone_gym.mockapps.maps.fixtures import seed_city

    device = Device([MapsApp])
    seed_city(device, np.random.default_rng(0))  # type: ignore[arg-type]
    open_app(device, "Maps")
    return device


def test_maps_main_screen_is_a_map_with_floating_controls_and_pins() -> None:
    from phone_gym.mockapps.maps.app import CITY, MAIN_MAP_H, latlon

    device = _maps_device()
    elements = ui_elements(device.frame())
    ids = {e.resource_id.split("/")[-1] for e in elements}
    assert {"map", "search_bar", "sharing", "directions", "my_location", "saved",
            "nearby"} <= ids
    app = device.current_app
    places = {p.id: p for p in app.data.places}  # type: ignore[union-attr]
    pins = [e for e in elements if e.resource_id.split("/")[-1].startswith("pin_")]
    assert pins
    map_top = next(e for e in elements if e.resource_id.endswith("id/map")).bounds[1]
    for e in pins:  # each pin's point is on its place
        p = places[int(e.resource_id.rsplit("_", 1)[1])]
        assert e.content_desc == p.name
        x, y = CITY.to_screen(*latlon(p.x, p.y), 1080, MAIN_MAP_H)
        assert abs((e.bounds[0] + e.bounds[2]) // 2 - x) <= 2
        assert abs(e.bounds[3] - map_top - y) <= 2


def test_maps_directions_draw_the_route_line() -> None:
    from driving import fill, tap

    from phone_gym.mockapps.maps.app import latlon
    from phone_gym.world.render import Renderer

    device = _maps_device()
    tap(device, id="directions")
    tap(device, id="destination")
    app = device.current_app
    dest = next(iter(app.data.places))  # type: ignore[union-attr]
    fill(device, "search_field", dest.name)
    tap(device, dest.name, kind="list_item")
    ids = {e.resource_id.split("/")[-1] for e in ui_elements(device.frame())}
    assert {"route_map", "route_start", "route_end", "route_summary"} <= ids
    node = app.route_canvas(dest, id="route_map", desc="Route map")  # type: ignore[union-attr]
    _, _, route = decode(node.text)
    assert len(route) == 3  # from you along one street, then the other, to the place
    assert route[-1] == pytest.approx(latlon(dest.x, dest.y), abs=1e-6)
    before = Renderer(360, 800).render(device.frame())
    node_without = app.route_canvas(None, id="route_map", desc="Route map")  # type: ignore
    assert decode(node_without.text)[2] == [] and before.std() > 0
