"""Hotel Booking: a mini-program inside Chat (WeChat).

Search hotels in a city for a date range; the results can be filtered (a maximum price per
night, a minimum rating, a distance to one of the city's landmarks) and sorted (recommended,
lowest price, top rated, nearest); a hotel's page shows its details; booking asks for the
guest's name and pays the stay through the host's wallet (``kit.PaySheet``, the WeChat Pay
PIN); "My orders" lists the bookings, and a paid one can be cancelled (refunded).

Hotels and orders are the mini-program's own ``Store`` (``apps.Hotel.hotels``,
``apps.Hotel.orders``): verifiers check the resulting order against a task's constraints.
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
from ...world.locale import DEFAULT_LOCALE
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

SORTS = ("Recommended", "Lowest price", "Top rated", "Nearest")
RATINGS = {"4.0+": 40, "4.5+": 45}
DISTANCES = {"Within 1 km": 1000, "Within 3 km": 3000}


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hotel:
    """A hotel: ``price`` per night in cents, ``rating`` in tenths (46 is 4.6),
    ``distances``: meters to each of its city's landmarks."""

    id: int
    name: str
    city: str
    price: int
    rating: int
    address: str = ""
    distances: tuple[tuple[str, int], ...] = ()

    def distance_to(self, landmark: str) -> int | None:
        return dict(self.distances).get(landmark)


@dataclass(frozen=True)
class Order:
    """A booking: dates as ISO days, ``total`` in cents; ``status`` paid or cancelled."""

    id: int
    hotel: int
    hotel_name: str
    city: str
    checkin: str
    checkout: str
    nights: int
    guest: str
    total: int
    status: str = "paid"


@dataclass
class HotelData(Store):
    hotels: Table[Hotel] = field(default_factory=lambda: Table(kind=Hotel))
    orders: Table[Order] = field(default_factory=lambda: Table(kind=Order))


@dataclass
class HotelUi:
    """Transient state: the search form, the filters and sort, the booking form."""

    city: str = ""
    checkin: str = ""
    checkout: str = ""
    max_price: str = ""
    filters: tuple[str, ...] = ()
    sort: str = "Recommended"
    landmark: str = ""
    guest: str = ""
    paying: PayState | None = None
    cancelling: int | None = None


# --- pure helpers ---------------------------------------------------------------------------
ZH_DAY = re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})[日号]")


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
    """The day ``text`` writes as ISO ("2026-10-20"), or ``text`` stripped if it is none."""
    day = parse_day(text)
    return day.isoformat() if day else text.strip()


def nights(checkin: str, checkout: str) -> int:
    """Nights between two ISO days (0 when either is not a day or they are out of order)."""
    a, b = parse_day(checkin), parse_day(checkout)
    return max(0, (b - a).days) if a and b else 0


def landmarks(data: HotelData, city: str) -> list[str]:
    """The landmarks the city's hotels are measured to, in first-seen order."""
    out: list[str] = []
    for h in data.hotels:
        if h.city.lower() == city.strip().lower():
            out.extend(name for name, _ in h.distances if name not in out)
    return out


def stars(rating: int) -> str:
    return f"{rating // 10}.{rating % 10}"


def km(meters: int) -> str:
    return f"{meters / 1000:.1f} km"


def results(data: HotelData, ui: HotelUi) -> list[Hotel]:
    """The city's hotels passing the filters, in the chosen order."""
    city = ui.city.strip().lower()
    shown = [h for h in data.hotels if city and h.city.lower() == city]
    try:
        cap = round(float(ui.max_price.strip().lstrip("¥")) * 100) if ui.max_price.strip() \
            else None
    except ValueError:
        cap = None
    mark = ui.landmark
    for f in ui.filters:
        if f in RATINGS:
            shown = [h for h in shown if h.rating >= RATINGS[f]]
        if f in DISTANCES:
            shown = [h for h in shown
                     if (d := h.distance_to(mark)) is not None and d <= DISTANCES[f]]
    if cap is not None:
        shown = [h for h in shown if h.price <= cap]
    far = 10**9
    keys: dict[str, Any] = {
        "Lowest price": lambda h: (h.price, h.id),
        "Top rated": lambda h: (-h.rating, h.id),
        "Nearest": lambda h: (h.distance_to(mark) or far, h.id),
    }
    return sorted(shown, key=keys.get(ui.sort, lambda h: h.id))


