"""Travel: hotels, trains and flights, modelled on Trip.com.

Tabs Hotels, Trains, Flights and Bookings. The Trains and Flights tabs search a route
(From, To) on a date (a date row opening Android's ``MaterialDatePicker``, as Trip.com's
calendar sheet is a month grid too); the results can be sorted (lowest price,
earliest, shortest) and filtered (departing in the morning, afternoon or evening); a
journey's page offers its seat classes and the saved travellers, and books after a
confirmation. The Hotels tab searches a city for check-in and check-out dates, with filters
(free cancellation, rating 4+) and sorting (lowest price, top rated). Bookings lists what
was booked: a booking's page cancels it (the refund follows ``refund_for``) and, for a
train, changes it to another train of the same route and day.

State: persistent ``TravelData`` (tables of journeys, hotels, saved travellers and
bookings: ``apps.Travel.bookings.<id>``); transient ``TravelUi`` (the tab, the search forms,
sorting and filters, the choices on a detail page, the open dialog).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import partial

from ...world.app import App, Route, app_strings
from ...world.data import Store, Table
from ...world.kit import (
    BottomNav,
    CalendarState,
    Chips,
    ConfirmDialog,
    MaterialDatePicker,
    Radio,
    SearchList,
    Tabs,
)
from ...world.kit.localize import localize_dates, localize_screen
from ...world.locale import DEFAULT_LOCALE, ZH_WEEKDAYS, format_date, format_money
from ...world.widgets import (
    Button,
    ListItem,
    MenuItem,
    Node,
    Screen,
    Text,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

TABS = ("Hotels", "Trains", "Flights", "Bookings")
#: The home screen's verticals (top tabs, as Trip.com's home grid of products), and the
#: bottom bar: Home (the verticals) and Bookings (Trip.com's Trips), with their icons.
VERTICALS = TABS[:3]
NAV = ("Home", "Bookings")
NAV_ICONS = ("home", "luggage")
#: The cities the city chooser lists (its search filters them).
CITIES = ("Berlin", "Munich", "Hamburg", "Frankfurt", "Cologne", "Vienna", "Zurich", "Prague",
          "Amsterdam", "Paris")
#: Seat classes by kind: the cheaper (``low`` price) first.
CLASSES = {"train": ("Second", "First"), "flight": ("Economy", "Business")}
SORTS = {"journey": ("Lowest price", "Earliest", "Shortest"),
         "hotel": ("Lowest price", "Top rated")}
TIMES = {"Morning": (0, 12), "Afternoon": (12, 18), "Evening": (18, 24)}
HOTEL_FILTERS = ("Free cancellation", "Rating 4+")
#: A train cancelled this many hours or more before it leaves is refunded in full; later,
#: half. Flights refund ``FLIGHT_REFUND`` percent; hotels in full with free cancellation,
#: else nothing.
TRAIN_FULL_REFUND_H = 24
FLIGHT_REFUND = 70


def usd(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def hm(minutes: int) -> str:
    """``3h 05m``."""
    return f"{minutes // 60}h {minutes % 60:02d}m"


def nice_date(iso: str) -> str:
    """``Fri, Oct 16``."""
    d = date.fromisoformat(iso)
    return f"{d:%a, %b} {d.day}"


#: The search form's date rows: (label, the picker's title), by kind and field.
DATE_ROWS = {("hotel", "date"): ("Check-in", "Select check-in date"),
             ("hotel", "end"): ("Check-out", "Select check-out date"),
             ("train", "date"): ("Date", "Select departure date"),
             ("flight", "date"): ("Date", "Select departure date")}


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Journey:
    """A train or a flight on one day: prices in cents for the cheaper and dearer class."""

    id: int
    kind: str
    number: str
    carrier: str
    origin: str
    destination: str
    date: str
    depart: str
    arrive: str
    minutes: int
    low: int
    high: int


@dataclass(frozen=True)
class Hotel:
    id: int
    name: str
    city: str
    rating: float
    price: int  # per night, cents
    free_cancel: bool
    area: str = ""


@dataclass(frozen=True)
class Traveller:
    """A saved traveller (the app fills bookings with them)."""

    id: int
    name: str
    document: str


@dataclass(frozen=True)
class Booking:
    """A booking: ``kind`` train, flight or hotel; ``ref`` the train or flight number or the
    hotel's name; ``date`` the day of travel or check-in, ``end`` the check-out;
    ``status`` booked or cancelled, with the ``refund`` paid back (cents)."""

    id: int
    kind: str
    ref: str
    destination: str
    date: str
    traveller: str
    price: int
    origin: str = ""
    end: str = ""
    depart: str = ""
    seat_class: str = ""
    status: str = "booked"
    refund: int = 0


@dataclass
class TravelData(Store):
    journeys: Table[Journey] = field(default_factory=lambda: Table(kind=Journey))
    hotels: Table[Hotel] = field(default_factory=lambda: Table(kind=Hotel))
    travellers: Table[Traveller] = field(default_factory=lambda: Table(kind=Traveller))
    bookings: Table[Booking] = field(default_factory=lambda: Table(kind=Booking))


@dataclass
class Search:
    """One tab's search form: a route (or a city in ``destination``) and dates."""

    origin: str = ""
    destination: str = ""
    date: str = ""
    end: str = ""


