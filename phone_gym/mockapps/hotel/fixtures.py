"""Public fixtures of the Hotel mini-program: cities with landmarks, hotels and orders."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import date, timedelta
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.task import data_catalogue
from ...tasks.vocab import pick
from ...world.locale import DEFAULT_LOCALE, catalogue_datum
from ..chat.fixtures import open_mini_program
from .app import Hotel, HotelApp, Order
from .app import stars as stars

HOTELS = "apps.Hotel.hotels"
ORDERS = "apps.Hotel.orders"
CITIES: dict[str, tuple[str, str]] = {
    "Hangzhou": ("West Lake", "Hangzhou East Station"),
    "Shanghai": ("The Bund", "People's Square"),
    "Beijing": ("Forbidden City", "Sanlitun"),
    "Chengdu": ("Chunxi Road", "Panda Base"),
    "Xi'an": ("Bell Tower", "Big Wild Goose Pagoda"),
}
FIRST = ("Lakeview", "Jade", "Grand Harbor", "Orchid", "Bamboo Garden", "Riverside", "Lotus",
         "Golden Crane", "Plum Blossom", "Silk Road", "Peony", "Cloud Nine", "Maple",
         "Pearl", "Crescent", "Summit")
SECOND = ("Hotel", "Inn", "Suites", "Boutique Hotel")
STREETS = ("Nanshan Rd", "Hubin Rd", "Jiefang Rd", "Renmin Rd", "Zhongshan Rd", "Wenhua St")
GUESTS = ("Li Na", "Zhang Wei", "Anna Berg", "Tom Reed", "Maria Lopez", "Chen Jing")
#: The seeded data in zh-CN (``strings/zh-CN.data.json``: cities, landmarks, the parts of
#: hotel names, streets; guests are WeChat's names): the templates' params are localized
#: with it (``Task.data``), the hotels written with it.
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def datum(locale: str, text: str) -> str:
    """The hotel datum ``text`` in ``locale`` (``MissingString`` when the catalogue lacks
    it)."""
    return catalogue_datum(DATA, "Hotel", "hotel", locale, text)


def hotel_name_in(name: str, locale: str) -> str:
    """The English hotel name ``name`` ("Lakeview Boutique Hotel") in ``locale``: 湖景精品酒店
    (a name that is no composed one, or already localized, is kept)."""
    if locale == DEFAULT_LOCALE:
        return name
    for second in sorted(SECOND, key=len, reverse=True):
        first = name.removesuffix(f" {second}")
        if first != name and first in FIRST:
            return datum(locale, first) + datum(locale, second)
    return name


def hotel_app(state: Any) -> HotelApp:
    app = state.app("Hotel")
    assert isinstance(app, HotelApp)
    return app


def hotel_names(rng: np.random.Generator, k: int, locale: str = DEFAULT_LOCALE) -> list[str]:
    """``k`` different hotel names (in ``locale``: the same draws)."""
    firsts = pick(rng, FIRST, k)
    return [hotel_name_in(f"{f} {pick(rng, SECOND)}", locale) for f in firsts]


def add_hotel(state: Any, name: str, city: str, price: int, rating: int,
              distances: Mapping[str, int], rng: np.random.Generator) -> Hotel:
    """A hotel (``price`` cents per night, ``rating`` tenths, meters to each landmark)."""
    number, street = int(rng.integers(1, 400)), pick(rng, STREETS)
    locale = getattr(state, "locale", DEFAULT_LOCALE)
    address = f"{number} {street}, {city}" if locale == DEFAULT_LOCALE else \
        f"{city}{datum(locale, street)}{number}号"
    return hotel_app(state).data.hotels.new(
        name=name, city=city, price=price, rating=rating, address=address,
        distances=tuple(distances.items()))


def add_order(state: Any, hotel: Hotel, checkin: str, checkout: str, guest: str,
              status: str = "paid") -> Order:
    n = (date.fromisoformat(checkout) - date.fromisoformat(checkin)).days
    return hotel_app(state).data.orders.new(
        hotel=hotel.id, hotel_name=hotel.name, city=hotel.city, checkin=checkin,
        checkout=checkout, nights=n, guest=guest, total=hotel.price * n, status=status)


def stay(rng: np.random.Generator, today: date, nights: tuple[int, int] = (1, 3)
         ) -> tuple[str, str, int]:
    """A check-in day 3..40 days ahead and a check-out day after it: ISO days and nights."""
    start = today + timedelta(days=int(rng.integers(3, 41)))
    n = int(rng.integers(nights[0], nights[1] + 1))
    return start.isoformat(), (start + timedelta(days=n)).isoformat(), n


def seed_hotels(state: Any, rng: np.random.Generator, city: str,
                specs: Sequence[tuple[int, int, int]], landmark: str) -> list[Hotel]:
    """Hotels of ``city`` from ``(price, rating, meters to landmark)`` specs, written in a
    shuffled order, with different names; the other landmark's distance is random. Returns
    them in the specs' order."""
    locale = getattr(state, "locale", DEFAULT_LOCALE)
    names = hotel_names(rng, len(specs), locale)
    marks = landmarks_of(city)
    other = next(m for m in marks if m != landmark)
    order = rng.permutation(len(specs))
    made: dict[int, Hotel] = {}
    for i in order:
        price, rating, meters = specs[int(i)]
        made[int(i)] = add_hotel(state, names[int(i)], city, price, rating,
                                 {landmark: meters, other: int(rng.integers(5, 120)) * 100}
                                 if marks[0] == landmark else
                                 {other: int(rng.integers(5, 120)) * 100, landmark: meters},
                                 rng)
    return [made[i] for i in range(len(specs))]


def landmarks_of(city: str) -> tuple[str, str]:
    """The two landmarks of ``city`` (its English name or a localized one), in the locale
    ``city`` is written in."""
    if city in CITIES:
        return CITIES[city]
    for locale, table in DATA.items():
        english = next((k for k, v in table.items() if v == city and k in CITIES), None)
        if english is not None:
            a, b = CITIES[english]
            return datum(locale, a), datum(locale, b)
    raise ValueError(f"no city {city!r}; accepted: {', '.join(CITIES)}")


def hotels_in(initial: Mapping[str, Any], city: str) -> list[Mapping[str, Any]]:
    """The hotel records of ``city`` in a snapshot."""
    rows = initial.get("apps", {}).get("Hotel", {}).get("hotels", {})
    return [h for h in rows.values() if isinstance(h, Mapping) and h.get("city") == city]


def distance(hotel: Mapping[str, Any], landmark: str) -> int | None:
    return dict((m, d) for m, d in hotel.get("distances", ())).get(landmark)


def open_hotel(ui: Driver) -> Iterator[PhoneAction]:
    """WeChat > Discover > Mini Programs > Hotel Booking (the catalogue's name for
    ``chat.fixtures.open_mini_program(ui, "Hotel")``)."""
    return open_mini_program(ui, "Hotel")


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({
    "HotelBookCheapestNear", "HotelCancelBooking", "HotelTask", "book_and_pay", "chip",
    "first_hotel", "search"
})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
