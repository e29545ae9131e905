"""Public fixtures of Calendar: what tasks (and other apps' tasks) use to seed calendar events.

Events go through ``DeviceState.add_event`` (the phone's calendar provider), so the same
setup runs in PhoneWorld and on a real phone. Times are ISO local times.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime, timedelta
from typing import Any

import numpy as np

from ...tasks.aw import AW_TODAY
from ...tasks.vocab import FIRST_NAMES, pick
from ...verifiers import lookup
from ...verifiers.state import DeviceState
from .app import MONTHS as MONTHS

COLLECTION = "events"
#: Event titles (none names a person: meetings with people are ``meeting_title``).
TITLES = ("Team standup", "Dentist appointment", "Project review", "Yoga class",
          "Budget planning", "Lunch with the team", "Piano lesson", "Car service",
          "Book club", "Quarterly report", "Haircut", "Parent-teacher conference",
          "Design workshop", "Grocery run", "Doctor's appointment", "Code review",
          "Tennis practice", "Client call", "Language exchange", "Volunteer shift",
          "Garden club", "Photography walk", "Tax preparation", "Board game night")
#: Evening activities (for time-range questions up to 8 pm).
EVENING = ("Cooking class", "Movie night", "Salsa lessons", "Pottery workshop",
           "Trivia night", "Choir rehearsal", "Evening run", "Dinner party",
           "Chess club", "Jazz concert")
DESCRIPTIONS = ("Bring the printed agenda.", "Remember the parking ticket.",
                "Prepare three questions.", "Discuss the next steps.",
                "Confirm the booking a day before.", "Share the slides afterwards.",
                "Wear comfortable shoes.", "Ask about the invoice.",
                "Take the blue folder.", "Call if running late.")
LOCATIONS = ("Room 204", "Conference room B", "Harbor Cafe", "City Library",
             "12 Elm Street", "Riverside Park", "Main office, 3rd floor", "Grand Hotel lobby",
             "Community center", "Blue Door Bakery", "Studio 5", "48 Market Square")
#: People met in meetings (``Meeting with <name>``).
PEOPLE = FIRST_NAMES[:18]
DURATIONS = (15, 30, 45, 60)
#: What makes a title specific (``specific_title``): someone met, or a subject.
QUALIFIERS = tuple(f"with {name}" for name in FIRST_NAMES[18:30]) + tuple(
    f"about {subject}" for subject in ("the budget", "the roadmap", "hiring", "the launch",
                                       "the move", "the website", "taxes", "the garden",
                                       "the trip", "the renovation"))


def specific_title(rng: np.random.Generator) -> str:
    """A title like ``Design workshop with Zoe`` (``TITLES`` x ``QUALIFIERS``): new to a
    phone that holds plain titles, and unlikely to be on a real one already."""
    return f"{pick(rng, TITLES)} {pick(rng, QUALIFIERS)}"


def meeting_title(person: str) -> str:
    return f"Meeting with {person}"


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute)


def iso(when: datetime) -> str:
    return when.isoformat(timespec="seconds")


def add(state: DeviceState, title: str, start: datetime, minutes: int = 60, *,
        location: str = "", description: str = "") -> None:
    """Add a one-time event of ``minutes``."""
    state.add_event(title, iso(start), iso(start + timedelta(minutes=minutes)),
                    location=location, description=description)


def sample_day_in(rng: np.random.Generator, first: date, last: date,
                  avoid: Iterable[date] = ()) -> date:
    """A day from ``first`` to ``last`` (both included), not one of ``avoid``."""
    days = [first + timedelta(days=i) for i in range((last - first).days + 1)]
    days = [d for d in days if d not in set(avoid)]
    return days[int(rng.integers(len(days)))]


def seed_noise(state: DeviceState, rng: np.random.Generator, k: int, *,
               titles: Sequence[str], first: date = AW_TODAY,
               last: date = date(2023, 10, 31), avoid_days: Iterable[date] = (),
               avoid_starts: Iterable[datetime] = (), hours: tuple[int, int] = (7, 21)) -> None:
    """``k`` one-time events titled from ``titles`` (cycled), on days from ``first`` to
    ``last`` outside ``avoid_days``, at whole hours in ``hours`` and never at one of
    ``avoid_starts``."""
    taken = set(avoid_starts)
    names = list(titles)
    for i in range(k):
        for _ in range(50):
            day = sample_day_in(rng, first, last, avoid_days)
            start = at(day, int(rng.integers(hours[0], hours[1] + 1)))
            if start not in taken:
                break
        taken.add(start)
        add(state, names[i % len(names)], start, int(pick(rng, DURATIONS)),
            location=str(pick(rng, LOCATIONS)) if rng.random() < 0.5 else "")


def event_rows(initial: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The events of a snapshot (PhoneWorld's or a real phone's rows)."""
    rows = lookup(initial, COLLECTION)
    return list(rows.values()) if isinstance(rows, Mapping) else []


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({"open_day", "search", "set_date", "set_time"})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
