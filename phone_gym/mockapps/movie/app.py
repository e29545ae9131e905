"""Movie Tickets: a mini-program inside Chat (WeChat).

"Movies" lists the films now showing (searchable); a film's page lists its showtimes across
the cinemas for one day, which can be filtered (format, distance) and sorted (earliest, lowest
price, nearest, top-rated cinema). "Cinemas" lists the cinemas with their amenities (IMAX,
Dolby) and a cinema's page its showtimes. Picking a showtime opens the seat map (rows A.., taken
seats marked, the back row of couple seats sold in pairs); the order page adds a snack combo and
a coupon and pays through the host's wallet (``kit.PaySheet``, the WeChat Pay PIN). "My
Tickets" lists upcoming and past tickets with their code and hall; a ticket can be refunded or
changed once to another showtime of the same price, up to one hour before it starts. A ticket
just bought takes a moment to be issued (its page shows it loading; ``wait``).

The first visit asks for the phone's location (distances need it); the capsule's Settings asks
again. Films, cinemas, shows, coupons and tickets are the mini-program's own ``Store``
(``apps.Movie.*``): verifiers check the resulting ticket against a task's constraints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ...world.app import App, Route, app_strings
from ...world.data import Store, Table
from ...world.kit import (
    Chips,
    ChoiceDialog,
    ConfirmDialog,
    PaySheet,
    PayState,
    SearchList,
    Tabs,
    pay,
    with_capsule,
    yuan,
)
from ...world.kit.localize import in_locale, localize_tree
from ...world.locale import DEFAULT_LOCALE, format_date
from ...world.widgets import (
    Button,
    Dialog,
    DialogButton,
    Icon,
    ListItem,
    Node,
    Row,
    Screen,
    Text,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

SECTIONS = ("Movies", "Cinemas", "My Tickets")
SORTS = ("Earliest", "Lowest price", "Nearest", "Top rated")
FORMATS = ("2D", "3D", "IMAX")
DISTANCES = {"Within 3 km": 3000, "Within 5 km": 5000}
SNACKS = {"No snacks": 0, "Popcorn & Cola": 3500, "Nachos combo": 4200, "Couple combo": 5900}
NO_COUPON = "No coupon"
ROWS = "ABCDEFGH"
#: Refunds and changes close this long before the showtime.
CUTOFF = timedelta(hours=1)
#: How long the cinema takes to issue a ticket just bought.
ISSUING = timedelta(seconds=45)


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Film:
    """A film now showing: ``minutes`` long, ``rating`` in tenths (86 is 8.6)."""

    id: int
    title: str
    genre: str
    minutes: int
    rating: int
    age: str = "PG"


@dataclass(frozen=True)
class Cinema:
    """A cinema ``distance`` meters away, ``rating`` in tenths (46 is 4.6)."""

    id: int
    name: str
    district: str
    distance: int
    rating: int
    amenities: tuple[str, ...] = ()


@dataclass(frozen=True)
class Show:
    """One showtime: ``day`` an ISO day, ``time`` HH:MM, ``price`` per seat in cents, a hall of
    ``rows`` x ``cols`` seats of which ``taken`` (labels like "E7") are sold; the back row is
    couple seats when ``couple``."""

    id: int
    film: int
    cinema: int
    day: str
    time: str
    format: str
    language: str
    hall: int
    price: int
    rows: int = 7
    cols: int = 10
    taken: tuple[str, ...] = ()
    couple: bool = True


@dataclass(frozen=True)
class Coupon:
    """``off`` cents off an order of at least ``min_total`` cents; used once."""

    id: int
    name: str
    off: int
    min_total: int = 0
    used: bool = False


@dataclass(frozen=True)
class Ticket:
    """A bought ticket: the show's facts copied at purchase, ``seats`` labels in order,
    ``total`` in cents; ``status`` paid or refunded; ``changed`` once changed to another show."""

    id: int
    show: int
    film: int
    film_title: str
    cinema: int
    cinema_name: str
    day: str
    time: str
    hall: int
    seats: tuple[str, ...]
    snack: str
    coupon: str
    total: int
    code: str
    status: str = "paid"
    changed: bool = False
    #: When the cinema confirms a new ticket (ISO date-time; "": at once): until then its page
    #: shows it being issued, without the code.
    issued_at: str = ""


@dataclass
class MovieData(Store):
    films: Table[Film] = field(default_factory=lambda: Table(kind=Film))
    cinemas: Table[Cinema] = field(default_factory=lambda: Table(kind=Cinema))
    shows: Table[Show] = field(default_factory=lambda: Table(kind=Show))
    coupons: Table[Coupon] = field(default_factory=lambda: Table(kind=Coupon))
    tickets: Table[Ticket] = field(default_factory=lambda: Table(kind=Ticket))
    #: The location permission: "" (not asked yet), "allowed" or "denied".
    location: str = ""


@dataclass
class MovieUi:
    """Transient state: the section, search, the day/filters/sort of the showtimes, the seats
    picked, the order's add-ons, the dialogs."""

    section: str = "Movies"
    query: str = ""
    day: str = ""
    formats: tuple[str, ...] = ()
    within: str = ""
    sort: str = "Earliest"
    seats: tuple[str, ...] = ()
    snack: str = "No snacks"
    coupon: str = NO_COUPON
    dialog: str = ""
    changing: int | None = None
    ticket_tab: str = "Upcoming"
    paying: PayState | None = None


