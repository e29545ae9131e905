"""Public fixtures of the Ride mini-program: places, car types, coupons and trips, and the
snapshot paths verifiers read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...tasks.task import data_catalogue
from ...world.locale import DEFAULT_LOCALE, catalogue_datum
from .app import HERE, CarType, Coupon, RideMiniApp, Trip, driver_for, fare, plate_for

PLACES_PATH = "apps.RideMini.places"
CARS = "apps.RideMini.cars"
COUPONS = "apps.RideMini.coupons"
TRIPS = "apps.RideMini.trips"

PLACES = (("Hongqiao Airport T2", "Shenhong Rd 1"), ("Jing'an Temple", "1686 Nanjing Rd W"),
          ("Century Park", "1001 Jinxiu Rd"), ("Xintiandi", "181 Taicang Rd"),
          ("Shanghai Museum", "201 Renmin Ave"), ("Zhongshan Park", "780 Changning Rd"),
          ("Lujiazui Tower", "501 Yincheng Rd"), ("Tongji University", "1239 Siping Rd"),
          ("Hongqiao Railway Station", "Shenhong Rd 200"), ("Yuyuan Garden", "218 Anren St"))
#: Car types from the cheapest to the dearest: name, base fare, per km (cents).
CAR_TYPES = (("Express Pool", 700, 140), ("Express", 1000, 200), ("Taxi", 1300, 240),
             ("Premier", 1800, 350), ("Luxe", 3000, 560))
PICKUPS = ("88 Wenhua St", "15 Yanan Rd E", "303 Huaihai Rd M", "9 Fuxing Rd",
           "120 Zhaojiabang Rd", "46 Tianmu Rd W")
COUPON_TITLES = ("Welcome back", "Night owl", "Weekend saver", "Commuter deal", "Rainy day",
                 "Airport special")

#: The seeded data in zh-CN (``strings/zh-CN.data.json``: places, addresses, pickups,
#: coupon titles; friends are WeChat's names): the templates' params are localized with it
#: (``Task.data``), the places and trips written with it.
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def datum(state: Any, text: str) -> str:
    """The Ride datum ``text`` in the phone's locale (``MissingString`` when the catalogue
    lacks it; a datum already localized is kept)."""
    return catalogue_datum(DATA, "RideMini", "ridemini", getattr(state, "locale", DEFAULT_LOCALE),
                           text, kept_localized=True)


def ride_app(state: Any) -> RideMiniApp:
    app = state.app("RideMini")
    assert isinstance(app, RideMiniApp)
    return app


def seed_places(state: Any, distances: Mapping[str, int]) -> None:
    """Every known place; those in ``distances`` at that many meters, others 5-25 km."""
    data = ride_app(state).data
    for i, (name, address) in enumerate(PLACES):
        shown = datum(state, name)
        data.places.new(name=shown, address=datum(state, address),
                        distance=distances.get(shown, distances.get(name, 5_000 + 2_300 * i)))


def seed_cars(state: Any, etas: Sequence[int]) -> list[CarType]:
    """The car types, nearest car ``etas[i]`` minutes away."""
    data = ride_app(state).data
    return [data.cars.new(name=name, base=base, per_km=per_km, eta=int(eta))
            for (name, base, per_km), eta in zip(CAR_TYPES, etas, strict=True)]


def estimate(car: int, meters: int) -> int:
    """The fare of car type ``car`` (an index of ``CAR_TYPES``) for ``meters``."""
    name, base, per_km = CAR_TYPES[car]
    return fare(CarType(0, name, base, per_km, 0), meters)


def add_coupon(state: Any, title: str, off: int, min_fare: int, used: bool = False) -> Coupon:
    return ride_app(state).data.coupons.new(title=title, off=off, min_fare=min_fare, used=used)


def add_trip(state: Any, destination: str, car: str, when: str, paid: int, status: str,
             pickup: str = HERE, coupon: str = "") -> Trip:
    data = ride_app(state).data
    trip = data.trips.new(pickup=pickup, destination=datum(state, destination), car=car,
                          when=when, fare=paid, paid=paid, status=status, coupon=coupon)
    data.trips.update(trip.id, driver=driver_for(trip.id, getattr(state, "locale",
                                                                  DEFAULT_LOCALE)),
                      plate=plate_for(trip.id))
    return trip


def next_trip_id(initial: Mapping[str, Any]) -> int:
    """The id the next trip will get, from a snapshot."""
    keys = initial.get("apps", {}).get("RideMini", {}).get("trips", {})
    return max((int(k) for k in keys), default=0) + 1
