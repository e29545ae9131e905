"""Bookings across apps: a meeting, a stay, a trip or a ride kept in one app and the calendar
event or alarm that must agree with it. What a template checks is data (``meeting_event``:
an event that spans the Zoom meeting of its title, with its ID; ``an_event``, ``an_alarm``,
``a_meeting``: one new record with these fields), and the spans the apps imply
(``meeting_span``, ``stay_span``, ``journey_span``). The oracle steps these templates share
read what they use off the screen (``event_span``, ``read_times``, ``booked_departure``,
``meeting_number``).

    def asks(self, p, initial):  # the meeting made, and its event in the calendar
        return [a_meeting(p, "date", "time", "minutes"), agreeing(meeting_event(p["title"]))]
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator, Mapping
from datetime import date, datetime, timedelta
from datetime import time as clock_time
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...mockapps.calendar import fixtures as calendar
from ...mockapps.clock import fixtures as clock
from ...mockapps.meet import fixtures as meet
from ...mockapps.travel import fixtures as travel
from ...tasks.driver import Driver, OracleError
from ...verifiers import Matcher, digits, mentions, same_text
from ..common import new_event
from .consistency import EMPTY, Agrees, Ask, Pick, made

EVENTS, MEETINGS, ALARMS = calendar.COLLECTION, meet.MEETINGS, clock.COLLECTION
MEETING_ID = re.compile(r"\d{3}[ -]?\d{4}[ -]?\d{4}")
#: A meeting ID standing as a whole number (not inside a longer one).
WHOLE_MEETING_ID = re.compile(rf"(?<![\d.,]){MEETING_ID.pattern}(?!\d|[.,]\d)")
CHECK_IN_HOUR = 15


# --- what the calendar must hold ---------------------------------------------------------------
def meeting_span(m: Mapping[str, Any]) -> tuple[str, str]:
    """A Zoom meeting's start and end as the calendar's ISO local times."""
    first = datetime.fromisoformat(f"{m['date']}T{m['time']}")
    return calendar.iso(first), calendar.iso(first + timedelta(minutes=int(m["minutes"])))


def as_saved(m: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of the calendar event of the Zoom meeting ``m``: its span, and its meeting
    ID (and no other ID) in the description."""
    begin, end = meeting_span(m)
    return {"start": begin, "end": end, "description": only_meeting_id(m.get("number", ""))}


def only_meeting_id(number: str) -> Matcher:
    """A text holding the meeting ID ``number`` (as a whole number, not negated) and no
    other meeting ID."""
    want = digits(number)

    def test(v: Any) -> bool:
        text = str(v)
        ids = list(WHOLE_MEETING_ID.finditer(text))
        return {digits(m.group()) for m in ids} == {want} \
            and not mentions.negated(text, [m.span() for m in ids])
    return Matcher(test, f"text holding the meeting ID {want} and no other")


def meeting_event(title: str) -> Agrees:
    """Exactly one calendar event titled ``title`` exists, and it spans the one Zoom meeting
    titled ``title`` as saved in Meet, with that meeting's ID (and no other) in its
    description; no location, not all-day, no repeats."""
    same = {"title": same_text(title)}
    return Agrees(Pick(EVENTS, same, what="calendar events"),
                  Pick(MEETINGS, same, what="Zoom meetings"), as_saved,
                  {"location": EMPTY, "all_day": EMPTY, "rrule": EMPTY})


def an_event(title: str, first: datetime, last: datetime, location: str = "") -> Ask:
    """One new calendar event titled ``title`` from ``first`` to ``last`` at ``location``
    (none: empty), with no description, not all-day."""
    return made(EVENTS, {"title": same_text(title)},
                {"start": calendar.iso(first), "end": calendar.iso(last), "description": "",
                 "location": same_text(location) if location else "", "all_day": False})


def an_alarm(hour: int, minute: int, label: str) -> Ask:
    """One new alarm at ``hour``:``minute`` labelled ``label``, on, not repeating."""
    return made(ALARMS, {"hour": hour, "minute": minute},
                {"label": same_text(label), "enabled": True, "days": []})


def a_meeting(p: Mapping[str, Any], *fields: str) -> Ask:
    """One new Zoom meeting titled ``p["title"]``, with the params' ``fields``."""
    return made(MEETINGS, {"title": same_text(p["title"])}, {f: p[f] for f in fields})


