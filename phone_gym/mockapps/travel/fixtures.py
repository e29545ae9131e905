"""Public fixtures of Travel: cities, travellers, timetables and hotels sampled as plain data
(so that a task's params fix the answer), and writing them into the app."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue
from ...tasks.vocab import pick
from ...verifiers.state import DeviceState
from ...world.locale import DEFAULT_LOCALE, catalogue_datum
from .app import CITIES, Booking, TravelApp, TravelData

BOOKINGS = "apps.Travel.bookings"
TRAVELLERS = ("Emma Schulz", "Liam Becker", "Noah Wagner", "Mia Hoffmann", "Olivia Klein",
              "Lucas Meyer", "Sara Novak", "Jonas Weber")
#: Pairs of travellers who share a first name (for ambiguity tasks).
NAMESAKES = (("Alex Kim", "Alex Moreau"), ("Chris Walker", "Chris Lindqvist"),
             ("Sam Ortega", "Sam Becker"), ("Robin Park", "Robin Haas"))
TRAIN_CARRIERS = (("ICE", "DB"), ("IC", "DB"), ("RJX", "ÖBB"), ("EC", "ČD"))
AIRLINES = (("LH", "Lufthansa"), ("OS", "Austrian"), ("LX", "Swiss"), ("EW", "Eurowings"),
            ("KL", "KLM"))
HOTEL_NAMES = ("Grand Central Hotel", "Riverside Inn", "Park View Suites", "Old Town Lodge",
               "Harbour Lights Hotel", "Station Budget Rooms", "The Linden House",
               "Skyline Tower Hotel", "Garden Court Hotel", "Cathedral View B&B")
AREAS = ("City Center", "Old Town", "Near the station", "Riverside", "Museum Quarter")
#: The seeded data in zh-CN (``strings/zh-CN.data.json``: travellers, carriers, hotels and
#: their areas); the cities stay the app's keys (it shows them in the locale's words).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def datum(locale: str, text: str) -> str:
    """The datum ``text`` in ``locale`` (``MissingString`` when the catalogue lacks it)."""
    return catalogue_datum(DATA, "Travel", "travel", locale, text, kept_localized=True)


def locale_of(state: DeviceState) -> str:
    return str(getattr(state, "locale", DEFAULT_LOCALE))


def travel_app(state: DeviceState) -> TravelApp:
    app = state.app("Travel")  # type: ignore[attr-defined]
    assert isinstance(app, TravelApp)
    return app


def travel_data(state: DeviceState) -> TravelData:
    return travel_app(state).data


def day_after(start: date, days: int) -> str:
    return (start + timedelta(days=days)).isoformat()


def clock(minutes: int) -> str:
    return f"{minutes // 60 % 24:02d}:{minutes % 60:02d}"


def sample_journeys(rng: np.random.Generator, kind: str, origin: str, destination: str,
                    day: str, count: int, *, first_number: int = 0) -> list[dict[str, Any]]:
    """``count`` trains or flights on one route and day: different departures (never on the
    hour), durations and prices (cents, all different)."""
    departs = sorted(int(m) for m in rng.choice(np.arange(6 * 12, 22 * 12), size=count,
                                                replace=False) * 5)
    departs = [m if m % 60 else m + 5 for m in departs]
    lows = [int(p) * 100 for p in rng.choice(np.arange(29, 190), size=count, replace=False)]
    out = []
    for i, (depart, low) in enumerate(zip(departs, lows, strict=True)):
        if kind == "train":
            prefix, carrier = TRAIN_CARRIERS[int(rng.integers(len(TRAIN_CARRIERS)))]
            minutes = int(rng.integers(24, 66)) * 5
            number = f"{prefix} {100 + first_number + i * 7 + int(rng.integers(0, 7))}"
            high = low + int(rng.integers(20, 60)) * 100
        else:
            prefix, carrier = AIRLINES[int(rng.integers(len(AIRLINES)))]
            minutes = int(rng.integers(14, 60)) * 5
            number = f"{prefix}{1000 + first_number + i * 13 + int(rng.integers(0, 13))}"
            high = low * 3
        out.append({"kind": kind, "number": number, "carrier": carrier, "origin": origin,
                    "destination": destination, "date": day, "depart": clock(depart),
                    "arrive": clock(depart + minutes), "minutes": minutes, "low": low,
                    "high": high})
    return out


def write_journeys(state: DeviceState, journeys: Sequence[Mapping[str, Any]]) -> None:
    data, locale = travel_data(state), locale_of(state)
    for j in journeys:
        data.journeys.new(**{**j, "carrier": datum(locale, j["carrier"])})


def sample_hotels(rng: np.random.Generator, city: str, count: int) -> list[dict[str, Any]]:
    """``count`` hotels of ``city`` with different prices (cents a night) and names."""
    prices = [int(p) * 100 for p in rng.choice(np.arange(60, 320), size=count, replace=False)]
    names = pick(rng, HOTEL_NAMES, count)
    return [{"name": str(n), "city": city, "rating": float(rng.integers(30, 50)) / 10,
             "price": p, "free_cancel": bool(rng.random() < 0.5), "area": str(pick(rng, AREAS))}
            for n, p in zip(names, prices, strict=True)]


def write_hotels(state: DeviceState, hotels: Sequence[Mapping[str, Any]]) -> None:
    data, locale = travel_data(state), locale_of(state)
    for h in hotels:
        data.hotels.new(**{**h, "name": datum(locale, h["name"]),
                           "area": datum(locale, h["area"])})


def seed_travellers(state: DeviceState, rng: np.random.Generator, names: Sequence[str],
                    extra: int = 2) -> None:
    """The saved travellers ``names`` plus ``extra`` others, in a shuffled order."""
    others = pick(rng, [n for n in TRAVELLERS if n not in names], extra)
    everyone = [*names, *others]
    data, locale = travel_data(state), locale_of(state)
    for i in rng.permutation(len(everyone)):
        data.travellers.new(name=datum(locale, everyone[int(i)]),
                            document=f"{datum(locale, 'Passport')} ·· "
                                     f"{int(rng.integers(1000, 9999))}")


def add_booking(state: DeviceState, **fields: Any) -> Booking:
    """A booking; on a zh-CN phone its traveller (and a hotel's name, its ``ref``) in
    Chinese, as seeded."""
    locale = locale_of(state)
    if locale != DEFAULT_LOCALE:
        fields["traveller"] = datum(locale, fields["traveller"])
        if fields.get("kind") == "hotel":
            fields["ref"] = datum(locale, fields["ref"])
    return travel_data(state).bookings.new(**fields)


def booking_of(journey: Mapping[str, Any], traveller: str, seat: str) -> dict[str, Any]:
    """A booking's fields for ``journey`` in the cheaper or dearer class ``seat``."""
    low = seat in ("Second", "Economy")
    return {"kind": journey["kind"], "ref": journey["number"], "origin": journey["origin"],
            "destination": journey["destination"], "date": journey["date"],
            "depart": journey["depart"], "seat_class": seat, "traveller": traveller,
            "price": journey["low"] if low else journey["high"]}


def seed_other_bookings(state: DeviceState, rng: np.random.Generator, start: date,
                        avoid: Sequence[str] = ()) -> None:
    """Bookings the traveller already holds, away from the cities in ``avoid``: a flight
    two to three weeks out and a hotel there."""
    locale = locale_of(state)  # ``avoid`` may name the cities in the locale's words
    origin, city = pick(rng, [c for c in CITIES if c not in avoid
                              and DATA.get(locale, {}).get(c, c) not in avoid], 2)
    day = day_after(start, int(rng.integers(14, 21)))
    who = str(pick(rng, TRAVELLERS))
    flight = sample_journeys(rng, "flight", str(origin), str(city), day, 1, first_number=700)
    write_journeys(state, flight)
    add_booking(state, **booking_of(flight[0], who, "Economy"))
    hotel = sample_hotels(rng, str(city), 1)
    write_hotels(state, hotel)
    add_booking(state, kind="hotel", ref=hotel[0]["name"], destination=str(city), date=day,
                end=day_after(date.fromisoformat(day), 2), traveller=who,
                price=hotel[0]["price"] * 2)


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({
    "BookedTrainTask", "TravelBookShortestFlight", "TravelChangeTrain", "TravelTask"
})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
