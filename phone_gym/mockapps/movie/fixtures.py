"""Public fixtures of the Movie Tickets mini-program: films, cinemas, showtimes, coupons and
tickets that tasks (this app's and others') seed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue
from ...tasks.vocab import pick
from ...world.locale import DEFAULT_LOCALE, catalogue_datum
from .app import ROWS, Cinema, Coupon, Film, MovieApp, Show, Ticket, seat_label, ticket_code

FILMS = "apps.Movie.films"
CINEMAS = "apps.Movie.cinemas"
SHOWS = "apps.Movie.shows"
COUPONS = "apps.Movie.coupons"
TICKETS = "apps.Movie.tickets"
LOCATION = "apps.Movie.location"

TITLES: tuple[tuple[str, str, int, str], ...] = (
    ("Starfall Harbor", "Sci-fi", 142, "PG-13"), ("The Tea Merchant", "Drama", 118, "PG"),
    ("Paper Dragons", "Animation", 96, "G"), ("Midnight Ledger", "Thriller", 127, "R"),
    ("Over the Salt Flats", "Adventure", 134, "PG-13"), ("Laugh Track", "Comedy", 102, "PG"),
    ("The Ninth Lantern", "Fantasy", 151, "PG-13"), ("Quiet Rooms", "Horror", 99, "R"),
    ("Winter Relay", "Sports", 121, "PG"), ("Echoes of Jade", "Romance", 113, "PG-13"),
)
CINEMA_NAMES = ("Wanda Cinema", "CGV Cinemas", "Bona Film City", "Jinyi Cinema",
                "UME Cineplex", "Broadway Cinema", "Emperor Cinemas", "Lumiere Pavilion",
                "Stellar Cinema", "Golden Harvest")
DISTRICTS = ("Xuhui", "Jing'an", "Pudong", "Huangpu", "Changning", "Yangpu", "Minhang")
TIMES = ("10:30", "12:15", "13:40", "15:20", "16:50", "18:30", "19:10", "19:45", "20:30",
         "21:15", "22:00")
LANGUAGES = ("English", "Mandarin")


#: The seeded data in zh-CN (``strings/zh-CN.data.json``: film titles, genres, cinemas,
#: districts, amenities, coupons): the fixtures write what they are given through ``datum``,
#: so the same draws give a Chinese phone Chinese films and cinemas.
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def datum(state: Any, text: str) -> str:
    """The seeded text ``text`` in the phone's locale: as it is on an en-US phone, the data
    catalogue's entry otherwise (``MissingString`` when it has none)."""
    return catalogue_datum(DATA, "Movie", "movie", getattr(state, "locale", DEFAULT_LOCALE),
                           text, kept_localized=True)


def movie_app(state: Any) -> MovieApp:
    app = state.app("Movie")
    assert isinstance(app, MovieApp)
    return app


def allow_location(state: Any, decision: str = "allowed") -> None:
    """The location prompt already answered (``"allowed"`` or ``"denied"``)."""
    movie_app(state).data.location = decision


def add_film(state: Any, title: str, genre: str = "Drama", minutes: int = 120,
             rating: int = 80, age: str = "PG") -> Film:
    return movie_app(state).data.films.new(title=datum(state, title), genre=datum(state, genre),
                                           minutes=minutes, rating=rating, age=age)


def film_titles(rng: np.random.Generator, k: int) -> list[str]:
    """``k`` different film titles."""
    return [TITLES[int(i)][0] for i in rng.permutation(len(TITLES))[:k]]


def seed_films(state: Any, rng: np.random.Generator, titles: Sequence[str]) -> list[Film]:
    """The films ``titles`` (of ``TITLES``) with random ratings (6.0..9.4), in that order."""
    facts = {t[0]: t for t in TITLES}
    facts |= {DATA["zh-CN"][t[0]]: t for t in TITLES}  # titles in Chinese params
    return [add_film(state, t, facts[t][1], facts[t][2], int(rng.integers(60, 95)),
                     facts[t][3]) for t in titles]


def add_cinema(state: Any, name: str, distance: int, rating: int,
               amenities: Sequence[str] = (), district: str = "Xuhui") -> Cinema:
    return movie_app(state).data.cinemas.new(
        name=datum(state, name), district=datum(state, district), distance=distance,
        rating=rating, amenities=tuple(datum(state, a) for a in amenities))


def cinema_names(rng: np.random.Generator, k: int) -> list[str]:
    return list(pick(rng, CINEMA_NAMES, k))


def random_taken(rng: np.random.Generator, rows: int = 7, cols: int = 10,
                 share: float = 0.3, keep: Sequence[str] = ()) -> tuple[str, ...]:
    """About ``share`` of a hall's seats sold (never those in ``keep``; couple pairs whole)."""
    out: list[str] = []
    for r in range(rows):
        for c in range(1, cols + 1):
            label = seat_label(r, c)
            if r == rows - 1 and c % 2 == 0:
                if f"{ROWS[r]}{c - 1}" in out:
                    out.append(label)
                continue
            if label not in keep and rng.random() < share:
                out.append(label)
    kept = set(keep)
    return tuple(s for s in out if s not in kept
                 and not (s[0] == ROWS[rows - 1] and f"{s[0]}{int(s[1:]) - 1}" in kept))


def add_show(state: Any, film: Film, cinema: Cinema, day: str, time: str, price: int, *,
             format: str = "2D", language: str = "English", hall: int = 1,
             taken: Sequence[str] = ()) -> Show:
    return movie_app(state).data.shows.new(film=film.id, cinema=cinema.id, day=day, time=time,
                                           format=format, language=language, hall=hall,
                                           price=price, taken=tuple(taken))


def add_coupon(state: Any, name: str, off: int, min_total: int = 0) -> Coupon:
    return movie_app(state).data.coupons.new(name=datum(state, name), off=off,
                                             min_total=min_total)


def add_ticket(state: Any, show: Show, seats: Sequence[str], status: str = "paid") -> Ticket:
    """A ticket already bought for ``show`` (its seats marked taken)."""
    app = movie_app(state)
    film = app.data.films.get(show.film)
    cinema = app.data.cinemas.get(show.cinema)
    ticket = app.data.tickets.new(
        show=show.id, film=show.film, film_title=film.title if film else "",
        cinema=show.cinema, cinema_name=cinema.name if cinema else "", day=show.day,
        time=show.time, hall=show.hall, seats=tuple(seats), snack="No snacks", coupon="",
        total=show.price * len(seats), code="", status=status)
    app.data.tickets.update(ticket.id, code=ticket_code(ticket.id, show.id, show.hall))
    if status == "paid":
        app.data.shows.update(show.id, taken=(*show.taken, *seats))
    result = app.data.tickets.get(ticket.id)
    assert result is not None
    return result


def rows_of(initial: Mapping[str, Any], table: str) -> list[Mapping[str, Any]]:
    """The records of one of the app's tables in a snapshot."""
    rows = initial.get("apps", {}).get("Movie", {}).get(table, {})
    return [r for r in rows.values() if isinstance(r, Mapping)]


def together(seats: Any, n: int, row: str | None = None) -> bool:
    """``n`` seats side by side in one row (``row`` when given)."""
    labels = list(seats) if isinstance(seats, (list, tuple)) else []
    if len(labels) != n or not all(isinstance(s, str) and len(s) > 1 for s in labels):
        return False
    rows = {s[0] for s in labels}
    cols = sorted(int(s[1:]) for s in labels)
    return (len(rows) == 1 and (row is None or rows == {row})
            and cols == list(range(cols[0], cols[0] + n)))