def event_span(ui: Driver) -> tuple[datetime, datetime]:
    """The start and end shown on the calendar's open event page."""
    def at_(which: str) -> datetime:
        day = ui.must(id=f"{which}_date_value").text
        return datetime.strptime(f"{day} {ui.must(id=f'{which}_time_value').text}",
                                 "%b %d, %Y %H:%M")
    return at_("start"), at_("end")


def open_event(ui: Driver, title: str) -> Iterator[PhoneAction]:
    """The calendar searched for ``title`` and its event opened."""
    yield from calendar.search(ui, title)
    yield from ui.tap(title, kind="list_item")


def meeting_number(ui: Driver) -> str:
    """The meeting ID on the open Zoom meeting's page."""
    return ui.must(id="meeting_number").text.rpartition(": ")[2]


def an_hour(ui: Driver, title: str, first: datetime, **more: str) -> Iterator[PhoneAction]:
    """A new calendar event ``title`` from ``first``, an hour long (``new_event``)."""
    yield from new_event(ui, title, first, first + timedelta(hours=1), **more)


def busy(state: Any, rng: np.random.Generator, k: int, first: date | str, last: date | str,
         **more: Any) -> None:
    """``k`` other events (``calendar.seed_noise`` over its usual titles) from ``first`` to
    ``last`` (dates or ISO dates)."""
    first, last = (d if isinstance(d, date) else date.fromisoformat(d) for d in (first, last))
    calendar.seed_noise(state, rng, k, titles=calendar.TITLES, first=first, last=last, **more)


# --- stays and trips ---------------------------------------------------------------------------
def stay_span(checkin: str, checkout: str) -> tuple[datetime, datetime]:
    """A stay from check-in (15:00) to check-out (11:00)."""
    return (calendar.at(date.fromisoformat(checkin), CHECK_IN_HOUR),
            calendar.at(date.fromisoformat(checkout), 11))


def add_stay(state: Any, title: str, checkin: str, checkout: str, location: str) -> None:
    """A calendar event over a stay (``stay_span``)."""
    first, last = stay_span(checkin, checkout)
    calendar.add(state, title, first, int((last - first).total_seconds() // 60),
                 location=location)


def journey_span(j: Mapping[str, Any]) -> tuple[datetime, datetime]:
    """A train's or flight's departure and arrival (the arrival may be the next day)."""
    first = datetime.fromisoformat(f"{j['date']}T{j['depart']}")
    return first, first + timedelta(minutes=int(j["minutes"]))


def read_times(text: str, day: str) -> tuple[datetime, datetime] | None:
    """The departure and arrival ``HH:MM`` read in ``text`` on ``day`` (an arrival before
    the departure is the next day's), or None when ``text`` does not hold two times."""
    times = re.findall(r"(\d\d):(\d\d)", text)
    if len(times) != 2:
        return None
    first, last = (datetime.combine(date.fromisoformat(day), clock_time(int(h), int(m)))
                   for h, m in times)
    return first, last + timedelta(days=1) if last <= first else last


def booked_departure(ui: Driver, route: str, day: date
                     ) -> Generator[PhoneAction, None, datetime]:
    """On Travel's Bookings tab: open the one booked (not cancelled) trip on ``day`` whose
    title holds ``route`` (``"→ Zurich"``, ``" Prague →"``) and read its departure there."""
    when = f"{day:%a}, {day:%b} {day.day} "
    listed = [e for e in ui.elements() if e.short_id.startswith("booking_")
              and route in e.text and e.hint.startswith(when) and e.hint.endswith("· booked")]
    if len(listed) != 1:
        raise OracleError(f"{len(listed)} booked trips {route!r} on {day} on screen")
    yield from ui.tap(id=listed[0].short_id)
    found = re.search(r"departs (\d\d):(\d\d)", ui.must(id="when").text)
    if found is None:
        raise OracleError("no departure time on the booking's page")
    return datetime.combine(day, clock_time(int(found[1]), int(found[2])))


def book_flights(state: Any, p: Mapping[str, Any]) -> None:
    """The flights ``p["flights"]`` in Travel: the one ``p["booked"]`` booked for
    ``p["traveller"]``, the next one booked and cancelled (a decoy)."""
    flights, who = p["flights"], p["traveller"]
    travel.write_journeys(state, flights)
    gone = travel.booking_of(flights[(p["booked"] + 1) % len(flights)], who, "Economy")
    travel.add_booking(state, **gone, status="cancelled", refund=gone["price"])
    travel.add_booking(state, **travel.booking_of(flights[p["booked"]], who, "Economy"))
