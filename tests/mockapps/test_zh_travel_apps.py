"""Maps, Ride, Travel and Bike & Parking on a zh-CN phone: their fixtures seed the same draws
as in en-US with the names, addresses and people in Chinese (each app's
``strings/zh-CN.data.json``), a datum missing from a catalogue is an error, and the screens
show those data with the locale's formats (¥, 公里, 10月20日 周二)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from typing import Any

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS
from phone_gym.mockapps.bike import fixtures as bike
from phone_gym.mockapps.maps import fixtures as maps
from phone_gym.mockapps.ride import fixtures as ride
from phone_gym.mockapps.ride.app import DRIVERS
from phone_gym.mockapps.travel import fixtures as travel
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.glyphs import undrawable
from phone_gym.world.locale import MissingString
from phone_gym.world.state import WorldState

HAN = re.compile(r"[\u4e00-\u9fff]")
LATIN = re.compile(r"[A-Za-z]")


def seed_maps(state: WorldState, rng: np.random.Generator) -> None:
    maps.seed_city(state, rng)
    maps.save_places(state, rng, 3)


def seed_ride(state: WorldState, rng: np.random.Generator) -> None:
    ride.seed_places(state, rng)
    ride.seed_history(state, rng, 3)
    ride.add_live_trip(state, "Harbor Market", "Comfort", 2)


def seed_travel(state: WorldState, rng: np.random.Generator) -> None:
    journeys = travel.sample_journeys(rng, "train", "Berlin", "Munich", "2026-10-20", 3)
    travel.write_journeys(state, journeys)
    travel.write_hotels(state, travel.sample_hotels(rng, "Vienna", 3))
    travel.seed_travellers(state, rng, ["Alex Kim", "Alex Moreau"])
    travel.add_booking(state, **travel.booking_of(journeys[0], "Alex Kim", "Second"))
    travel.seed_other_bookings(state, rng, date(2026, 10, 15))


def seed_bike(state: WorldState, rng: np.random.Generator) -> None:
    bike.set_location(state)
    bike.add_plan(state, "Monthly pass", 30, 1500)
    for name in bike.ZONE_NAMES[:3]:
        bike.add_zone(state, name, int(rng.integers(100, 900)))
    bike.add_park(state, "North Gate Garage", "Central Station", 1200, 800, 12)
    bike.add_session(state, "京A12345", "Harbor Car Park", 2, 1600)
    bike.add_ride(state, "10234", "Bike", "2026-10-14", zone="Bus Stop 12", cost=150)


#: app -> (its seeding, the tables whose text fields hold seeded data)
SEEDS: dict[str, tuple[Callable[[WorldState, np.random.Generator], None], tuple[str, ...]]] = {
    "Maps": (seed_maps, ("places", "saved")),
    "Ride": (seed_ride, ("places", "trips")),
    "Travel": (seed_travel, ("journeys", "hotels", "travellers", "bookings")),
    "Bike": (seed_bike, ("plans", "zones", "parks", "sessions", "rides")),
}
#: Fields that stay as they are in every locale: keys, codes, times, classes and statuses
#: the app shows through its UI catalogue, cities it shows in Chinese, saved places' names.
KEPT = {"kind", "option", "status", "list", "saved", "date", "depart", "arrive", "number",
        "ref", "origin", "destination", "city", "seat_class", "requested", "scheduled",
        "promo", "note", "bike", "day", "plate", "start", "end", "bought", "pickup"}
SAVED = {"Home", "Work"}  # Ride's saved places: keys the app shows as 家 and 公司


def seeded(app: str, locale: str) -> tuple[Device, dict[str, Any]]:
    device = Device(APPS, locale=locale)
    seed, _ = SEEDS[app]
    seed(WorldState(device), np.random.default_rng(7))
    return device, device.snapshot()["apps"][app]


def fields(table: dict[str, Any]) -> list[tuple[str, Any]]:
    return [(k, v) for record in table.values() for k, v in sorted(record.items())]


@pytest.mark.parametrize("app", list(SEEDS))
def test_zh_seeds_the_same_draws_with_chinese_data(app: str) -> None:
    _, en = seeded(app, "en-US")
    device, zh = seeded(app, "zh-CN")
    translated = 0
    for table in SEEDS[app][1]:
        assert en[table].keys() == zh[table].keys(), table
        for (k, a), (k2, b) in zip(fields(en[table]), fields(zh[table]), strict=True):
            assert k == k2
            if not isinstance(a, str) or k in KEPT or not LATIN.search(a) or a in SAVED:
                assert a == b or (k in ("ref", "destination") and HAN.search(str(b))), \
                    (table, k, a, b)  # numbers, prices, times: the same draws
            else:  # a name, an address, a driver, a document
                assert HAN.search(b) and not undrawable(b), (table, k, a, b)
                translated += 1
    assert translated >= 6
    shown = {e.text for e in ui_elements(device.frame())}
    assert shown  # the phone draws


@pytest.mark.parametrize("app, where", [("Maps", maps), ("Ride", ride), ("Travel", travel),
                                        ("Bike", bike)])
def test_a_datum_missing_from_the_catalogue_is_an_error(app: str, where: Any) -> None:
    device = Device(APPS, locale="zh-CN")
    state = WorldState(device)
    with pytest.raises(MissingString, match="data.json"):
        if app == "Maps":
            where.datum("zh-CN", "Nowhere Café")
        elif app == "Ride":
            where.add_live_trip(state, "Nowhere Café", "Comfort", 1)
        elif app == "Travel":
            where.seed_travellers(state, np.random.default_rng(0), ["Nobody Known"], 0)
        else:
            where.add_zone(state, "Nowhere Corner", 100)


def screen_texts(device: Device, app: str, *taps: str) -> list[str]:
    device.open_app(app)
    for tap in taps:
        e = next(e for e in ui_elements(device.frame()) if e.resource_id.endswith("/" + tap))
        device.step(PhoneAction("click", x=e.center_norm[0], y=e.center_norm[1]))
    return [e.text for e in ui_elements(device.frame()) if e.text]


def test_zh_screens_show_the_chinese_data_in_the_locale_formats() -> None:
    device, _ = seeded("Ride", "zh-CN")
    trip = screen_texts(device, "Ride", "tab_activity", "trip_1")
    assert "前往家" in trip or any(t.startswith("前往") for t in trip)
    assert any(t.startswith("司机：") and t.endswith(tuple(
        "丰田普锐斯 本田思域 斯柯达明锐 大众帕萨特 起亚极睿 现代艾尼氪".split()))
        for t in trip), trip
    assert any("¥" in t for t in trip) and not any("$" in t for t in trip)
    device, _ = seeded("Travel", "zh-CN")
    booking = screen_texts(device, "Travel", "tab_bookings", "booking_1")
    assert "柏林 → 慕尼黑" in booking and "出行人：王子轩" in booking, booking
    assert "10月20日 周二 · " in booking[3] and "¥" in " ".join(booking)
    device, _ = seeded("Maps", "zh-CN")
    main = screen_texts(device, "Maps")
    assert any(t.endswith("公里") for t in main) and "附近" in main
    assert not [t for t in main if " km" in t]
    device, _ = seeded("Bike", "zh-CN")
    assert "月卡" in screen_texts(device, "Bike", "tab_passes")


def test_en_us_is_untouched() -> None:
    device, data = seeded("Ride", "en-US")
    assert {p["name"] for p in data["places"].values()} >= {"Harbor Market", "Home"}
    assert {t["driver"] for t in data["trips"].values()} <= {d for d, _ in DRIVERS}
    trip = screen_texts(device, "Ride", "tab_activity", "trip_1")
    assert any(t.startswith("Driver: ") for t in trip) and any("$" in t for t in trip)
