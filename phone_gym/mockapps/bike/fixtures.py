"""Public fixtures of the Bike & Parking mini-program: bikes, zones, passes, car parks,
reservations, plates and parking sessions, and the snapshot paths verifiers read."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue
from ...tasks.vocab import pick
from ...world.locale import DEFAULT_LOCALE, catalogue_datum
from .app import BikeApp, CarPark, Plan, Ride, Session

BIKES = "apps.Bike.bikes"
RIDES = "apps.Bike.rides"
ZONES = "apps.Bike.zones"
PLANS = "apps.Bike.plans"
PASSES = "apps.Bike.passes"
PARKS = "apps.Bike.parks"
RESERVATIONS = "apps.Bike.reservations"
PLATES = "apps.Bike.plates"
SESSIONS = "apps.Bike.sessions"
LOCATION = "apps.Bike.location"

PLACES = ("Central Station", "City Library", "Riverside Mall", "Olympic Stadium",
          "Science Park", "Old Town Square", "University Hospital")
PARK_NAMES = ("North Gate Garage", "Parkview Lot", "Harbor Car Park", "Plaza Underground",
              "Maple Street Garage", "Station P2", "Civic Center Parking", "Sunrise Car Park",
              "Lakeside Lot", "Tower B Garage", "Market Hall Parking", "Eastside Deck")
ZONE_NAMES = ("Metro Exit B", "Library Steps", "Bus Stop 12", "Campus Gate", "Fountain Square",
              "Cinema Corner", "Post Office", "Food Court East", "Park Entrance")
PROVINCES = ("京A", "沪B", "粤B", "浙A", "苏E", "川A")
#: The seeded data in zh-CN (``strings/zh-CN.data.json``: places, car parks, parking zones
#: and passes).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def datum(state: Any, text: str) -> str:
    """The datum ``text`` in the phone's locale (``MissingString`` when the catalogue lacks
    it; "" and a datum already in the locale stay)."""
    if not text:  # none: nothing to look up
        return text
    return catalogue_datum(DATA, "Bike", "bike", getattr(state, "locale", DEFAULT_LOCALE), text,
                           kept_localized=True)


def bike_app(state: Any) -> BikeApp:
    app = state.app("Bike")
    assert isinstance(app, BikeApp)
    return app


def bike_numbers(rng: np.random.Generator, k: int) -> list[str]:
    """``k`` different 9-digit bike numbers."""
    out: list[str] = []
    while len(out) < k:
        n = str(int(rng.integers(100_000_000, 999_999_999)))
        if n not in out:
            out.append(n)
    return out


def plates(rng: np.random.Generator, k: int) -> list[str]:
    """``k`` different plate numbers like 浙A·3K7Q2 (written without the dot)."""
    out: list[str] = []
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"
    while len(out) < k:
        p = pick(rng, PROVINCES) + "".join(letters[int(i)]
                                           for i in rng.integers(0, len(letters), 5))
        if p not in out:
            out.append(p)
    return out


def set_location(state: Any, answer: str = "allowed") -> None:
    """The location prompt already answered (``""``: it shows on the next open)."""
    bike_app(state).data.location = answer


def add_bike(state: Any, number: str, kind: str, distance: int, battery: int = 0) -> None:
    bike_app(state).data.bikes.new(number=number, kind=kind, distance=distance,
                                   battery=battery if kind == "E-bike" else 0)


def add_ride(state: Any, number: str, kind: str, day: str, status: str = "ended",
             zone: str = "", cost: int = 0, fee: int = 0) -> Ride:
    return bike_app(state).data.rides.new(bike=number, kind=kind, day=day, status=status,
                                          zone=datum(state, zone), cost=cost, fee=fee)


def add_zone(state: Any, name: str, distance: int) -> None:
    bike_app(state).data.zones.new(name=datum(state, name), distance=distance)


def add_plan(state: Any, name: str, days: int, price: int) -> Plan:
    return bike_app(state).data.plans.new(name=datum(state, name), days=days, price=price)


def add_park(state: Any, name: str, place: str, distance: int, rate: int,
             free: int) -> CarPark:
    return bike_app(state).data.parks.new(name=datum(state, name), place=datum(state, place),
                                          distance=distance, rate=rate, free=free)


def add_plate(state: Any, plate: str) -> None:
    bike_app(state).data.plates.new(plate=plate)


def add_session(state: Any, plate: str, park_name: str, hours: int, amount: int,
                status: str = "unpaid") -> Session:
    return bike_app(state).data.sessions.new(plate=plate, park_name=datum(state, park_name),
                                             hours=hours, amount=amount, status=status)


def rows(initial: Mapping[str, Any], table: str) -> dict[str, Mapping[str, Any]]:
    """The records of one of the Bike tables in a snapshot, by key."""
    got = initial.get("apps", {}).get("Bike", {}).get(table, {})
    return {k: v for k, v in got.items() if isinstance(v, Mapping)}
