"""Ride: ride-hailing modelled on Uber.

The first screen asks "Where to?": a search over known places, and the saved places (Home,
Work). Picking a destination shows the ride options (Economy, Comfort, XL) with their
prices and pickup ETAs; a promo code and a pickup time can be set before confirming. The
pickup is now, or scheduled on Uber's "Schedule a ride" screen: a date row and a time row,
each opening Android's Material date picker (month grid) or time picker (clock face, 12- or
24-hour as the phone is set), up to ``MAX_DAYS_AHEAD`` days ahead. A confirmed ride is a
``Trip`` that advances with the clock (``wait``): searching for a driver, the driver on the
way, arriving, on trip, completed. Cancelling is free for the first ``FREE_CANCEL_MIN``
minutes, then costs ``CANCEL_FEE``. The Activity tab lists past trips; a completed trip can
be rated with a tip.

State: persistent ``RideData`` (tables of places, ride options, promo codes and trips);
transient ``RideUi`` (the destination being booked, the chosen option, the promo field,
the schedule and its pickers, dialogs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import partial

from ...tasks.task import data_catalogue
from ...world.app import App, Route, app_strings
from ...world.data import Store, Table
from ...world.kit import (
    BottomNav,
    CalendarState,
    ClockState,
    ConfirmDialog,
    MaterialDatePicker,
    MaterialTimePicker,
    SearchList,
)
from ...world.kit.localize import localize_dates, localize_screen, localize_tree
from ...world.locale import (
    DEFAULT_LOCALE,
    ZH_WEEKDAYS,
    catalogue_datum,
    format_date,
    format_money,
)
from ...world.widgets import (
    Button,
    ListItem,
    Node,
    Screen,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

#: Ride options, cheapest first.
OPTIONS = ("Economy", "Comfort", "XL")
#: Minutes after the request during which cancelling is free.
FREE_CANCEL_MIN = 5
#: The cancellation fee after that, in cents.
CANCEL_FEE = 500
#: Minutes from the request until a driver accepts.
ASSIGN_MIN = 1
TABS = ("Ride", "Activity")
#: The bottom bar's icons (Uber's home and its activity receipt).
TAB_ICONS = ("home", "receipt_long")
STARS = (1, 2, 3, 4, 5)
TIPS = (0, 100, 200, 300, 500)  # cents
RECENT = 5  # recent destinations listed under the saved places
#: How far ahead a ride can be scheduled, in days (Uber Reserve: up to 30 days in most cities).
MAX_DAYS_AHEAD = 30


def usd(cents: int) -> str:
    """``$12.50``."""
    return f"${cents // 100}.{cents % 100:02d}"


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Place:
    """A place riders go: ``saved`` is "Home", "Work" or "" (a searchable place);
    ``km``: how far it is from where the phone is."""

    id: int
    name: str
    address: str
    km: float
    saved: str = ""


@dataclass(frozen=True)
class RideOption:
    """A ride option: price = ``base`` + ``per_km`` times the distance (cents); ``eta``:
    minutes until a driver can be there; unavailable options show "No cars nearby"."""

    id: int
    name: str
    base: int
    per_km: int
    eta: int
    available: bool = True


@dataclass(frozen=True)
class Promo:
    """A promo code: ``percent`` off one ride; an ``expired`` code is refused."""

    code: str
    percent: int
    expired: bool = False


#: The promo codes the service knows (the rider types one in).
PROMOS = (Promo("RIDE20", 20), Promo("SAVE15", 15), Promo("WELCOME10", 10),
          Promo("CITY25", 25), Promo("AUTUMN30", 30, expired=True),
          Promo("WEEKEND5", 5, expired=True), Promo("SPRING40", 40, expired=True),
          Promo("LATE10", 10))


@dataclass(frozen=True)
class Trip:
    """One ride. ``status``: requested, scheduled, completed or cancelled (the live phase of
    a requested ride follows from ``requested`` and the clock: ``phase``). Times are ISO
    ``YYYY-MM-DDTHH:MM:SS``; ``scheduled`` is the pickup time of a scheduled ride."""

    id: int
    destination: str
    option: str
    price: int
    requested: str
    status: str = "requested"
    pickup: str = "Current location"
    scheduled: str = ""
    promo: str = ""
    note: str = ""
    driver: str = ""
    car: str = ""
    fee: int = 0
    rating: int = 0
    tip: int = 0


@dataclass
class RideData(Store):
    """What the app keeps: ``apps.Ride.trips.<id>`` and the rest."""

    places: Table[Place] = field(default_factory=lambda: Table(kind=Place))
    options: Table[RideOption] = field(default_factory=lambda: Table(kind=RideOption))
    trips: Table[Trip] = field(default_factory=lambda: Table(kind=Trip))


@dataclass
class RideUi:
    """Transient state: the tab, the search, the booking in progress and dialogs."""

    tab: str = "Ride"
    query: str = ""
    option: str = ""
    promo_field: str = ""
    promo: str = ""
    promo_error: str = ""
    note: str = ""
    schedule: str = ""  # the scheduled pickup "YYYY-MM-DDTHH:MM", "" for now
    pickup_day: str = ""  # the "Schedule a ride" screen's rows: "YYYY-MM-DD", "HH:MM"
    pickup_time: str = ""
    date_picker: CalendarState | None = None
    time_picker: ClockState | None = None
    cancelling: int | None = None
    stars: int = 0
    tip: int = 0


# --- updates -------------------------------------------------------------------------------
DRIVERS = (("Marco Rossi", "Toyota Prius"), ("Aisha Bello", "Honda Civic"),
           ("Tomasz Nowak", "Skoda Octavia"), ("Lena Fischer", "VW Passat"),
           ("Ravi Menon", "Kia Niro"), ("Sofia Lopez", "Hyundai Ioniq"))

#: The seeded data in zh-CN (``strings/zh-CN.data.json``: places, addresses, drivers, cars).
DATA: dict[str, dict[str, str]] = {"zh-CN": dict(data_catalogue(__file__, "zh-CN"))}


def datum(locale: str, text: str) -> str:
    """The datum ``text`` (a place, an address, a driver, a car) in ``locale``
    (``MissingString`` when the data catalogue lacks it)."""
    return catalogue_datum(DATA, "Ride", "ride", locale, text, kept_localized=True)


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def price_of(option: RideOption, place: Place, percent: int = 0) -> int:
    """The fare in cents, rounded to 10 cents, less ``percent`` off."""
    fare = option.base + round(option.per_km * place.km)
    fare = fare - fare * percent // 100
    return int(round(fare / 10) * 10)


def find_promo(code: str) -> Promo | None:
    c = code.strip().upper()
    return next((p for p in PROMOS if p.code == c), None)


def request_trip(data: RideData, place: Place, option: RideOption, now: datetime, *,
                 promo: str = "", schedule: str = "", note: str = "",
                 locale: str = DEFAULT_LOCALE) -> Trip:
    """Book ``option`` to ``place`` now (or for ``schedule``, ``YYYY-MM-DDTHH:MM``); the
    driver and car in ``locale``'s words."""
    found = find_promo(promo) if promo else None
    percent = found.percent if found and not found.expired else 0
    driver, car = (datum(locale, x) for x in DRIVERS[(len(data.trips) + place.id)
                                                      % len(DRIVERS)])
    scheduled = iso(pickup_at(schedule)) if schedule else ""
    return data.trips.new(destination=place.name, option=option.name,
                          price=price_of(option, place, percent), requested=iso(now),
                          status="scheduled" if scheduled else "requested",
                          scheduled=scheduled, promo=found.code if percent and found else "",
                          note=note.strip(),
                          driver="" if scheduled else driver, car="" if scheduled else car)


