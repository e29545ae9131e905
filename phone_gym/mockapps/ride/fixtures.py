"""Public fixtures of Ride: its places, ride options, promo codes, and past and live trips
(what its tasks, and other apps' tasks, use to seed the app)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.pickers import pick_date, pick_time
from ...tasks.vocab import pick
from ...verifiers.state import DeviceState
from ...world.locale import DEFAULT_LOCALE
from .app import (
    DRIVERS,
    PROMOS,
    Place,
    RideApp,
    RideData,
    RideOption,
    Trip,
    datum,
    iso,
    price_of,
)
from .app import OPTIONS as OPTIONS

TRIPS = "apps.Ride.trips"
#: Places the search finds (name, address).
PLACES = (("Central Station", "1 Station Square"), ("City Airport", "Airport Road 100"),
          ("Riverside Mall", "45 River Street"), ("Grand Theater", "12 Opera Lane"),
          ("St. Mary's Hospital", "300 Health Avenue"), ("Harbor Market", "8 Dock Road"),
          ("Tech Park", "77 Innovation Drive"), ("Old Town Square", "2 Market Place"),
          ("University Library", "15 Campus Way"), ("Lakeside Stadium", "90 Lake Drive"),
          ("Botanical Garden", "5 Greenway"), ("Convention Center", "400 Expo Boulevard"))
SAVED = (("Home", "22 Maple Street"), ("Work", "350 Commerce Plaza"))
#: Ride options: (name, base fare, per km, ETA range) in cents and minutes.
OPTION_RATES = (("Economy", 250, 120, (3, 6)), ("Comfort", 400, 170, (4, 8)),
                ("XL", 600, 220, (6, 10)))
#: Valid promo codes tasks may name (the app refuses the expired ones of ``PROMOS``).
CODES = tuple(p.code for p in PROMOS if not p.expired)
#: Notes riders leave for the driver.
NOTES = ("I'm at the main entrance", "Please call when you arrive", "Blue door next to the "
         "bakery", "I have a large suitcase", "Waiting by the bus stop", "I'm with a small dog")


def ride_app(state: DeviceState) -> RideApp:
    app = state.app("Ride")  # type: ignore[attr-defined]
    assert isinstance(app, RideApp)
    return app


def ride_data(state: DeviceState) -> RideData:
    return ride_app(state).data


def phone_now(state: DeviceState) -> datetime:
    return ride_app(state).system.now


def seed_places(state: DeviceState, rng: np.random.Generator, *,
                unavailable: tuple[str, ...] = (),
                distances: Mapping[str, float] | None = None) -> None:
    """The saved places, every searchable place (2-25 km away), the ride options (those in
    ``unavailable`` with no cars); ``distances`` fixes some places' distances."""
    data = ride_data(state)
    locale = locale_of(state)  # a zh-CN phone: the same draws, the data in its words
    for saved, address in SAVED:
        data.places.new(name=saved, address=datum(locale, address),
                        km=float(rng.integers(3, 16)), saved=saved)
    for name, address in PLACES:
        km = float(rng.integers(20, 250)) / 10
        data.places.new(name=place_name(locale, name), address=datum(locale, address),
                        km=(distances or {}).get(name, km))
    for name, base, per_km, (lo, hi) in OPTION_RATES:
        data.options.new(name=name, base=base, per_km=per_km,
                         eta=int(rng.integers(lo, hi + 1)), available=name not in unavailable)


def locale_of(state: DeviceState) -> str:
    return str(getattr(state, "locale", DEFAULT_LOCALE))


def place_name(locale: str, name: str) -> str:
    """A place's name as seeded in ``locale`` (Home and Work stay: the app shows them in the
    locale's words)."""
    return name if name in dict(SAVED) else datum(locale, name)


def place(state: DeviceState, name: str) -> Place:
    found = ride_data(state).places.first(name=place_name(locale_of(state), name))
    assert found is not None, name
    return found


def option(state: DeviceState, name: str) -> RideOption:
    found = ride_data(state).options.first(name=name)
    assert found is not None, name
    return found


def add_past_trip(state: DeviceState, destination: str, when: datetime, option_name: str,
                  *, driver: int = 0, rating: int = 0, tip: int = 0,
                  status: str = "completed") -> Trip:
    """A finished trip (completed or cancelled) at ``when``."""
    data = ride_data(state)
    p, o = place(state, destination), option(state, option_name)
    name, car = (datum(locale_of(state), x) for x in DRIVERS[driver % len(DRIVERS)])
    return data.trips.new(destination=p.name, option=option_name,
                          price=price_of(o, p), requested=iso(when), status=status,
                          driver=name, car=car, rating=rating, tip=tip,
                          fee=0)


def seed_history(state: DeviceState, rng: np.random.Generator, k: int, *,
                 avoid: tuple[str, ...] = (), rated: bool = True) -> list[Trip]:
    """``k`` completed trips over the past weeks to places not in ``avoid`` (rated, unless
    ``rated`` is False), oldest first."""
    now = phone_now(state)
    locale = locale_of(state)  # ``avoid`` may name the places in the locale's words
    names = [n for n, _ in PLACES if n not in avoid
             and place_name(locale, n) not in avoid] + ["Home", "Work"]
    days = sorted(int(d) for d in rng.choice(np.arange(2, 40), size=k, replace=False))[::-1]
    trips = []
    for d in days:
        # minutes off the quarter hours: a task's "HH:MM" is never one of these
        minute = 15 * int(rng.integers(0, 4)) + int(rng.integers(1, 15))
        when = (now - timedelta(days=d)).replace(hour=int(rng.integers(7, 22)), minute=minute,
                                                  second=0)
        trips.append(add_past_trip(state, str(pick(rng, names)), when,
                                   str(pick(rng, ("Economy", "Economy", "Comfort", "XL"))),
                                   driver=int(rng.integers(0, len(DRIVERS))),
                                   rating=int(rng.integers(3, 6)) if rated else 0))
    return trips


def add_live_trip(state: DeviceState, destination: str, option_name: str,
                  minutes_ago: float) -> Trip:
    """A ride requested ``minutes_ago`` minutes ago, still going."""
    data = ride_data(state)
    p, o = place(state, destination), option(state, option_name)
    name, car = (datum(locale_of(state), x) for x in DRIVERS[p.id % len(DRIVERS)])
    when = phone_now(state) - timedelta(minutes=minutes_ago)
    return data.trips.new(destination=p.name, option=option_name,
                          price=price_of(o, p), requested=iso(when), driver=name, car=car)


def schedule_pickup(ui: Driver, moment: datetime) -> Iterator[PhoneAction]:
    """On a ride's options screen: open "Schedule a ride", pick ``moment``'s day in the date
    picker (when the date row shows another day) and its time in the time picker, then
    "Set pickup time"."""
    yield from ui.tap(id="schedule")
    if ui.must(id="schedule_date").content_desc != f"Pickup date {moment:%A, %B} {moment.day}":
        yield from ui.tap(id="schedule_date")
        yield from pick_date(ui, moment.date())
    yield from ui.tap(id="schedule_time")
    yield from pick_time(ui, moment.hour, moment.minute)
    yield from ui.tap(id="set_pickup")


def fare(state: DeviceState, destination: str, option_name: str, percent: int = 0) -> int:
    return price_of(option(state, option_name), place(state, destination), percent)


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({"RideScheduleRide"})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
