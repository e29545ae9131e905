"""Public fixtures of Calendar: what tasks (and other apps' tasks) use to seed calendar events.

Events go through ``DeviceState.add_event`` (the phone's calendar provider), so the same
setup runs in PhoneWorld and on a real phone. Times are ISO local times.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any

import numpy as np

from ...tasks.aw import AW_START, AW_TODAY
from ...tasks.task import data_catalogue
from ...tasks.vocab import FIRST_NAMES, Draws, pick
from ...verifiers import Matcher, lookup, same_text
from ...verifiers.state import DeviceState
from ...world.locale import DEFAULT_LOCALE, MissingString
from .app import MONTHS as MONTHS

COLLECTION = "events"
#: The seeded data in zh-CN (``strings/zh-CN.data.json``: titles, qualifiers, descriptions,
#: locations).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}
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


#: AndroidWorld's question tasks add this many random events to the calendar
#: (``information_retrieval.calendar_utils.setup_task_state``).
RANDOM_EVENTS = 75
#: Random events start at any minute of the 30 days around AndroidWorld's clock
#: (``datetime_utils.generate_random_datetime(window_size=30 days)``).
RANDOM_WINDOW = timedelta(days=30)
RANDOM_FIRST = AW_START - RANDOM_WINDOW / 2
RANDOM_MINUTES = RANDOM_WINDOW.days * 24 * 60
#: Random events' titles: a lead-in and someone (``... with <name>``) or a subject. None
#: holds, or is held in, a title of the tables above (checked by a test).
RANDOM_LEADS = ("Catch-up with", "Call with", "Coffee with", "Sync with", "Interview with",
                "Review of", "Workshop on", "Planning for", "Brainstorm on", "Demo of")
RANDOM_SUBJECTS = ("the Q4 roadmap", "supplier contracts", "the hiring pipeline",
                   "the office move", "the marketing plan", "the mobile release",
                   "customer feedback", "onboarding docs", "the annual report",
                   "the team offsite", "the pricing page", "security training")
RANDOM_NOTES = ("We will go through the open items.", "We will agree on the next steps.",
                "We will look at the latest numbers.", "We will settle the schedule.",
                "We will share what we learned.")


def datum(locale: str, text: str) -> str:
    """The seeded text ``text`` in ``locale`` (a ``specific_title`` too: the qualifier
    before the title, "与孙燕的设计研讨会"); ``MissingString`` when the catalogue lacks it."""
    if locale == DEFAULT_LOCALE:
        return text
    table = DATA.get(locale, {})
    if text in table:
        return str(table[text])
    for qualifier in QUALIFIERS:
        base = text.removesuffix(f" {qualifier}")
        if base != text and base in table and qualifier in table:
            return f"{table[qualifier]}{table[base]}"
    raise MissingString(f"Calendar: no {locale} datum for {text!r} (add it to "
                        f"calendar/strings/{locale}.data.json)")


def random_event(rng: np.random.Generator | Draws) -> tuple[str, datetime, int, str]:
    """One of AndroidWorld's random events: ``(title, start, minutes, description)`` (five
    draws: the lead-in, who or what, the minute, the duration, the note)."""
    if not isinstance(rng, Draws):
        with Draws(rng) as draw:
            return random_event(draw)
    lead = RANDOM_LEADS[rng.below(len(RANDOM_LEADS))]
    pool = FIRST_NAMES if lead.endswith(" with") else RANDOM_SUBJECTS
    who = rng.below(len(pool))
    minute = rng.below(RANDOM_MINUTES)
    return (f"{lead} {pool[who]}", RANDOM_FIRST + timedelta(minutes=minute),
            DURATIONS[rng.below(len(DURATIONS))], RANDOM_NOTES[rng.below(len(RANDOM_NOTES))])


def seed_random_events(state: DeviceState, rng: np.random.Generator, *,
                       excluded: Callable[[str, datetime, int], bool],
                       k: int = RANDOM_EVENTS) -> int:
    """Add ``k`` random events (``random_event``), each redrawn while ``excluded(title,
    start, minutes)`` says it would change the task's answer (AndroidWorld's exclusion
    conditions); how many were added. The draws are fetched in bulk (``vocab.Draws``: the
    same numbers and generator state as one call each) and the events written in one go
    (``add_events``)."""
    rows = []
    leads, names, subjects, durations, notes = (RANDOM_LEADS, FIRST_NAMES, RANDOM_SUBJECTS,
                                                DURATIONS, RANDOM_NOTES)
    with Draws(rng) as draw:
        draw.reserve(5 * k)  # five words an event, more for those redrawn
        below = draw.below
        for _ in range(k):
            for _ in range(100):  # random_event's five draws, in its order
                lead = leads[below(len(leads))]
                pool = names if lead.endswith(" with") else subjects
                title = f"{lead} {pool[below(len(pool))]}"
                start = RANDOM_FIRST + timedelta(minutes=below(RANDOM_MINUTES))
                minutes = durations[below(len(durations))]
                note = notes[below(len(notes))]
                if not excluded(title, start, minutes):  # (whole minutes: isoformat is iso)
                    rows.append((title, start.isoformat(),
                                 (start + timedelta(minutes=minutes)).isoformat(), "", note,
                                 False))
                    break
    add_events(state, rows, stored=True)
    return len(rows)


def add_events(state: DeviceState, events: Sequence[tuple[str, str, str, str, str, bool]],
               *, stored: bool = False) -> None:
    """``state.add_event`` of each of ``events`` (``(title, start, end, location,
    description, all_day)``, ISO local times): in one write where the phone has one
    (PhoneWorld's ``WorldState.add_events``; ``stored``: all timed, their times already
    ``YYYY-MM-DDTHH:MM:SS``, not checked again), else one by one."""
    bulk = getattr(state, "add_events", None)
    if bulk is not None:
        bulk(events, stored=stored)
        return
    for title, start, end, location, description, all_day in events:
        state.add_event(title, start, end, location=location, description=description,
                        all_day=all_day)


def names(title: str, person: str) -> bool:
    """Whether ``title`` names ``person`` (a whole word, any case)."""
    return _word(person).search(title) is not None


@lru_cache(maxsize=256)
def _word(person: str) -> re.Pattern[str]:
    return re.compile(rf"\b{re.escape(person)}\b", re.IGNORECASE)


# The exclusion tests (``Task.excluded``) run for every random event drawn (~80 a reset):
# what they read from the params is parsed once per value.
@lru_cache(maxsize=256)
def moment(text: str) -> datetime:
    """``datetime.fromisoformat(text)``, made once per text."""
    return datetime.fromisoformat(text)


@lru_cache(maxsize=256)
def day_span(day: str, days: int) -> tuple[datetime, datetime]:
    """The first and last second of ``days`` days from ``day`` (ISO date)."""
    first = at(date.fromisoformat(day), 0)
    return first, first + timedelta(days=days) - timedelta(seconds=1)


@lru_cache(maxsize=256)
def title_matcher(title: str) -> Matcher:
    """``same_text(title)``, made once per title."""
    return same_text(title)


def overlaps(start: datetime, minutes: int, first: datetime, last: datetime) -> bool:
    """Whether an event from ``start`` lasting ``minutes`` meets ``[first, last]``."""
    return start <= last and start + timedelta(minutes=minutes) > first


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
    locale = getattr(state, "locale", DEFAULT_LOCALE)
    for i in range(k):
        for _ in range(50):
            day = sample_day_in(rng, first, last, avoid_days)
            start = at(day, int(rng.integers(hours[0], hours[1] + 1)))
            if start not in taken:
                break
        taken.add(start)
        minutes = int(pick(rng, DURATIONS))  # the draws in en-US's order
        location = str(pick(rng, LOCATIONS)) if rng.random() < 0.5 else ""
        add(state, datum(locale, names[i % len(names)]), start, minutes,
            location=datum(locale, location) if location else "")


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
