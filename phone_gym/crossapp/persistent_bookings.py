"""Cross-app templates: persistent state around bookings and meetings. Something made in one
app (a Zoom meeting, a hotel order) must show up, consistent, in another (the calendar): the
verifiers compare the two apps' records to each other (the event's times to the meeting as
saved, its description to the meeting's ID), so an event one hour off, on the wrong day or
twice over fails. Cancelling a booking takes its calendar event along, and only that one.
"""

from __future__ import annotations

import re
from collections import ChainMap
from collections.abc import Iterator, Mapping
from datetime import date, datetime, timedelta
from typing import Any

import numpy as np

from ..actions import PhoneAction
from ..mockapps.calendar import fixtures as calendar
from ..mockapps.clock import fixtures as clock
from ..mockapps.hotel import fixtures as hotel
from ..mockapps.mail import fixtures as mail
from ..mockapps.maps import fixtures as maps
from ..mockapps.meet import fixtures as meet
from ..mockapps.ride import fixtures as ride
from ..mockapps.travel import fixtures as travel
from ..tasks.aw import long_date
from ..tasks.driver import Driver, OracleError
from ..tasks.families import CreateRecord, scan
from ..tasks.task import Task
from ..tasks.vocab import pick
from ..verifiers import Allow, rows, same_text
from .common import new_event
from .families.calendar import (
    ALARMS,
    CHECK_IN_HOUR,
    EVENTS,
    MEETINGS,
    a_meeting,
    add_stay,
    an_alarm,
    an_event,
    an_hour,
    book_flights,
    booked_departure,
    busy,
    event_span,
    journey_span,
    meeting_event,
    meeting_number,
    meeting_span,
    open_event,
    read_times,
    stay_span,
)
from .families.consistency import (
    Ask,
    Consistency,
    agreeing,
    along,
    delete_listed,
    edited,
    key_of,
    new_alarm,
    removed,
    set_span,
    steps,
)

BOOKINGS, MAIL = travel.BOOKINGS, mail.COLLECTION

