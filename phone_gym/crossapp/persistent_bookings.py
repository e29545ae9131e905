"""Cross-app templates: persistent state around bookings and meetings. Something made in one
app (a Zoom meeting, a hotel order) must show up, consistent, in another (the calendar): the
verifiers compare the two apps' records to each other (the event's times to the meeting as
saved, its description to the meeting's ID), so an event one hour off, on the wrong day or
twice over fails. Cancelling a booking takes its calendar event along, and only that one.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from datetime import time as clock_time
from typing import Any

import numpy as np

from ..actions import PhoneAction
from ..mockapps.calendar.fixtures import COLLECTION as EVENTS
from ..mockapps.calendar.fixtures import TITLES, add, at, iso, open_day, seed_noise
from ..mockapps.calendar.fixtures import search as calendar_search
from ..mockapps.calendar.fixtures import set_date as calendar_date
from ..mockapps.calendar.fixtures import set_time as calendar_time
from ..mockapps.clock.fixtures import COLLECTION as ALARMS
from ..mockapps.clock.fixtures import seed_alarms
from ..mockapps.hotel.fixtures import CITIES as HOTEL_CITIES
from ..mockapps.hotel.fixtures import (
    HotelBookCheapestNear,
    HotelCancelBooking,
    HotelTask,
    add_hotel,
    add_order,
    book_and_pay,
    chip,
    first_hotel,
    hotel_names,
    open_hotel,
    stars,
    stay,
)
from ..mockapps.hotel.fixtures import search as hotel_search
from ..mockapps.mail.fixtures import COLLECTION as MAIL
from ..mockapps.mail.fixtures import seed_mail, settle, write_mail
from ..mockapps.mail.fixtures import start as mail_start
from ..mockapps.maps.fixtures import (
    ADDRESS_OF,
    MapsSaveBestCafe,
    save_to,
    search_for,
    set_chip,
    sort_by,
)
from ..mockapps.meet.fixtures import (
    MEETINGS,
    TODAY,
    MeetTask,
    day,
    fill_meeting,
    long_day,
    new_meeting,
    open_meeting,
    world,
)
from ..mockapps.meet.fixtures import set_date as meet_date
from ..mockapps.meet.fixtures import set_time as meet_time
from ..mockapps.meet.fixtures import start as open_meet
from ..mockapps.ride.fixtures import OPTIONS as RIDE_OPTIONS
from ..mockapps.ride.fixtures import RideScheduleRide
from ..mockapps.travel.fixtures import (
    AIRLINES,
    BOOKINGS,
    CITIES,
    TRAVELLERS,
    TravelBookShortestFlight,
    TravelChangeTrain,
    TravelTask,
    add_booking,
    booking_of,
    day_after,
    sample_hotels,
    sample_journeys,
    seed_travellers,
    travel_data,
    write_hotels,
    write_journeys,
)
from ..tasks.aw import long_date
from ..tasks.driver import Driver, OracleError
from ..tasks.families import CreateRecord
from ..tasks.task import Task
from ..tasks.vocab import pick
from ..verifiers import Allow, Allowed, Criterion, Record, Value, digits, rows, same_text
from .common import new_event

MEETING_ID = re.compile(r"\d{3}[ -]?\d{4}[ -]?\d{4}")


# --- criteria comparing two apps ---------------------------------------------------------------


def meeting_span(m: Mapping[str, Any]) -> tuple[str, str]:
    """A Zoom meeting's start and end as the calendar's ISO local times."""
    first = datetime.fromisoformat(f"{m['date']}T{m['time']}")
    return iso(first), iso(first + timedelta(minutes=int(m["minutes"])))


@dataclass(frozen=True)
class EventMatchesMeeting:
    """Exactly one calendar event titled ``title`` exists, and it spans the one Zoom meeting
    titled ``title`` as saved in Meet, with that meeting's ID (and no other ID) in its
    description."""

    title: str

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        same = same_text(self.title)
        meetings = [m for m in rows(state, MEETINGS).values() if same(m.get("title"))]
        if len(meetings) != 1:
            return False, f"{len(meetings)} Zoom meetings titled {self.title!r}, expected 1"
        events = [e for e in rows(state, EVENTS).values() if same(e.get("title"))]
        if len(events) != 1:
            return False, f"{len(events)} calendar events titled {self.title!r}, expected 1"
        m, e = meetings[0], events[0]
        try:
            begin, end = meeting_span(m)
        except (KeyError, TypeError, ValueError):
            return False, f"the meeting's date or time is not valid: {m.get('date')}"
        if (e.get("start"), e.get("end")) != (begin, end):
            return False, (f"the event runs {e.get('start')} to {e.get('end')}, the meeting "
                           f"{begin} to {end}")
        if e.get("location") or e.get("all_day") or e.get("rrule"):
            return False, "the event has a location, is all-day or repeats"
        ids = {digits(x) for x in MEETING_ID.findall(str(e.get("description", "")))}
        if ids != {digits(m.get("number", ""))}:
            return False, f"the event's description holds IDs {sorted(ids)}, not the meeting's"
        return True, "the calendar event matches the Zoom meeting"


# --- oracle steps ------------------------------------------------------------------------------


def event_span(ui: Driver) -> tuple[datetime, datetime]:
    """The start and end shown on the calendar's open event page."""
    def at_(which: str) -> datetime:
        day = ui.must(id=f"{which}_date_value").text
        return datetime.strptime(f"{day} {ui.must(id=f'{which}_time_value').text}",
                                 "%b %d, %Y %H:%M")
    return at_("start"), at_("end")


def event_key(initial: Mapping[str, Any], title: str) -> str:
    """The key of the one event titled ``title`` in a snapshot."""
    return next(k for k, e in rows(initial, EVENTS).items() if e.get("title") == title)


# --- Zoom meetings and the calendar -----------------------------------------------------------
class CrossMeetScheduleToCalendar(MeetTask):
    """Schedule a Zoom meeting, then put it in the calendar with its meeting ID."""

    tags = frozenset({"persistent", "long_horizon"})
    apps = ("Meet", "Calendar")  # type: ignore[assignment]
    template = ('Schedule a Zoom meeting "{title}" on {day} at {time} for {minutes} minutes, '
                'then add it to my calendar under the same title and at the same time, with '
                'the Zoom meeting ID in the event\'s description.')
    complexity, max_steps = 4, 90

    def more_params(self, rng: np.random.Generator, w: Any) -> dict[str, Any]:
        return new_meeting(rng, w)

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        seed_noise(state, rng, 6, titles=TITLES, first=TODAY, last=TODAY + timedelta(days=12))

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record(MEETINGS, {"title": same_text(p["title"])},
                       {"date": p["date"], "time": p["time"], "minutes": p["minutes"]},
                       count=1),
                EventMatchesMeeting(p["title"])]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(MEETINGS, "added"), Allow(EVENTS, "added")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_meet(ui)
        yield from fill_meeting(ui, p)
        yield from ui.tap(p["title"], kind="list_item")
        number = ui.must(id="meeting_number").text.rpartition(": ")[2]
        first = datetime.fromisoformat(f"{p['date']}T{p['time']}")
        yield from new_event(ui, p["title"], first, first + timedelta(minutes=p["minutes"]),
                             description=f"Zoom meeting ID: {number}")
        yield from ui.finish()


