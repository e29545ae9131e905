"""Bike & Parking: a mini-program inside Chat (WeChat) for shared bikes and car parks.

Bikes tab: the bikes and e-bikes nearby (distance, battery), a kind filter and a sort order;
a bike's page unlocks it, or its number is typed (the QR scan of the real app). While a ride
is in progress its card ends it at a parking zone; ending outside a zone costs a fee, which a
pop-up warns about. Passes tab: weekly and monthly plans bought with WeChat Pay (PIN). Parking
tab: car parks near a place (distance, price per hour, free spaces) with distance and space
filters and sorting, reserving a space for a time window, and paying a plate's parking. Me
tab: ride history with costs, my passes, my reservations and my plates.

Everything is the mini-program's own ``Store`` (``apps.Bike.*``): verifiers read rides,
passes, reservations and parking sessions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
    Dialog,
    DialogButton,
    ListItem,
    Node,
    Screen,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

TABS = ("Bikes", "Passes", "Parking", "Me")
KINDS = ("Bike", "E-bike")
BIKE_SORTS = ("Nearest", "Most battery")
PARK_SORTS = ("Nearest", "Lowest price", "Most spaces")
PARK_DISTANCES = {"Within 500 m": 500, "Within 1 km": 1000, "Within 2 km": 2000}
FREE_ONLY = "Has free spaces"
#: Price of one ride by kind, in cents, and the fee for parking outside a zone.
RIDE_PRICE = {"Bike": 150, "E-bike": 300}
OUTSIDE_FEE = 500


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Bike:
    """A bike nearby: ``number`` printed on it, ``kind`` Bike or E-bike, meters away,
    ``battery`` percent (0 for a plain bike)."""

    id: int
    number: str
    kind: str
    distance: int
    battery: int = 0


@dataclass(frozen=True)
class Ride:
    """A ride: ``status`` riding or ended; ``zone`` where it ended ("" outside a zone);
    ``cost`` and ``fee`` in cents."""

    id: int
    bike: str
    kind: str
    day: str
    status: str = "riding"
    zone: str = ""
    cost: int = 0
    fee: int = 0


@dataclass(frozen=True)
class Zone:
    """A parking zone for bikes, meters from here."""

    id: int
    name: str
    distance: int


@dataclass(frozen=True)
class Plan:
    """A pass on sale: ``days`` of free rides for ``price`` cents."""

    id: int
    name: str
    days: int
    price: int


@dataclass(frozen=True)
class Pass:
    """A bought pass."""

    id: int
    plan: int
    name: str
    days: int
    price: int
    bought: str


@dataclass(frozen=True)
class CarPark:
    """A car park near ``place``: meters away, ``rate`` cents per hour, ``free`` spaces."""

    id: int
    name: str
    place: str
    distance: int
    rate: int
    free: int


@dataclass(frozen=True)
class Reservation:
    """A reserved space: ``day`` ISO, ``start``/``end`` HH:MM, ``total`` cents."""

    id: int
    park: int
    park_name: str
    day: str
    start: str
    end: str
    plate: str
    total: int
    status: str = "paid"


@dataclass(frozen=True)
class Plate:
    id: int
    plate: str


@dataclass(frozen=True)
class Session:
    """A parking stay to pay: ``amount`` cents; ``status`` unpaid or paid."""

    id: int
    plate: str
    park_name: str
    hours: int
    amount: int
    status: str = "unpaid"


@dataclass
class BikeData(Store):
    bikes: Table[Bike] = field(default_factory=lambda: Table(kind=Bike))
    rides: Table[Ride] = field(default_factory=lambda: Table(kind=Ride))
    zones: Table[Zone] = field(default_factory=lambda: Table(kind=Zone))
    plans: Table[Plan] = field(default_factory=lambda: Table(kind=Plan))
    passes: Table[Pass] = field(default_factory=lambda: Table(kind=Pass))
    parks: Table[CarPark] = field(default_factory=lambda: Table(kind=CarPark))
    reservations: Table[Reservation] = field(default_factory=lambda: Table(kind=Reservation))
    plates: Table[Plate] = field(default_factory=lambda: Table(kind=Plate))
    sessions: Table[Session] = field(default_factory=lambda: Table(kind=Session))
    location: str = ""  # the location prompt's answer: "" not asked yet, allowed or denied


@dataclass
class BikeUi:
    """Transient state: tab, filters, forms, the open dialog and a payment in progress."""

    tab: str = "Bikes"
    kinds: tuple[str, ...] = ()
    bike_sort: str = "Nearest"
    number: str = ""
    ending: int | None = None  # a zone id, or 0 for "outside a zone"
    place: str = ""
    searched: str = ""
    park_sort: str = "Nearest"
    park_filters: tuple[str, ...] = ()
    day: str = ""
    start: str = ""
    end: str = ""
    plate: str = ""
    new_plate: str = ""
    pay_plate: str = ""
    paying: PayState | None = None
    buying: tuple[str, int] | None = None  # ("plan" | "park" | "session", id)


# --- pure helpers ---------------------------------------------------------------------------
def minutes(hhmm: str) -> int | None:
    """Minutes after midnight of an "HH:MM" time, or None."""
    try:
        h, m = hhmm.strip().split(":")
        value = int(h) * 60 + int(m)
    except ValueError:
        return None
    return value if 0 <= int(h) < 24 and 0 <= int(m) < 60 else None


def hours(start: str, end: str) -> int:
    """Whole hours billed for a window (started hours count), 0 when it is not a window."""
    a, b = minutes(start), minutes(end)
    if a is None or b is None or b <= a:
        return 0
    return -(-(b - a) // 60)


def meters(d: int) -> str:
    return f"{d} m" if d < 1000 else f"{d / 1000:.1f} km"


def bikes_shown(data: BikeData, ui: BikeUi) -> list[Bike]:
    shown = [b for b in data.bikes if not ui.kinds or b.kind in ui.kinds]
    if ui.bike_sort == "Most battery":
        return sorted(shown, key=lambda b: (-b.battery, b.distance, b.id))
    return sorted(shown, key=lambda b: (b.distance, b.id))


def parks_shown(data: BikeData, ui: BikeUi) -> list[CarPark]:
    place = ui.searched.strip().lower()
    shown = [p for p in data.parks if place and p.place.lower() == place]
    for f in ui.park_filters:
        if f in PARK_DISTANCES:
            shown = [p for p in shown if p.distance <= PARK_DISTANCES[f]]
        if f == FREE_ONLY:
            shown = [p for p in shown if p.free > 0]
    keys: dict[str, Any] = {"Lowest price": lambda p: (p.rate, p.id),
                            "Most spaces": lambda p: (-p.free, p.id)}
    return sorted(shown, key=keys.get(ui.park_sort, lambda p: (p.distance, p.id)))


def active_ride(data: BikeData) -> Ride | None:
    return next((r for r in data.rides if r.status == "riding"), None)


# --- the app -------------------------------------------------------------------------------
class BikeApp(App):
    manifest = MANIFEST

    data: BikeData
    ui: BikeUi

    def initial_data(self) -> BikeData:
        return BikeData()

    def initial_ui(self) -> BikeUi:
        return BikeUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def today(self) -> str:
        return self.system.now.date().isoformat()

    # --- bikes and rides -----------------------------------------------------------------
    def answer_location(self, choice: str) -> None:
        """The location prompt's answer (kept: the app does not ask again)."""
        self.data.location = choice

    def toggle_kind(self, kind: str) -> None:
        kinds = self.ui.kinds
        self.ui.kinds = tuple(k for k in kinds if k != kind) if kind in kinds else (*kinds,
                                                                                     kind)

    def unlock(self, number: str) -> None:
        number = number.strip()
        bike = next((b for b in self.data.bikes if b.number == number), None)
        if bike is None:
            self.toast(self.t("No bike with that number nearby"))
            return
        if active_ride(self.data) is not None:
            self.toast(self.t("End your current ride first"))
            return
        if bike.kind == "E-bike" and bike.battery < 10:
            self.toast(self.t("Battery too low to ride"))
            return
        ride = self.data.rides.new(bike=bike.number, kind=bike.kind, day=self.today())
        self.ui.number = ""
        self.toast(self.t("Bike {number} unlocked", number=bike.number))
        self.stack = [Route("main"), Route("ride", ride.id)]

    def end_ride(self, zone_id: int) -> None:
        ride = active_ride(self.data)
        self.ui.ending = None
        if ride is None:
            return
        zone = self.data.zones.get(zone_id) if zone_id else None
        if zone_id and zone is None:
            return
        fee = 0 if zone is not None else OUTSIDE_FEE
        free = any(True for _ in self.data.passes)
        cost = (0 if free else RIDE_PRICE.get(ride.kind, 150)) + fee
        self.data.rides.update(ride.id, status="ended", zone=zone.name if zone else "",
                               fee=fee, cost=cost)
        self.toast(self.t("Ride ended · {cost}", cost=yuan(cost)))
        self.stack = [Route("main"), Route("history")]

    # --- payments --------------------------------------------------------------------------
    def ask_pay(self, what: str, key: int) -> None:
        if what == "plan":
            plan = self.data.plans.get(key)
            if plan is None:
                return
            state = PayState(plan.price, self.t("Bike & Parking"), plan.name)
        elif what == "park":
            park = self.data.parks.get(key)
            n = hours(self.ui.start, self.ui.end)
            if park is None:
                return
            if len(self.ui.day.strip()) != 10 or n <= 0:
                self.toast(self.t("Enter a day (YYYY-MM-DD) and a time window (HH:MM)"))
                return
            if not self.ui.plate.strip():
                self.toast(self.t("Enter the plate number"))
                return
            state = PayState(park.rate * n, park.name, f"{self.ui.day} {self.ui.start}")
        else:
            session = self.data.sessions.get(key)
            if session is None or session.status != "unpaid":
                return
            state = PayState(session.amount, session.park_name,
                             self.t("Parking {plate}", plate=session.plate))
        self.ui.paying, self.ui.buying = state, (what, key)

    def set_pin(self, pin: str) -> None:
        if self.ui.paying is not None:
            self.ui.paying.pin = pin

    def cancel_pay(self) -> None:
        self.ui.paying, self.ui.buying = None, None

    def confirm_pay(self) -> None:
        state, buying = self.ui.paying, self.ui.buying
        if state is None or buying is None or pay(self.system, state) is not None:
            return
        what, key = buying
        self.ui.paying, self.ui.buying = None, None
        if what == "plan":
            plan = self.data.plans.get(key)
            assert plan is not None
            self.data.passes.new(plan=plan.id, name=plan.name, days=plan.days,
                                 price=plan.price, bought=self.today())
            self.toast(self.t("{plan} active", plan=plan.name))
        elif what == "park":
            park = self.data.parks.get(key)
            assert park is not None
            self.data.reservations.new(park=park.id, park_name=park.name,
                                       day=self.ui.day.strip(), start=self.ui.start.strip(),
                                       end=self.ui.end.strip(),
                                       plate=self.ui.plate.strip().upper(),
                                       total=state.amount)
            self.data.parks.update(park.id, free=max(0, park.free - 1))
            self.toast(self.t("Space reserved"))
            self.stack = [Route("main"), Route("reservations")]
        else:
            self.data.sessions.update(key, status="paid")
            self.toast(self.t("Parking paid"))

    # --- plates ------------------------------------------------------------------------------
    def add_plate(self) -> None:
        plate = self.ui.new_plate.strip().upper()
        if not plate:
            return
        if any(p.plate == plate for p in self.data.plates):
            self.toast(self.t("Plate already added"))
            return
        self.data.plates.new(plate=plate)
        self.ui.new_plate = ""

    def search_parks(self) -> None:
        if not self.ui.place.strip():
            self.toast(self.t("Enter a place"))
            return
        self.ui.searched = self.ui.place.strip()
        self.go("parks")

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        screen = self.screen_for(route)
        return in_locale(self, screen)

    def screen_for(self, route: Route) -> Screen:
        views: dict[str, Any] = {
            "bike": self.bike_screen, "ride": self.ride_screen, "parks": self.parks_screen,
            "park": self.park_screen, "reserve": self.reserve_screen,
            "paylot": self.pay_parking_screen, "history": self.history_screen,
            "reservations": self.reservations_screen, "plates": self.plates_screen,
            "mypasses": self.passes_screen,
        }
        make = views.get(route.name)
        screen = make(route.arg) if make is not None else self.main_screen()
        return with_capsule(self, screen)

    def pay_dialog(self, screen: Screen) -> Screen:
        if self.ui.paying is not None:
            screen.dialog = PaySheet(self.ui.paying, on_pin=self.set_pin,
                                     on_pay=self.confirm_pay, on_cancel=self.cancel_pay)
            screen.on_dismiss = self.cancel_pay
        return screen

    def main_screen(self) -> Screen:
        ui = self.ui
        body: list[Node] = [Tabs(TABS, ui.tab, lambda t: self.set_ui(tab=t), id="tabs")]
        if ui.tab == "Passes":
            body += self.passes_tab()
        elif ui.tab == "Parking":
            body += self.parking_tab()
        elif ui.tab == "Me":
            body += self.me_tab()
        else:
            body += self.bikes_tab()
        screen = self.pay_dialog(Screen(top_bar=TopBar("Bike & Parking"), content=body))
        if self.data.location == "" and screen.dialog is None:
            screen.dialog = Dialog(
                "Allow Bike & Parking to use your location?",
                "To show bikes, e-bikes and parking zones near you.",
                [DialogButton("Don't allow", lambda: self.answer_location("denied"),
                              id="button_deny"),
                 DialogButton("Allow", lambda: self.answer_location("allowed"),
                              id="button_allow")])
        return screen

    def bikes_tab(self) -> list[Node]:
        ui = self.ui
        ride = active_ride(self.data)
        shown = bikes_shown(self.data, ui) if self.data.location == "allowed" else []
        rows: list[Node] = []
        if ride is not None:
            rows.append(NavRow("Ride in progress", lambda: self.go("ride", ride.id),
                               id="current_ride", summary=self.bike_name(ride.kind, ride.bike)))
        rows += [
            TextField(ui.number, lambda v: self.set_ui(number=v), id="bike_number",
                      label="Bike number", hint="Type the bike number to unlock"),
            Button("Unlock", lambda: self.unlock(self.ui.number), id="unlock"),
            Chips(KINDS, ui.kinds, self.toggle_kind, id="kinds"),
            Tabs(BIKE_SORTS, ui.bike_sort, lambda s: self.set_ui(bike_sort=s), id="bike_sort"),
            VirtualList(len(shown), lambda i: self.bike_row(shown[i]), id="bike_list",
                        empty_text="No bikes nearby" if self.data.location == "allowed"
                        else "Turn on location to see bikes nearby"),
        ]
        return rows

    def toast(self, text: str) -> None:
        """A toast; the kit's own (the capsule menu's "Link copied") in the locale's words."""
        if self.system.locale != DEFAULT_LOCALE:
            text = app_strings(type(self), self.system.locale).strings.get(text, text)
        super().toast(text)

    def bike_name(self, kind: str, number: str) -> str:
        """A bike as the lists show it: "E-bike 10234" / "电单车 10234"."""
        return f"{self.t(kind)} {number}"

    def meters(self, d: int) -> str:
        """A distance: "350 m", "1.2 km" / "350米", "1.2公里"."""
        if self.system.locale == DEFAULT_LOCALE:
            return meters(d)
        return f"{d}米" if d < 1000 else f"{d / 1000:.1f}公里"

    def bike_row(self, b: Bike) -> Node:
        parts = [("distance", self.meters(b.distance))]
        if b.kind == "E-bike":
            parts.append(("battery", self.t("Battery {n}%", n=b.battery)))
        return ListItem(self.bike_name(b.kind, b.number), id=f"bike_{b.id}",
                        glyph="⚡" if b.kind == "E-bike" else "B", parts=parts,
                        on_click=lambda: self.go("bike", b.id))

    def bike_screen(self, bike_id: int) -> Screen:
        b = self.data.bikes.get(bike_id)
        if b is None:
            return Screen(top_bar=TopBar("Bike", on_back=self.back), content=[])
        rows: list[Node] = [Text(self.bike_name(b.kind, b.number), style="title",
                                 id="bike_title"),
                            Text(self.t("{distance} away", distance=self.meters(b.distance)),
                                 id="bike_distance")]
        if b.kind == "E-bike":
            rows.append(Text(self.t("Battery {n}%", n=b.battery), id="bike_battery"))
        rows += [Text(self.t("{price} per ride", price=yuan(RIDE_PRICE.get(b.kind, 150))),
                      id="bike_price"),
                 Button("Unlock this bike", lambda: self.unlock(b.number), id="unlock_bike")]
        return Screen(top_bar=TopBar(b.number, on_back=self.back), content=rows)

    def ride_screen(self, ride_id: int) -> Screen:
        r = self.data.rides.get(ride_id)
        if r is None or r.status != "riding":
            return Screen(top_bar=TopBar("Ride", on_back=self.back),
                          content=[Text("No ride in progress", id="no_ride")])
        zones = sorted(self.data.zones, key=lambda z: (z.distance, z.id)) \
            if self.data.location == "allowed" else []
        items = [ListItem(self.t("End at {zone}", zone=z.name), self.meters(z.distance),
                          id=f"zone_{z.id}",
                          glyph="P", on_click=lambda z=z: self.set_ui(  # type: ignore[misc]
                              ending=z.id))
                 for z in zones]
        content: list[Node] = [
            Text(self.t("{bike} · riding", bike=self.bike_name(r.kind, r.bike)), style="title",
                 id="ride_title"),
            Text("Park in a parking zone to avoid a fee", style="caption", id="ride_hint"),
            VirtualList(len(items), lambda i: items[i], id="zone_list",
                        empty_text="No parking zones nearby"),
            Button("End ride here", lambda: self.set_ui(ending=0), id="end_here",
                   style="secondary"),
        ]
        dialog = None
        if self.ui.ending is not None:
            zone = self.data.zones.get(self.ui.ending) if self.ui.ending else None
            if zone is None:
                dialog = ConfirmDialog("Outside a parking zone",
                                       self.t("Ending here costs a {fee} fee.",
                                              fee=yuan(OUTSIDE_FEE)),
                                       on_confirm=lambda: self.end_ride(0),
                                       on_cancel=lambda: self.set_ui(ending=None),
                                       confirm="End anyway", cancel="Keep riding")
            else:
                dialog = ConfirmDialog(self.t("End ride at {zone}?", zone=zone.name),
                                       "Lock the bike in the zone.",
                                       on_confirm=lambda: self.end_ride(zone.id),
                                       on_cancel=lambda: self.set_ui(ending=None),
                                       confirm="End ride", cancel="Keep riding")
        return Screen(top_bar=TopBar("Ride in progress", on_back=self.back), content=content,
                      dialog=dialog, on_dismiss=lambda: self.set_ui(ending=None))

    def passes_tab(self) -> list[Node]:
        plans = sorted(self.data.plans, key=lambda p: p.id)
        items = [ListItem(p.name, id=f"plan_{p.id}", glyph="★",
                          parts=[("days", self.t("{n} days", n=p.days)), ("price", yuan(p.price))],
                          trailing=Button("Buy", lambda p=p: self.ask_pay(  # type: ignore[misc]
                              "plan", p.id), id=f"buy_{p.id}", style="secondary"))
                 for p in plans]
        return [Text("Ride free with a pass", style="caption", id="passes_hint"),
                VirtualList(len(items), lambda i: items[i], id="plan_list",
                            empty_text="No passes on sale")]

    def parking_tab(self) -> list[Node]:
        return [TextField(self.ui.place, lambda v: self.set_ui(place=v), id="place",
                          label="Near", hint="Where do you want to park?"),
                Button("Find car parks", self.search_parks, id="find_parks"),
                NavRow("Pay parking", lambda: self.go("paylot"), id="pay_parking"),
                NavRow("My reservations", lambda: self.go("reservations"),
                       id="my_reservations")]

    def me_tab(self) -> list[Node]:
        return [NavRow("Ride history", lambda: self.go("history"), id="ride_history"),
                NavRow("My passes", lambda: self.go("mypasses"), id="my_passes"),
                NavRow("My reservations", lambda: self.go("reservations"),
                       id="me_reservations"),
                NavRow("My plates", lambda: self.go("plates"), id="my_plates")]

    def toggle_park_filter(self, label: str) -> None:
        group = PARK_DISTANCES if label in PARK_DISTANCES else {FREE_ONLY: 0}
        kept = tuple(f for f in self.ui.park_filters if f not in group)
        self.ui.park_filters = kept if label in self.ui.park_filters else (*kept, label)

    def parks_screen(self, _: Any = None) -> Screen:
        ui = self.ui
        shown = parks_shown(self.data, ui)
        return Screen(top_bar=TopBar(self.t("Car parks near {place}", place=ui.searched),
                                     on_back=self.back),
                      content=[
                          Tabs(PARK_SORTS, ui.park_sort, lambda s: self.set_ui(park_sort=s),
                               id="park_sort"),
                          Chips([*PARK_DISTANCES, FREE_ONLY], ui.park_filters,
                                self.toggle_park_filter, id="park_filters"),
                          Text(self.t("{n} car parks", n=len(shown)), style="caption",
                               id="park_count"),
                          VirtualList(len(shown), lambda i: self.park_row(shown[i]),
                                      id="park_list", empty_text="No car parks match"),
                      ])

    def park_row(self, p: CarPark) -> Node:
        return ListItem(p.name, id=f"park_{p.id}", glyph="P",
                        parts=[("distance", self.meters(p.distance)),
                               ("rate", self.t("{price}/h", price=yuan(p.rate))),
                               ("free", self.t("{n} free", n=p.free))],
                        on_click=lambda: self.go("park", p.id))

    def park_screen(self, park_id: int) -> Screen:
        p = self.data.parks.get(park_id)
        if p is None:
            return Screen(top_bar=TopBar("Car park", on_back=self.back), content=[])
        rows: list[Node] = [Text(p.name, style="title", id="park_name"),
                            Text(self.t("{distance} from {place}",
                                        distance=self.meters(p.distance), place=p.place),
                                 id="park_distance"),
                            Text(self.t("{price} per hour", price=yuan(p.rate)), id="park_rate"),
                            Text(self.t("{n} free spaces", n=p.free), id="park_free")]
        if p.free > 0:
            rows.append(Button("Reserve a space", lambda: self.go("reserve", park_id),
                               id="reserve"))
        return Screen(top_bar=TopBar(p.name, on_back=self.back), content=rows)

    def reserve_screen(self, park_id: int) -> Screen:
        p = self.data.parks.get(park_id)
        if p is None:
            return Screen(top_bar=TopBar("Reserve", on_back=self.back), content=[])
        ui = self.ui
        n = hours(ui.start, ui.end)
        plates = [pl.plate for pl in self.data.plates]
        return self.pay_dialog(Screen(top_bar=TopBar("Reserve a space", on_back=self.back),
                                      content=[
            Text(p.name, style="title", id="reserve_park"),
            TextField(ui.day, lambda v: self.set_ui(day=v), id="day", label="Day",
                      hint="Day (YYYY-MM-DD)"),
            TextField(ui.start, lambda v: self.set_ui(start=v), id="start", label="From",
                      hint="From (HH:MM)"),
            TextField(ui.end, lambda v: self.set_ui(end=v), id="end", label="Until",
                      hint="Until (HH:MM)"),
            Chips(plates, [ui.plate.strip().upper()], lambda v: self.set_ui(plate=v),
                  id="plate_chips"),
            TextField(ui.plate, lambda v: self.set_ui(plate=v), id="plate", label="Plate",
                      hint="Plate number"),
            Text(self.t("{n} h", n=n) + f" · {yuan(p.rate * n)}", id="reserve_total"),
            Button("Pay and reserve", lambda: self.ask_pay("park", park_id), id="pay"),
        ]))

    def pay_parking_screen(self, _: Any = None) -> Screen:
        plate = self.ui.pay_plate.strip().upper()
        due = [s for s in self.data.sessions if plate and s.plate == plate
               and s.status == "unpaid"]
        items = [ListItem(s.park_name, self.t("{n} h", n=s.hours) + f" · {yuan(s.amount)}",
                          id=f"session_{s.id}",
                          trailing=Button(self.t("Pay {amount}", amount=yuan(s.amount)),
                                          lambda s=s: self.ask_pay(  # type: ignore[misc]
                                              "session", s.id),
                                          id=f"pay_session_{s.id}", style="secondary"))
                 for s in due]
        return self.pay_dialog(Screen(top_bar=TopBar("Pay parking", on_back=self.back),
                                      content=[
            TextField(self.ui.pay_plate, lambda v: self.set_ui(pay_plate=v), id="pay_plate",
                      label="Plate", hint="Plate number"),
            Text(self.t("{n} unpaid", n=len(due)) if plate else self.t("Enter a plate"),
                 id="due_count"),
            VirtualList(len(items), lambda i: items[i], id="session_list",
                        empty_text="Nothing to pay"),
        ]))

    def history_screen(self, _: Any = None) -> Screen:
        rides = sorted((r for r in self.data.rides if r.status == "ended"), key=lambda r: -r.id)
        items = [ListItem(self.bike_name(r.kind, r.bike), id=f"ride_{r.id}",
                          parts=[("day", r.day), ("cost", yuan(r.cost)),
                                 ("zone", r.zone or self.t("Outside a zone"))])
                 for r in rides]
        return Screen(top_bar=TopBar("Ride history", on_back=self.back),
                      content=[VirtualList(len(items), lambda i: items[i], id="ride_list",
                                           empty_text="No rides yet")])

    def passes_screen(self, _: Any = None) -> Screen:
        items = [ListItem(p.name, self.t("Bought {day} · {n} days", day=p.bought,
                                                 n=p.days), id=f"pass_{p.id}")
                 for p in self.data.passes]
        return Screen(top_bar=TopBar("My passes", on_back=self.back),
                      content=[VirtualList(len(items), lambda i: items[i], id="pass_list",
                                           empty_text="No passes")])

    def reservations_screen(self, _: Any = None) -> Screen:
        rows = sorted(self.data.reservations, key=lambda r: -r.id)
        items = [ListItem(r.park_name, f"{r.day} {r.start}–{r.end} · {r.plate} · "
                          f"{yuan(r.total)}", id=f"reservation_{r.id}") for r in rows]
        return Screen(top_bar=TopBar("My reservations", on_back=self.back),
                      content=[VirtualList(len(items), lambda i: items[i],
                                           id="reservation_list",
                                           empty_text="No reservations")])

    def plates_screen(self, _: Any = None) -> Screen:
        items = [ListItem(p.plate, id=f"plate_{p.id}", glyph="🚗") for p in self.data.plates]
        return Screen(top_bar=TopBar("My plates", on_back=self.back), content=[
            VirtualList(len(items), lambda i: items[i], id="plate_list", empty_text="No plates"),
            TextField(self.ui.new_plate, lambda v: self.set_ui(new_plate=v), id="new_plate",
                      label="Add a plate", hint="Plate number"),
            Button("Add plate", self.add_plate, id="add_plate"),
        ])