# --- the app -------------------------------------------------------------------------------
class HotelApp(App):
    manifest = MANIFEST

    data: HotelData
    ui: HotelUi

    def initial_data(self) -> HotelData:
        return HotelData()

    def initial_ui(self) -> HotelUi:
        return HotelUi()

    def toast(self, text: str) -> None:
        """A toast; the kit's own (the capsule menu's "Link copied") in the locale's words."""
        if self.system.locale != DEFAULT_LOCALE:
            text = app_strings(type(self), self.system.locale).strings.get(text, text)
        super().toast(text)

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def search(self) -> None:
        if not self.ui.city.strip():
            self.toast(self.t("Enter a city"))
            return
        if nights(self.ui.checkin, self.ui.checkout) <= 0:
            self.toast(self.t("Enter check-in and check-out dates (YYYY-MM-DD)"))
            return
        marks = landmarks(self.data, self.ui.city)
        if self.ui.landmark not in marks:
            self.ui.landmark = marks[0] if marks else ""
        self.go("results")

    def toggle_filter(self, label: str) -> None:
        group = RATINGS if label in RATINGS else DISTANCES
        kept = tuple(f for f in self.ui.filters if f not in group)
        self.ui.filters = kept if label in self.ui.filters else (*kept, label)

    def start_booking(self, hotel_id: int) -> None:
        self.ui.guest, self.ui.paying = "", None
        self.go("book", hotel_id)

    def ask_pay(self, hotel_id: int) -> None:
        hotel = self.data.hotels.get(hotel_id)
        n = nights(self.ui.checkin, self.ui.checkout)
        if hotel is None or n <= 0:
            return
        if not self.ui.guest.strip():
            self.toast(self.t("Enter the guest's name"))
            return
        self.ui.paying = PayState(hotel.price * n, hotel.name,
                                  self.t("{checkin} to {checkout}", checkin=self.ui.checkin,
                                         checkout=self.ui.checkout))

    def set_pin(self, pin: str) -> None:
        if self.ui.paying is not None:
            self.ui.paying.pin = pin

    def confirm_pay(self, hotel_id: int) -> None:
        hotel, state = self.data.hotels.get(hotel_id), self.ui.paying
        if hotel is None or state is None or pay(self.system, state) is not None:
            return
        self.data.orders.new(hotel=hotel.id, hotel_name=hotel.name, city=hotel.city,
                             checkin=iso_day(self.ui.checkin), checkout=iso_day(self.ui.checkout),
                             nights=nights(self.ui.checkin, self.ui.checkout),
                             guest=self.ui.guest.strip(), total=state.amount, status="paid")
        self.ui.paying = None
        self.toast(self.t("Booking confirmed"))
        self.stack = [Route("main"), Route("orders")]

    def cancel_order(self, order_id: int) -> None:
        order = self.data.orders.get(order_id)
        self.ui.cancelling = None
        if order is None or order.status != "paid":
            return
        self.data.orders.update(order_id, status="cancelled")
        wallet = self.system.wallet
        wallet.balance += order.total
        wallet.transactions.new(amount=order.total, counterparty=order.hotel_name,
                                date=self.system.now.date().isoformat(), memo=self.t("Refund"))
        self.toast(self.t("Booking cancelled, refund sent to your wallet"))

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name == "results":
            screen = self.results_screen()
        elif route.name == "hotel":
            screen = self.hotel_screen(route.arg)
        elif route.name == "book":
            screen = self.book_screen(route.arg)
        elif route.name == "orders":
            screen = self.orders_screen()
        elif route.name == "order":
            screen = self.order_screen(route.arg)
        else:
            screen = self.search_screen()
        screen = with_capsule(self, screen)
        return in_locale(self, screen)

    def search_screen(self) -> Screen:
        ui = self.ui
        return Screen(top_bar=TopBar("Hotel Booking"), content=[
            TextField(ui.city, lambda v: self.set_ui(city=v), id="city", label="City",
                      hint="City"),
            TextField(ui.checkin, lambda v: self.set_ui(checkin=v), id="checkin",
                      label="Check-in", hint="Check-in (YYYY-MM-DD)"),
            TextField(ui.checkout, lambda v: self.set_ui(checkout=v), id="checkout",
                      label="Check-out", hint="Check-out (YYYY-MM-DD)"),
            Button("Search hotels", self.search, id="search_hotels"),
            NavRow("My orders", lambda: self.go("orders"), id="my_orders"),
        ])

    def hotel_row(self, h: Hotel) -> Node:
        d = h.distance_to(self.ui.landmark)
        where = self.t("{km} to {landmark}", km=self.dist(d), landmark=self.ui.landmark) \
            if d is not None else h.address
        return ListItem(h.name, id=f"hotel_{h.id}", glyph="H",
                        parts=[("price", self.t("{price}/night", price=yuan(h.price))),
                               ("rating", f"{stars(h.rating)} ★"), ("distance", where)],
                        on_click=lambda: self.go("hotel", h.id))

    def dist(self, meters: int) -> str:
        """A distance as the locale writes it: "1.2 km", 1.2公里."""
        return self.t("{value} km", value=f"{meters / 1000:.1f}")

    def near(self, landmark: str) -> str:
        """The landmark filter chip's label ("Near West Lake", 西湖附近)."""
        return self.t("Near {landmark}", landmark=landmark)

    def results_screen(self) -> Screen:
        ui = self.ui
        shown = results(self.data, ui)
        near = {self.near(m): m for m in landmarks(self.data, ui.city)}
        return Screen(
            top_bar=TopBar(f"{ui.city.strip().title()} · {ui.checkin} – {ui.checkout}",
                           on_back=self.back),
            content=[
                Tabs(SORTS, ui.sort, lambda s: self.set_ui(sort=s), id="sort"),
                Chips(list(near), [self.near(ui.landmark)],
                      lambda label: self.set_ui(landmark=near[label]), id="landmarks"),
                Chips([*RATINGS, *DISTANCES], ui.filters, self.toggle_filter, id="filters"),
                TextField(ui.max_price, lambda v: self.set_ui(max_price=v), id="max_price",
                          label="Max price per night (¥)", hint="Max price per night"),
                Text(self.t("{count} hotels", count=len(shown)), style="caption",
                     id="result_count"),
                VirtualList(len(shown), lambda i: self.hotel_row(shown[i]), id="hotel_list",
                            empty_text="No hotels match"),
            ])

    def hotel_screen(self, hotel_id: int) -> Screen:
        h = self.data.hotels.get(hotel_id)
        if h is None:
            return Screen(top_bar=TopBar("Hotel", on_back=self.back), content=[])
        n = nights(self.ui.checkin, self.ui.checkout)
        rows: list[Node] = [
            Text(h.name, style="title", id="hotel_name"),
            Text(h.address, id="hotel_address", copyable=True),
            Text(self.t("Rating {stars} ★", stars=stars(h.rating)), id="hotel_rating"),
            Text(self.t("{price} per night", price=yuan(h.price)), id="hotel_price"),
            *[Text(self.t("{km} to {landmark}", km=self.dist(d), landmark=m), style="caption",
                   id=f"distance_{i}")
              for i, (m, d) in enumerate(h.distances)],
        ]
        if n > 0:
            rows.append(Text(self.t("{n} nights: {total}", n=n, total=yuan(h.price * n)),
                             id="hotel_total"))
            rows.append(Button("Book", lambda: self.start_booking(hotel_id), id="book"))
        return Screen(top_bar=TopBar(h.name, on_back=self.back), content=rows)

    def book_screen(self, hotel_id: int) -> Screen:
        h = self.data.hotels.get(hotel_id)
        n = nights(self.ui.checkin, self.ui.checkout)
        if h is None or n <= 0:
            return Screen(top_bar=TopBar("Book", on_back=self.back), content=[])
        paying = self.ui.paying
        dialog = None if paying is None else PaySheet(
            paying, on_pin=self.set_pin, on_pay=lambda: self.confirm_pay(hotel_id),
            on_cancel=lambda: self.set_ui(paying=None))
        return Screen(
            top_bar=TopBar("Book", on_back=self.back),
            content=[Text(h.name, style="title", id="book_hotel"),
                     Text(self.t("{checkin} to {checkout} · {n} nights",
                                 checkin=self.ui.checkin, checkout=self.ui.checkout, n=n),
                          id="book_dates"),
                     TextField(self.ui.guest, lambda v: self.set_ui(guest=v), id="guest",
                               label="Guest name", hint="Guest name"),
                     Text(self.t("Total {total}", total=yuan(h.price * n)), id="book_total"),
                     Button(self.t("Pay {total}", total=yuan(h.price * n)),
                            lambda: self.ask_pay(hotel_id),
                            id="pay")],
            dialog=dialog, on_dismiss=lambda: self.set_ui(paying=None))

    def orders_screen(self) -> Screen:
        orders = sorted(self.data.orders, key=lambda o: -o.id)
        items = [ListItem(o.hotel_name, self.t("{checkin} to {checkout} · {status}",
                                               checkin=o.checkin, checkout=o.checkout,
                                               status=self.t(o.status)),
                          id=f"order_{o.id}",
                          on_click=lambda o=o: self.go("order", o.id))  # type: ignore[misc]
                 for o in orders]
        return Screen(top_bar=TopBar("My orders", on_back=self.back),
                      content=[VirtualList(len(items), lambda i: items[i], id="order_list",
                                           empty_text="No orders yet")])

    def order_screen(self, order_id: int) -> Screen:
        o = self.data.orders.get(order_id)
        if o is None:
            return Screen(top_bar=TopBar("Order", on_back=self.back), content=[])
        rows: list[Node] = [
            Text(o.hotel_name, style="title", id="order_hotel"),
            Text(self.t("{checkin} to {checkout} · {n} nights", checkin=o.checkin,
                        checkout=o.checkout, n=o.nights), id="order_dates"),
            Text(self.t("Guest: {guest}", guest=o.guest), id="order_guest"),
            Text(self.t("Total {total} · {status}", total=yuan(o.total),
                        status=self.t(o.status)), id="order_total"),
        ]
        if o.status == "paid":
            rows.append(Button("Cancel booking", lambda: self.set_ui(cancelling=order_id),
                               id="cancel_order", style="danger"))
        dialog = None
        if self.ui.cancelling == order_id:
            dialog = ConfirmDialog("Cancel this booking?",
                                   self.t("{total} will be refunded to your wallet.",
                                          total=yuan(o.total)),
                                   on_confirm=lambda: self.cancel_order(order_id),
                                   on_cancel=lambda: self.set_ui(cancelling=None),
                                   confirm="Cancel booking", cancel="Keep",
                                   destructive=True)
        return Screen(top_bar=TopBar("Order", on_back=self.back), content=rows,
                      dialog=dialog, on_dismiss=lambda: self.set_ui(cancelling=None))
