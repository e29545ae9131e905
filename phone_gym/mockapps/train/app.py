"""Train Tickets: a 12306-like mini-program inside Chat (WeChat).

Search trains From / To on a day (a "Swap" button exchanges the stations); the results show
each train's number (G and D are high-speed, K a conventional train), its departure and
arrival, its duration and its seat classes with price and availability ("few left", "sold
out"); they can be filtered (high-speed only, a departure window) and sorted (earliest,
fastest, cheapest). A train's page lists its stops and seat classes; booking a class picks
saved passengers (ID numbers masked; a new one can be added), a seat preference, and pays
through the host's wallet (``kit.PaySheet``, the WeChat Pay PIN). "My orders" lists
upcoming and past tickets; an upcoming one can be refunded under the fee rule below.

Trains, passengers and orders are the mini-program's own ``Store`` (``apps.Train.trains``,
``apps.Train.passengers``, ``apps.Train.orders``): verifiers check the resulting order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ...world.app import App, Route, app_strings
from ...world.data import Store, Table
from ...world.kit import (
    Chips,
    ConfirmDialog,
    NavRow,
    PaySheet,
    PayState,
    Tabs,
    pay,
    with_capsule,
    yuan,
)
from ...world.kit.localize import in_locale
from ...world.locale import DEFAULT_LOCALE, format_date
from ...world.widgets import (
    Button,
    Checkbox,
    ListItem,
    Node,
    Screen,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

SORTS = ("Earliest", "Fastest", "Cheapest")
HIGH_SPEED = "High-speed only"
WINDOWS = {"06:00-12:00": (360, 720), "12:00-18:00": (720, 1080), "18:00-24:00": (1080, 1440)}
CLASSES = ("Business", "First", "Second", "Sleeper")
PREFERENCES = ("Window", "Aisle", "No preference")
FEW = 5  # at most this many seats left: "few left"
#: 12306's name, the payee of tickets and the sender of refunds.
RAILWAY = "China Railway 12306"
ZH_DAY = re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})[日号]")


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Train:
    """A train on one day: ``depart``/``arrive`` "HH:MM" (the same day), ``seats`` as
    ``(class, price in cents, seats left)``, ``stops`` the stations in order."""

    id: int
    number: str
    origin: str
    dest: str
    day: str
    depart: str
    arrive: str
    seats: tuple[tuple[str, int, int], ...] = ()
    stops: tuple[str, ...] = ()

    def seat(self, cls: str) -> tuple[str, int, int] | None:
        return next((s for s in self.seats if s[0] == cls), None)


@dataclass(frozen=True)
class Passenger:
    """A saved passenger: ``id_number`` the full ID (shown masked)."""

    id: int
    name: str
    id_number: str


@dataclass(frozen=True)
class Order:
    """A ticket order: one seat per passenger; ``total`` and ``refund`` in cents; ``status``
    paid or refunded."""

    id: int
    train: int
    number: str
    day: str
    origin: str
    dest: str
    depart: str
    arrive: str
    seat_class: str
    passengers: tuple[str, ...]
    seats: tuple[str, ...]
    total: int
    status: str = "paid"
    refund: int = 0


@dataclass
class TrainData(Store):
    trains: Table[Train] = field(default_factory=lambda: Table(kind=Train))
    passengers: Table[Passenger] = field(default_factory=lambda: Table(kind=Passenger))
    orders: Table[Order] = field(default_factory=lambda: Table(kind=Order))


@dataclass
class TrainUi:
    """Transient state: the search form, filters and sort, the booking form."""

    origin: str = ""
    dest: str = ""
    day: str = ""
    filters: tuple[str, ...] = ()
    sort: str = "Earliest"
    seat_class: str = ""
    chosen: tuple[int, ...] = ()
    preference: str = "No preference"
    new_name: str = ""
    new_id: str = ""
    paying: PayState | None = None
    refunding: int | None = None
    changing: int | None = None  # the train an order is being changed to
    orders_tab: str = "Upcoming"


# --- pure helpers ---------------------------------------------------------------------------
def minutes(hhmm: str) -> int:
    h, _, m = hhmm.partition(":")
    return int(h) * 60 + int(m)


def duration(train: Train) -> int:
    """Minutes from departure to arrival."""
    return minutes(train.arrive) - minutes(train.depart)


def duration_text(mins: int) -> str:
    return f"{mins // 60}h{mins % 60:02d}m"


def high_speed(train: Train) -> bool:
    return train.number[:1] in ("G", "D")


def cheapest(train: Train) -> int:
    """The lowest price among classes with seats left (a large number when sold out)."""
    prices = [p for _, p, left in train.seats if left > 0]
    return min(prices) if prices else 10**9


def availability(left: int) -> str:
    if left <= 0:
        return "sold out"
    return f"{left} left" if left <= FEW else "available"


def mask(id_number: str) -> str:
    """``"110101199003071234"`` -> ``"1101**********1234"``."""
    if len(id_number) <= 8:
        return "*" * len(id_number)
    return id_number[:4] + "*" * (len(id_number) - 8) + id_number[-4:]


def refund_fee(total: int, day: str, today: date) -> int:
    """The fee rule: free 8 or more days before departure, 5% from 2 to 7 days, 10% within
    two days (rounded to the cent)."""
    try:
        days = (date.fromisoformat(day) - today).days
    except ValueError:
        return 0
    rate = 0 if days >= 8 else 5 if days >= 2 else 10
    return total * rate // 100


def parse_day(text: str) -> date | None:
    """The day ``text`` writes: ISO ("2026-10-20") or Chinese ("2026年10月20日")."""
    text = text.strip()
    try:
        if m := ZH_DAY.fullmatch(text):
            return date(int(m[1]), int(m[2]), int(m[3]))
        return date.fromisoformat(text)
    except ValueError:
        return None


def iso_day(text: str) -> str:
    """The day ``text`` writes as ISO, or ``text`` stripped if it is none."""
    day = parse_day(text)
    return day.isoformat() if day else text.strip()


def same(a: str, b: str) -> bool:
    return a.strip().lower() == b.strip().lower()


def results(data: TrainData, ui: TrainUi) -> list[Train]:
    """The day's trains between the stations passing the filters, in the chosen order."""
    shown = [t for t in data.trains
             if same(t.origin, ui.origin) and same(t.dest, ui.dest) and t.day == iso_day(ui.day)]
    if HIGH_SPEED in ui.filters:
        shown = [t for t in shown if high_speed(t)]
    windows = [WINDOWS[f] for f in ui.filters if f in WINDOWS]
    if windows:
        shown = [t for t in shown if any(a <= minutes(t.depart) < b for a, b in windows)]
    keys: dict[str, Any] = {
        "Fastest": lambda t: (duration(t), minutes(t.depart), t.id),
        "Cheapest": lambda t: (cheapest(t), minutes(t.depart), t.id),
    }
    return sorted(shown, key=keys.get(ui.sort, lambda t: (minutes(t.depart), t.id)))


