"""Public fixtures of Maps: the city's place names and addresses, and seeding a city with
ratings, hours, prices and positions drawn per episode."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue
from ...tasks.vocab import pick
from ...verifiers.state import DeviceState
from ...world.locale import DEFAULT_LOCALE, catalogue_datum
from .app import MapsApp, Place
from .app import route_metres as route_metres
from .app import travel_minutes as travel_minutes

PLACES, LISTS, SAVED, TRIPS, SHARES = (
    "apps.Maps.places", "apps.Maps.lists", "apps.Maps.saved", "apps.Maps.trips",
    "apps.Maps.shares")
LOCATION = "apps.Maps.location"

#: The city: kind -> (name, address).
CATALOGUE: dict[str, tuple[tuple[str, str], ...]] = {
    "Cafe": (("Blue Door Coffee", "14 Harbour Street"), ("Little Bean", "3 Mill Lane"),
             ("Café Aurora", "52 Station Road"), ("The Daily Grind", "8 Market Square"),
             ("Maple & Milk", "27 Orchard Row"), ("Copper Kettle", "61 King Street"),
             ("Roast Republic", "19 Canal Walk")),
    "Restaurant": (("Trattoria Sole", "5 Bridge Street"), ("Golden Lotus", "40 Queen's Road"),
                   ("The Oak Table", "12 Chapel Street"), ("Spice Route", "88 High Street"),
                   ("Harbour Grill", "2 Quay Side"), ("Casa Verde", "33 Elm Avenue"),
                   ("Noodle Bar Kō", "17 Silk Lane")),
    "Shop": (("Page Turner Books", "9 Church Lane"), ("Green Grocer", "21 Market Square"),
             ("City Hardware", "70 Foundry Road"), ("Bloom Florist", "4 Rose Court"),
             ("Vinyl Corner", "46 Arcade Street")),
    "Landmark": (("Old Town Hall", "1 Castle Square"), ("Riverside Park", "Park Avenue"),
                 ("Clock Tower", "Tower Hill"), ("City Museum", "25 Museum Street"),
                 ("St Mary's Cathedral", "Cathedral Close"), ("Botanic Garden", "Garden Way")),
    "Station": (("Central Station", "Station Road"), ("Harbour Ferry Terminal", "Quay Side"),
                ("North Bus Station", "10 North Road"), ("University Tram Stop", "College Road")),
}
ALL_NAMES: tuple[str, ...] = tuple(n for rows in CATALOGUE.values() for n, _ in rows)
KIND_OF: dict[str, str] = {n: k for k, rows in CATALOGUE.items() for n, _ in rows}
ADDRESS_OF: dict[str, str] = {n: a for rows in CATALOGUE.values() for n, a in rows}
#: Names for new lists: none is a default list.
LIST_NAMES = ("Weekend", "Date night", "Visitors", "Rainy day", "Brunch spots", "Day out")
#: The seeded data in zh-CN (``strings/zh-CN.data.json``: the places' names and addresses).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def datum(locale: str, text: str) -> str:
    """The place name or address ``text`` in ``locale`` (``MissingString`` when the data
    catalogue lacks it)."""
    return catalogue_datum(DATA, "Maps", "maps", locale, text, kept_localized=True)


def maps_app(state: DeviceState) -> MapsApp:
    app = state.app("Maps")  # type: ignore[attr-defined]
    assert isinstance(app, MapsApp)
    return app


def random_place(rng: np.random.Generator, name: str) -> dict[str, Any]:
    """A place's fields drawn at random: rating 3.0..4.9, hours, price, 150..3500 m away."""
    kind = KIND_OF[name]
    if kind == "Station":
        opens, closes = "05:00", "23:30"
    elif kind == "Landmark":
        opens, closes = pick(rng, ("08:00", "09:00", "10:00")), pick(rng, ("17:00", "18:00"))
    elif kind == "Cafe":
        opens = pick(rng, ("07:00", "07:30", "08:00", "10:00", "11:00"))
        closes = pick(rng, ("15:00", "17:00", "18:30", "20:00"))
    elif kind == "Restaurant":
        opens = pick(rng, ("08:00", "09:00", "11:30", "12:00", "17:00"))
        closes = pick(rng, ("21:30", "22:00", "23:00"))
    else:
        opens, closes = pick(rng, ("09:00", "10:00")), pick(rng, ("18:00", "19:00", "20:00"))
    metres = int(rng.integers(3, 70)) * 50
    east = int(rng.integers(0, metres // 50 + 1)) * 50
    return {"name": name, "kind": kind, "address": ADDRESS_OF[name],
            "rating": round(float(rng.integers(30, 50)) / 10, 1),
            "price": 0 if kind in ("Landmark", "Station") else int(rng.integers(1, 4)),
            "opens": opens, "closes": closes,
            "x": east * int(pick(rng, (1, -1))), "y": (metres - east) * int(pick(rng, (1, -1)))}


def city_rows(rng: np.random.Generator,
              fixed: Sequence[dict[str, Any]] = ()) -> list[dict[str, Any]]:
    """Every place of the catalogue, in a random order: ``fixed`` fields as given, the
    others drawn at random (a pure function of ``rng``'s state)."""
    given = {f["name"]: f for f in fixed}
    return [{**random_place(rng, name), **given.get(name, {})}
            for name in pick(rng, ALL_NAMES, len(ALL_NAMES))]


def seed_city(state: DeviceState, rng: np.random.Generator, *,
              fixed: Sequence[dict[str, Any]] = (), location: str = "allowed",
              rows: Sequence[dict[str, Any]] | None = None) -> MapsApp:
    """The city's places (``rows``, or ``city_rows(rng, fixed)``), and the location prompt
    answered ``location`` ("" leaves it unanswered)."""
    app = maps_app(state)
    locale = getattr(state, "locale", DEFAULT_LOCALE)
    for fields in (rows if rows is not None else city_rows(rng, fixed)):
        if locale != DEFAULT_LOCALE:  # the same draws, the names and addresses in its words
            fields = {**fields, "name": datum(locale, fields["name"]),
                      "address": datum(locale, fields["address"])}
        app.data.places.new(**fields)
    app.data.location = location
    return app


def places_of(state: DeviceState) -> list[Place]:
    return list(maps_app(state).data.places)


def save_places(state: DeviceState, rng: np.random.Generator, k: int, *,
                avoid: Sequence[str] = ()) -> None:
    """``k`` places saved to the default lists at random."""
    data = maps_app(state).data
    locale = getattr(state, "locale", DEFAULT_LOCALE)
    for name in pick(rng, [n for n in ALL_NAMES if n not in avoid
                           and datum(locale, n) not in avoid], k):
        data.saved.new(list=pick(rng, ("Favourites", "Want to go")), place=datum(locale, name))


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({
    "MODE_WORDS", "MapsSaveBestCafe", "open_place", "route_time", "save_to", "search_for",
    "set_chip", "sort_by", "summary_duration"
})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