# --- Zoom meetings and the calendar -----------------------------------------------------------
class CrossMeetScheduleToCalendar(Consistency, meet.MeetTask):
    """Schedule a Zoom meeting, then put it in the calendar with its meeting ID."""

    tags = frozenset({"persistent", "long_horizon"})
    apps = ("Meet", "Calendar")
    template = ('Schedule a Zoom meeting "{title}" on {day} at {time} for {minutes} minutes, '
                'then add it to my calendar under the same title and at the same time, with '
                'the Zoom meeting ID in the event\'s description.')
    complexity, max_steps = 4, 90

    def more_params(self, rng: np.random.Generator, w: Any) -> dict[str, Any]:
        return meet.new_meeting(rng, w)

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        busy(state, rng, 6, meet.TODAY, meet.TODAY + timedelta(days=12))

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        return [a_meeting(p, "date", "time", "minutes"), agreeing(meeting_event(p["title"]))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from meet.start(ui)
        yield from meet.fill_meeting(ui, p)
        yield from ui.tap(p["title"], kind="list_item")
        number = meeting_number(ui)
        first = datetime.fromisoformat(f"{p['date']}T{p['time']}")
        yield from new_event(ui, p["title"], first, first + timedelta(minutes=p["minutes"]),
                             description=f"Zoom meeting ID: {number}")
        yield from ui.finish()


class MeetingsInCalendar(Consistency, meet.MeetTask):
    """Every Zoom meeting is in the calendar as well, with its meeting ID."""

    apps = ("Meet", "Calendar")

    def when(self, m: Any, p: Mapping[str, Any]) -> str:
        """Where the calendar shows the meeting ``m`` (default: where Zoom has it)."""
        return f"{m.date}T{m.time}"

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        for m in meet.world(params["seed"]).meetings:
            calendar.add(state, m.title, datetime.fromisoformat(self.when(m, params)),
                         m.minutes, description=f"Zoom meeting ID: {m.number}")


class CrossMeetMoveWithCalendar(MeetingsInCalendar):
    """A meeting moved to another day in Zoom, and its calendar event moved the same way
    (other meetings' events stay)."""

    template = ('My Zoom meeting "{title}" moves to {day}, same time. Change it in Zoom and '
                'move its calendar event too.')
    complexity, max_steps = 4, 40

    def more_params(self, rng: np.random.Generator, w: Any) -> dict[str, Any]:
        m = w.meetings[int(rng.integers(len(w.meetings)))]
        new = meet.day(int(rng.integers(1, 13)))
        while new == m.date:
            new = meet.day(int(rng.integers(1, 13)))
        return {"title": m.title, "date": new, "day": meet.long_day(new), "old": m.date,
                "time": m.time, "minutes": m.minutes}

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        begin, end = meeting_span(p)
        return [edited(MEETINGS, key_of(initial, MEETINGS, title=p["title"]),
                       {"date": p["date"]}),
                edited(EVENTS, key_of(initial, EVENTS, title=p["title"]),
                       {"start": begin, "end": end})]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from meet.open_meeting(ui, p["title"])
        yield from ui.tap(id="edit")
        yield from meet.set_date(ui, p["date"])
        yield from ui.tap(id="save")
        yield from open_event(ui, p["title"])
        yield from set_span(ui, *(datetime.fromisoformat(t) for t in meeting_span(p)))
        yield from ui.finish()


class CrossMeetCancelWithEvent(MeetingsInCalendar):
    """A Zoom meeting deleted, and its calendar event deleted too: the other meetings'
    events stay, and so does an event of the same title a week later that is not a Zoom
    meeting."""

    template = ('The Zoom meeting "{title}" on {day} is off: delete it in Zoom and remove it '
                'from my calendar as well.')
    complexity, max_steps = 3, 20

    def more_params(self, rng: np.random.Generator, w: Any) -> dict[str, Any]:
        m = w.meetings[int(rng.integers(len(w.meetings)))]
        return {"title": m.title, "date": m.date, "day": meet.long_day(m.date), "time": m.time}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        later = datetime.fromisoformat(f"{params['date']}T{params['time']}") + timedelta(days=7)
        calendar.add(state, params["title"], later, 60, location="Room 204")

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        begin = calendar.iso(datetime.fromisoformat(f"{p['date']}T{p['time']}"))
        return [removed(MEETINGS, key_of(initial, MEETINGS, title=p["title"])),
                removed(EVENTS, key_of(initial, EVENTS, title=p["title"], start=begin))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from meet.start(ui)
        yield from delete_listed(ui, p["title"])
        yield from calendar.open_day(ui, date.fromisoformat(p["date"]))
        yield from delete_listed(ui, p["title"])
        yield from ui.finish()


class CrossCalendarEventToMeet(Consistency, meet.MeetTask):
    """The other way round: a calendar event (no Zoom meeting yet) gets a Zoom meeting at
    its day, time and length, and the meeting's ID goes into the event's description."""

    tags = frozenset({"persistent", "long_horizon"})
    apps = ("Calendar", "Meet")
    template = ('My calendar has "{title}" on {day}. Schedule a Zoom meeting with the same '
                'title, day, time and length, and put its meeting ID in the calendar event\'s '
                'description.')
    complexity, max_steps = 4, 70

    def more_params(self, rng: np.random.Generator, w: Any) -> dict[str, Any]:
        return meet.new_meeting(rng, w)

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        first = datetime.fromisoformat(f"{params['date']}T{params['time']}")
        calendar.add(state, params["title"], first, params["minutes"], location="")
        busy(state, rng, 5, meet.TODAY, meet.TODAY + timedelta(days=12), avoid_starts=[first])

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        event = key_of(initial, EVENTS, title=p["title"])
        return [a_meeting(p, "date", "time", "minutes"),
                agreeing(meeting_event(p["title"]),
                         Allow(EVENTS, "modified", key=event, fields=("description",)))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_event(ui, p["title"])
        first, last = event_span(ui)  # its day, time and length, read
        yield from ui.press("back")
        yield from meet.start(ui)
        if ui.find(p["title"], kind="list_item") is None:
            yield from meet.fill_meeting(ui, {"title": p["title"],
                                              "date": first.date().isoformat(),
                                              "time": f"{first:%H:%M}",
                                              "minutes": (last - first).seconds // 60})
        yield from ui.tap(p["title"], kind="list_item")
        number = meeting_number(ui)
        yield from open_event(ui, p["title"])
        yield from ui.fill("description", f"Zoom meeting ID: {number}")
        yield from ui.tap(id="save")
        yield from ui.finish()


class CrossMeetFollowCalendarMove(MeetingsInCalendar):
    """A meeting's calendar event was moved (another day and time): Zoom is made to match,
    read from the calendar."""

    apps = ("Calendar", "Meet")
    template = ('I moved "{title}" in my calendar. Move the Zoom meeting of the same name to '
                'the day and time the calendar now shows.')
    complexity, max_steps = 4, 40

    def more_params(self, rng: np.random.Generator, w: Any) -> dict[str, Any]:
        m = w.meetings[int(rng.integers(len(w.meetings)))]
        while True:
            new = meet.day(int(rng.integers(1, 13)))
            hour, half = int(rng.integers(8, 18)), int(rng.integers(2)) * 30
            time = f"{hour:02d}:{half:02d}"
            if new != m.date and time != m.time:
                break
        return {"title": m.title, "date": new, "time": time, "minutes": m.minutes}

    def when(self, m: Any, p: Mapping[str, Any]) -> str:
        """The calendar shows the meeting moved already."""
        return f"{p['date']}T{p['time']}" if m.title == p["title"] else super().when(m, p)

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        key = key_of(initial, MEETINGS, title=p["title"])
        return [edited(MEETINGS, key, {"date": p["date"], "time": p["time"]})]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_event(ui, p["title"])
        first, _ = event_span(ui)  # the new day and time, read
        yield from ui.press("back")
        yield from meet.open_meeting(ui, p["title"])
        yield from ui.tap(id="edit")
        yield from meet.set_start(ui, first.date().isoformat(), f"{first:%H:%M}")
        yield from ui.tap(id="save")
        yield from ui.finish()


class CrossMeetScheduleWithAlarm(Consistency, meet.MeetTask):
    """A Zoom meeting scheduled, and an alarm labelled with its title some minutes before
    it starts (Clock)."""

    apps = ("Meet", "Clock")
    template = ('Schedule a Zoom meeting "{title}" on {day} at {time}, and set an alarm '
                'labelled "{title}" {lead} minutes before it starts.')
    complexity, max_steps = 3, 50

    def more_params(self, rng: np.random.Generator, w: Any) -> dict[str, Any]:
        out = meet.new_meeting(rng, w)
        del out["minutes"]
        lead = int(pick(rng, (5, 10, 15, 30)))
        ring = datetime.fromisoformat(f"{out['date']}T{out['time']}") - timedelta(minutes=lead)
        return {**out, "lead": lead, "hour": ring.hour, "minute": ring.minute}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        clock.seed_alarms(state, rng, 3, avoid_labels=[params["title"]],
                          avoid_times=[(params["hour"], params["minute"])])

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        return [a_meeting(p, "date", "time"), an_alarm(p["hour"], p["minute"], p["title"])]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from meet.start(ui)
        if ui.find(p["title"], kind="list_item") is None:
            yield from meet.fill_meeting(ui, p)
        yield from new_alarm(ui, p["hour"], p["minute"], p["title"])
        yield from ui.finish()


# --- hotel orders and the calendar ------------------------------------------------------------
class CrossHotelBookToCalendar(Consistency, hotel.HotelBookCheapestNear):
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
        busy(state, rng, 6, first - timedelta(days=3), params["checkout"])

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        first = calendar.at(date.fromisoformat(p["checkin"]), CHECK_IN_HOUR)
        return [an_event(p["event"], first, first + timedelta(hours=1),
                         self.best(p, initial)["name"])]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.find_cheapest(ui, p)
        name = ui.must(id="hotel_name").text
        yield from hotel.book_and_pay(ui, p["guest"], p["pin"])
        first = calendar.at(date.fromisoformat(p["checkin"]), CHECK_IN_HOUR)
        yield from an_hour(ui, p["event"], first, location=name)
        yield from ui.finish()


class CrossHotelCancelWithEvent(Consistency, hotel.HotelCancelBooking):
    """Cancel a hotel order and delete its calendar event; the other stay's event (same
    hotel, other dates) and another hotel's event on the same day stay."""

    template = ('Cancel my Hotel Booking order at {hotel} that starts on {day} (the '
                'mini-program in WeChat), and delete that stay\'s event from my calendar.')
    complexity, max_steps = 4, 30
    tags = frozenset({"mini_program", "persistent"})
    apps = ("Chat", "Hotel", "Calendar")

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        """The other stay at the same hotel is at least five days away (no overlap)."""
        for _ in range(100):
            p = super().sample_params(rng)
            gap = date.fromisoformat(p["other_in"]) - date.fromisoformat(p["checkin"])
            if abs(gap.days) >= 5:
                break
        return p

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        p = params
        for name, checkin, checkout in ((p["other_hotel"], p["checkin"], p["checkout"]),
                                        (p["hotel"], p["other_in"], p["other_out"]),
                                        (p["hotel"], p["checkin"], p["checkout"])):
            add_stay(state, f"Stay at {name}", checkin, checkout, p["city"])
        busy(state, rng, 4, p["checkin"], p["checkout"])

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        begin = calendar.iso(stay_span(p["checkin"], p["checkout"])[0])
        return [removed(EVENTS, key_of(initial, EVENTS, title=f"Stay at {p['hotel']}",
                                       start=begin))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from hotel.open_hotel(ui)
        yield from ui.tap(id="my_orders")
        listed = [e for e in ui.elements() if e.short_id.startswith("order_")
                  and e.text == p["hotel"] and e.hint.startswith(f"{p['checkin']} to ")
                  and e.hint.endswith("· paid")]
        if listed:  # not cancelled yet: the order at the hotel from that day, read off the list
            yield from ui.tap(id=listed[0].short_id)
            yield from ui.tap(id="cancel_order")
            yield from ui.tap(id="button_cancel_booking")
        yield from calendar.open_day(ui, date.fromisoformat(p["checkin"]))
        yield from delete_listed(ui, f"Stay at {p['hotel']}")
        yield from ui.finish()


class CrossHotelOrderToCalendar(Consistency, hotel.HotelTask):
    """An existing hotel order (read in the mini-program's orders: a cancelled order in the
    same city and a paid one elsewhere are decoys) put in the calendar from check-in at
    15:00 to check-out at 11:00, at the hotel booked."""

    template = ('Put my paid Hotel Booking stay in {city} (WeChat mini-program) in my calendar '
                'as "{event}", from 15:00 on the check-in day to 11:00 on the check-out day, '
                'with the hotel\'s name as the location.')
    complexity, max_steps = 4, 60
    tags = frozenset({"mini_program", "persistent", "long_horizon"})
    apps = ("Chat", "Hotel", "Calendar")
    extends = False  # the base only seeds WeChat: nothing is booked

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        names = hotel.hotel_names(rng, 3)
        other = pick(rng, [c for c in hotel.CITIES if c != p["city"]])
        gone_in, gone_out, _ = hotel.stay(rng, self.start.date())
        while gone_in == p["checkin"]:
            gone_in, gone_out, _ = hotel.stay(rng, self.start.date())
        return {**p, "hotel": names[0], "gone_hotel": names[1], "far_hotel": names[2],
                "other_city": other, "gone_in": gone_in, "gone_out": gone_out,
                "price": int(rng.integers(30, 80)) * 1000, "event": f"{p['city']} hotel"}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        self.seed_host(state, params, rng)
        p, city, mark = params, params["city"], params["landmark"]
        target = hotel.add_hotel(state, p["hotel"], city, p["price"], 45, {mark: 800}, rng)
        gone = hotel.add_hotel(state, p["gone_hotel"], city, p["price"] + 4000, 44,
                               {mark: 1500}, rng)
        far = hotel.add_hotel(state, p["far_hotel"], p["other_city"], p["price"], 42,
                              {hotel.CITIES[p["other_city"]][0]: 900}, rng)
        hotel.add_order(state, gone, p["gone_in"], p["gone_out"], p["guest"],
                        status="cancelled")
        hotel.add_order(state, far, p["checkin"], p["checkout"], p["guest"])
        hotel.add_order(state, target, p["checkin"], p["checkout"], p["guest"])
        busy(state, rng, 4, p["checkin"], p["checkout"], hours=(8, 13))

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        return [an_event(p["event"], *stay_span(p["checkin"], p["checkout"]), p["hotel"])]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from hotel.open_hotel(ui)
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
            names = yield from scan(ui, lambda d: {e.text: e for e in d.elements()
                                                   if e.short_id.startswith("hotel_")})
            paid = [o for o in paid if o[0] in names]
            if len(paid) != 1:
                raise OracleError(f"{len(paid)} paid orders at hotels in {p['city']}")
        name, checkin, checkout = paid[0]
        yield from new_event(ui, p["event"], *stay_span(checkin, checkout), location=name)
        yield from ui.finish()


# --- a place saved in Maps that a calendar event relies on -----------------------------------
MEETUPS = ("Coffee with Priya", "Catch-up with Jonas", "Study session", "Coffee with Mateo",
           "Interview prep with Lea", "Book club meetup")


class CrossMapsCafeToCalendar(Consistency, maps.MapsSaveBestCafe):
    """The best cafe open now within 1 km saved to Favourites (Maps), then an event there
    tomorrow with the cafe's address as its location (Calendar)."""

    tags = frozenset({"persistent", "long_horizon"})
    apps = ("Maps", "Calendar")
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
        busy(state, rng, 4, tomorrow, tomorrow,
             avoid_starts=[calendar.at(tomorrow, params["hour"])])

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        first = calendar.at(self.start.date() + timedelta(days=1), p["hour"])
        return [an_event(p["title"], first, first + timedelta(hours=1),
                         maps.ADDRESS_OF[self.target(initial)])]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from steps(super().oracle(ui, p))  # the best cafe saved, its page open
        address = ui.must(id="place_address").text
        first = calendar.at(self.start.date() + timedelta(days=1), p["hour"])
        yield from an_hour(ui, p["title"], first, location=address)
        yield from ui.finish()


# --- trips (Travel, Ride) and the calendar ----------------------------------------------------
class CrossTravelFlightToCalendar(Consistency, travel.TravelBookShortestFlight):
    """The shortest flight under a price cap booked in Travel, then a calendar event named
    after the flight booked, from its departure to its arrival."""

    tags = frozenset({"persistent", "long_horizon"})
    apps = ("Travel", "Calendar")
    template = ("Book the shortest economy flight from {origin} to {destination} on {day} "
                "that costs less than {cap}, for {traveller}. Then add the flight to my "
                "calendar: the flight number as the title, from departure to arrival.")
    complexity, max_steps = 4, 80

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        first = date.fromisoformat(params["day"])
        busy(state, rng, 5, first - timedelta(days=2), first + timedelta(days=2))

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        flight = self.target_flight(p)
        return [an_event(flight["number"], *journey_span(flight))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.search_route(ui, "Flights", p["origin"], p["destination"], p["day"])
        yield from ui.tap(id="chip_shortest")
        cap = float(p["cap"].lstrip("$").replace(",", ""))
        fits = []  # the shortest first: the first one under the cap, read off the list
        for e in sorted(ui.elements(), key=lambda e: e.bounds[1]):
            found = re.search(r"Economy \$([\d.]+)", e.hint)
            if e.short_id.startswith("journey_") and found and float(found[1]) < cap:
                fits.append(e)
        span = read_times(fits[0].text, p["day"]) if fits else None
        if span is None:
            raise OracleError("no flight under the cap on screen")
        number = fits[0].text.split(" · ")[0]
        ui.why(f"{number} is the shortest flight under {p['cap']}: booking it")
        yield from self.book_row(ui, fits[0].short_id, "Economy", p["traveller"])
        yield from new_event(ui, number, *span)
        yield from ui.finish()


class CrossTravelChangeTrainUpdateEvent(Consistency, travel.TravelChangeTrain):
    """The booked train changed to the next one, and its calendar event moved to the new
    train's times (the event of another trip to the same city stays)."""

    apps = ("Travel", "Calendar")
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
        calendar.add(state, params["event"], first, int((last - first).total_seconds() // 60),
                     description=f"Train {self.booked(params)['number']}")
        other = first + timedelta(days=2)  # the booked trip two days later (a decoy)
        calendar.add(state, params["event"], other, 120)
        busy(state, rng, 4, first.date() - timedelta(days=1), first.date() + timedelta(days=1))

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        begin = calendar.iso(journey_span(self.booked(p))[0])
        first, last = journey_span(self.next_train(p))
        return [edited(EVENTS, key_of(initial, EVENTS, title=p["event"], start=begin),
                       {"start": calendar.iso(first), "end": calendar.iso(last)},
                       also=("description",))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why(f"Opening my train booking to {p['destination']} to change it")
        yield from self.open_booking(ui, p)
        mine = ui.must(id="ref").text
        yield from ui.tap(id="change")
        listed = [e for e in ui.elements() if e.short_id.startswith("journey_")]
        if not listed:
            raise OracleError("no later train on screen")
        top = min(listed, key=lambda e: e.bounds[1])  # the next train, read
        span = read_times(top.text, p["day"])
        if span is None:
            raise OracleError(f"no times in {top.text!r}")
        ui.why(f"{top.text} is the next train after {mine}: changing to it")
        yield from ui.tap(id=top.short_id)
        yield from ui.tap(id="button_change")
        ui.why(f'Moving "{p["event"]}" to the new train\'s times, {span[0]:%H:%M} to '
               f"{span[1]:%H:%M}")
        yield from calendar.open_day(ui, date.fromisoformat(p["day"]))
        yield from ui.tap(p["event"], kind="list_item")
        yield from set_span(ui, *span)
        yield from ui.finish()


class PickupInCalendar(Consistency, ride.RideScheduleRide):
    """A ride scheduled for ``time`` today (Ride), and its pickup in the calendar as
    ``event``, 30 minutes long."""

    def pickup(self, p: Mapping[str, Any]) -> datetime:
        return calendar.at(self.start.date(), *(int(x) for x in p["time"].split(":")))

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        first = self.pickup(p)
        return [an_event(p["event"], first, first + timedelta(minutes=30))]

    def ride(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        """Schedule the ride, then put its pickup in the calendar."""
        yield from steps(super().oracle(ui, p))
        first = self.pickup(p)
        yield from new_event(ui, p["event"], first, first + timedelta(minutes=30))


class CrossRideScheduleEventAlarm(PickupInCalendar):
    """Three apps: a ride scheduled for later today (Ride), the pickup in the calendar at the
    ride's time (Calendar), and an alarm some minutes before it (Clock)."""

    tags = frozenset({"persistent", "multihop", "long_horizon"})
    apps = ("Ride", "Calendar", "Clock")
    template = ("Schedule a {option} ride to {destination} for {time} today. Put the pickup in "
                "my calendar as \"{event}\" from {time} for 30 minutes, and set an alarm "
                "labelled \"{label}\" {lead} minutes before the pickup.")
    complexity, max_steps = 4, 80

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        lead = int(pick(rng, (10, 15, 20, 30)))
        ring = self.pickup(p) - timedelta(minutes=lead)
        return {**p, "lead": lead, "event": f"Ride to {p['destination']}", "label": "Ride",
                "hour": ring.hour, "minute": ring.minute}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        clock.seed_alarms(state, rng, 3, avoid_labels=[params["label"]],
                          avoid_times=[(params["hour"], params["minute"])])
        busy(state, rng, 4, self.start.date(), self.start.date() + timedelta(days=1),
             hours=(8, 20))

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        return [*super().asks(p, initial), an_alarm(p["hour"], p["minute"], p["label"])]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.ride(ui, p)
        yield from new_alarm(ui, p["hour"], p["minute"], p["label"])
        yield from ui.finish()


AIRPORT_EVENTS = ("Ride to the airport", "Airport pickup", "Taxi to the airport",
                  "Leave for the airport")


class CrossFlightTodayRideToAirport(PickupInCalendar):
    """Three apps: today's flight read in Travel (another flight today, cancelled, is a
    decoy), a ride to the airport scheduled some hours before it departs (Ride), and the
    pickup put in the calendar (Calendar)."""

    tags = frozenset({"persistent", "handoff", "long_horizon"})
    apps = ("Travel", "Ride", "Calendar")
    template = ("My flight from {origin} leaves today (it is in the Travel app). Schedule a "
                "{option} ride to City Airport for {lead} hours before it departs, and add "
                "\"{event}\" to my calendar at the pickup time, 30 minutes long.")
    complexity, max_steps = 5, 80

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        today = self.start.date().isoformat()
        origin, destination = (str(c) for c in pick(rng, travel.CITIES, 2))
        lead = int(pick(rng, (2, 3)))
        while True:
            flights = travel.sample_journeys(rng, "flight", origin, destination, today, 4)
            late = [i for i, f in enumerate(flights) if f["depart"] >= "14:00"]
            if late and len(flights) > 1:
                break
        booked = late[int(rng.integers(len(late)))]
        pickup = datetime.fromisoformat(f"{today}T{flights[booked]['depart']}") \
            - timedelta(hours=lead)
        return {"origin": origin, "destination": "City Airport", "flights": flights,
                "booked": booked, "lead": lead, "option": str(pick(rng, ride.OPTIONS)),
                "time": f"{pickup:%H:%M}", "event": str(pick(rng, AIRPORT_EVENTS)),
                "traveller": str(pick(rng, travel.TRAVELLERS))}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        book_flights(state, params)
        busy(state, rng, 3, self.start.date(), self.start.date() + timedelta(days=1),
             hours=(8, 20))

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Travel")
        yield from ui.tap(id="tab_bookings")
        departs = yield from booked_departure(ui, f" {p['origin']} →", self.start.date())
        pickup = departs - timedelta(hours=p["lead"])  # read, not taken from the params
        ui.why(f"My flight departs at {departs:%H:%M}: the ride picks me up {p['lead']} hours "
               f"before, at {pickup:%H:%M}")
        # the read time over the params (a ChainMap reads only the keys the ride uses)
        read = ChainMap({"time": f"{pickup:%H:%M}"}, p)  # type: ignore[arg-type]
        yield from self.ride(ui, read)
        yield from ui.finish()


# --- Travel bookings and Clock ------------------------------------------------------------------
class CrossTravelCancelHotelWithEvent(Consistency, travel.TravelTask):
    """A Travel hotel booking cancelled (free cancellation: a full refund) and its calendar
    event deleted; the trip elsewhere keeps its booking and its event."""

    apps = ("Travel", "Calendar")
    template = ("Cancel my hotel booking in {city} in the Travel app and delete its "
                "\"{event}\" event from my calendar.")
    complexity, max_steps = 3, 24

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        city, other = (str(c) for c in pick(rng, travel.CITIES, 2))
        offset = int(rng.integers(3, 10))
        nights = int(rng.integers(1, 4))
        start = self.start.date()
        return {"city": city, "other": other, "nights": nights,
                "check_in": travel.day_after(start, offset),
                "check_out": travel.day_after(start, offset + nights),
                "other_in": travel.day_after(start, offset + nights + 3),
                "traveller": str(pick(rng, travel.TRAVELLERS)), "event": f"Hotel in {city}"}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        travel.seed_travellers(state, rng, [params["traveller"]])
        here, there = (travel.sample_hotels(rng, params[k], 2) for k in ("city", "other"))
        here[0] = {**here[0], "free_cancel": True}
        travel.write_hotels(state, [*here, *there])
        for stay, city, first in ((there[0], params["other"], params["other_in"]),
                                  (here[0], params["city"], params["check_in"])):
            last = travel.day_after(date.fromisoformat(first), params["nights"])
            travel.add_booking(state, kind="hotel", ref=stay["name"], destination=city,
                               date=first, end=last, traveller=params["traveller"],
                               price=stay["price"] * params["nights"])
            add_stay(state, f"Hotel in {city}", first, last, stay["name"])
        busy(state, rng, 4, params["check_in"], params["check_out"], hours=(8, 13))

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        booking = key_of(initial, BOOKINGS, kind="hotel", destination=p["city"])
        price = rows(initial, BOOKINGS)[booking]["price"]
        return [edited(BOOKINGS, booking, {"status": "cancelled", "refund": price}),
                removed(EVENTS, key_of(initial, EVENTS, title=p["event"]))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_tab(ui, "Bookings")
        listed = [e for e in ui.elements() if e.short_id.startswith("booking_")
                  and e.text.endswith(f", {p['city']}") and e.hint.endswith("· booked")]
        if listed:  # not cancelled yet: the hotel in the city, read off the list
            yield from ui.tap(id=listed[0].short_id)
            yield from ui.tap(id="cancel")
            yield from ui.tap(id="button_cancel_booking")
        yield from calendar.open_day(ui, date.fromisoformat(p["check_in"]))
        yield from delete_listed(ui, p["event"])
        yield from ui.finish()


ALARM_LABELS = ("Flight", "Leave for the airport", "Airport taxi", "Pack and go")


class CrossTravelFlightAlarm(travel.TravelTask, CreateRecord):
    """An alarm some hours before a booked flight departs: read in Travel's bookings (a
    flight elsewhere and a cancelled one to the same city are decoys), set in Clock."""

    tags = frozenset({"persistent"})
    apps = ("Travel", "Clock")
    collection = ALARMS
    template = ('Set an alarm labelled "{label}" {lead} hours before my flight to {destination} '
                'on {day} departs.')
    complexity, max_steps = 3, 24

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        origin, destination = (str(c) for c in pick(rng, travel.CITIES, 2))
        day = self.days(rng, 3, 12)
        flights = travel.sample_journeys(rng, "flight", origin, destination, day, 3)
        lead = int(pick(rng, (2, 3)))
        booked = int(rng.integers(0, 3))
        ring = datetime.fromisoformat(f"{day}T{flights[booked]['depart']}") \
            - timedelta(hours=lead)
        return {"origin": origin, "destination": destination, "day": day, "flights": flights,
                "booked": booked, "lead": lead, "label": str(pick(rng, ALARM_LABELS)),
                "hour": ring.hour, "minute": ring.minute,
                "traveller": str(pick(rng, travel.TRAVELLERS))}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        self.seed_common(state, rng, params, [params["traveller"]])
        book_flights(state, params)
        clock.seed_alarms(state, rng, 3, avoid_labels=[params["label"]],
                          avoid_times=[(params["hour"], params["minute"])])

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"hour": p["hour"], "minute": p["minute"], "label": same_text(p["label"]),
                "enabled": True, "days": []}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_tab(ui, "Bookings")
        departs = yield from booked_departure(ui, f"→ {p['destination']}",
                                              date.fromisoformat(p["day"]))
        ring = departs - timedelta(hours=p["lead"])
        yield from new_alarm(ui, ring.hour, ring.minute, p["label"])
        yield from ui.finish()


# --- an airline's e-mail (Mail, read as is) and the calendar ---------------------------------
def flight_mail(airline: str, number: str, day: date, first: datetime,
                last: datetime) -> tuple[str, str]:
    """A schedule-change e-mail's subject and body."""
    return (f"Schedule change for flight {number}",
            f"Dear passenger,\n\nyour {airline} flight {number} on {day:%A, %B} {day.day} has "
            f"been rescheduled.\nNew departure: {first:%H:%M}\nNew arrival: {last:%H:%M}\n\n"
            "We apologise for the inconvenience.")


class CrossMailFlightChangeToCalendar(Consistency, Task):
    """An airline's e-mail gives a flight's new times; the flight's calendar event follows
    them. Another flight in the calendar was rescheduled too (its e-mail is there), but only
    the one named is to be updated."""

    tags = frozenset({"persistent", "handoff"})
    apps = ("Mail", "Calendar")
    template = ("The airline e-mailed me a schedule change for my flight {number} on {day}. "
                "Update that flight's calendar event to the new departure and arrival times.")
    complexity, max_steps = 3, 30

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        flights = []
        for i, (code, airline) in enumerate(pick(rng, travel.AIRLINES, 2)):
            d = self.start.date() + timedelta(days=int(rng.integers(3, 12)) + 12 * i)
            old = calendar.at(d, int(rng.integers(7, 16)), int(pick(rng, (5, 20, 35, 50))))
            minutes = int(rng.integers(10, 40)) * 5
            shift = int(pick(rng, (-1, 1))) * int(rng.integers(9, 37)) * 5
            flights.append({"airline": airline, "number": f"{code}{int(rng.integers(100, 999))}",
                            "day": d.isoformat(), "old": calendar.iso(old), "minutes": minutes,
                            "new": calendar.iso(old + timedelta(minutes=shift))})
        me = flights[0]
        return {"number": me["number"], "day": long_date(date.fromisoformat(me["day"])),
                "flights": flights}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        mail.seed_mail(state, rng, 3)
        for i, f in enumerate(params["flights"]):
            old, new = datetime.fromisoformat(f["old"]), datetime.fromisoformat(f["new"])
            calendar.add(state, f"Flight {f['number']}", old, f["minutes"])
            subject, body = flight_mail(f["airline"], f["number"], old.date(), new,
                                        new + timedelta(minutes=f["minutes"]))
            mail.write_mail(state, f["airline"], f"noreply@{f['airline'].lower()}.com",
                            subject, body, hours=float(2 + 3 * i))
        busy(state, rng, 4, self.start.date(), self.start.date() + timedelta(days=14))

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        f = p["flights"][0]
        new = datetime.fromisoformat(f["new"])
        last = new + timedelta(minutes=f["minutes"])
        return [edited(EVENTS, key_of(initial, EVENTS, title=f"Flight {p['number']}"),
                       {"start": calendar.iso(new), "end": calendar.iso(last)},
                       also=("description",)),
                along(Allow(MAIL, "modified", fields=("read",), max=len(rows(initial, MAIL))))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        number = p["number"]
        day = datetime.strptime(f"{p['day']} {self.start.year}", "%B %d %Y").date()
        if day < self.start.date():  # the instruction names no year: the coming one
            day = day.replace(year=day.year + 1)
        ui.why(f"Looking for the airline's schedule change for {number} in the inbox")
        yield from mail.start(ui)
        yield from mail.settle(ui)
        listed = [e for e in ui.elements() if e.short_id.startswith("mail_")
                  and e.hint.startswith(f"Schedule change for flight {number} ")]
        if not listed:
            raise OracleError(f"no schedule change for {number} in the inbox")
        yield from ui.tap(id=listed[0].short_id)
        body = ui.must(id="body").text  # the new times, read
        times = re.findall(r"New (?:departure|arrival): (\d\d:\d\d)", body)
        span = read_times(" ".join(times), day.isoformat())
        if span is None:
            raise OracleError("no new times in the airline's e-mail")
        ui.why(f"{number} now departs {times[0]} and arrives {times[1]}: moving its "
               "calendar event to those times")
        yield from calendar.open_day(ui, span[0].date())
        yield from ui.tap(f"Flight {number}", kind="list_item")
        yield from set_span(ui, *span)
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