# --- pure helpers ---------------------------------------------------------------------------
def stars(rating: int) -> str:
    return f"{rating // 10}.{rating % 10}"


def km(meters: int) -> str:
    return f"{meters / 1000:.1f} km"


def starts(show: Show | Ticket) -> datetime:
    return datetime.fromisoformat(f"{show.day}T{show.time}")


def seat_label(row: int, col: int) -> str:
    """``(4, 7)`` -> ``"E7"`` (rows from 0, columns from 1)."""
    return f"{ROWS[row]}{col}"


def couple_pair(show: Show, label: str) -> tuple[str, ...]:
    """The seats sold with ``label``: its couple pair on the back row, else itself."""
    row, col = label[0], int(label[1:])
    if not show.couple or row != ROWS[show.rows - 1]:
        return (label,)
    first = col if col % 2 else col - 1
    return (f"{row}{first}", f"{row}{first + 1}")


def seat_order(label: str) -> tuple[str, int]:
    return label[0], int(label[1:])


def days_of(data: MovieData, film: int) -> list[str]:
    """The days a film shows, in order."""
    return sorted({s.day for s in data.shows if s.film == film})


def showtimes(data: MovieData, ui: MovieUi, film: int) -> list[Show]:
    """The film's shows on the chosen day passing the filters, in the chosen order."""
    shown = [s for s in data.shows if s.film == film and s.day == ui.day]
    cinemas = {c.id: c for c in data.cinemas}
    if ui.formats:
        shown = [s for s in shown if s.format in ui.formats]
    if ui.within in DISTANCES and data.location == "allowed":
        shown = [s for s in shown if s.cinema in cinemas
                 and cinemas[s.cinema].distance <= DISTANCES[ui.within]]
    far = 10**9

    def cinema_of(s: Show) -> Cinema | None:
        return cinemas.get(s.cinema)

    keys: dict[str, Any] = {
        "Lowest price": lambda s: (s.price, s.time, s.id),
        "Nearest": lambda s: ((c.distance if (c := cinema_of(s)) and data.location == "allowed"
                               else far), s.time, s.id),
        "Top rated": lambda s: (-(c.rating if (c := cinema_of(s)) else 0), s.time, s.id),
    }
    return sorted(shown, key=keys.get(ui.sort, lambda s: (s.time, s.id)))


def order_total(show: Show, seats: int, snack: str, coupon: Coupon | None) -> int:
    """Seats plus the snack, less the coupon when the order reaches its minimum."""
    total = show.price * seats + SNACKS.get(snack, 0)
    if coupon is not None and not coupon.used and total >= coupon.min_total:
        total -= coupon.off
    return max(total, 0)


def ticket_code(ticket_id: int, show_id: int, hall: int) -> str:
    """A ticket's 8-digit pickup code (a stable function of the ticket and its show)."""
    mixed = ticket_id * 7_919_113 + show_id * 104_729 + hall * 31
    return str(mixed % 90_000_000 + 10_000_000)