def seat_labels(train: Train, cls: str, order_id: int, count: int, pref: str,
                locale: str = DEFAULT_LOCALE) -> tuple[str, ...]:
    """Seats for ``count`` passengers: a car from the train and the order, rows in turn,
    a window (A/F) or aisle (C/D) letter when preferred; as the ticket writes them ("Car 05
    Seat 03A"; zh-CN as 12306 does: 05车03A号, 05车12号下铺)."""
    car = 1 + (train.id * 3 + order_id) % 8
    zh = locale != DEFAULT_LOCALE
    if cls == "Sleeper":
        berths = ("下铺", "中铺", "上铺") if zh else ("Lower", "Middle", "Upper")
        form = "{car:02d}车{berth}号{level}" if zh else "Car {car:02d} Berth {berth} {level}"
        return tuple(form.format(car=car, berth=10 + order_id + i, level=berths[i % 3])
                     for i in range(count))
    letters = {"Window": "AF", "Aisle": "CD"}.get(pref, "BC")
    row = 1 + (order_id * 7) % 15
    form = "{car:02d}车{row:02d}{seat}号" if zh else "Car {car:02d} Seat {row:02d}{seat}"
    return tuple(form.format(car=car, row=row + i // 2, seat=letters[i % 2])
                 for i in range(count))


def window_seat(label: str) -> bool:
    """Whether the seat ``label`` is at a window (an A or F seat, in either locale)."""
    return re.search(r"\d[AF]号?$", label) is not None


# --- the app -------------------------------------------------------------------------------
class TrainApp(App):
    manifest = MANIFEST

    data: TrainData
    ui: TrainUi

    def initial_data(self) -> TrainData:
        return TrainData()

    def initial_ui(self) -> TrainUi:
        return TrainUi()

    def toast(self, text: str) -> None:
        """A toast; the kit's own (the capsule menu's "Link copied") in the locale's words."""
        if self.system.locale != DEFAULT_LOCALE:
            text = app_strings(type(self), self.system.locale).strings.get(text, text)
        super().toast(text)

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def swap(self) -> None:
        self.ui.origin, self.ui.dest = self.ui.dest, self.ui.origin

    def search(self) -> None:
        if not self.ui.origin.strip() or not self.ui.dest.strip():
            self.toast(self.t("Enter the From and To stations"))
            return
        if parse_day(self.ui.day) is None:
            self.toast(self.t("Enter the date (YYYY-MM-DD)"))
            return
        self.go("results")

    def toggle_filter(self, label: str) -> None:
        kept = tuple(f for f in self.ui.filters if f != label)
        self.ui.filters = kept if label in self.ui.filters else (*kept, label)

    def start_booking(self, train_id: int, cls: str) -> None:
        train = self.data.trains.get(train_id)
        seat = train.seat(cls) if train is not None else None
        if seat is None:
            return
        if seat[2] <= 0:
            self.toast(self.t("{cls} is sold out", cls=self.t(cls)))
            return
        self.ui.seat_class, self.ui.chosen, self.ui.paying = cls, (), None
        self.ui.preference = "No preference"
        self.go("book", train_id)

    def toggle_passenger(self, pid: int) -> None:
        chosen = self.ui.chosen
        self.ui.chosen = tuple(c for c in chosen if c != pid) if pid in chosen \
            else (*chosen, pid)

    def save_passenger(self) -> None:
        name, number = self.ui.new_name.strip(), self.ui.new_id.strip().upper()
        if not name:
            self.toast(self.t("Enter the passenger's name"))
            return
        if len(number) != 18 or not number[:17].isdigit():
            self.toast(self.t("Enter an 18-character ID number"))
            return
        if any(p.id_number == number for p in self.data.passengers):
            self.toast(self.t("This passenger is already saved"))
            return
        p = self.data.passengers.new(name=name, id_number=number)
        self.ui.new_name = self.ui.new_id = ""
        if self.route.name == "add_passenger" and len(self.stack) > 1 \
                and self.stack[-2].name == "book":
            self.ui.chosen = (*self.ui.chosen, p.id)
        self.toast(self.t("Passenger saved"))
        self.back()

    def price(self, train: Train) -> int:
        seat = train.seat(self.ui.seat_class)
        return seat[1] * len(self.ui.chosen) if seat is not None else 0

    def ask_pay(self, train_id: int) -> None:
        train = self.data.trains.get(train_id)
        if train is None:
            return
        seat = train.seat(self.ui.seat_class)
        if not self.ui.chosen:
            self.toast(self.t("Choose at least one passenger"))
            return
        if seat is None or seat[2] < len(self.ui.chosen):
            self.toast(self.t("Not enough seats left"))
            return
        self.ui.paying = PayState(self.price(train), self.t(RAILWAY),
                                  f"{train.number} {self.day(train.day)}")

    def set_pin(self, pin: str) -> None:
        if self.ui.paying is not None:
            self.ui.paying.pin = pin

    def confirm_pay(self, train_id: int) -> None:
        train, state = self.data.trains.get(train_id), self.ui.paying
        if train is None or state is None or pay(self.system, state) is not None:
            return
        names = tuple(p.name for pid in self.ui.chosen
                      if (p := self.data.passengers.get(pid)) is not None)
        next_id = max((o.id for o in self.data.orders), default=0) + 1
        self.data.orders.new(
            train=train.id, number=train.number, day=train.day, origin=train.origin,
            dest=train.dest, depart=train.depart, arrive=train.arrive,
            seat_class=self.ui.seat_class, passengers=names,
            seats=seat_labels(train, self.ui.seat_class, next_id, len(names),
                              self.ui.preference, self.system.locale),
            total=state.amount, status="paid")
        self.data.trains.update(train.id, seats=tuple(
            (c, p, left - len(names) if c == self.ui.seat_class else left)
            for c, p, left in train.seats))
        self.ui.paying = None
        self.toast(self.t("Tickets booked"))
        self.stack = [Route("main"), Route("orders")]

    def refund(self, order_id: int) -> None:
        order = self.data.orders.get(order_id)
        self.ui.refunding = None
        if order is None or order.status != "paid":
            return
        back = order.total - refund_fee(order.total, order.day, self.system.now.date())
        self.data.orders.update(order_id, status="refunded", refund=back)
        wallet = self.system.wallet
        wallet.balance += back
        wallet.transactions.new(amount=back, counterparty=self.t(RAILWAY),
                                date=self.system.now.date().isoformat(), memo=self.t("Refund"))
        self.toast(self.t("Refunded {amount}", amount=yuan(back)))

    def alternatives(self, order: Order) -> list[Train]:
        """Other trains of the order's line and day with enough seats in its class."""
        return sorted((t for t in self.data.trains
                       if t.id != order.train and t.origin == order.origin
                       and t.dest == order.dest and t.day == order.day
                       and (s := t.seat(order.seat_class)) is not None
                       and s[2] >= len(order.passengers)),
                      key=lambda t: (minutes(t.depart), t.id))

    def new_total(self, order: Order, train: Train) -> int:
        seat = train.seat(order.seat_class)
        return seat[1] * len(order.passengers) if seat is not None else 0

    def confirm_change(self, order_id: int) -> None:
        """The change confirmed: a higher fare asks for the difference (PIN); a lower one is
        refunded at once."""
        order = self.data.orders.get(order_id)
        train = self.data.trains.get(self.ui.changing or 0)
        if order is None or train is None:
            self.ui.changing = None
            return
        diff = self.new_total(order, train) - order.total
        if diff > 0:
            self.ui.paying = PayState(diff, self.t(RAILWAY),
                                      self.t("Change to {number}", number=train.number))
            return
        self.apply_change(order_id)

    def pay_change(self, order_id: int) -> None:
        if self.ui.paying is None or pay(self.system, self.ui.paying) is not None:
            return
        self.ui.paying = None
        self.apply_change(order_id, paid=True)

    def apply_change(self, order_id: int, paid: bool = False) -> None:
        order = self.data.orders.get(order_id)
        train = self.data.trains.get(self.ui.changing or 0)
        self.ui.changing = None
        if order is None or train is None or order.status != "paid":
            return
        total, n = self.new_total(order, train), len(order.passengers)
        if total < order.total and not paid:
            wallet = self.system.wallet
            wallet.balance += order.total - total
            wallet.transactions.new(amount=order.total - total,
                                    counterparty=self.t(RAILWAY),
                                    date=self.system.now.date().isoformat(),
                                    memo=self.t("Fare difference"))
        old = self.data.trains.get(order.train)
        if old is not None:
            self.data.trains.update(old.id, seats=tuple(
                (c, p, left + n if c == order.seat_class else left)
                for c, p, left in old.seats))
        self.data.trains.update(train.id, seats=tuple(
            (c, p, left - n if c == order.seat_class else left) for c, p, left in train.seats))
        self.data.orders.update(
            order_id, train=train.id, number=train.number, depart=train.depart,
            arrive=train.arrive, total=total,
            seats=seat_labels(train, order.seat_class, order_id, n, "No preference",
                              self.system.locale))
        self.toast(self.t("Changed to {number}", number=train.number))
        self.stack = [Route("main"), Route("orders"), Route("order", order_id)]

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name == "results":
            screen = self.results_screen()
        elif route.name == "train":
            screen = self.train_screen(route.arg)
        elif route.name == "book":
            screen = self.book_screen(route.arg)
        elif route.name == "add_passenger":
            screen = self.add_passenger_screen()
        elif route.name == "passengers":
            screen = self.passengers_screen()
        elif route.name == "orders":
            screen = self.orders_screen()
        elif route.name == "order":
            screen = self.order_screen(route.arg)
        elif route.name == "change":
            screen = self.change_screen(route.arg)
        else:
            screen = self.search_screen()
        screen = with_capsule(self, screen)
        return in_locale(self, screen)

    def day(self, iso: str) -> str:
        """A travel day as the screens write it: "2026-10-20" (10月20日 in zh-CN)."""
        day = parse_day(iso)
        if self.system.locale == DEFAULT_LOCALE or day is None:
            return iso
        return format_date(day, self.system.locale, year=False)

    def availability(self, left: int) -> str:
        """"sold out", "3 left", "available" (无票, 余3张, 有票)."""
        if left <= 0 or left > FEW:
            return self.t(availability(left))
        return self.t("{n} left", n=left)

    def duration_text(self, mins: int) -> str:
        """"2h05m" (2小时05分)."""
        return self.t("{h}h{m}m", h=mins // 60, m=f"{mins % 60:02d}")

    def search_screen(self) -> Screen:
        ui = self.ui
        return Screen(top_bar=TopBar("Train Tickets"), content=[
            TextField(ui.origin, lambda v: self.set_ui(origin=v), id="from", label="From",
                      hint="From (station)"),
            Button("⇅ Swap", self.swap, id="swap", style="secondary"),
            TextField(ui.dest, lambda v: self.set_ui(dest=v), id="to", label="To",
                      hint="To (station)"),
            TextField(ui.day, lambda v: self.set_ui(day=v), id="date", label="Date",
                      hint="Date (YYYY-MM-DD)"),
            Button("Search trains", self.search, id="search_trains"),
            NavRow("My orders", lambda: self.go("orders"), id="my_orders"),
            NavRow("Passengers", lambda: self.go("passengers"), id="my_passengers"),
        ])

    def train_row(self, t: Train) -> Node:
        classes = self.t(", ").join(self.t("{cls} {price} ({left})", cls=self.t(c), price=yuan(p),
                                           left=self.availability(left))
                                    for c, p, left in t.seats)
        return ListItem(t.number, id=f"train_{t.id}", glyph=t.number[:1],
                        parts=[("times", f"{t.depart} → {t.arrive}"),
                               ("duration", self.duration_text(duration(t))),
                               ("seats", classes)],
                        on_click=lambda: self.go("train", t.id))

    def results_screen(self) -> Screen:
        ui = self.ui
        shown = results(self.data, ui)
        return Screen(
            top_bar=TopBar(f"{ui.origin.strip()} → {ui.dest.strip()} · {self.day(iso_day(ui.day))}",
                           on_back=self.back),
            content=[
                Tabs(SORTS, ui.sort, lambda s: self.set_ui(sort=s), id="sort"),
                Chips([HIGH_SPEED, *WINDOWS], ui.filters, self.toggle_filter, id="filters"),
                Text(self.t("{count} trains", count=len(shown)), style="caption",
                     id="result_count"),
                VirtualList(len(shown), lambda i: self.train_row(shown[i]), id="train_list",
                            empty_text="No trains match"),
            ])

    def train_screen(self, train_id: int) -> Screen:
        t = self.data.trains.get(train_id)
        if t is None:
            return Screen(top_bar=TopBar("Train", on_back=self.back), content=[])
        rows: list[Node] = [
            Text(f"{t.number} · {self.day(t.day)}", style="title", id="train_number"),
            Text(f"{t.origin} {t.depart} → {t.dest} {t.arrive}", id="train_times"),
            Text(self.t("Duration {time}", time=self.duration_text(duration(t))),
                 id="train_duration"),
            Text(self.t("Stops: {stops}", stops=" – ".join(t.stops or (t.origin, t.dest))),
                 id="train_stops"),
        ]
        for c, p, left in t.seats:
            rows.append(ListItem(self.t(c), id=f"class_{c.lower()}",
                                 parts=[("price", yuan(p)), ("left", self.availability(left))],
                                 on_click=lambda c=c: self.start_booking(  # type: ignore[misc]
                                     train_id, c)))
        return Screen(top_bar=TopBar(t.number, on_back=self.back), content=rows)

    def book_screen(self, train_id: int) -> Screen:
        t = self.data.trains.get(train_id)
        if t is None or t.seat(self.ui.seat_class) is None:
            return Screen(top_bar=TopBar("Book", on_back=self.back), content=[])
        ui = self.ui
        people = sorted(self.data.passengers, key=lambda p: p.id)
        rows: list[Node] = [
            Text(f"{t.number} · {self.day(t.day)} · {t.depart} → {t.arrive}", style="title",
                 id="book_train"),
            Text(self.t("{cls} class", cls=self.t(ui.seat_class)), id="book_class"),
            Text("Passengers", style="caption"),
            *[Checkbox(f"{p.name} ({mask(p.id_number)})", p.id in ui.chosen,
                       lambda p=p: self.toggle_passenger(p.id),  # type: ignore[misc]
                       id=f"passenger_{p.id}") for p in people],
            NavRow("Add passenger", lambda: self.go("add_passenger"), id="add_passenger"),
        ]
        if ui.seat_class != "Sleeper":
            rows += [Text("Seat preference", style="caption"),
                     Chips(PREFERENCES, [ui.preference],
                           lambda v: self.set_ui(preference=v), id="preference")]
        rows += [Text(self.t("Total {total}", total=yuan(self.price(t))), id="book_total"),
                 Button("Submit order", lambda: self.ask_pay(train_id), id="submit")]
        paying = ui.paying
        dialog = None if paying is None else PaySheet(
            paying, on_pin=self.set_pin, on_pay=lambda: self.confirm_pay(train_id),
            on_cancel=lambda: self.set_ui(paying=None))
        return Screen(top_bar=TopBar("Confirm order", on_back=self.back), content=rows,
                      dialog=dialog, on_dismiss=lambda: self.set_ui(paying=None))

    def add_passenger_screen(self) -> Screen:
        ui = self.ui
        return Screen(top_bar=TopBar("Add passenger", on_back=self.back), content=[
            TextField(ui.new_name, lambda v: self.set_ui(new_name=v), id="passenger_name",
                      label="Name", hint="Name as on the ID"),
            TextField(ui.new_id, lambda v: self.set_ui(new_id=v), id="passenger_id",
                      label="ID number", hint="18-character ID number"),
            Button("Save", self.save_passenger, id="save_passenger"),
        ])

    def passengers_screen(self) -> Screen:
        people = sorted(self.data.passengers, key=lambda p: p.id)
        return Screen(top_bar=TopBar("Passengers", on_back=self.back), content=[
            VirtualList(len(people), lambda i: ListItem(
                people[i].name, mask(people[i].id_number), id=f"saved_{people[i].id}"),
                id="passenger_list", empty_text="No saved passengers"),
            NavRow("Add passenger", lambda: self.go("add_passenger"), id="add_passenger"),
        ])

    def orders_screen(self) -> Screen:
        today = self.system.now.date().isoformat()
        upcoming = self.ui.orders_tab == "Upcoming"
        orders = sorted((o for o in self.data.orders if (o.day >= today) == upcoming),
                        key=lambda o: (o.day, o.depart, o.id), reverse=not upcoming)
        items = [ListItem(f"{o.number} {o.origin} → {o.dest}",
                          f"{self.day(o.day)} {o.depart} · {self.t(o.status)}",
                          id=f"order_{o.id}",
                          on_click=lambda o=o: self.go("order", o.id))  # type: ignore[misc]
                 for o in orders]
        return Screen(top_bar=TopBar("My orders", on_back=self.back), content=[
            Tabs(("Upcoming", "Past"), self.ui.orders_tab,
                 lambda v: self.set_ui(orders_tab=v), id="order_tabs"),
            VirtualList(len(items), lambda i: items[i], id="order_list",
                        empty_text="No orders"),
        ])

    def order_screen(self, order_id: int) -> Screen:
        o = self.data.orders.get(order_id)
        if o is None:
            return Screen(top_bar=TopBar("Order", on_back=self.back), content=[])
        rows: list[Node] = [
            Text(f"{o.number} · {self.day(o.day)}", style="title", id="order_train"),
            Text(f"{o.origin} {o.depart} → {o.dest} {o.arrive}", id="order_times"),
            Text(self.t("{cls} class", cls=self.t(o.seat_class)), id="order_class"),
            *[Text(self.t("{name}: {seat}", name=name, seat=seat), id=f"order_seat_{i}")
              for i, (name, seat) in enumerate(zip(o.passengers, o.seats, strict=False))],
            Text(self.t("Total {total} · {status}", total=yuan(o.total),
                        status=self.t(o.status)), id="order_total"),
        ]
        if o.status == "refunded":
            rows.append(Text(self.t("Refunded {amount}", amount=yuan(o.refund)),
                             id="order_refund"))
        today = self.system.now.date()
        if o.status == "paid" and o.day >= today.isoformat():
            rows.append(Button("Change train", lambda: self.go("change", order_id),
                               id="change", style="secondary"))
            rows.append(Button("Refund", lambda: self.set_ui(refunding=order_id),
                               id="refund", style="danger"))
        dialog = None
        if self.ui.refunding == order_id:
            fee = refund_fee(o.total, o.day, today)
            dialog = ConfirmDialog(
                "Refund these tickets?",
                self.t("Fee {fee}; {back} back to your wallet. (Free 8+ days before departure, "
                       "5% from 2 to 7 days, 10% within 2 days.)", fee=yuan(fee),
                       back=yuan(o.total - fee)),
                on_confirm=lambda: self.refund(order_id),
                on_cancel=lambda: self.set_ui(refunding=None),
                confirm="Refund", cancel="Keep", destructive=True)
        return Screen(top_bar=TopBar("Order", on_back=self.back), content=rows,
                      dialog=dialog, on_dismiss=lambda: self.set_ui(refunding=None))

    def change_screen(self, order_id: int) -> Screen:
        o = self.data.orders.get(order_id)
        if o is None or o.status != "paid":
            return Screen(top_bar=TopBar("Change train", on_back=self.back), content=[])
        trains = self.alternatives(o)

        def row(t: Train) -> Node:
            return ListItem(t.number, id=f"change_{t.id}", glyph=t.number[:1],
                            parts=[("times", f"{t.depart} → {t.arrive}"),
                                   ("price", f"{self.t(o.seat_class)} "
                                             f"{yuan(self.new_total(o, t))}")],
                            on_click=lambda: self.set_ui(changing=t.id))

        dialog = None
        target = self.data.trains.get(self.ui.changing or 0)
        if self.ui.paying is not None:
            dialog = PaySheet(self.ui.paying, on_pin=self.set_pin,
                              on_pay=lambda: self.pay_change(order_id),
                              on_cancel=lambda: self.set_ui(paying=None, changing=None))
        elif target is not None:
            diff = self.new_total(o, target) - o.total
            what = (self.t("Pay {amount} more", amount=yuan(diff)) if diff > 0 else
                    self.t("{amount} back to your wallet", amount=yuan(-diff)) if diff < 0
                    else "Same fare")
            dialog = ConfirmDialog(self.t("Change to {number} at {time}?", number=target.number,
                                          time=target.depart), what,
                                   on_confirm=lambda: self.confirm_change(order_id),
                                   on_cancel=lambda: self.set_ui(changing=None),
                                   confirm="Change", cancel="Keep")
        return Screen(
            top_bar=TopBar("Change train", on_back=self.back),
            content=[Text(self.t("Now: {train}", train=f"{o.number} {o.depart} → {o.arrive} · "
                                                          f"{self.t(o.seat_class)}"),
                          id="change_current"),
                     VirtualList(len(trains), lambda i: row(trains[i]), id="change_list",
                                 empty_text="No other trains with seats")],
            dialog=dialog, on_dismiss=lambda: self.set_ui(paying=None, changing=None))
