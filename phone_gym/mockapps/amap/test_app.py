"""高德地图 (Amap): the authoring checks on the app and every template, and the app's own
behaviour: search finds places nearest first, a card shows the distance, 收藏 toggles, and
a route's time depends on its mode."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver
from phone_gym.mockapps.amap import APP, TEMPLATES
from phone_gym.mockapps.amap.app import MODES, distance_text, minutes_text, route_minutes
from phone_gym.mockapps.amap.fixtures import (
    amap_app,
    metres_of,
    minutes_of,
    route_time,
    sample_places,
    search_place,
    write_places,
)
from phone_gym.testing import check_app, check_task
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.state import WorldState


@pytest.mark.parametrize("task_id", [t.id for t in TEMPLATES])
def test_check_task(task_id: str) -> None:
    check_task(task_id, 20, processes=False)


@pytest.mark.parametrize("task_id", [t.id for t in TEMPLATES])
def test_check_task_on_a_zh_phone(task_id: str) -> None:
    check_task(task_id, 20, processes=False, locale="zh-CN", starts=(0,))


def test_check_app() -> None:
    check_app(APP, 3000)


def phone() -> tuple[Device, WorldState, Driver, list[dict]]:
    device = Device(APPS)
    state = WorldState(device)
    places = sample_places(np.random.default_rng(5), 6)
    write_places(state, places)
    return device, state, Driver(lambda: ui_elements(device.frame()), state), places


def run(device: Device, actions: Iterable[PhoneAction]) -> None:
    for action in actions:
        assert device.step(action) is None


def saved(state: WorldState, place_id: int) -> bool:
    place = amap_app(state).data.places.get(place_id)
    assert place is not None
    return place.saved


def test_texts_parse_back() -> None:
    assert (distance_text(850), distance_text(1230)) == ("850米", "1.2公里")
    assert (metres_of("距您 850米"), metres_of("距您 1.2公里")) == (850, 1200)
    assert minutes_of("驾车 1小时5分钟 · 30.0公里") == 65 and minutes_text(65) == "1小时5分钟"
    with pytest.raises(ValueError, match="驾车"):
        route_minutes(100, "飞行")


def test_the_map_shows_a_pin_per_place_and_search_is_nearest_first() -> None:
    device, state, ui, places = phone()
    run(device, ui.open_app("Amap"))
    assert len([e for e in ui.elements() if e.short_id.startswith("pin_")]) >= 1
    run(device, ui.fill("search", "区"))  # every address holds 区
    rows = [e for e in ui.elements() if e.short_id.startswith("place_")]
    shown = [metres_of(e.text) for e in ui.elements() if e.short_id.startswith("dist_")]
    assert len(rows) == len(shown) >= 4 and shown == sorted(shown)


def test_card_save_and_route_by_mode() -> None:
    device, state, ui, places = phone()
    p = places[2]
    run(device, search_place(ui, p["name"]))
    metres = abs(p["x"]) + abs(p["y"])
    assert ui.must(id="place_address").text == f"地址：{p['address']}"
    assert ui.must(id="place_distance").text == f"距您 {distance_text(metres)}"
    run(device, ui.tap(id="save"))
    assert saved(state, 3)
    run(device, ui.tap(id="save"))
    assert not saved(state, 3)
    times = {}
    for mode in MODES:
        run(device, ui.press("back")) if mode != "驾车" else None
        run(device, route_time(ui, mode))
        times[mode] = minutes_of(ui.must(id="route_summary").text)
        assert times[mode] == route_minutes(metres, mode)
    assert times["步行"] > times["骑行"]