def pickup_at(schedule: str) -> datetime:
    """The moment of a scheduled pickup ``YYYY-MM-DDTHH:MM``."""
    try:
        if len(schedule) != 16:
            raise ValueError
        return datetime.fromisoformat(schedule)
    except ValueError:
        raise ValueError(f"a pickup must be YYYY-MM-DDTHH:MM, got {schedule!r}") from None


def schedule_error(moment: datetime, now: datetime) -> str:
    """Why a pickup at ``moment`` cannot be scheduled at ``now`` ("" when it can): it must be
    later than now and at most ``MAX_DAYS_AHEAD`` days ahead."""
    if moment <= now:
        return "Choose a pickup time later than now"
    if moment.date() > now.date() + timedelta(days=MAX_DAYS_AHEAD):
        return f"Rides can be scheduled up to {MAX_DAYS_AHEAD} days ahead"
    return ""


def day_text(day: date, today: date) -> str:
    """A pickup day as Uber writes it: ``Today``, ``Tomorrow`` or ``Tue, Oct 15``."""
    if day == today:
        return "Today"
    if day == today + timedelta(days=1):
        return "Tomorrow"
    return f"{day:%a, %b} {day.day}"


def clock_text(hhmm: str, twelve: bool) -> str:
    """``18:45``, or ``6:45 PM`` on a phone set to the 12-hour clock."""
    hour, minute = (int(x) for x in hhmm.split(":"))
    if not twelve:
        return f"{hour:02d}:{minute:02d}"
    return f"{hour % 12 or 12}:{minute:02d} {'PM' if hour >= 12 else 'AM'}"