@dataclass
class TravelUi:
    tab: str = "Hotels"
    searches: dict[str, Search] = field(default_factory=lambda: {
        "hotel": Search(), "train": Search(), "flight": Search()})
    picking: str = ""  # "date" or "end" while the date picker is open
    city_query: str = ""
    calendar: CalendarState | None = None  # the date picker while it is open
    sort: str = "Lowest price"
    filters: set[str] = field(default_factory=set)
    seat: str = ""
    traveller: int | None = None
    confirming: bool = False
    cancelling: int | None = None  # the booking whose cancel dialog shows
    changing_to: int | None = None


# --- updates -------------------------------------------------------------------------------
def matches_city(value: str, city: str) -> bool:
    return value.strip().lower() == city.lower()


def find_journeys(data: TravelData, kind: str, search: Search, sort: str,
                  filters: set[str]) -> list[Journey]:
    """The journeys of ``kind`` on the searched route and day, filtered and sorted."""
    found = [j for j in data.journeys if j.kind == kind and j.date == search.date
             and matches_city(search.origin, j.origin)
             and matches_city(search.destination, j.destination)]
    windows = [TIMES[f] for f in filters if f in TIMES]
    if windows:
        found = [j for j in found if any(lo <= int(j.depart[:2]) < hi for lo, hi in windows)]
    key = {"Earliest": lambda j: (j.depart, j.id), "Shortest": lambda j: (j.minutes, j.id)}
    return sorted(found, key=key.get(sort, lambda j: (j.low, j.id)))


def nights(search: Search) -> int:
    try:
        return (date.fromisoformat(search.end) - date.fromisoformat(search.date)).days
    except ValueError:
        return 0


def find_hotels(data: TravelData, search: Search, sort: str, filters: set[str]) -> list[Hotel]:
    found = [h for h in data.hotels if matches_city(search.destination, h.city)]
    if "Free cancellation" in filters:
        found = [h for h in found if h.free_cancel]
    if "Rating 4+" in filters:
        found = [h for h in found if h.rating >= 4.0]
    if sort == "Top rated":
        return sorted(found, key=lambda h: (-h.rating, h.price, h.id))
    return sorted(found, key=lambda h: (h.price, h.id))


def book_journey(data: TravelData, journey: Journey, seat: str, traveller: str) -> Booking:
    low = seat == CLASSES[journey.kind][0]
    return data.bookings.new(kind=journey.kind, ref=journey.number, origin=journey.origin,
                             destination=journey.destination, date=journey.date,
                             depart=journey.depart, seat_class=seat, traveller=traveller,
                             price=journey.low if low else journey.high)