class CrossMeetMoveWithCalendar(MeetTask):
    """A meeting moved to another day in Zoom, and its calendar event moved the same way
    (other meetings' events stay)."""

    tags = frozenset({"persistent"})
    apps = ("Meet", "Calendar")  # type: ignore[assignment]
    template = ('My Zoom meeting "{title}" moves to {day}, same time. Change it in Zoom and '
                'move its calendar event too.')
    complexity, max_steps = 4, 40

    def more_params(self, rng: np.random.Generator, w: Any) -> dict[str, Any]:
        m = w.meetings[int(rng.integers(len(w.meetings)))]
        new = day(int(rng.integers(1, 13)))
        while new == m.date:
            new = day(int(rng.integers(1, 13)))
        return {"title": m.title, "date": new, "day": long_day(new), "old": m.date,
                "time": m.time, "minutes": m.minutes}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        for m in world(params["seed"]).meetings:  # each meeting is in the calendar as well
            first = datetime.fromisoformat(f"{m.date}T{m.time}")
            add(state, m.title, first, m.minutes, description=f"Zoom meeting ID: {m.number}")

    def moved(self, p: Mapping[str, Any]) -> tuple[str, str]:
        return meeting_span({"date": p["date"], "time": p["time"], "minutes": p["minutes"]})

    def meeting_key(self, initial: Mapping[str, Any], p: Mapping[str, Any]) -> str:
        return next(k for k, m in rows(initial, MEETINGS).items() if m["title"] == p["title"])

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        begin, end = self.moved(p)
        return [Value(f"{MEETINGS}.{self.meeting_key(initial, p)}.date", p["date"]),
                Value(f"{EVENTS}.{event_key(initial, p['title'])}.start", begin),
                Value(f"{EVENTS}.{event_key(initial, p['title'])}.end", end)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(MEETINGS, "modified", key=self.meeting_key(initial, p), fields=("date",)),
                Allow(EVENTS, "modified", key=event_key(initial, p["title"]),
                      fields=("start", "end"))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_meeting(ui, p["title"])
        yield from ui.tap(id="edit")
        yield from meet_date(ui, p["date"])
        yield from ui.tap(id="save")
        begin, end = (datetime.fromisoformat(t) for t in self.moved(p))
        yield from calendar_search(ui, p["title"])
        yield from ui.tap(p["title"], kind="list_item")
        yield from calendar_date(ui, "start_date", begin.date())
        yield from calendar_time(ui, "start_time", begin)
        yield from calendar_date(ui, "end_date", end.date())
        yield from calendar_time(ui, "end_time", end)
        yield from ui.tap(id="save")
        yield from ui.finish()


class CrossMeetCancelWithEvent(MeetTask):
    """A Zoom meeting deleted, and its calendar event deleted too: the other meetings'
    events stay, and so does an event of the same title a week later that is not a Zoom
    meeting."""

    tags = frozenset({"persistent"})
    apps = ("Meet", "Calendar")  # type: ignore[assignment]
    template = ('The Zoom meeting "{title}" on {day} is off: delete it in Zoom and remove it '
                'from my calendar as well.')
    complexity, max_steps = 3, 20

    def more_params(self, rng: np.random.Generator, w: Any) -> dict[str, Any]:
        m = w.meetings[int(rng.integers(len(w.meetings)))]
        return {"title": m.title, "date": m.date, "day": long_day(m.date), "time": m.time}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        for m in world(params["seed"]).meetings:
            first = datetime.fromisoformat(f"{m.date}T{m.time}")
            add(state, m.title, first, m.minutes, description=f"Zoom meeting ID: {m.number}")
        later = datetime.fromisoformat(f"{params['date']}T{params['time']}") + timedelta(days=7)
        add(state, params["title"], later, 60, location="Room 204")

    def keys(self, initial: Mapping[str, Any], p: Mapping[str, Any]) -> tuple[str, str]:
        begin = iso(datetime.fromisoformat(f"{p['date']}T{p['time']}"))
        meeting = next(k for k, m in rows(initial, MEETINGS).items() if m["title"] == p["title"])
        event = next(k for k, e in rows(initial, EVENTS).items()
                     if e.get("title") == p["title"] and e.get("start") == begin)
        return meeting, event

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        meeting, event = self.keys(initial, p)
        return [Value(f"{MEETINGS}.{meeting}", None), Value(f"{EVENTS}.{event}", None)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        meeting, event = self.keys(initial, p)
        return [Allow(MEETINGS, "removed", key=meeting), Allow(EVENTS, "removed", key=event)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_meet(ui)
        if ui.find(p["title"], kind="list_item") is not None:
            yield from ui.tap(p["title"], kind="list_item")
            yield from ui.tap(id="delete")
            yield from ui.tap(id="button_delete")
        yield from open_day(ui, date.fromisoformat(p["date"]))
        if ui.find(p["title"], kind="list_item") is not None:
            yield from ui.tap(p["title"], kind="list_item")
            yield from ui.tap(id="delete")
            yield from ui.tap(id="button_delete")
        yield from ui.finish()


class CrossCalendarEventToMeet(MeetTask):
    """The other way round: a calendar event (no Zoom meeting yet) gets a Zoom meeting at
    its day, time and length, and the meeting's ID goes into the event's description."""

    tags = frozenset({"persistent", "long_horizon"})
    apps = ("Calendar", "Meet")  # type: ignore[assignment]
    template = ('My calendar has "{title}" on {day}. Schedule a Zoom meeting with the same '
                'title, day, time and length, and put its meeting ID in the calendar event\'s '
                'description.')
    complexity, max_steps = 4, 70

    def more_params(self, rng: np.random.Generator, w: Any) -> dict[str, Any]:
        return new_meeting(rng, w)

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        first = datetime.fromisoformat(f"{params['date']}T{params['time']}")
        add(state, params["title"], first, params["minutes"], location="")
        seed_noise(state, rng, 5, titles=TITLES, first=TODAY, last=TODAY + timedelta(days=12),
                   avoid_starts=[first])

    def event(self, initial: Mapping[str, Any], p: Mapping[str, Any]) -> str:
        return event_key(initial, p["title"])

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record(MEETINGS, {"title": same_text(p["title"])},
                       {"date": p["date"], "time": p["time"], "minutes": p["minutes"]},
                       count=1),
                EventMatchesMeeting(p["title"])]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(MEETINGS, "added"),
                Allow(EVENTS, "modified", key=self.event(initial, p), fields=("description",))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from calendar_search(ui, p["title"])
        yield from ui.tap(p["title"], kind="list_item")
        first, last = event_span(ui)  # its day, time and length, read
        yield from ui.press("back")
        yield from open_meet(ui)
        if ui.find(p["title"], kind="list_item") is None:
            yield from fill_meeting(ui, {"title": p["title"], "date": first.date().isoformat(),
                                         "time": f"{first:%H:%M}",
                                         "minutes": (last - first).seconds // 60})
        yield from ui.tap(p["title"], kind="list_item")
        number = ui.must(id="meeting_number").text.rpartition(": ")[2]
        yield from calendar_search(ui, p["title"])
        yield from ui.tap(p["title"], kind="list_item")
        yield from ui.fill("description", f"Zoom meeting ID: {number}")
        yield from ui.tap(id="save")
        yield from ui.finish()


class CrossMeetFollowCalendarMove(MeetTask):
    """A meeting's calendar event was moved (another day and time): Zoom is made to match,
    read from the calendar."""

    tags = frozenset({"persistent"})
    apps = ("Calendar", "Meet")  # type: ignore[assignment]
    template = ('I moved "{title}" in my calendar. Move the Zoom meeting of the same name to '
                'the day and time the calendar now shows.')
    complexity, max_steps = 4, 40

    def more_params(self, rng: np.random.Generator, w: Any) -> dict[str, Any]:
        m = w.meetings[int(rng.integers(len(w.meetings)))]
        while True:
            new = day(int(rng.integers(1, 13)))
            hour, half = int(rng.integers(8, 18)), int(rng.integers(2)) * 30
            time = f"{hour:02d}:{half:02d}"
            if new != m.date and time != m.time:
                break
        return {"title": m.title, "date": new, "time": time, "minutes": m.minutes}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        for m in world(params["seed"]).meetings:
            when = (f"{params['date']}T{params['time']}" if m.title == params["title"]
                    else f"{m.date}T{m.time}")
            add(state, m.title, datetime.fromisoformat(when), m.minutes,
                description=f"Zoom meeting ID: {m.number}")

    def key(self, initial: Mapping[str, Any], p: Mapping[str, Any]) -> str:
        return next(k for k, m in rows(initial, MEETINGS).items() if m["title"] == p["title"])

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        key = self.key(initial, p)
        return [Value(f"{MEETINGS}.{key}.date", p["date"]),
                Value(f"{MEETINGS}.{key}.time", p["time"])]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(MEETINGS, "modified", key=self.key(initial, p), fields=("date", "time"))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from calendar_search(ui, p["title"])
        yield from ui.tap(p["title"], kind="list_item")
        first, _ = event_span(ui)  # the new day and time, read
        yield from ui.press("back")
        yield from open_meeting(ui, p["title"])
        yield from ui.tap(id="edit")
        yield from meet_date(ui, first.date().isoformat())
        yield from meet_time(ui, f"{first:%H:%M}")
        yield from ui.tap(id="save")
        yield from ui.finish()


# --- hotel orders and the calendar ------------------------------------------------------------
CHECK_IN_HOUR = 15


class CrossHotelBookToCalendar(HotelBookCheapestNear):
    """The cheapest fitting hotel booked (Hotel mini-program in WeChat), then a check-in event
    in the calendar on the order's check-in day, at the hotel booked."""

    template = ('Book the cheapest hotel in {city} within {km} km of {landmark} rated '
                '{rating_text} or higher for {dates}, guest {guest}, in WeChat\'s Hotel '
                'Booking mini-program, keeping the total under ¥{budget} (WeChat Pay PIN '
                '{pin}). Then add a calendar event "{event}" from 15:00 to 16:00 on the '
                'check-in day, with the hotel\'s name as its location.')
    complexity, max_steps = 5, 80
    tags = frozenset({"mini_program", "long_horizon", "persistent"})
    apps = ("Chat", "Hotel", "Calendar")

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        return {**p, "event": f"Hotel check-in in {p['city']}"}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        first = date.fromisoformat(params["checkin"])
        seed_noise(state, rng, 6, titles=TITLES, first=first - timedelta(days=3),
                   last=date.fromisoformat(params["checkout"]))

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        first = at(date.fromisoformat(p["checkin"]), CHECK_IN_HOUR)
        return [*self.booking(p, initial),
                Record(EVENTS, {"title": same_text(p["event"])},
                       {"start": iso(first), "end": iso(first + timedelta(hours=1)),
                        "location": same_text(self.best(p, initial)["name"]),
                        "description": "", "all_day": False}, count=1)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [*super().allowed(p, initial), Allow(EVENTS, "added")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from hotel_search(ui, p["city"], p["checkin"], p["checkout"])
        yield from chip(ui, f"Near {p['landmark']}")
        yield from chip(ui, f"{stars(p['rating'])}+")
        yield from chip(ui, f"Within {p['km']} km")
        yield from ui.tap(id="tab_lowest_price")
        yield from first_hotel(ui)
        name = ui.must(id="hotel_name").text
        yield from book_and_pay(ui, p["guest"], p["pin"])
        first = at(date.fromisoformat(p["checkin"]), CHECK_IN_HOUR)
        yield from new_event(ui, p["event"], first, first + timedelta(hours=1), location=name)
        yield from ui.finish()


class CrossHotelCancelWithEvent(HotelCancelBooking):
    """Cancel a hotel order and delete its calendar event; the other stay's event (same
    hotel, other dates) and another hotel's event on the same day stay."""

    template = ('Cancel my Hotel Booking order at {hotel} that starts on {day} (the '
                'mini-program in WeChat), and delete that stay\'s event from my calendar.')
    complexity, max_steps = 4, 30
    tags = frozenset({"mini_program", "persistent"})
    apps = ("Chat", "Hotel", "Calendar")

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        for hotel, checkin, checkout in ((params["other_hotel"], params["checkin"],
                                          params["checkout"]),
                                         (params["hotel"], params["other_in"],
                                          params["other_out"]),
                                         (params["hotel"], params["checkin"],
                                          params["checkout"])):
            first = at(date.fromisoformat(checkin), CHECK_IN_HOUR)
            add(state, f"Stay at {hotel}", first,
                int((at(date.fromisoformat(checkout), 11) - first).total_seconds() // 60),
                location=params["city"])
        seed_noise(state, rng, 4, titles=TITLES, first=date.fromisoformat(params["checkin"]),
                   last=date.fromisoformat(params["checkout"]))

    def target_event(self, initial: Mapping[str, Any], p: Mapping[str, Any]) -> str:
        begin = iso(at(date.fromisoformat(p["checkin"]), CHECK_IN_HOUR))
        return next(k for k, e in rows(initial, EVENTS).items()
                    if e.get("title") == f"Stay at {p['hotel']}" and e.get("start") == begin)

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [*super().criteria(p, initial),
                Value(f"{EVENTS}.{self.target_event(initial, p)}", None)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [*super().allowed(p, initial),
                Allow(EVENTS, "removed", key=self.target_event(initial, p))]

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        """The other stay at the same hotel is at least five days away (no overlap)."""
        for _ in range(100):
            p = super().sample_params(rng)
            gap = date.fromisoformat(p["other_in"]) - date.fromisoformat(p["checkin"])
            if abs(gap.days) >= 5:
                break
        return p

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_hotel(ui)
        yield from ui.tap(id="my_orders")
        rows = [e for e in ui.elements() if e.short_id.startswith("order_")
                and e.text == p["hotel"] and e.hint.startswith(f"{p['checkin']} to ")
                and e.hint.endswith("· paid")]
        if rows:  # not cancelled yet: the order at the hotel from that day, read off the list
            yield from ui.tap(id=rows[0].short_id)
            yield from ui.tap(id="cancel_order")
            yield from ui.tap(id="button_cancel_booking")
        title = f"Stay at {p['hotel']}"
        yield from open_day(ui, date.fromisoformat(p["checkin"]))
        if ui.find(title, kind="list_item") is not None:
            yield from ui.tap(title, kind="list_item")
            yield from ui.tap(id="delete")
            yield from ui.tap(id="button_delete")
        yield from ui.finish()


class CrossHotelOrderToCalendar(HotelTask):
    """An existing hotel order (read in the mini-program's orders: a cancelled order in the
    same city and a paid one elsewhere are decoys) put in the calendar from check-in at
    15:00 to check-out at 11:00, at the hotel booked."""

    template = ('Put my paid Hotel Booking stay in {city} (WeChat mini-program) in my calendar '
                'as "{event}", from 15:00 on the check-in day to 11:00 on the check-out day, '
                'with the hotel\'s name as the location.')
    complexity, max_steps = 4, 60
    tags = frozenset({"mini_program", "persistent", "long_horizon"})
    apps = ("Chat", "Hotel", "Calendar")

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        names = hotel_names(rng, 3)
        other = pick(rng, [c for c in HOTEL_CITIES if c != p["city"]])
        gone_in, gone_out, _ = stay(rng, self.start.date())
        while gone_in == p["checkin"]:
            gone_in, gone_out, _ = stay(rng, self.start.date())
        return {**p, "hotel": names[0], "gone_hotel": names[1], "far_hotel": names[2],
                "other_city": other, "gone_in": gone_in, "gone_out": gone_out,
                "price": int(rng.integers(30, 80)) * 1000, "event": f"{p['city']} hotel"}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        self.seed_host(state, params, rng)
        city, mark = params["city"], params["landmark"]
        target = add_hotel(state, params["hotel"], city, params["price"], 45, {mark: 800}, rng)
        gone = add_hotel(state, params["gone_hotel"], city, params["price"] + 4000, 44,
                         {mark: 1500}, rng)
        far = add_hotel(state, params["far_hotel"], params["other_city"], params["price"], 42,
                        {HOTEL_CITIES[params["other_city"]][0]: 900}, rng)
        add_order(state, gone, params["gone_in"], params["gone_out"], params["guest"],
                  status="cancelled")
        add_order(state, far, params["checkin"], params["checkout"], params["guest"])
        add_order(state, target, params["checkin"], params["checkout"], params["guest"])
        seed_noise(state, rng, 4, titles=TITLES, first=date.fromisoformat(params["checkin"]),
                   last=date.fromisoformat(params["checkout"]), hours=(8, 13))

    def span(self, p: Mapping[str, Any]) -> tuple[datetime, datetime]:
        return (at(date.fromisoformat(p["checkin"]), CHECK_IN_HOUR),
                at(date.fromisoformat(p["checkout"]), 11))

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        first, last = self.span(p)
        return [Record(EVENTS, {"title": same_text(p["event"])},
                       {"start": iso(first), "end": iso(last),
                        "location": same_text(p["hotel"]), "description": "",
                        "all_day": False}, count=1)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(EVENTS, "added")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_hotel(ui)
        yield from ui.tap(id="my_orders")
        paid = []  # (hotel, check-in, check-out) of each paid order, read off the list
        for e in ui.elements():
            found = re.fullmatch(r"(\S+) to (\S+) · paid", e.hint)
            if e.short_id.startswith("order_") and found:
                paid.append((e.text, found[1], found[2]))
        if not paid:
            raise OracleError("no paid order on screen")
        if len(paid) > 1:  # which hotel is in the city: its search results tell
            yield from ui.tap(desc="Navigate up")  # back to the mini-program's search
            yield from ui.fill("city", p["city"])
            yield from ui.fill("checkin", paid[0][1])
            yield from ui.fill("checkout", paid[0][2])
            yield from ui.press("back")  # the keyboard away
            yield from ui.tap(id="search_hotels")
            names: set[str] = set()
            for _ in range(10):
                names |= {e.text for e in ui.elements() if e.short_id.startswith("hotel_")}
                before = [(e.text, e.bounds) for e in ui.elements()]
                yield PhoneAction("scroll", x=500, y=500, direction="down")
                if [(e.text, e.bounds) for e in ui.elements()] == before:
                    break
            paid = [o for o in paid if o[0] in names]
            if len(paid) != 1:
                raise OracleError(f"{len(paid)} paid orders at hotels in {p['city']}")
        hotel, checkin, checkout = paid[0]
        first = at(date.fromisoformat(checkin), CHECK_IN_HOUR)
        last = at(date.fromisoformat(checkout), 11)
        yield from new_event(ui, p["event"], first, last, location=hotel)
        yield from ui.finish()


# --- a place saved in Maps that a calendar event relies on -----------------------------------
MEETUPS = ("Coffee with Priya", "Catch-up with Jonas", "Study session", "Coffee with Mateo",
           "Interview prep with Lea", "Book club meetup")


class CrossMapsCafeToCalendar(MapsSaveBestCafe):
    """The best cafe open now within 1 km saved to Favourites (Maps), then an event there
    tomorrow with the cafe's address as its location (Calendar)."""

    tags = frozenset({"persistent", "long_horizon"})
    apps = ("Maps", "Calendar")  # type: ignore[assignment]
    template = ('In Google Maps, save the highest-rated cafe that is open now and within 1 km '
                'of me to my Favourites. Then add "{title}" to my calendar tomorrow from '
                '{time} to {end}, with that cafe\'s address as the location.')
    complexity, max_steps = 4, 56

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        hour = int(rng.integers(8, 17))
        return {"title": str(pick(rng, MEETUPS)), "hour": hour, "time": f"{hour:02d}:00",
                "end": f"{hour + 1:02d}:00"}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        tomorrow = self.start.date() + timedelta(days=1)
        seed_noise(state, rng, 4, titles=TITLES, first=tomorrow, last=tomorrow,
                   avoid_starts=[at(tomorrow, params["hour"])])

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        first = at(self.start.date() + timedelta(days=1), p["hour"])
        return [*super().criteria(p, initial),
                Record(EVENTS, {"title": same_text(p["title"])},
                       {"start": iso(first), "end": iso(first + timedelta(hours=1)),
                        "location": same_text(ADDRESS_OF[self.target(initial)]),
                        "description": "", "all_day": False}, count=1)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [*super().allowed(p, initial), Allow(EVENTS, "added")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Maps")
        yield from search_for(ui, "cafe")
        yield from set_chip(ui, "Open now", True)
        yield from set_chip(ui, "Within 1 km", True)
        yield from sort_by(ui, "Rating")
        places = [e for e in ui.find_all(kind="list_item") if e.short_id.startswith("place_")]
        if not places:
            raise OracleError("no cafe open now within 1 km on screen")
        name = min(places, key=lambda e: e.bounds[1]).text  # the best one, read
        yield from ui.tap(name, kind="list_item")
        yield from save_to(ui, "Favourites", name)
        address = ui.must(id="place_address").text
        first = at(self.start.date() + timedelta(days=1), p["hour"])
        yield from new_event(ui, p["title"], first, first + timedelta(hours=1),
                             location=address)
        yield from ui.finish()


# --- trips (Travel, Ride) and the calendar ----------------------------------------------------
def journey_span(j: Mapping[str, Any]) -> tuple[datetime, datetime]:
    """A train's or flight's departure and arrival (the arrival may be the next day)."""
    first = datetime.fromisoformat(f"{j['date']}T{j['depart']}")
    return first, first + timedelta(minutes=int(j["minutes"]))


class CrossTravelFlightToCalendar(TravelBookShortestFlight):
    """The shortest flight under a price cap booked in Travel, then a calendar event named
    after the flight booked, from its departure to its arrival."""

    tags = frozenset({"persistent", "long_horizon"})
    apps = ("Travel", "Calendar")  # type: ignore[assignment]
    template = ("Book the shortest economy flight from {origin} to {destination} on {day} "
                "that costs less than {cap}, for {traveller}. Then add the flight to my "
                "calendar: the flight number as the title, from departure to arrival.")
    complexity, max_steps = 4, 80

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        first = date.fromisoformat(params["day"])
        seed_noise(state, rng, 5, titles=TITLES, first=first - timedelta(days=2),
                   last=first + timedelta(days=2))

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        flight = self.target_flight(p)
        first, last = journey_span(flight)
        return [*super().criteria(p, initial),
                Record(EVENTS, {"title": same_text(flight["number"])},
                       {"start": iso(first), "end": iso(last), "description": "",
                        "location": "", "all_day": False}, count=1)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [*super().allowed(p, initial), Allow(EVENTS, "added")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.search_route(ui, "Flights", p["origin"], p["destination"], p["day"])
        yield from ui.tap(id="chip_shortest")
        cap = float(p["cap"].lstrip("$").replace(",", ""))
        fits = []  # the shortest first: the first one under the cap, read off the list
        for e in sorted(ui.elements(), key=lambda e: e.bounds[1]):
            found = re.search(r"Economy \$([\d.]+)", e.hint)
            if e.short_id.startswith("journey_") and found and float(found[1]) < cap:
                fits.append(e.text)
        read = re.fullmatch(r"(\S+) · (\d\d):(\d\d) → (\d\d):(\d\d)", fits[0]) if fits \
            else None
        if read is None:
            raise OracleError("no flight under the cap on screen")
        number, day = read[1], date.fromisoformat(p["day"])
        first = datetime.combine(day, clock_time(int(read[2]), int(read[3])))
        last = datetime.combine(day, clock_time(int(read[4]), int(read[5])))
        if last <= first:
            last += timedelta(days=1)  # lands after midnight
        yield from self.book_journey(ui, number, p["day"], "Economy", p["traveller"])
        yield from new_event(ui, number, first, last)
        yield from ui.finish()


class CrossTravelChangeTrainUpdateEvent(TravelChangeTrain):
    """The booked train changed to the next one, and its calendar event moved to the new
    train's times (the event of another trip to the same city stays)."""

    tags = frozenset({"persistent"})
    apps = ("Travel", "Calendar")  # type: ignore[assignment]
    template = ("Change my train to {destination} on {day} to the next train after it on the "
                "same route, same class, and update its calendar event \"{event}\" to the new "
                "train's departure and arrival times.")
    complexity, max_steps = 4, 50

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        return {**p, "event": f"Train to {p['destination']}"}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        first, last = journey_span(self.booked(params))
        add(state, params["event"], first, int((last - first).total_seconds() // 60),
            description=f"Train {self.booked(params)['number']}")
        other = first + timedelta(days=2)  # the booked trip two days later (a decoy)
        add(state, params["event"], other, 120)
        seed_noise(state, rng, 4, titles=TITLES, first=first.date() - timedelta(days=1),
                   last=first.date() + timedelta(days=1))

    def event_key(self, initial: Mapping[str, Any], p: Mapping[str, Any]) -> str:
        begin = iso(journey_span(self.booked(p))[0])
        return next(k for k, e in rows(initial, EVENTS).items()
                    if e.get("title") == p["event"] and e.get("start") == begin)

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        first, last = journey_span(self.next_train(p))
        key = self.event_key(initial, p)
        return [*super().criteria(p, initial), Value(f"{EVENTS}.{key}.start", iso(first)),
                Value(f"{EVENTS}.{key}.end", iso(last))]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [*super().allowed(p, initial),
                Allow(EVENTS, "modified", key=self.event_key(initial, p),
                      fields=("start", "end", "description"))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        booking = travel_data(ui.state).bookings.first(ref=self.booked(p)["number"],
                                                       date=p["day"], status="booked")
        if booking is not None:
            yield from self.open_booking(ui, p)
            yield from ui.tap(id="change")
            rows = [e for e in ui.elements() if e.short_id.startswith("journey_")]
            if not rows:
                raise OracleError("no later train on screen")
            top = min(rows, key=lambda e: e.bounds[1])  # the next train, read
            times = re.findall(r"(\d\d):(\d\d)", top.text)
            if len(times) != 2:
                raise OracleError(f"no times in {top.text!r}")
            first, last = (datetime.combine(date.fromisoformat(p["day"]),
                                            clock_time(int(h), int(m))) for h, m in times)
            if last <= first:
                last += timedelta(days=1)  # arrives after midnight
            yield from ui.tap(id=top.short_id)
            yield from ui.tap(id="button_change")
        else:  # a restart after the change: the new train's times, planned from state
            first, last = journey_span(self.next_train(p))
        yield from open_day(ui, date.fromisoformat(p["day"]))
        yield from ui.tap(p["event"], kind="list_item")
        yield from calendar_date(ui, "start_date", first.date())
        yield from calendar_time(ui, "start_time", first)
        yield from calendar_date(ui, "end_date", last.date())
        yield from calendar_time(ui, "end_time", last)
        yield from ui.tap(id="save")
        yield from ui.finish()


class CrossRideScheduleEventAlarm(RideScheduleRide):
    """Three apps: a ride scheduled for later today (Ride), the pickup in the calendar at the
    ride's time (Calendar), and an alarm some minutes before it (Clock)."""

    tags = frozenset({"persistent", "multihop", "long_horizon"})
    apps = ("Ride", "Calendar", "Clock")  # type: ignore[assignment]
    template = ("Schedule a {option} ride to {destination} for {time} today. Put the pickup in "
                "my calendar as \"{event}\" from {time} for 30 minutes, and set an alarm "
                "labelled \"{label}\" {lead} minutes before the pickup.")
    complexity, max_steps = 4, 80

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        lead = int(pick(rng, (10, 15, 20, 30)))
        pickup = at(self.start.date(), *(int(x) for x in p["time"].split(":")))
        ring = pickup - timedelta(minutes=lead)
        return {**p, "lead": lead, "event": f"Ride to {p['destination']}", "label": "Ride",
                "hour": ring.hour, "minute": ring.minute}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        seed_alarms(state, rng, 3, avoid_labels=[params["label"]],
                    avoid_times=[(params["hour"], params["minute"])])
        seed_noise(state, rng, 4, titles=TITLES, first=self.start.date(),
                   last=self.start.date() + timedelta(days=1), hours=(8, 20))

    def pickup(self, p: Mapping[str, Any]) -> datetime:
        return at(self.start.date(), *(int(x) for x in p["time"].split(":")))

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        first = self.pickup(p)
        return [*super().criteria(p, initial),
                Record(EVENTS, {"title": same_text(p["event"])},
                       {"start": iso(first), "end": iso(first + timedelta(minutes=30)),
                        "description": "", "location": "", "all_day": False}, count=1),
                Record(ALARMS, {"hour": p["hour"], "minute": p["minute"]},
                       {"label": same_text(p["label"]), "enabled": True, "days": []},
                       count=1)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [*super().allowed(p, initial), Allow(EVENTS, "added"), Allow(ALARMS, "added")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        hour, minute = p["time"].split(":")
        yield from ui.open_app("Ride")
        yield from self.choose_place(ui, p["destination"])
        yield from ui.tap(id=f"option_{p['option'].lower()}")
        yield from ui.tap(id="schedule")
        yield from ui.fill("hour", str(int(hour)))
        yield from ui.fill("minute", minute)
        yield from ui.tap(id="button_ok")
        yield from ui.tap(id="confirm")
        first = self.pickup(p)
        yield from new_event(ui, p["event"], first, first + timedelta(minutes=30))
        yield from ui.open_app("Clock")
        yield from ui.tap(id="add_alarm")
        yield from ui.fill("hour", f"{p['hour']:02d}")
        yield from ui.fill("minute", f"{p['minute']:02d}")
        yield from ui.fill("label", p["label"])
        yield from ui.tap(id="save")
        yield from ui.finish()
AIRPORT_EVENTS = ("Ride to the airport", "Airport pickup", "Taxi to the airport",
                  "Leave for the airport")


def booked_departure(ui: Driver, route: str, day: date
                     ) -> Generator[PhoneAction, None, datetime]:
    """On Travel's Bookings tab: open the one booked (not cancelled) trip on ``day`` whose
    title holds ``route`` (``"→ Zurich"``, ``" Prague →"``) and read its departure there."""
    when = f"{day:%a}, {day:%b} {day.day} "
    rows = [e for e in ui.elements() if e.short_id.startswith("booking_") and route in e.text
            and e.hint.startswith(when) and e.hint.endswith("· booked")]
    if len(rows) != 1:
        raise OracleError(f"{len(rows)} booked trips {route!r} on {day} on screen")
    yield from ui.tap(id=rows[0].short_id)
    found = re.search(r"departs (\d\d):(\d\d)", ui.must(id="when").text)
    if found is None:
        raise OracleError("no departure time on the booking's page")
    return datetime.combine(day, clock_time(int(found[1]), int(found[2])))


class CrossFlightTodayRideToAirport(RideScheduleRide):
    """Three apps: today's flight read in Travel (another flight today, cancelled, is a
    decoy), a ride to the airport scheduled some hours before it departs (Ride), and the
    pickup put in the calendar (Calendar)."""

    tags = frozenset({"persistent", "handoff", "long_horizon"})
    apps = ("Travel", "Ride", "Calendar")  # type: ignore[assignment]
    template = ("My flight from {origin} leaves today (it is in the Travel app). Schedule a "
                "{option} ride to City Airport for {lead} hours before it departs, and add "
                "\"{event}\" to my calendar at the pickup time, 30 minutes long.")
    complexity, max_steps = 5, 80

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        today = self.start.date().isoformat()
        origin, destination = (str(c) for c in pick(rng, CITIES, 2))
        lead = int(pick(rng, (2, 3)))
        while True:
            flights = sample_journeys(rng, "flight", origin, destination, today, 4)
            late = [i for i, f in enumerate(flights) if f["depart"] >= "14:00"]
            if late and len(flights) > 1:
                break
        booked = late[int(rng.integers(len(late)))]
        pickup = datetime.fromisoformat(f"{today}T{flights[booked]['depart']}") \
            - timedelta(hours=lead)
        return {"origin": origin, "destination": "City Airport", "flights": flights,
                "booked": booked, "lead": lead, "option": str(pick(rng, RIDE_OPTIONS)),
                "time": f"{pickup:%H:%M}", "event": str(pick(rng, AIRPORT_EVENTS)),
                "traveller": str(pick(rng, TRAVELLERS))}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        flights, who = params["flights"], params["traveller"]
        write_journeys(state, flights)
        gone = flights[(params["booked"] + 1) % len(flights)]
        add_booking(state, **booking_of(gone, who, "Economy"), status="cancelled",
                    refund=booking_of(gone, who, "Economy")["price"])
        add_booking(state, **booking_of(flights[params["booked"]], who, "Economy"))
        seed_noise(state, rng, 3, titles=TITLES, first=self.start.date(),
                   last=self.start.date() + timedelta(days=1), hours=(8, 20))

    def pickup(self, p: Mapping[str, Any]) -> datetime:
        return at(self.start.date(), *(int(x) for x in p["time"].split(":")))

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        first = self.pickup(p)
        return [*super().criteria(p, initial),
                Record(EVENTS, {"title": same_text(p["event"])},
                       {"start": iso(first), "end": iso(first + timedelta(minutes=30)),
                        "description": "", "location": "", "all_day": False}, count=1)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [*super().allowed(p, initial), Allow(EVENTS, "added")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Travel")
        yield from ui.tap(id="tab_bookings")
        departs = yield from booked_departure(ui, f" {p['origin']} →", self.start.date())
        first = departs - timedelta(hours=p["lead"])
        hour, minute = f"{first:%H}", f"{first:%M}"
        yield from ui.open_app("Ride")
        yield from self.choose_place(ui, p["destination"])
        yield from ui.tap(id=f"option_{p['option'].lower()}")
        yield from ui.tap(id="schedule")
        yield from ui.fill("hour", str(int(hour)))
        yield from ui.fill("minute", minute)
        yield from ui.tap(id="button_ok")
        yield from ui.tap(id="confirm")
        yield from new_event(ui, p["event"], first, first + timedelta(minutes=30))
        yield from ui.finish()


class CrossTravelCancelHotelWithEvent(TravelTask):
    """A Travel hotel booking cancelled (free cancellation: a full refund) and its calendar
    event deleted; the trip elsewhere keeps its booking and its event."""

    tags = frozenset({"persistent"})
    apps = ("Travel", "Calendar")  # type: ignore[assignment]
    template = ("Cancel my hotel booking in {city} in the Travel app and delete its "
                "\"{event}\" event from my calendar.")
    complexity, max_steps = 3, 24

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        city, other = (str(c) for c in pick(rng, CITIES, 2))
        offset = int(rng.integers(3, 10))
        nights = int(rng.integers(1, 4))
        return {"city": city, "other": other, "nights": nights,
                "check_in": day_after(self.start.date(), offset),
                "check_out": day_after(self.start.date(), offset + nights),
                "other_in": day_after(self.start.date(), offset + nights + 3),
                "traveller": str(pick(rng, TRAVELLERS)), "event": f"Hotel in {city}"}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_travellers(state, rng, [params["traveller"]])
        here, there = (sample_hotels(rng, params[k], 2) for k in ("city", "other"))
        here[0] = {**here[0], "free_cancel": True}
        write_hotels(state, [*here, *there])
        for hotel, city, first in ((there[0], params["other"], params["other_in"]),
                                   (here[0], params["city"], params["check_in"])):
            last = day_after(date.fromisoformat(first), params["nights"])
            add_booking(state, kind="hotel", ref=hotel["name"], destination=city, date=first,
                        end=last, traveller=params["traveller"],
                        price=hotel["price"] * params["nights"])
            add(state, f"Hotel in {city}", at(date.fromisoformat(first), CHECK_IN_HOUR),
                int((at(date.fromisoformat(last), 11)
                     - at(date.fromisoformat(first), CHECK_IN_HOUR)).total_seconds() // 60),
                location=hotel["name"])
        seed_noise(state, rng, 4, titles=TITLES, first=date.fromisoformat(params["check_in"]),
                   last=date.fromisoformat(params["check_out"]), hours=(8, 13))

    def keys(self, initial: Mapping[str, Any], p: Mapping[str, Any]) -> tuple[str, str]:
        booking = next(k for k, b in rows(initial, BOOKINGS).items()
                       if b.get("kind") == "hotel" and b.get("destination") == p["city"])
        return booking, event_key(initial, p["event"])

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        booking, event = self.keys(initial, p)
        price = rows(initial, BOOKINGS)[booking]["price"]
        return [Value(f"{BOOKINGS}.{booking}.status", "cancelled"),
                Value(f"{BOOKINGS}.{booking}.refund", price),
                Value(f"{EVENTS}.{event}", None)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        booking, event = self.keys(initial, p)
        return [Allow(BOOKINGS, "modified", key=booking, fields=("status", "refund")),
                Allow(EVENTS, "removed", key=event)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_tab(ui, "Bookings")
        rows = [e for e in ui.elements() if e.short_id.startswith("booking_")
                and e.text.endswith(f", {p['city']}") and e.hint.endswith("· booked")]
        if rows:  # not cancelled yet: the hotel in the city, read off the list
            yield from ui.tap(id=rows[0].short_id)
            yield from ui.tap(id="cancel")
            yield from ui.tap(id="button_cancel_booking")
        yield from open_day(ui, date.fromisoformat(p["check_in"]))
        if ui.find(p["event"], kind="list_item") is not None:
            yield from ui.tap(p["event"], kind="list_item")
            yield from ui.tap(id="delete")
            yield from ui.tap(id="button_delete")
        yield from ui.finish()


class CrossMeetScheduleWithAlarm(MeetTask):
    """A Zoom meeting scheduled, and an alarm labelled with its title some minutes before
    it starts (Clock)."""

    tags = frozenset({"persistent"})
    apps = ("Meet", "Clock")  # type: ignore[assignment]
    template = ('Schedule a Zoom meeting "{title}" on {day} at {time}, and set an alarm '
                'labelled "{title}" {lead} minutes before it starts.')
    complexity, max_steps = 3, 50

    def more_params(self, rng: np.random.Generator, w: Any) -> dict[str, Any]:
        out = new_meeting(rng, w)
        del out["minutes"]
        lead = int(pick(rng, (5, 10, 15, 30)))
        ring = datetime.fromisoformat(f"{out['date']}T{out['time']}") - timedelta(minutes=lead)
        return {**out, "lead": lead, "hour": ring.hour, "minute": ring.minute}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        seed_alarms(state, rng, 3, avoid_labels=[params["title"]],
                    avoid_times=[(params["hour"], params["minute"])])

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record(MEETINGS, {"title": same_text(p["title"])},
                       {"date": p["date"], "time": p["time"]}, count=1),
                Record(ALARMS, {"hour": p["hour"], "minute": p["minute"]},
                       {"label": same_text(p["title"]), "enabled": True, "days": []}, count=1)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(MEETINGS, "added"), Allow(ALARMS, "added")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_meet(ui)
        if ui.find(p["title"], kind="list_item") is None:
            yield from fill_meeting(ui, p)
        yield from ui.open_app("Clock")
        yield from ui.tap(id="add_alarm")
        yield from ui.fill("hour", f"{p['hour']:02d}")
        yield from ui.fill("minute", f"{p['minute']:02d}")
        yield from ui.fill("label", p["title"])
        yield from ui.tap(id="save")
        yield from ui.finish()


# --- an airline's e-mail (Mail, read as is) and the calendar ---------------------------------
def flight_mail(airline: str, number: str, day: date, first: datetime,
                last: datetime) -> tuple[str, str]:
    """A schedule-change e-mail's subject and body."""
    return (f"Schedule change for flight {number}",
            f"Dear passenger,\n\nyour {airline} flight {number} on {day:%A, %B} {day.day} has "
            f"been rescheduled.\nNew departure: {first:%H:%M}\nNew arrival: {last:%H:%M}\n\n"
            "We apologise for the inconvenience.")


class CrossMailFlightChangeToCalendar(Task):
    """An airline's e-mail gives a flight's new times; the flight's calendar event follows
    them. Another flight in the calendar was rescheduled too (its e-mail is there), but only
    the one named is to be updated."""

    tags = frozenset({"persistent", "handoff"})
    apps = ("Mail", "Calendar")
    template = ("The airline e-mailed me a schedule change for my flight {number} on {day}. "
                "Update that flight's calendar event to the new departure and arrival times.")
    complexity, max_steps = 3, 30

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        lines = pick(rng, AIRLINES, 2)
        flights = []
        for i, (code, airline) in enumerate(lines):
            d = self.start.date() + timedelta(days=int(rng.integers(3, 12)) + 12 * i)
            old = at(d, int(rng.integers(7, 16)), int(pick(rng, (5, 20, 35, 50))))
            minutes = int(rng.integers(10, 40)) * 5
            shift = int(pick(rng, (-1, 1))) * int(rng.integers(9, 37)) * 5
            flights.append({"airline": airline, "number": f"{code}{int(rng.integers(100, 999))}",
                            "day": d.isoformat(), "old": iso(old), "minutes": minutes,
                            "new": iso(old + timedelta(minutes=shift))})
        me = flights[0]
        return {"number": me["number"], "day": long_date(date.fromisoformat(me["day"])),
                "flights": flights}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_mail(state, rng, 3)
        for i, f in enumerate(params["flights"]):
            old, new = datetime.fromisoformat(f["old"]), datetime.fromisoformat(f["new"])
            add(state, f"Flight {f['number']}", old, f["minutes"])
            subject, body = flight_mail(f["airline"], f["number"], old.date(), new,
                                        new + timedelta(minutes=f["minutes"]))
            write_mail(state, f["airline"], f"noreply@{f['airline'].lower()}.com", subject,
                       body, hours=float(2 + 3 * i))
        seed_noise(state, rng, 4, titles=TITLES, first=self.start.date(),
                   last=self.start.date() + timedelta(days=14))

    def key(self, initial: Mapping[str, Any], p: Mapping[str, Any]) -> str:
        return event_key(initial, f"Flight {p['number']}")

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        f = p["flights"][0]
        new = datetime.fromisoformat(f["new"])
        key = self.key(initial, p)
        return [Value(f"{EVENTS}.{key}.start", iso(new)),
                Value(f"{EVENTS}.{key}.end", iso(new + timedelta(minutes=f["minutes"])))]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(EVENTS, "modified", key=self.key(initial, p),
                      fields=("start", "end", "description")),
                Allow(MAIL, "modified", fields=("read",), max=len(rows(initial, MAIL)))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        f = p["flights"][0]
        yield from mail_start(ui)
        yield from settle(ui)
        rows = [e for e in ui.elements() if e.short_id.startswith("mail_")
                and e.hint.startswith(f"Schedule change for flight {f['number']} ")]
        if not rows:
            raise OracleError(f"no schedule change for {f['number']} in the inbox")
        yield from ui.tap(id=rows[0].short_id)
        body = ui.must(id="body").text  # the new times, read
        times = re.findall(r"New (?:departure|arrival): (\d\d):(\d\d)", body)
        if len(times) != 2:
            raise OracleError("no new times in the airline's e-mail")
        new, last = (datetime.combine(date.fromisoformat(f["day"]),
                                      clock_time(int(h), int(m))) for h, m in times)
        if last <= new:
            last += timedelta(days=1)  # lands after midnight
        yield from open_day(ui, new.date())
        yield from ui.tap(f"Flight {f['number']}", kind="list_item")
        yield from calendar_date(ui, "start_date", new.date())
        yield from calendar_time(ui, "start_time", new)
        yield from calendar_date(ui, "end_date", last.date())
        yield from calendar_time(ui, "end_time", last)
        yield from ui.tap(id="save")
        yield from ui.finish()


ALARM_LABELS = ("Flight", "Leave for the airport", "Airport taxi", "Pack and go")


class CrossTravelFlightAlarm(TravelTask, CreateRecord):
    """An alarm some hours before a booked flight departs: read in Travel's bookings (a
    flight elsewhere and a cancelled one to the same city are decoys), set in Clock."""

    tags = frozenset({"persistent"})
    apps = ("Travel", "Clock")  # type: ignore[assignment]
    collection = ALARMS
    template = ('Set an alarm labelled "{label}" {lead} hours before my flight to {destination} '
                'on {day} departs.')
    complexity, max_steps = 3, 24

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        origin, destination = (str(c) for c in pick(rng, CITIES, 2))
        day = self.days(rng, 3, 12)
        flights = sample_journeys(rng, "flight", origin, destination, day, 3)
        lead = int(pick(rng, (2, 3)))
        booked = int(rng.integers(0, 3))
        first = datetime.fromisoformat(f"{day}T{flights[booked]['depart']}")
        ring = first - timedelta(hours=lead)
        return {"origin": origin, "destination": destination, "day": day, "flights": flights,
                "booked": booked, "lead": lead, "label": str(pick(rng, ALARM_LABELS)),
                "hour": ring.hour, "minute": ring.minute, "traveller": str(pick(rng, TRAVELLERS))}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        self.seed_common(state, rng, params, [params["traveller"]])
        flights, who = params["flights"], params["traveller"]
        write_journeys(state, flights)
        gone = flights[(params["booked"] + 1) % len(flights)]
        add_booking(state, **booking_of(gone, who, "Economy"), status="cancelled",
                    refund=booking_of(gone, who, "Economy")["price"])
        add_booking(state, **booking_of(flights[params["booked"]], who, "Economy"))
        seed_alarms(state, rng, 3, avoid_labels=[params["label"]],
                    avoid_times=[(params["hour"], params["minute"])])

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"hour": p["hour"], "minute": p["minute"], "label": same_text(p["label"]),
                "enabled": True, "days": []}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_tab(ui, "Bookings")
        departs = yield from booked_departure(ui, f"→ {p['destination']}",
                                              date.fromisoformat(p["day"]))
        ring = departs - timedelta(hours=p["lead"])
        yield from ui.open_app("Clock")
        yield from ui.tap(id="add_alarm")
        yield from ui.fill("hour", f"{ring:%H}")
        yield from ui.fill("minute", f"{ring:%M}")
        yield from ui.fill("label", p["label"])
        yield from ui.tap(id="save")
        yield from ui.finish()


TEMPLATES: list[Task] = [CrossMeetScheduleToCalendar(), CrossMeetMoveWithCalendar(),
                         CrossHotelBookToCalendar(), CrossHotelCancelWithEvent(),
                         CrossMeetCancelWithEvent(), CrossTravelFlightToCalendar(),
                         CrossTravelChangeTrainUpdateEvent(), CrossRideScheduleEventAlarm(),
                         CrossCalendarEventToMeet(), CrossMeetFollowCalendarMove(),
                         CrossTravelFlightAlarm(), CrossHotelOrderToCalendar(),
                         CrossMapsCafeToCalendar(), CrossFlightTodayRideToAirport(),
                         CrossTravelCancelHotelWithEvent(), CrossMeetScheduleWithAlarm(),
                         CrossMailFlightChangeToCalendar()]