def phase(trip: Trip, option_eta: int, now: datetime) -> str:
    """What a requested ride is doing at ``now``: Finding a driver, Driver on the way,
    Driver arriving, On trip, Arrived."""
    minutes = (now - datetime.fromisoformat(trip.requested)).total_seconds() / 60
    if minutes < ASSIGN_MIN:
        return "Finding a driver"
    if minutes < ASSIGN_MIN + max(option_eta - 1, 0):
        return "Driver on the way"
    if minutes < ASSIGN_MIN + option_eta:
        return "Driver arriving"
    if minutes < ASSIGN_MIN + option_eta + 15:
        return "On trip"
    return "Arrived"


def cancel_fee(trip: Trip, now: datetime) -> int:
    """What cancelling ``trip`` at ``now`` costs (scheduled rides cancel free)."""
    if trip.status != "requested":
        return 0
    minutes = (now - datetime.fromisoformat(trip.requested)).total_seconds() / 60
    return CANCEL_FEE if minutes >= FREE_CANCEL_MIN else 0


def cancel_trip(data: RideData, trip_id: int, now: datetime) -> None:
    trip = data.trips.get(trip_id)
    if trip is not None and trip.status in ("requested", "scheduled"):
        data.trips.update(trip_id, status="cancelled", fee=cancel_fee(trip, now))


def rate_trip(data: RideData, trip_id: int, stars: int, tip: int) -> None:
    trip = data.trips.get(trip_id)
    if trip is not None and trip.status == "completed" and stars:
        data.trips.update(trip_id, rating=stars, tip=tip)


def history(data: RideData) -> list[Trip]:
    """Trips newest first."""
    return sorted(data.trips, key=lambda t: (t.requested, t.id), reverse=True)


def when_text(moment: str) -> str:
    """``Oct 15, 09:30``."""
    m = datetime.fromisoformat(moment)
    return f"{m:%b} {m.day}, {m:%H:%M}"