# --- the app -------------------------------------------------------------------------------
class MovieApp(App):
    manifest = MANIFEST

    data: MovieData
    ui: MovieUi

    def initial_data(self) -> MovieData:
        return MovieData()

    def initial_ui(self) -> MovieUi:
        return MovieUi()

    def toast(self, text: str) -> None:
        """A toast; the kit's own (the capsule menu's "Link copied") in the locale's words."""
        super().toast(self.word(text))

    def word(self, text: str) -> str:
        """A fixed word (a status, a snack, a sort) in the locale's words; data not in the
        catalogue (a film's title) as it is."""
        if self.system.locale == DEFAULT_LOCALE:
            return text
        return app_strings(type(self), self.system.locale).strings.get(text, text)

    def day(self, iso: str) -> str:
        """An ISO day as the locale writes it: "2026-10-17" in en-US, "10月17日" in zh-CN."""
        if self.system.locale == DEFAULT_LOCALE or not iso:
            return iso
        return format_date(datetime.fromisoformat(iso).date(), self.system.locale, year=False)

    def km(self, meters: int) -> str:
        """A distance: "1.2 km" / "1.2公里"."""
        return self.t("{value} km", value=f"{meters / 1000:.1f}")

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    # --- updates ---------------------------------------------------------------------------
    def decide_location(self, allow: bool) -> None:
        self.data.location = "allowed" if allow else "denied"
        self.ui.dialog = ""

    def open_film(self, film_id: int) -> None:
        days = days_of(self.data, film_id)
        if self.ui.day not in days:
            self.ui.day = days[0] if days else ""
        self.go("film", film_id)

    def toggle_format(self, label: str) -> None:
        self.ui.formats = tuple(f for f in self.ui.formats if f != label) \
            if label in self.ui.formats else (*self.ui.formats, label)

    def toggle_within(self, label: str) -> None:
        if self.data.location != "allowed":
            self.ui.dialog = "location"
            return
        self.ui.within = "" if self.ui.within == label else label

    def set_sort(self, label: str) -> None:
        if label == "Nearest" and self.data.location != "allowed":
            self.ui.dialog = "location"
            return
        self.ui.sort = label

    def open_show(self, show_id: int) -> None:
        self.ui.seats, self.ui.snack, self.ui.coupon, self.ui.paying = (), "No snacks", \
            NO_COUPON, None
        self.go("seats", show_id)

    def toggle_seat(self, show_id: int, label: str) -> None:
        show = self.data.shows.get(show_id)
        if show is None:
            return
        pair = couple_pair(show, label)
        if any(s in show.taken for s in pair):
            self.toast("This seat is taken")
            return
        if label in self.ui.seats:
            self.ui.seats = tuple(s for s in self.ui.seats if s not in pair)
            return
        if len(self.ui.seats) + len(pair) > 6:
            self.toast("At most 6 seats per order")
            return
        self.ui.seats = tuple(sorted((*self.ui.seats, *pair), key=seat_order))

    def confirm_seats(self, show_id: int) -> None:
        if not self.ui.seats:
            self.toast("Pick your seats")
            return
        if self.ui.changing is not None:
            self.ui.dialog = "change"
            return
        self.go("order", show_id)

    def coupon_named(self, name: str) -> Coupon | None:
        return next((c for c in self.data.coupons if c.name == name and not c.used), None)

    def usable_coupons(self, show: Show) -> list[str]:
        base = show.price * len(self.ui.seats) + SNACKS.get(self.ui.snack, 0)
        return [c.name for c in self.data.coupons if not c.used and base >= c.min_total]

    def pick_coupon(self, name: str) -> None:
        self.ui.coupon, self.ui.dialog = name, ""

    def pick_snack(self, name: str) -> None:
        self.ui.snack, self.ui.dialog = name, ""

    def current_total(self, show: Show) -> int:
        coupon = self.coupon_named(self.ui.coupon)
        return order_total(show, len(self.ui.seats), self.ui.snack, coupon)

    def ask_pay(self, show_id: int) -> None:
        show = self.data.shows.get(show_id)
        if show is None or not self.ui.seats:
            return
        if self.ui.coupon != NO_COUPON and self.ui.coupon not in self.usable_coupons(show):
            self.ui.coupon = NO_COUPON
        film = self.data.films.get(show.film)
        self.ui.paying = PayState(self.current_total(show), self.t("Movie Tickets"),
                                  f"{film.title if film else self.t('Film')} "
                                  f"{self.day(show.day)} {show.time}")

    def set_pin(self, pin: str) -> None:
        if self.ui.paying is not None:
            self.ui.paying.pin = pin

    def confirm_pay(self, show_id: int) -> None:
        show, state = self.data.shows.get(show_id), self.ui.paying
        if show is None or state is None or pay(self.system, state) is not None:
            return
        film = self.data.films.get(show.film)
        cinema = self.data.cinemas.get(show.cinema)
        coupon = self.coupon_named(self.ui.coupon)
        if coupon is not None:
            self.data.coupons.update(coupon.id, used=True)
        ticket = self.data.tickets.new(
            show=show.id, film=show.film, film_title=film.title if film else "",
            cinema=show.cinema, cinema_name=cinema.name if cinema else "", day=show.day,
            time=show.time, hall=show.hall, seats=self.ui.seats, snack=self.ui.snack,
            coupon=coupon.name if coupon else "", total=state.amount, code="", status="paid",
            issued_at=(self.system.now + ISSUING).isoformat(timespec="seconds"))
        self.data.tickets.update(ticket.id, code=ticket_code(ticket.id, show.id, show.hall))
        self.data.shows.update(show.id, taken=(*show.taken, *self.ui.seats))
        self.ui.paying, self.ui.seats = None, ()
        self.ui.section, self.ui.ticket_tab = "My Tickets", "Upcoming"
        self.toast("Payment successful, your ticket is ready")
        self.stack = [Route("main"), Route("ticket", ticket.id)]

    @property
    def ticking(self) -> bool:
        return self.route.name == "ticket"

    def issuing(self, t: Ticket) -> bool:
        """Whether the cinema is still issuing ``t`` (a loading state: ``wait``)."""
        return bool(t.issued_at) and datetime.fromisoformat(t.issued_at) > self.system.now

    def can_alter(self, t: Ticket) -> bool:
        return t.status == "paid" and starts(t) - CUTOFF > self.system.now

    def refund(self, ticket_id: int) -> None:
        t = self.data.tickets.get(ticket_id)
        self.ui.dialog = ""
        if t is None or not self.can_alter(t):
            return
        self.data.tickets.update(ticket_id, status="refunded")
        show = self.data.shows.get(t.show)
        if show is not None:
            self.data.shows.update(show.id, taken=tuple(s for s in show.taken
                                                        if s not in t.seats))
        wallet = self.system.wallet
        wallet.balance += t.total
        wallet.transactions.new(amount=t.total, counterparty=self.t("Movie Tickets"),
                                date=self.system.now.date().isoformat(), memo=self.t("Refund"))
        self.toast("Refunded to your wallet")

    def change_options(self, t: Ticket) -> list[Show]:
        """Other shows of the ticket's film at its cinema, at the same price, not started."""
        old = self.data.shows.get(t.show)
        price = old.price if old else -1
        return sorted((s for s in self.data.shows
                       if s.film == t.film and s.cinema == t.cinema and s.id != t.show
                       and s.price == price and starts(s) - CUTOFF > self.system.now),
                      key=lambda s: (s.day, s.time, s.id))

    def start_change(self, ticket_id: int, show_id: int) -> None:
        self.ui.changing, self.ui.seats, self.ui.dialog = ticket_id, (), ""
        self.go("seats", show_id)

    def finish_change(self, show_id: int) -> None:
        self.ui.dialog = ""
        t = self.data.tickets.get(self.ui.changing) if self.ui.changing is not None else None
        show = self.data.shows.get(show_id)
        if t is None or show is None or not self.can_alter(t) or t.changed:
            return
        if len(self.ui.seats) != len(t.seats):
            self.toast(self.t("Pick {n} seats", n=len(t.seats)))
            return
        old = self.data.shows.get(t.show)
        if old is not None:
            self.data.shows.update(old.id, taken=tuple(s for s in old.taken
                                                       if s not in t.seats))
        self.data.shows.update(show.id, taken=(*show.taken, *self.ui.seats))
        self.data.tickets.update(t.id, show=show.id, day=show.day, time=show.time,
                                 hall=show.hall, seats=self.ui.seats, changed=True,
                                 code=ticket_code(t.id, show.id, show.hall))
        self.ui.changing, self.ui.seats = None, ()
        self.toast("Ticket changed")
        self.stack = [Route("main"), Route("ticket", t.id)]

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name == "film":
            screen = self.film_screen(route.arg)
        elif route.name == "cinema":
            screen = self.cinema_screen(route.arg)
        elif route.name == "seats":
            screen = self.seats_screen(route.arg)
        elif route.name == "order":
            screen = self.order_screen(route.arg)
        elif route.name == "ticket":
            screen = self.ticket_screen(route.arg)
        else:
            screen = self.main_screen()
        if self.ui.dialog == "location" or (not self.data.location and route.name == "main"):
            if screen.dialog is None:
                screen.dialog = Dialog(
                    "Allow Movie Tickets to use your location?",
                    "Used to show how far each cinema is.",
                    [DialogButton("Don't allow", lambda: self.decide_location(False),
                                  id="button_dont_allow"),
                     DialogButton("Allow", lambda: self.decide_location(True),
                                  id="button_allow")])
                screen.on_dismiss = lambda: self.set_ui(dialog="")
        screen = with_capsule(self, screen, on_settings=lambda: self.set_ui(dialog="location"))
        return in_locale(self, screen)

    def facts(self, f: Film) -> str:
        """A film's genre, length and age rating: "Sci-Fi · 148 min · PG-13"."""
        return self.t("{genre} · {minutes} min · {age}", genre=self.word(f.genre),
                      minutes=f.minutes, age=f.age)

    def days_chips(self, film_id: int) -> Node:
        """The film's days as chips (ids from the ISO day), labelled in the locale."""
        days = days_of(self.data, film_id)
        chips = Chips(days, [self.ui.day], lambda d: self.set_ui(day=d), id="days")
        if self.system.locale != DEFAULT_LOCALE:
            localize_tree(chips, {d: self.day(d) for d in days})
        return chips

    def film_row(self, f: Film) -> Node:
        return ListItem(f.title, id=f"film_{f.id}", glyph="▸",
                        parts=[("genre", self.facts(f)),
                               ("rating", f"{stars(f.rating)} ★")],
                        on_click=lambda: self.open_film(f.id))

    def cinema_row(self, c: Cinema) -> Node:
        where = self.km(c.distance) if self.data.location == "allowed" else c.district
        extras = " · ".join(c.amenities)
        return ListItem(c.name, id=f"cinema_{c.id}", glyph="⌂",
                        parts=[("where", f"{c.district} · {where}" if where != c.district
                                else c.district),
                               ("rating", f"{stars(c.rating)} ★"),
                               *([("amenities", extras)] if extras else [])],
                        on_click=lambda: self.go("cinema", c.id))

    def main_screen(self) -> Screen:
        ui = self.ui
        content: list[Node] = [Tabs(SECTIONS, ui.section, lambda s: self.set_ui(section=s),
                                    id="sections")]
        if ui.section == "Cinemas":
            q = ui.query.strip().lower()
            cinemas = [c for c in sorted(self.data.cinemas, key=lambda c: c.name)
                       if q in c.name.lower() or q in c.district.lower()]
            content += SearchList(ui.query, lambda v: self.set_ui(query=v), len(cinemas),
                                  lambda i: self.cinema_row(cinemas[i]), id="cinema_list",
                                  hint="Search cinemas", empty_text="No cinemas")
        elif ui.section == "My Tickets":
            today = self.system.now
            tickets = sorted(self.data.tickets, key=lambda t: (t.day, t.time, t.id))
            upcoming = [t for t in tickets if starts(t) >= today and t.status == "paid"]
            past = [t for t in reversed(tickets) if t not in upcoming]
            shown = upcoming if ui.ticket_tab == "Upcoming" else past
            content += [
                Tabs(("Upcoming", "Past"), ui.ticket_tab, lambda s: self.set_ui(ticket_tab=s),
                     id="ticket_tabs"),
                VirtualList(len(shown), lambda i: ListItem(
                    shown[i].film_title,
                    f"{shown[i].cinema_name} · {self.day(shown[i].day)} {shown[i].time} · "
                    f"{self.word(shown[i].status)}", id=f"ticket_{shown[i].id}",
                    on_click=lambda t=shown[i]: self.go("ticket", t.id)),  # type: ignore[misc]
                    id="ticket_list", empty_text="No tickets")]
        else:
            q = ui.query.strip().lower()
            films = [f for f in sorted(self.data.films, key=lambda f: (-f.rating, f.id))
                     if q in f.title.lower() or q in f.genre.lower()]
            content += SearchList(ui.query, lambda v: self.set_ui(query=v), len(films),
                                  lambda i: self.film_row(films[i]), id="film_list",
                                  hint="Search films", empty_text="No films found")
        return Screen(top_bar=TopBar("Movie Tickets"), content=content)

    def show_row(self, s: Show, with_cinema: bool = True) -> Node:
        c = self.data.cinemas.get(s.cinema)
        head = f"{s.time} · {c.name}" if with_cinema and c else f"{self.day(s.day)} {s.time}"
        parts = [("format", self.t("{format} · {language} · Hall {hall}", format=s.format,
                                   language=self.word(s.language), hall=s.hall)),
                 ("price", yuan(s.price))]
        if with_cinema and c is not None:
            where = self.km(c.distance) if self.data.location == "allowed" else c.district
            parts.append(("cinema", f"{where} · {stars(c.rating)} ★"))
        return ListItem(head, id=f"show_{s.id}", parts=parts,
                        on_click=lambda: self.open_show(s.id))

    def film_screen(self, film_id: int) -> Screen:
        f = self.data.films.get(film_id)
        if f is None:
            return Screen(top_bar=TopBar("Film", on_back=self.back), content=[])
        ui = self.ui
        shows = showtimes(self.data, ui, film_id)
        return Screen(top_bar=TopBar(f.title, on_back=self.back), content=[
            Text(f.title, style="title", id="film_title"),
            Text(f"{self.facts(f)} · {stars(f.rating)} ★", id="film_facts"),
            self.days_chips(film_id),
            Tabs(SORTS, ui.sort, self.set_sort, id="sort"),
            Chips([*FORMATS, *DISTANCES], [*ui.formats, ui.within],
                  lambda lab: self.toggle_format(lab) if lab in FORMATS
                  else self.toggle_within(lab), id="filters"),
            Text(self.t("{n} showtimes", n=len(shows)), style="caption", id="show_count"),
            VirtualList(len(shows), lambda i: self.show_row(shows[i]), id="show_list",
                        empty_text="No showtimes match"),
        ])

    def cinema_screen(self, cinema_id: int) -> Screen:
        c = self.data.cinemas.get(cinema_id)
        if c is None:
            return Screen(top_bar=TopBar("Cinema", on_back=self.back), content=[])
        films = {f.id: f.title for f in self.data.films}
        shows = sorted((s for s in self.data.shows if s.cinema == cinema_id),
                       key=lambda s: (s.day, s.time, s.id))
        rows: list[Node] = [
            Text(c.name, style="title", id="cinema_name"),
            Text(f"{c.district} · {stars(c.rating)} ★", id="cinema_facts"),
            Text(", ".join(c.amenities) or self.t("Standard halls"), id="cinema_amenities"),
            VirtualList(len(shows), lambda i: ListItem(
                f"{films.get(shows[i].film, self.t('Film'))} · {self.day(shows[i].day)} "
                f"{shows[i].time}",
                self.t("{format} · Hall {hall} · {price}", format=shows[i].format,
                       hall=shows[i].hall, price=yuan(shows[i].price)),
                id=f"show_{shows[i].id}",
                on_click=lambda s=shows[i]: self.open_show(s.id)),  # type: ignore[misc]
                id="cinema_shows", empty_text="No showtimes")]
        return Screen(top_bar=TopBar(c.name, on_back=self.back), content=rows)

    def seat_icon(self, show: Show, label: str) -> Node:
        couple = len(couple_pair(show, label)) == 2
        kind = "couple seat" if couple else "seat"
        if label in show.taken:
            return Icon("✕", self.t(f"{{seat}} {kind}, taken", seat=label), None,
                        id=f"seat_{label}")
        chosen = label in self.ui.seats
        return Icon("■" if chosen else ("♡" if couple else "□"),
                    self.t(f"{{seat}} {kind}, {'selected' if chosen else 'available'}",
                           seat=label),
                    lambda: self.toggle_seat(show.id, label), id=f"seat_{label}")

    def seats_screen(self, show_id: int) -> Screen:
        show = self.data.shows.get(show_id)
        if show is None:
            return Screen(top_bar=TopBar("Seats", on_back=self.back), content=[])
        film = self.data.films.get(show.film)
        cinema = self.data.cinemas.get(show.cinema)
        content: list[Node] = [
            Text(f"{film.title if film else ''} · {cinema.name if cinema else ''}",
                 style="title", id="seats_title"),
            Text(f"{self.day(show.day)} {show.time} · "
                 + self.t("{format} · Hall {hall}", format=show.format, hall=show.hall),
                 id="seats_show"),
            Text("SCREEN", style="caption", id="screen_mark"),
        ]
        for r in range(show.rows):
            content.append(Row([Text(ROWS[r], style="caption"),
                                *[self.seat_icon(show, seat_label(r, c))
                                  for c in range(1, show.cols + 1)]], id=f"row_{ROWS[r]}"))
        picked = ", ".join(self.ui.seats) or self.t("none")
        content += [Text(self.t("Selected: {seats}", seats=picked), id="selected_seats"),
                    Button(self.t("Confirm seats ({n})", n=len(self.ui.seats)),
                           lambda: self.confirm_seats(show_id), id="confirm_seats")]
        dialog = None
        t = self.data.tickets.get(self.ui.changing) if self.ui.changing is not None else None
        if self.ui.dialog == "change" and t is not None:
            dialog = ConfirmDialog("Change your ticket?",
                                   self.t("{old} becomes {new}, seats {seats}. A ticket can "
                                          "be changed once.",
                                          old=f"{self.day(t.day)} {t.time}",
                                          new=f"{self.day(show.day)} {show.time}",
                                          seats=", ".join(self.ui.seats)),
                                   on_confirm=lambda: self.finish_change(show_id),
                                   on_cancel=lambda: self.set_ui(dialog=""),
                                   confirm="Change", cancel="Back")
        return Screen(top_bar=TopBar("Pick seats", on_back=self.leave_seats), content=content,
                      dialog=dialog, on_dismiss=lambda: self.set_ui(dialog=""))

    def leave_seats(self) -> None:
        self.ui.changing, self.ui.seats = None, ()
        self.back()

    def order_screen(self, show_id: int) -> Screen:
        show = self.data.shows.get(show_id)
        if show is None or not self.ui.seats:
            return Screen(top_bar=TopBar("Confirm order", on_back=self.back), content=[])
        film = self.data.films.get(show.film)
        cinema = self.data.cinemas.get(show.cinema)
        total = self.current_total(show)
        content: list[Node] = [
            Text(film.title if film else self.t("Film"), style="title", id="order_film"),
            Text(f"{cinema.name if cinema else ''} · {self.day(show.day)} {show.time} · "
                 + self.t("Hall {hall}", hall=show.hall), id="order_show"),
            Text(self.t("Seats {seats} · {n} × {price}", seats=", ".join(self.ui.seats),
                        n=len(self.ui.seats), price=yuan(show.price)), id="order_seats"),
            ListItem("Snacks", f"{self.word(self.ui.snack)} · "
                     f"{yuan(SNACKS.get(self.ui.snack, 0))}",
                     id="snacks", on_click=lambda: self.set_ui(dialog="snack")),
            ListItem("Coupon", self.word(self.ui.coupon), id="coupon",
                     on_click=lambda: self.set_ui(dialog="coupon")),
            Text(self.t("Total {total}", total=yuan(total)), id="order_total"),
            Text("Refunds and changes up to 1 hour before the show.", style="caption",
                 id="order_rules"),
            Button(self.t("Pay {total}", total=yuan(total)), lambda: self.ask_pay(show_id),
                   id="pay"),
        ]
        dialog: Node | None = None
        if self.ui.paying is not None:
            dialog = PaySheet(self.ui.paying, on_pin=self.set_pin,
                              on_pay=lambda: self.confirm_pay(show_id),
                              on_cancel=lambda: self.set_ui(paying=None))
        elif self.ui.dialog == "snack":
            dialog = ChoiceDialog("Snacks", list(SNACKS), self.ui.snack, self.pick_snack,
                                  lambda: self.set_ui(dialog=""), id="snack_choices")
        elif self.ui.dialog == "coupon":
            dialog = ChoiceDialog("Coupons", [NO_COUPON, *self.usable_coupons(show)],
                                  self.ui.coupon, self.pick_coupon,
                                  lambda: self.set_ui(dialog=""), id="coupon_choices")
        return Screen(top_bar=TopBar("Confirm order", on_back=self.back), content=content,
                      dialog=dialog, on_dismiss=lambda: self.set_ui(paying=None, dialog=""))

    def ticket_screen(self, ticket_id: int) -> Screen:
        t = self.data.tickets.get(ticket_id)
        if t is None:
            return Screen(top_bar=TopBar("Ticket", on_back=self.back), content=[])
        rows: list[Node] = [
            Text(t.film_title, style="title", id="ticket_film"),
            Text(f"{t.cinema_name} · " + self.t("Hall {hall}", hall=t.hall),
                 id="ticket_cinema"),
            Text(f"{self.day(t.day)} {t.time}", id="ticket_time"),
            Text(self.t("Seats {seats}", seats=", ".join(t.seats)), id="ticket_seats"),
            Text("Issuing your ticket with the cinema… this takes under a minute.",
                 style="caption", id="loading") if self.issuing(t) else
            Text(self.t("Ticket code {code}", code=t.code), id="ticket_code", copyable=True),
            Text(self.t("Total {total}", total=yuan(t.total)) + f" · {self.word(t.status)}",
                 id="ticket_total"),
        ]
        if t.snack and t.snack != "No snacks":
            rows.append(Text(self.t("Snacks: {snack}", snack=self.word(t.snack)),
                             id="ticket_snack"))
        if self.can_alter(t) and not self.issuing(t):
            if not t.changed:
                rows.append(Button("Change showtime", lambda: self.set_ui(dialog="changes"),
                                   id="change_ticket", style="secondary"))
            rows.append(Button("Refund", lambda: self.set_ui(dialog="refund"),
                               id="refund_ticket", style="danger"))
        dialog: Node | None = None
        if self.ui.dialog == "refund":
            dialog = ConfirmDialog("Refund this ticket?",
                                   self.t("{total} goes back to your wallet. Coupons used are "
                                          "not returned.", total=yuan(t.total)),
                                   on_confirm=lambda: self.refund(ticket_id),
                                   on_cancel=lambda: self.set_ui(dialog=""),
                                   confirm="Refund", cancel="Keep", destructive=True)
        elif self.ui.dialog == "changes":
            options = self.change_options(t)
            labels = [f"{s.day} {s.time} · {s.format} · Hall {s.hall}" for s in options]
            shown = {lab: f"{self.day(s.day)} {s.time} · "
                     + self.t("{format} · Hall {hall}", format=s.format, hall=s.hall)
                     for lab, s in zip(labels, options, strict=True)}
            dialog = ChoiceDialog("Change to", labels or ["No other showtimes"], "",
                                  lambda lab: self.start_change(
                                      ticket_id, options[labels.index(lab)].id)
                                  if lab in labels else self.set_ui(dialog=""),
                                  lambda: self.set_ui(dialog=""), id="change_choices")
            if self.system.locale != DEFAULT_LOCALE:
                localize_tree(dialog, shown)
        return Screen(top_bar=TopBar("Ticket", on_back=self.back), content=rows,
                      dialog=dialog, on_dismiss=lambda: self.set_ui(dialog=""))