def book_hotel(data: TravelData, hotel: Hotel, check_in: str, check_out: str,
               traveller: str) -> Booking | None:
    n = nights(Search(date=check_in, end=check_out))
    if n <= 0:
        return None
    return data.bookings.new(kind="hotel", ref=hotel.name, destination=hotel.city,
                             date=check_in, end=check_out, traveller=traveller,
                             price=hotel.price * n)


def refund_for(data: TravelData, booking: Booking, now: datetime) -> int:
    """What cancelling ``booking`` at ``now`` pays back."""
    if booking.kind == "hotel":
        hotel = data.hotels.first(name=booking.ref, city=booking.destination)
        return booking.price if hotel is not None and hotel.free_cancel else 0
    if booking.kind == "flight":
        return booking.price * FLIGHT_REFUND // 100
    leaves = datetime.fromisoformat(f"{booking.date}T{booking.depart or '00:00'}")
    hours = (leaves - now).total_seconds() / 3600
    return booking.price if hours >= TRAIN_FULL_REFUND_H else booking.price // 2


def cancel_booking(data: TravelData, booking_id: int, now: datetime) -> None:
    booking = data.bookings.get(booking_id)
    if booking is not None and booking.status == "booked":
        data.bookings.update(booking_id, status="cancelled",
                             refund=refund_for(data, booking, now))


def later_trains(data: TravelData, booking: Booking) -> list[Journey]:
    """Trains of the booking's route and day leaving after it, earliest first."""
    return sorted((j for j in data.journeys if j.kind == "train" and j.date == booking.date
                   and j.origin == booking.origin and j.destination == booking.destination
                   and j.depart > booking.depart), key=lambda j: (j.depart, j.id))


def change_train(data: TravelData, booking_id: int, journey: Journey) -> None:
    booking = data.bookings.get(booking_id)
    if booking is None or booking.status != "booked":
        return
    low = booking.seat_class == CLASSES["train"][0]
    data.bookings.update(booking_id, ref=journey.number, depart=journey.depart,
                         price=journey.low if low else journey.high)


# --- the app -------------------------------------------------------------------------------
KINDS = {"Hotels": "hotel", "Trains": "train", "Flights": "flight"}