# --- the app -------------------------------------------------------------------------------
class RideApp(App):
    manifest = MANIFEST

    data: RideData
    ui: RideUi

    def initial_data(self) -> RideData:
        return RideData()

    def initial_ui(self) -> RideUi:
        return RideUi()

    @property
    def ticking(self) -> bool:
        return self.route.name == "trip"

    @property
    def now(self) -> datetime:
        return self.system.now

    # navigation
    def set_tab(self, tab: str) -> None:
        self.ui.tab = tab

    def set_query(self, query: str) -> None:
        self.ui.query = query

    def pick_place(self, place_id: int) -> None:
        self.ui.option, self.ui.promo, self.ui.promo_field = "", "", ""
        self.ui.promo_error, self.ui.schedule, self.ui.note = "", "", ""
        self.go("options", place_id)

    def open_trip(self, trip_id: int) -> None:
        self.ui.stars, self.ui.tip = 0, 0
        self.go("trip", trip_id)

    # booking
    def choose(self, name: str) -> None:
        option = self.data.options.first(name=name)
        if option is not None and option.available:
            self.ui.option = name

    def set_promo_field(self, text: str) -> None:
        self.ui.promo_field = text

    def set_note(self, text: str) -> None:
        self.ui.note = text

    def apply_promo(self) -> None:
        promo = find_promo(self.ui.promo_field)
        if promo is None:
            self.ui.promo_error = "This code is not valid"
        elif promo.expired:
            self.ui.promo_error = "This code has expired"
        else:
            self.ui.promo, self.ui.promo_error = promo.code, ""
            self.toast(self.t("{percent}% off applied", percent=promo.percent))

    @property
    def twelve_hour(self) -> bool:
        """Whether the phone is set to the 12-hour clock (Settings › Date & time)."""
        return self.system.get_setting("system", "time_12_24") == "12"

    def open_schedule(self, place_id: int) -> None:
        """Uber's "Schedule a ride" screen, on the scheduled pickup or else the next full
        hour."""
        if self.ui.schedule:
            start = pickup_at(self.ui.schedule)
        else:
            start = (self.now + timedelta(hours=1)).replace(minute=0, second=0, microsecond=0)
        self.ui.pickup_day, self.ui.pickup_time = start.date().isoformat(), f"{start:%H:%M}"
        self.close_pickers()
        self.go("schedule", place_id)

    def open_date_picker(self) -> None:
        self.ui.date_picker = CalendarState.of(self.ui.pickup_day, today=self.now.date())

    def open_time_picker(self) -> None:
        self.ui.time_picker = ClockState.of(self.ui.pickup_time, is24h=not self.twelve_hour)

    def picked_day(self, value: str) -> None:
        self.ui.pickup_day, self.ui.date_picker = value, None

    def picked_time(self, value: str) -> None:
        self.ui.pickup_time, self.ui.time_picker = value, None

    def close_pickers(self) -> None:
        """Cancel, back or a tap outside a picker: the rows keep their values."""
        self.ui.date_picker, self.ui.time_picker = None, None

    def pickup_error(self) -> str:
        return schedule_error(pickup_at(f"{self.ui.pickup_day}T{self.ui.pickup_time}"),
                              self.now)

    def set_pickup(self) -> None:
        """"Set pickup time": the ride is scheduled for the rows' day and time."""
        error = self.pickup_error()
        if error:
            self.toast(self.t(error))
            return
        self.ui.schedule = f"{self.ui.pickup_day}T{self.ui.pickup_time}"
        self.back()

    def pickup_now(self) -> None:
        self.ui.schedule = ""
        self.back()

    def pickup_label(self) -> str:
        """The options screen's pickup: ``Now``, ``today 18:45``, ``Tue, Oct 15 18:45``."""
        if not self.ui.schedule:
            return self.t("Now")
        moment = pickup_at(self.ui.schedule)
        if self.system.locale != DEFAULT_LOCALE:
            return f"{self.day_text(moment.date())} {self.clock(f'{moment:%H:%M}')}"
        day = day_text(moment.date(), self.now.date())
        return (f"{day.lower() if day in ('Today', 'Tomorrow') else day} "
                f"{clock_text(f'{moment:%H:%M}', self.twelve_hour)}")

    # --- the locale's forms (en-US: the module's functions, unchanged) ------------------
    def place_name(self, name: str) -> str:
        """A destination as shown: the saved places (Home, Work) in the locale's words."""
        return self.t(name) if name in ("Home", "Work") else name

    def money(self, cents: int) -> str:
        """A price: "$12.50" / "¥12.50"."""
        return usd(cents) if self.system.locale == DEFAULT_LOCALE else \
            format_money(cents, self.system.locale)

    def day_text(self, day: date) -> str:
        """``day_text`` in the locale: 今天, 明天, 10月17日 周六."""
        if self.system.locale == DEFAULT_LOCALE:
            return day_text(day, self.now.date())
        if day in (self.now.date(), self.now.date() + timedelta(days=1)):
            return self.t(day_text(day, self.now.date()))
        weekday = ZH_WEEKDAYS[day.weekday()].replace("星期", "周")
        return f"{format_date(day, self.system.locale, year=False)} {weekday}"

    def clock(self, hhmm: str) -> str:
        """``clock_text`` in the locale (12-hour zh-CN: 下午6:45)."""
        if self.system.locale == DEFAULT_LOCALE or not self.twelve_hour:
            return clock_text(hhmm, self.twelve_hour)
        hour, minute = (int(x) for x in hhmm.split(":"))
        return f"{'下午' if hour >= 12 else '上午'}{hour % 12 or 12}:{minute:02d}"

    def when(self, moment: str) -> str:
        """``when_text`` in the locale: "Oct 15, 09:30" / "10月15日 09:30"."""
        if self.system.locale == DEFAULT_LOCALE:
            return when_text(moment)
        m = datetime.fromisoformat(moment)
        return f"{format_date(m.date(), self.system.locale, year=False)} {m:%H:%M}"

    def confirm(self, place_id: int) -> None:
        place = self.data.places.get(place_id)
        option = self.data.options.first(name=self.ui.option)
        if place is None or option is None or not option.available:
            return
        trip = request_trip(self.data, place, option, self.now, promo=self.ui.promo,
                            schedule=self.ui.schedule, note=self.ui.note,
                            locale=self.system.locale)
        self.stack = [Route("main")]
        self.ui.query = ""
        if trip.status == "scheduled":
            self.toast(self.t("Ride scheduled for {time}", time=trip.scheduled[11:16]))
            self.ui.tab = "Activity"
        else:
            self.open_trip(trip.id)

    # trips
    def ask_cancel(self, trip_id: int | None) -> None:
        self.ui.cancelling = trip_id

    def do_cancel(self, trip_id: int) -> None:
        cancel_trip(self.data, trip_id, self.now)
        self.ui.cancelling = None
        self.toast(self.t("Ride cancelled"))

    def set_rating(self, stars: int) -> None:
        self.ui.stars = stars

    def set_tip(self, tip: int) -> None:
        self.ui.tip = tip

    def submit_rating(self, trip_id: int) -> None:
        if not self.ui.stars:
            self.toast(self.t("Choose a rating first"))
            return
        rate_trip(self.data, trip_id, self.ui.stars, self.ui.tip)
        self.toast(self.t("Thanks for your feedback"))

    # views
    def view(self, route: Route) -> Screen:
        screen = self.screen_for(route)
        if self.system.locale != DEFAULT_LOCALE:  # the fixed strings, the kit's included
            strings = dict(app_strings(type(self), self.system.locale).strings)
            localize_screen(screen, strings)
            if screen.dock is not None:  # "Set pickup time"
                localize_tree(screen.dock, strings)
            if screen.dialog is not None:  # the kit's date and time pickers
                localize_dates(screen.dialog)
        return screen

    def screen_for(self, route: Route) -> Screen:
        if route.name == "options":
            place = self.data.places.get(route.arg)
            if place is not None:
                return self.options_screen(place)
        if route.name == "schedule" and self.ui.pickup_day:
            return self.schedule_screen()
        if route.name == "trip":
            trip = self.data.trips.get(route.arg)
            if trip is not None:
                return self.trip_screen(trip)
        if self.ui.tab == "Activity":
            return self.activity()
        return self.where_to()

    def places_shown(self) -> list[Place]:
        """Without a query: the saved places, then recent destinations (newest first, up
        to ``RECENT``); with one: the places whose name or address holds it."""
        q = self.ui.query.strip().lower()
        if not q:
            saved = sorted((p for p in self.data.places if p.saved), key=lambda p: p.saved)
            recent: list[Place] = []
            for trip in history(self.data):
                found = self.data.places.first(name=trip.destination)
                if found is not None and not found.saved and found not in recent:
                    recent.append(found)
            return saved + recent[:RECENT]
        return sorted((p for p in self.data.places
                       if q in p.name.lower() or q in p.address.lower()),
                      key=lambda p: p.name)

    def where_to(self) -> Screen:
        shown = self.places_shown()
        active = [t for t in history(self.data) if t.status == "requested"]
        content: list[Node] = []
        if active:
            t = active[0]
            content.append(ListItem(self.t("Current ride to {place}",
                                           place=self.place_name(t.destination)),
                                    self.t(t.option),
                                    id="current_ride", glyph="🚗",
                                    on_click=lambda: self.open_trip(t.id)))

        def row(i: int) -> Node:
            p = shown[i]
            return ListItem(self.t(p.saved) if p.saved else p.name, p.address if p.saved else
                            f"{p.address} · " + self.t("{km} km", km=f"{p.km:g}"),
                            id=f"place_{p.id}",
                            glyph="⌂" if p.saved == "Home" else "▣" if p.saved else "📍",
                            on_click=lambda: self.pick_place(p.id))

        content += SearchList(self.ui.query, self.set_query, len(shown), row, id="places",
                              hint="Where to?", empty_text="No saved places")
        return Screen(top_bar=None, content=content, bottom=self.bottom_nav())

    def options_screen(self, place: Place) -> Screen:
        ui = self.ui
        promo = find_promo(ui.promo) if ui.promo else None
        percent = promo.percent if promo else 0
        rows: list[Node] = [Text(self.t("To {place}", place=place.name), style="title",
                                 id="destination"),
                            Text(self.t("From Current location · {km} km", km=f"{place.km:g}"),
                                 id="route")]
        rows.append(TextField(ui.promo_field, self.set_promo_field, hint="Promo code",
                              id="promo", label="Promo code"))
        if ui.promo_error:
            rows.append(Text(ui.promo_error, style="error", id="promo_error"))
        if ui.promo:
            rows.append(Text(self.t("Promo {code}: {percent}% off", code=ui.promo,
                                    percent=percent), id="promo_applied"))
        rows.append(Button("Apply code", self.apply_promo, id="apply_promo",
                           style="secondary"))
        rows.append(TextField(ui.note, self.set_note, hint="Note for the driver", id="note",
                              label="Note for the driver"))
        for option in sorted(self.data.options, key=lambda o: o.base):
            if option.available:
                full = price_of(option, place)
                now = price_of(option, place, percent)
                price = (self.t("{now} (was {full})", now=self.money(now),
                                full=self.money(full)) if percent else self.money(now))
                sub = f"{price} · " + self.t("{eta} min away", eta=option.eta)
            else:
                sub = "No cars nearby"
            rows.append(ListItem(f"{'● ' if ui.option == option.name else ''}"
                                 f"{self.t(option.name)}",
                                 sub, id=f"option_{option.name.lower()}",
                                 on_click=partial(self.choose, option.name)))
        rows.append(Button(self.t("Pickup: {when}", when=self.pickup_label()),
                           partial(self.open_schedule, place.id), id="schedule",
                           style="secondary"))
        label = (self.t(f"{'Schedule' if ui.schedule else 'Confirm'} {{option}}",
                        option=self.t(ui.option)) if ui.option else self.t("Choose a ride"))
        rows.append(Button(label, lambda: self.confirm(place.id), id="confirm",
                           enabled=bool(ui.option)))
        return Screen(top_bar=TopBar("Choose a ride", on_back=self.back), content=rows)

    def schedule_screen(self) -> Screen:
        """Uber's "Schedule a ride": a date row and a time row (each opens Android's
        Material picker), what scheduling promises, and "Set pickup time" docked below."""
        ui = self.ui
        day = date.fromisoformat(ui.pickup_day)
        date_row = ListItem(self.day_text(day), id="schedule_date",
                            glyph="calendar_today", on_click=self.open_date_picker)
        date_row.desc = (f"Pickup date {day:%A, %B} {day.day}"
                         if self.system.locale == DEFAULT_LOCALE else self.t(
                             "Pickup date {day}",
                             day=format_date(day, self.system.locale, weekday=True)))
        time_row = ListItem(self.clock(ui.pickup_time), id="schedule_time",
                            glyph="schedule", on_click=self.open_time_picker)
        time_row.desc = self.t("Pickup time {time}", time=self.clock(ui.pickup_time))
        rows: list[Node] = [Text("When do you want to be picked up?", style="title",
                                 id="schedule_title"), date_row, time_row]
        error = self.pickup_error()
        if error:
            rows.append(Text(self.t(error), style="error", id="schedule_error"))
        rows += [ListItem(self.t("Book up to {days} days in advance", days=MAX_DAYS_AHEAD),
                          id="schedule_note_days", glyph="event"),
                 ListItem("Cancel at no charge before your pickup", id="schedule_note_cancel",
                          glyph="event_busy"),
                 Button("Pickup now", self.pickup_now, id="pickup_now", style="text")]
        dialog: Node | None = None
        if ui.date_picker is not None:
            dialog = MaterialDatePicker(ui.date_picker, on_done=self.picked_day,
                                        on_cancel=self.close_pickers)
        elif ui.time_picker is not None:
            dialog = MaterialTimePicker(ui.time_picker, on_done=self.picked_time,
                                        on_cancel=self.close_pickers, title="Select pickup time")
        return Screen(top_bar=TopBar("Schedule a ride", on_back=self.back), content=rows,
                      dock=Button("Set pickup time", self.set_pickup, id="set_pickup",
                                  enabled=not error),
                      dialog=dialog, on_dismiss=self.close_pickers)

    def trip_screen(self, trip: Trip) -> Screen:
        ui = self.ui
        option = self.data.options.first(name=trip.option)
        rows: list[Node] = [Text(self.t("To {place}", place=self.place_name(trip.destination)),
                                 style="title", id="destination"),
                            Text(f"{self.t(trip.option)} · {self.money(trip.price)}",
                                 id="fare")]
        live = trip.status == "requested"
        if live:
            now_phase = phase(trip, option.eta if option else 5, self.now)
            rows.append(Text(self.t(now_phase), style="title", id="phase"))
            if now_phase != "Finding a driver":
                rows.append(Text(f"{trip.driver} · {trip.car}", id="driver"))
        else:
            rows.append(Text(self.t(trip.status.capitalize()), id="status"))
            if trip.scheduled:
                rows.append(Text(self.t("Pickup {when}", when=self.when(trip.scheduled)),
                                 id="scheduled"))
            if trip.driver:
                rows.append(Text(self.t("Driver: {driver} · {car}", driver=trip.driver,
                                        car=trip.car), id="driver"))
        rows.append(Text(self.t("Requested {when}", when=self.when(trip.requested)),
                         style="caption", id="requested"))
        if trip.promo:
            rows.append(Text(self.t("Promo {code}", code=trip.promo), style="caption",
                             id="promo_used"))
        if trip.note:
            rows.append(Text(self.t("Note: {note}", note=trip.note), style="caption",
                             id="note_text"))
        if trip.fee:
            rows.append(Text(self.t("Cancellation fee {fee}", fee=self.money(trip.fee)),
                             id="fee"))
        if trip.status in ("requested", "scheduled"):
            rows.append(Button("Cancel ride", lambda: self.ask_cancel(trip.id),
                               id="cancel_ride", style="danger"))
        if trip.status == "completed":
            if trip.rating:
                tip = self.t(", tip {tip}", tip=self.money(trip.tip)) if trip.tip else ""
                rows.append(Text(self.t("You rated {stars} stars", stars=trip.rating) + tip,
                                 id="rated"))
            else:
                rows.append(Text("Rate your driver", style="title", id="rate_title"))
                for s in STARS:
                    rows.append(ListItem(f"{'● ' if ui.stars == s else ''}"
                                         + self.t("{n} stars", n=s),
                                         id=f"stars_{s}",
                                         on_click=partial(self.set_rating, s)))
                for cents in TIPS:
                    rows.append(ListItem(f"{'● ' if ui.tip == cents else ''}"
                                         + (self.t("No tip") if not cents else
                                            self.t("Tip {tip}", tip=self.money(cents))),
                                         id=f"tip_{cents // 100}",
                                         on_click=partial(self.set_tip, cents)))
                rows.append(Button("Submit", lambda: self.submit_rating(trip.id),
                                   id="submit_rating"))
        dialog = None
        if ui.cancelling == trip.id:
            fee = cancel_fee(trip, self.now)
            message = (self.t("Your driver is already on the way: a {fee} cancellation fee "
                              "will be charged.", fee=self.money(fee)) if fee
                       else self.t("You will not be charged."))
            dialog = ConfirmDialog("Cancel this ride?", message,
                                   on_confirm=lambda: self.do_cancel(trip.id),
                                   on_cancel=lambda: self.ask_cancel(None),
                                   confirm="Cancel ride", cancel="Keep ride", destructive=True)
        return Screen(top_bar=TopBar("Your ride" if live else "Trip details",
                                     on_back=self.back),
                      content=rows, dialog=dialog, on_dismiss=lambda: self.ask_cancel(None))

    def activity(self) -> Screen:
        trips = history(self.data)

        def row(i: int) -> Node:
            t = trips[i]
            when = self.when(t.scheduled or t.requested)
            return ListItem(t.destination,
                            f"{when} · {self.money(t.price)} · {self.t(t.status)}",
                            id=f"trip_{t.id}", on_click=lambda: self.open_trip(t.id))

        return Screen(top_bar=TopBar("Activity"),
                      content=[VirtualList(len(trips), row, id="trips",
                                           empty_text="No trips yet")],
                      bottom=self.bottom_nav())

    def bottom_nav(self) -> Node:
        """Uber's bottom bar: the ride request (home) and the trips."""
        return BottomNav(TABS, TAB_ICONS, self.ui.tab, self.set_tab)


__all__ = ["CANCEL_FEE", "OPTIONS", "PROMOS", "Place", "Promo", "RideApp",
           "RideData", "RideOption", "Trip", "usd"]
