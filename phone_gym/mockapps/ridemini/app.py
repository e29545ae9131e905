"""Ride: in-chat ride hailing, a mini-program inside Chat (WeChat), like DiDi's.

Home: the pickup (the current location, or a typed address) and the destination, searched
with suggestions from the known places. Then the car types with their price estimates and
how many minutes away the nearest car is; "Now" or "Schedule" (a day and a time); a coupon
picker (a coupon applies when the fare reaches its minimum); confirming pays the fare less
the coupon through WeChat Pay (PIN). A trip shows its driver and plate and can be cancelled:
free while scheduled or within two minutes of the request, a fee after that. "My trips"
lists every trip with what was paid.

Places, car types, coupons and trips are the mini-program's own ``Store``
(``apps.RideMini.*``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ...world.app import App, Route, app_strings
from ...world.data import Store, Table
from ...world.kit import (
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

HERE = "Current location"
WHEN = ("Now", "Schedule")
CANCEL_FEE = 500
FREE_CANCEL_MINUTES = 2
#: How long "Finding you a driver…" shows after a ride is requested for now.
MATCH_SECONDS = 30
DRIVERS = ("Wang Qiang", "Li Jun", "Zhao Min", "Huang Lei", "Zhou Tao", "Wu Hao", "Xu Fei",
           "Sun Bo", "Ma Lin")
#: The same drivers as a zh-CN phone names them.
DRIVERS_ZH = ("王强", "李军", "赵敏", "黄磊", "周涛", "吴昊", "徐飞", "孙波", "马林")
PLATE_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Place:
    """A known place and its distance from the current location, in meters."""

    id: int
    name: str
    address: str
    distance: int


@dataclass(frozen=True)
class CarType:
    """A car type: fare ``base`` + ``per_km`` (cents), nearest car ``eta`` minutes away."""

    id: int
    name: str
    base: int
    per_km: int
    eta: int


@dataclass(frozen=True)
class Coupon:
    """``off`` cents off a fare of at least ``min_fare`` cents; ``used`` once spent."""

    id: int
    title: str
    off: int
    min_fare: int
    used: bool = False


@dataclass(frozen=True)
class Trip:
    """A trip: ``when`` "YYYY-MM-DD HH:MM" (for a scheduled one, its time; else the request
    time); ``fare`` before the coupon, ``paid`` after it, ``fee`` kept on a cancel;
    ``status`` scheduled, ongoing, completed or cancelled."""

    id: int
    pickup: str
    destination: str
    car: str
    when: str
    fare: int
    paid: int
    status: str
    coupon: str = ""
    driver: str = ""
    plate: str = ""
    fee: int = 0


@dataclass
class RideMiniData(Store):
    places: Table[Place] = field(default_factory=lambda: Table(kind=Place))
    cars: Table[CarType] = field(default_factory=lambda: Table(kind=CarType))
    coupons: Table[Coupon] = field(default_factory=lambda: Table(kind=Coupon))
    trips: Table[Trip] = field(default_factory=lambda: Table(kind=Trip))


@dataclass
class RideMiniUi:
    """Transient state: the request being put together, dialogs and a payment."""

    pickup: str = ""
    query: str = ""
    destination: str = ""
    when: str = "Now"
    day: str = ""
    time: str = ""
    car: str = ""
    coupon: int = 0
    paying: PayState | None = None
    cancelling: int | None = None
    matching: tuple[int, datetime] | None = None  # a trip still looking for a driver, until
    tip_seen: bool = False  # the safety tip pops up once each time the mini-program opens


# --- pure helpers ---------------------------------------------------------------------------
def fare(car: CarType, meters: int) -> int:
    """The estimate in cents, rounded to 10 fen."""
    return round((car.base + car.per_km * meters / 1000) / 10) * 10


def plate_for(trip_id: int) -> str:
    """The plate of the car that takes trip ``trip_id`` (deterministic: a verifier knows it)."""
    n = trip_id * 7_919 + 104_729
    chars = "".join(PLATE_CHARS[(n // len(PLATE_CHARS) ** i) % len(PLATE_CHARS)]
                    for i in range(5))
    return f"京B{chars}"


def driver_for(trip_id: int, locale: str = DEFAULT_LOCALE) -> str:
    names = DRIVERS if locale == DEFAULT_LOCALE else DRIVERS_ZH
    return names[(trip_id * 5) % len(names)]


def suggestions(data: RideMiniData, query: str) -> list[Place]:
    q = query.strip().lower()
    if not q:
        return []
    return sorted((p for p in data.places if q in p.name.lower() or q in p.address.lower()),
                  key=lambda p: (p.name, p.id))


def usable(coupon: Coupon, amount: int) -> bool:
    return not coupon.used and amount >= coupon.min_fare


def valid_when(day: str, time: str) -> bool:
    try:
        datetime.strptime(f"{day.strip()} {time.strip()}", "%Y-%m-%d %H:%M")
    except ValueError:
        return False
    return True


# --- the app -------------------------------------------------------------------------------
class RideMiniApp(App):
    manifest = MANIFEST

    data: RideMiniData
    ui: RideMiniUi

    def initial_data(self) -> RideMiniData:
        return RideMiniData()

    def initial_ui(self) -> RideMiniUi:
        return RideMiniUi()

    def toast(self, text: str) -> None:
        """A toast; the kit's own (the capsule menu's "Link copied") in the locale's words."""
        if self.system.locale != DEFAULT_LOCALE:
            text = app_strings(type(self), self.system.locale).strings.get(text, text)
        super().toast(text)

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def place(self, name: str) -> Place | None:
        return next((p for p in self.data.places if p.name == name), None)

    def car(self, name: str) -> CarType | None:
        return next((c for c in self.data.cars if c.name == name), None)

    def estimate(self) -> int:
        place, car = self.place(self.ui.destination), self.car(self.ui.car)
        return fare(car, place.distance) if place and car else 0

    def discount(self) -> int:
        coupon = self.data.coupons.get(self.ui.coupon) if self.ui.coupon else None
        amount = self.estimate()
        return min(coupon.off, amount) if coupon and usable(coupon, amount) else 0

    def choose_destination(self, place_id: int) -> None:
        place = self.data.places.get(place_id)
        if place is None:
            return
        self.ui.destination, self.ui.query = place.name, place.name
        self.ui.car, self.ui.coupon = "", 0
        self.go("cars")

    def choose_car(self, name: str) -> None:
        self.ui.car = name
        coupon = self.data.coupons.get(self.ui.coupon) if self.ui.coupon else None
        if coupon is not None and not usable(coupon, self.estimate()):
            self.ui.coupon = 0

    def choose_coupon(self, coupon_id: int) -> None:
        coupon = self.data.coupons.get(coupon_id) if coupon_id else None
        if coupon_id and (coupon is None or not usable(coupon, self.estimate())):
            self.toast(self.t("This coupon can't be used for this fare"))
            return
        self.ui.coupon = coupon_id
        self.back()

    def confirm(self) -> None:
        ui = self.ui
        if not ui.car or self.estimate() <= 0:
            self.toast(self.t("Choose a car type"))
            return
        if ui.when == "Schedule" and not valid_when(ui.day, ui.time):
            self.toast(self.t("Enter a day (YYYY-MM-DD) and a time (HH:MM)"))
            return
        if ui.when == "Now" and any(t.status == "ongoing" for t in self.data.trips):
            self.toast(self.t("You already have a trip in progress"))
            return
        amount = self.estimate() - self.discount()
        ui.paying = PayState(amount, self.t("Ride"), self.t("{car} to {place}", car=self.t(ui.car),
                                                             place=ui.destination))

    def set_pin(self, pin: str) -> None:
        if self.ui.paying is not None:
            self.ui.paying.pin = pin

    def confirm_pay(self) -> None:
        ui, state = self.ui, self.ui.paying
        if state is None or pay(self.system, state) is not None:
            return
        coupon = self.data.coupons.get(ui.coupon) if ui.coupon else None
        if coupon is not None and self.discount() > 0:
            self.data.coupons.update(coupon.id, used=True)
        else:
            coupon = None
        scheduled = ui.when == "Schedule"
        when = (f"{ui.day.strip()} {ui.time.strip()}" if scheduled
                else self.system.now.strftime("%Y-%m-%d %H:%M"))
        trip = self.data.trips.new(
            pickup=ui.pickup.strip() or HERE, destination=ui.destination, car=ui.car,
            when=when, fare=self.estimate(), paid=state.amount,
            status="scheduled" if scheduled else "ongoing",
            coupon=coupon.title if coupon else "")
        self.data.trips.update(trip.id, driver=driver_for(trip.id, self.system.locale),
                               plate=plate_for(trip.id))
        ui.paying, ui.coupon, ui.car = None, 0, ""
        if not scheduled:
            ui.matching = (trip.id, self.system.now + timedelta(seconds=MATCH_SECONDS))
        self.toast(self.t("Ride scheduled" if scheduled else "Driver on the way"))
        self.stack = [Route("main"), Route("trip", trip.id)]

    def fee(self, trip: Trip) -> int:
        """What cancelling ``trip`` now costs."""
        if trip.status != "ongoing":
            return 0
        try:
            asked = datetime.strptime(trip.when, "%Y-%m-%d %H:%M")
        except ValueError:
            return 0
        waited = (self.system.now.replace(tzinfo=None) - asked).total_seconds() / 60
        return CANCEL_FEE if waited > FREE_CANCEL_MINUTES else 0

    def cancel_trip(self, trip_id: int) -> None:
        trip = self.data.trips.get(trip_id)
        self.ui.cancelling = None
        if trip is None or trip.status not in ("scheduled", "ongoing"):
            return
        fee = min(self.fee(trip), trip.paid)
        self.data.trips.update(trip_id, status="cancelled", fee=fee)
        refund = trip.paid - fee
        if refund > 0:
            wallet = self.system.wallet
            wallet.balance += refund
            wallet.transactions.new(amount=refund, counterparty=self.t("Ride"),
                                    date=self.system.now.date().isoformat(),
                                    memo=self.t("Refund"))
        self.toast(self.t("Trip cancelled, fee {fee}", fee=yuan(fee)) if fee
                   else self.t("Trip cancelled"))

    def searching(self, trip_id: int) -> bool:
        """Whether the trip's screen still shows "Finding you a driver…"."""
        m = self.ui.matching
        return m is not None and m[0] == trip_id and self.system.now < m[1]

    @property
    def ticking(self) -> bool:
        return self.route.name == "trip" and self.ui.matching is not None

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        views: dict[str, Any] = {"cars": self.cars_screen, "coupons": self.coupons_screen,
                                 "trip": self.trip_screen, "trips": self.trips_screen}
        make = views.get(route.name)
        screen = with_capsule(self, make(route.arg) if make else self.home_screen())
        return in_locale(self, screen)

    def here(self, pickup: str) -> str:
        """The pickup as shown: the typed address, or "Current location" (当前位置)."""
        return pickup.strip() or self.t(HERE)

    def home_screen(self) -> Screen:
        ui = self.ui
        found = suggestions(self.data, ui.query)
        items = [ListItem(p.name, p.address, id=f"place_{p.id}", glyph="⌖",
                          on_click=lambda p=p: self.choose_destination(  # type: ignore[misc]
                              p.id)) for p in found]
        tip = None if ui.tip_seen else ConfirmDialog(
            "Ride safely", "Check the plate before you get in, and share your trip with a "
            "friend from the trip page.", on_confirm=lambda: self.set_ui(tip_seen=True),
            on_cancel=lambda: self.set_ui(tip_seen=True), confirm="Got it", cancel="Close")
        return Screen(top_bar=TopBar("Ride"), dialog=tip,
                      on_dismiss=lambda: self.set_ui(tip_seen=True), content=[
            Text(self.t("Pickup: {place}", place=self.here(ui.pickup)), id="pickup_shown"),
            TextField(ui.pickup, lambda v: self.set_ui(pickup=v), id="pickup",
                      label="Pickup", hint="Pickup (blank: current location)"),
            Button("Use current location", lambda: self.set_ui(pickup=""), id="use_here",
                   style="secondary"),
            TextField(ui.query, lambda v: self.set_ui(query=v), id="destination",
                      label="Where to?", hint="Where to?"),
            VirtualList(len(items), lambda i: items[i], id="suggestions",
                        empty_text="Type a place to see suggestions"),
            NavRow("My trips", lambda: self.go("trips"), id="my_trips"),
        ])

    def car_row(self, c: CarType, meters: int) -> Node:
        chosen = "✓ " if c.name == self.ui.car else ""
        return ListItem(f"{chosen}{self.t(c.name)}", id=f"car_{c.id}", glyph="🚗",
                        parts=[("estimate", yuan(fare(c, meters))),
                               ("eta", self.t("{n} min away", n=c.eta))],
                        on_click=lambda: self.choose_car(c.name))

    def cars_screen(self, _: Any = None) -> Screen:
        ui = self.ui
        place = self.place(ui.destination)
        if place is None:
            return Screen(top_bar=TopBar("Choose a ride", on_back=self.back), content=[])
        cars = sorted(self.data.cars, key=lambda c: c.id)
        content: list[Node] = [
            Text(f"{self.here(ui.pickup)} → {place.name}", id="route"),
            Tabs(WHEN, ui.when, lambda w: self.set_ui(when=w), id="when"),
        ]
        if ui.when == "Schedule":
            content += [TextField(ui.day, lambda v: self.set_ui(day=v), id="day", label="Day",
                                  hint="Day (YYYY-MM-DD)"),
                        TextField(ui.time, lambda v: self.set_ui(time=v), id="time",
                                  label="Time", hint="Time (HH:MM)")]
        coupon = self.data.coupons.get(ui.coupon) if ui.coupon else None
        content += [
            VirtualList(len(cars), lambda i: self.car_row(cars[i], place.distance),
                        id="car_list", empty_text="No cars available"),
            NavRow("Coupons", lambda: self.go("coupons"), id="coupons",
                   summary=coupon.title if coupon else "None"),
        ]
        if ui.car:
            total = self.estimate() - self.discount()
            content += [Text(f"{self.t(ui.car)} · {yuan(total)}", id="summary"),
                        Button(self.t("Confirm {car}", car=self.t(ui.car)), self.confirm,
                               id="confirm")]
        dialog = None if ui.paying is None else PaySheet(
            ui.paying, on_pin=self.set_pin, on_pay=self.confirm_pay,
            on_cancel=lambda: self.set_ui(paying=None))
        return Screen(top_bar=TopBar("Choose a ride", on_back=self.back), content=content,
                      dialog=dialog, on_dismiss=lambda: self.set_ui(paying=None))

    def coupons_screen(self, _: Any = None) -> Screen:
        amount = self.estimate()
        coupons = sorted(self.data.coupons, key=lambda c: c.id)
        items = [ListItem("No coupon", id="coupon_none", on_click=lambda: self.choose_coupon(0))]
        for c in coupons:
            state = self.t("used") if c.used else (
                self.t("ok") if usable(c, amount) else
                self.t("fares from {amount}", amount=yuan(c.min_fare)))
            items.append(ListItem(c.title, id=f"coupon_{c.id}",
                                  parts=[("off", self.t("{amount} off", amount=yuan(c.off))),
                                         ("state", state)],
                                  on_click=lambda c=c: self.choose_coupon(  # type: ignore[misc]
                                      c.id)))
        return Screen(top_bar=TopBar("Coupons", on_back=self.back),
                      content=[VirtualList(len(items), lambda i: items[i], id="coupon_list")])

    def trip_screen(self, trip_id: int) -> Screen:
        t = self.data.trips.get(trip_id)
        if t is None:
            return Screen(top_bar=TopBar("Trip", on_back=self.back), content=[])
        rows: list[Node] = [
            Text(f"{self.here(t.pickup if t.pickup != HERE else '')} → {t.destination}",
                 style="title", id="trip_route"),
            Text(f"{self.t(t.car)} · {self.t(t.status)}", id="trip_status"),
            Text(t.when, id="trip_when"),
        ]
        if self.searching(trip_id):
            rows.append(Text("Finding you a driver…", style="caption", id="loading"))
        else:
            rows += [Text(self.t("Driver {name}", name=t.driver), id="trip_driver"),
                     Text(self.t("Plate {plate}", plate=t.plate), id="trip_plate",
                          copyable=True)]
        paid = self.t("Paid {amount}", amount=yuan(t.paid))
        rows += [
            Text(paid + (self.t(" · coupon {title}", title=t.coupon) if t.coupon else ""),
                 id="trip_paid"),
        ]
        if t.status in ("scheduled", "ongoing"):
            rows.append(Button("Cancel trip", lambda: self.set_ui(cancelling=trip_id),
                               id="cancel_trip", style="danger"))
        dialog = None
        if self.ui.cancelling == trip_id:
            fee = self.fee(t)
            dialog = ConfirmDialog(
                "Cancel this trip?",
                self.t("A {fee} cancellation fee applies.", fee=yuan(fee)) if fee
                else self.t("Cancelling is free."),
                on_confirm=lambda: self.cancel_trip(trip_id),
                on_cancel=lambda: self.set_ui(cancelling=None), confirm="Cancel trip",
                cancel="Keep", destructive=True)
        return Screen(top_bar=TopBar("Trip", on_back=self.back), content=rows, dialog=dialog,
                      on_dismiss=lambda: self.set_ui(cancelling=None))

    def trips_screen(self, _: Any = None) -> Screen:
        trips = sorted(self.data.trips, key=lambda t: (t.when, t.id), reverse=True)
        items = [ListItem(t.destination, id=f"trip_{t.id}",
                          parts=[("when", t.when), ("status", self.t(t.status)),
                                 ("paid", yuan(t.paid))],
                          on_click=lambda t=t: self.go("trip", t.id))  # type: ignore[misc]
                 for t in trips]
        return Screen(top_bar=TopBar("My trips", on_back=self.back),
                      content=[VirtualList(len(items), lambda i: items[i], id="trip_list",
                                           empty_text="No trips yet")])