class TravelApp(App):
    manifest = MANIFEST

    data: TravelData
    ui: TravelUi

    def initial_data(self) -> TravelData:
        return TravelData()

    def initial_ui(self) -> TravelUi:
        return TravelUi()

    @property
    def today(self) -> str:
        return self.system.now.date().isoformat()

    def search(self, kind: str) -> Search:
        return self.ui.searches[kind]

    # search forms
    def set_tab(self, tab: str) -> None:
        self.ui.tab = tab

    def set_field(self, kind: str, name: str, value: str) -> None:
        setattr(self.search(kind), name, value)

    def open_cities(self, kind: str, which: str) -> None:
        self.ui.city_query = ""
        self.go("city", (kind, which))

    def set_city_query(self, text: str) -> None:
        self.ui.city_query = text

    def choose_city(self, kind: str, which: str, city: str) -> None:
        setattr(self.search(kind), which, city)
        self.back()

    def open_picker(self, kind: str, which: str) -> None:
        """A date row: Android's date picker on the row's day (today when it has none; a
        check-out without one starts the day after check-in)."""
        if (kind, which) not in DATE_ROWS:
            raise ValueError(f"a date row is one of {sorted(DATE_ROWS)}, got {(kind, which)!r}")
        s = self.search(kind)
        value = getattr(s, which)
        if not value and which == "end" and s.date:
            value = (date.fromisoformat(s.date) + timedelta(days=1)).isoformat()
        today = self.system.now.date()
        self.ui.picking = which
        self.ui.calendar = CalendarState.of(value or self.today, today=today)

    def picked(self, kind: str, value: str) -> None:
        """The picker's OK: the row takes the day (a day before today is refused)."""
        if value < self.today:
            self.toast(self.t("Choose a date from today on"))
        else:
            setattr(self.search(kind), self.ui.picking, value)
        self.close_picker()

    def close_picker(self) -> None:
        """Cancel, back or a tap outside: the row keeps its day."""
        self.ui.picking, self.ui.calendar = "", None

    def date_row(self, kind: str, which: str) -> Node:
        """A search form's date row (Trip.com's calendar row): the day, its label, a
        calendar icon; a check-out row counts the nights."""
        s = self.search(kind)
        label = self.t(DATE_ROWS[kind, which][0])
        value = getattr(s, which) or (self.today if which == "date" else "")
        if which == "end" and nights(s) > 0:
            label += " · " + self.t(f"{{n}} night{'s' if nights(s) > 1 else ''}", n=nights(s))
        row = ListItem(self.date(value) if value else self.t("Choose a date"), label,
                       id="pick_date" if which == "date" else "pick_end",
                       glyph="calendar_today", on_click=partial(self.open_picker, kind, which))
        if value:
            d = date.fromisoformat(value)
            row.desc = (f"{DATE_ROWS[kind, which][0]} {d:%A, %B} {d.day}"
                        if self.system.locale == DEFAULT_LOCALE else
                        f"{label} {format_date(d, self.system.locale, weekday=True)}")
        return row

    def run_search(self, kind: str) -> None:
        s = self.search(kind)
        s.date = s.date or self.today
        if not s.destination.strip() or (kind != "hotel" and not s.origin.strip()):
            self.toast(self.t("Enter where you are going"))
            return
        if not s.date or (kind == "hotel" and nights(s) <= 0):
            self.toast(self.t("Choose your dates"))
            return
        self.ui.sort, self.ui.filters = "Lowest price", set()
        self.go("results", kind)

    def set_sort(self, sort: str) -> None:
        self.ui.sort = sort

    def toggle_filter(self, name: str) -> None:
        self.ui.filters ^= {name}

    # detail pages and booking
    def open_item(self, kind: str, item_id: int) -> None:
        self.ui.seat, self.ui.traveller, self.ui.confirming = "", None, False
        self.go(kind, item_id)

    def set_seat(self, seat: str) -> None:
        self.ui.seat = seat

    def set_traveller(self, traveller_id: int) -> None:
        self.ui.traveller = traveller_id

    def ask_confirm(self, on: bool) -> None:
        self.ui.confirming = on

    def confirm_booking(self) -> None:
        kind, item_id = self.route.name, self.route.arg
        traveller = self.data.travellers.get(self.ui.traveller)
        self.ui.confirming = False
        if traveller is None:
            return
        booking: Booking | None = None
        if kind == "hotel":
            hotel = self.data.hotels.get(item_id)
            s = self.search("hotel")
            if hotel is not None:
                booking = book_hotel(self.data, hotel, s.date, s.end, traveller.name)
        else:
            journey = self.data.journeys.get(item_id)
            if journey is not None and self.ui.seat in CLASSES[journey.kind]:
                booking = book_journey(self.data, journey, self.ui.seat, traveller.name)
        if booking is not None:
            self.toast(self.t("Booking confirmed"))
            self.stack = [Route("main")]
            self.ui.tab = "Bookings"

    def open_booking(self, booking_id: int) -> None:
        self.ui.cancelling, self.ui.changing_to = None, None
        self.go("booking", booking_id)

    def ask_cancel(self, booking_id: int | None) -> None:
        self.ui.cancelling = booking_id

    def do_cancel(self, booking_id: int) -> None:
        cancel_booking(self.data, booking_id, self.system.now)
        self.ui.cancelling = None
        self.toast(self.t("Booking cancelled"))

    def ask_change(self, journey_id: int | None) -> None:
        self.ui.changing_to = journey_id

    def do_change(self, booking_id: int, journey_id: int) -> None:
        journey = self.data.journeys.get(journey_id)
        if journey is not None:
            change_train(self.data, booking_id, journey)
            self.toast(self.t("Booking changed"))
        self.ui.changing_to = None
        self.back()

    # views
    def view(self, route: Route) -> Screen:
        screen = self.screen_for(route)
        if self.system.locale != DEFAULT_LOCALE:  # the fixed strings, the kit's included
            localize_screen(screen, dict(app_strings(type(self), self.system.locale).strings))
            if screen.dialog is not None:  # the kit's date and time pickers
                localize_dates(screen.dialog)
        return screen

    def screen_for(self, route: Route) -> Screen:
        if route.name == "city":
            return self.city_screen(*route.arg)
        if route.name == "results" and route.arg in CLASSES:
            return self.journey_results(route.arg)
        if route.name == "results":
            return self.hotel_results()
        if route.name in CLASSES:
            journey = self.data.journeys.get(route.arg)
            if journey is not None:
                return self.journey_page(journey)
        if route.name == "hotel":
            hotel = self.data.hotels.get(route.arg)
            if hotel is not None:
                return self.hotel_page(hotel)
        if route.name in ("booking", "change"):
            booking = self.data.bookings.get(route.arg)
            if booking is not None:
                return self.booking_page(booking) if route.name == "booking" \
                    else self.change_page(booking)
        return self.home()

    # --- the locale's forms (en-US: the module's functions, unchanged) ------------------
    def money(self, cents: int) -> str:
        """A price: "$12.50" / "¥12.50"."""
        return usd(cents) if self.system.locale == DEFAULT_LOCALE else \
            format_money(cents, self.system.locale)

    def hm(self, minutes: int) -> str:
        """A journey's length: "3h 05m" / "3小时05分"."""
        if self.system.locale == DEFAULT_LOCALE:
            return hm(minutes)
        return f"{minutes // 60}小时{minutes % 60:02d}分"

    def date(self, iso: str) -> str:
        """A day: "Fri, Oct 16" / "10月16日 周五"."""
        if self.system.locale == DEFAULT_LOCALE:
            return nice_date(iso)
        d = date.fromisoformat(iso)
        weekday = ZH_WEEKDAYS[d.weekday()].replace("星期", "周")
        return f"{format_date(d, self.system.locale, year=False)} {weekday}"

    def city(self, name: str) -> str:
        """A city as shown: the cities the app lists in the locale's words."""
        return self.t(name) if name in CITIES else name

    def home(self) -> Screen:
        tab = self.ui.tab
        content: list[Node] = [] if tab == "Bookings" else [Tabs(VERTICALS, tab, self.set_tab)]
        dialog = None
        if tab == "Bookings":
            content.append(self.booking_list())
        else:
            kind = KINDS[tab]
            s = self.search(kind)
            if kind == "hotel":
                content.append(ListItem(self.city(s.destination) or self.t("Choose a city"),
                                        self.t("City"),
                                        id="city", glyph="location_on",
                                        on_click=partial(self.open_cities, kind,
                                                         "destination")))
            else:
                content += [ListItem(self.city(s.origin) or self.t("Choose a city"),
                                     self.t("From"), id="origin",
                                     glyph="trip_origin",
                                     on_click=partial(self.open_cities, kind, "origin")),
                            ListItem(self.city(s.destination) or self.t("Choose a city"),
                                     self.t("To"),
                                     id="destination", glyph="location_on",
                                     on_click=partial(self.open_cities, kind, "destination"))]
            content.append(self.date_row(kind, "date"))
            if kind == "hotel":
                content.append(self.date_row(kind, "end"))
            content.append(Button("Search", partial(self.run_search, kind), id="search"))
            content += self.upcoming()
            if self.ui.picking and self.ui.calendar is not None:
                dialog = MaterialDatePicker(self.ui.calendar,
                                            on_done=partial(self.picked, kind),
                                            on_cancel=self.close_picker,
                                            title=DATE_ROWS[kind, self.ui.picking][1])
        shown = self.data.bookings.get(self.ui.cancelling)
        if dialog is None and shown is not None:
            dialog = self.cancel_dialog(shown)
        nav = BottomNav(NAV, NAV_ICONS, "Bookings" if tab == "Bookings" else "Home",
                        lambda t: self.set_tab("Bookings" if t == "Bookings" else "Hotels"))
        return Screen(top_bar=None, content=content, bottom=nav, dialog=dialog,
                      on_dismiss=self.close_dialogs)

    def close_dialogs(self) -> None:
        self.close_picker()
        self.ui.cancelling = None

    def city_screen(self, kind: str, which: str) -> Screen:
        q = self.ui.city_query.strip().lower()
        shown = [c for c in CITIES if q in c.lower() or q in self.city(c).lower()]

        def row(i: int) -> Node:
            return ListItem(self.city(shown[i]), id=f"city_{shown[i].lower()}",
                            on_click=partial(self.choose_city, kind, which, shown[i]))

        title = {"origin": "From", "destination": "To"}[which] if kind != "hotel" else "City"
        return Screen(top_bar=TopBar(title, on_back=self.back),
                      content=SearchList(self.ui.city_query, self.set_city_query, len(shown),
                                         row, id="cities", hint="Search cities",
                                         row_height=150))

    def upcoming(self) -> list[Node]:
        """The next few booked trips, as the home screen reminds of them."""
        soon = sorted((b for b in self.data.bookings if b.status == "booked"
                       and b.date >= self.today), key=lambda b: (b.date, b.depart, b.id))[:5]
        if not soon:
            return []
        return [Text("Upcoming trips", style="title", id="upcoming_title"),
                *(ListItem(f"{b.ref} · {self.city(b.destination)}", self.date(b.date),
                           id=f"upcoming_{b.id}", on_click=partial(self.open_booking, b.id),
                           menu=self.booking_menu(b))
                  for b in soon)]

    def booking_menu(self, b: Booking) -> list[MenuItem]:
        return [(self.t("View booking"), partial(self.open_booking, b.id)),
                (self.t("Cancel booking"), partial(self.ask_cancel, b.id))]

    def booking_list(self) -> Node:
        rows = sorted(self.data.bookings, key=lambda b: (b.date, b.id))

        def row(i: int) -> Node:
            b = rows[i]
            what = (f"{b.ref} · {self.city(b.origin)} → {self.city(b.destination)}"
                    if b.kind != "hotel" else f"{b.ref}, {self.city(b.destination)}")
            when = self.date(b.date) + (f" {b.depart}" if b.depart else
                                        f" – {self.date(b.end)}" if b.end else "")
            return ListItem(what, f"{when} · {b.traveller} · {self.t(b.status)}",
                            id=f"booking_{b.id}",
                            glyph=b.kind,
                            on_click=partial(self.open_booking, b.id),
                            menu=self.booking_menu(b) if b.status == "booked" else None)

        return VirtualList(len(rows), row, id="bookings", empty_text="No bookings yet")

    def journey_results(self, kind: str) -> Screen:
        s = self.search(kind)
        found = find_journeys(self.data, kind, s, self.ui.sort, self.ui.filters)
        cheap, dear = CLASSES[kind]

        def row(i: int) -> Node:
            j = found[i]
            return ListItem(f"{j.number} · {j.depart} → {j.arrive}",
                            f"{self.hm(j.minutes)} · {self.t(cheap)} {self.money(j.low)} · "
                            f"{self.t(dear)} {self.money(j.high)}",
                            id=f"journey_{j.id}", on_click=partial(self.open_item, kind, j.id))

        title = (f"{self.city(s.origin.strip().title())} → "
                 f"{self.city(s.destination.strip().title())}")
        return Screen(top_bar=TopBar(title, on_back=self.back), content=[
            Text(self.date(s.date), id="results_date"),
            Chips(SORTS["journey"], {self.ui.sort}, self.set_sort, id="sorts"),
            Chips(tuple(TIMES), self.ui.filters, self.toggle_filter, id="filters"),
            VirtualList(len(found), row, id="results", empty_text="No journeys found")])

    def hotel_results(self) -> Screen:
        s = self.search("hotel")
        found = find_hotels(self.data, s, self.ui.sort, self.ui.filters)

        def row(i: int) -> Node:
            h = found[i]
            policy = self.t("Free cancellation" if h.free_cancel else "Non-refundable")
            return ListItem(f"{h.name} · ★{h.rating:.1f}",
                            self.t("{price}/night", price=self.money(h.price)) + f" · {policy}",
                            id=f"hotel_{h.id}", on_click=partial(self.open_item, "hotel", h.id))

        return Screen(top_bar=TopBar(self.t("Hotels in {city}",
                                            city=self.city(s.destination.strip().title())),
                                     on_back=self.back), content=[
            Text(f"{self.date(s.date)} – {self.date(s.end)} · "
                 + self.t("{n} nights", n=nights(s)),
                 id="results_date"),
            Chips(SORTS["hotel"], {self.ui.sort}, self.set_sort, id="sorts"),
            Chips(HOTEL_FILTERS, self.ui.filters, self.toggle_filter, id="filters"),
            VirtualList(len(found), row, id="results", empty_text="No hotels found")])

    def traveller_rows(self) -> list[Node]:
        rows: list[Node] = [Text("Traveller", style="title", id="traveller_title")]
        for t in self.data.travellers:
            rows.append(Radio(f"{t.name} · {t.document}", self.ui.traveller == t.id,
                              partial(self.set_traveller, t.id), id=f"traveller_{t.id}"))
        return rows

    def confirm_dialog(self, price: int) -> Node | None:
        if not self.ui.confirming:
            return None
        traveller = self.data.travellers.get(self.ui.traveller)
        who = traveller.name if traveller else ""
        return ConfirmDialog("Confirm booking", self.t("Pay {price} for {who}?",
                                                       price=self.money(price), who=who),
                             on_confirm=self.confirm_booking,
                             on_cancel=partial(self.ask_confirm, False), confirm="Pay")

    def journey_page(self, j: Journey) -> Screen:
        ui = self.ui
        rows: list[Node] = [
            Text(f"{j.carrier} {j.number}", style="title", id="number"),
            Text(f"{self.city(j.origin)} {j.depart} → {self.city(j.destination)} {j.arrive}",
                 id="times"),
            Text(f"{self.date(j.date)} · {self.hm(j.minutes)}", id="duration"),
            Text("Class", style="title", id="class_title")]
        for seat, price in zip(CLASSES[j.kind], (j.low, j.high), strict=True):
            rows.append(Radio(f"{self.t(seat)} · {self.money(price)}", ui.seat == seat,
                              partial(self.set_seat, seat), id=f"class_{seat.lower()}"))
        rows += self.traveller_rows()
        price = j.low if ui.seat == CLASSES[j.kind][0] else j.high
        ready = bool(ui.seat) and ui.traveller is not None
        rows.append(Button(self.t("Book · {price}", price=self.money(price)) if ui.seat
                           else self.t("Choose a class"),
                           partial(self.ask_confirm, True), id="book", enabled=ready))
        return Screen(top_bar=TopBar("Train" if j.kind == "train" else "Flight",
                                     on_back=self.back),
                      content=rows, dialog=self.confirm_dialog(price),
                      on_dismiss=partial(self.ask_confirm, False))

    def hotel_page(self, h: Hotel) -> Screen:
        s = self.search("hotel")
        n = nights(s)
        rows: list[Node] = [
            Text(h.name, style="title", id="name"),
            Text(f"★{h.rating:.1f} · {h.area}{self.t(', ')}{self.city(h.city)}", id="rating"),
            Text(self.t("{price} per night", price=self.money(h.price)) + " · "
                 + self.t("Free cancellation" if h.free_cancel else "Non-refundable"),
                 id="policy"),
            Text(f"{self.date(s.date)} – {self.date(s.end)} · "
                 + self.t("{n} nights · total {price}", n=n, price=self.money(h.price * n)),
                 id="stay")]
        rows += self.traveller_rows()
        rows.append(Button(self.t("Book · {price}", price=self.money(h.price * n)),
                           partial(self.ask_confirm, True),
                           id="book", enabled=self.ui.traveller is not None and n > 0))
        return Screen(top_bar=TopBar("Hotel", on_back=self.back), content=rows,
                      dialog=self.confirm_dialog(h.price * n),
                      on_dismiss=partial(self.ask_confirm, False))

    def booking_page(self, b: Booking) -> Screen:
        ui = self.ui
        rows: list[Node] = [Text(b.ref, style="title", id="ref")]
        if b.kind == "hotel":
            rows.append(Text(f"{self.city(b.destination)} · {self.date(b.date)} – "
                             f"{self.date(b.end)}",
                             id="when"))
        else:
            rows += [Text(f"{self.city(b.origin)} → {self.city(b.destination)}", id="route"),
                     Text(f"{self.date(b.date)} · " + self.t(
                         "departs {time} · {seat} class", time=b.depart,
                         seat=self.t(b.seat_class)), id="when")]
        rows += [Text(self.t("Traveller: {name}", name=b.traveller), id="traveller"),
                 Text(self.t("Paid {price}", price=self.money(b.price)), id="paid"),
                 Text(self.t("Status: {status}", status=self.t(b.status)), id="status")]
        if b.status == "cancelled":
            rows.append(Text(self.t("Refunded {price}", price=self.money(b.refund)),
                             id="refunded"))
        else:
            if b.kind == "train":
                rows.append(Button("Change train", lambda: self.go("change", b.id),
                                   id="change", style="secondary"))
            rows.append(Button(self.t("Cancel booking"), partial(self.ask_cancel, b.id),
                               id="cancel", style="danger"))
        dialog = None
        if ui.cancelling == b.id:
            dialog = self.cancel_dialog(b)
        return Screen(top_bar=TopBar("Booking", on_back=self.back), content=rows,
                      dialog=dialog, on_dismiss=partial(self.ask_cancel, None))

    def cancel_dialog(self, b: Booking) -> Node | None:
        """The confirmation before cancelling ``b``, with its refund."""
        if b.status != "booked":
            return None
        refund = refund_for(self.data, b, self.system.now)
        return ConfirmDialog("Cancel this booking?",
                             self.t("You will get {refund} of {price} back.",
                                    refund=self.money(refund), price=self.money(b.price)),
                             on_confirm=partial(self.do_cancel, b.id),
                             on_cancel=partial(self.ask_cancel, None),
                             confirm="Cancel booking", cancel="Keep", destructive=True)

    def change_page(self, b: Booking) -> Screen:
        later = later_trains(self.data, b)
        low = b.seat_class == CLASSES["train"][0]

        def row(i: int) -> Node:
            j = later[i]
            return ListItem(f"{j.number} · {j.depart} → {j.arrive}",
                            f"{self.t(b.seat_class)} {self.money(j.low if low else j.high)}",
                            id=f"journey_{j.id}", on_click=partial(self.ask_change, j.id))

        dialog = None
        target = self.data.journeys.get(self.ui.changing_to)
        if target is not None:
            dialog = ConfirmDialog("Change train?", self.t("Switch to {train} at {time}?",
                                                           train=target.number,
                                                           time=target.depart),
                                   on_confirm=partial(self.do_change, b.id, target.id),
                                   on_cancel=partial(self.ask_change, None), confirm="Change")
        return Screen(top_bar=TopBar("Later trains", on_back=self.back),
                      content=[Text(f"{self.city(b.origin)} → {self.city(b.destination)} · "
                                    f"{self.date(b.date)}",
                                    id="change_route"),
                               VirtualList(len(later), row, id="later",
                                           empty_text="No later trains that day")],
                      dialog=dialog, on_dismiss=partial(self.ask_change, None))
