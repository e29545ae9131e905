"""Parcel Delivery: a mini-program inside Chat (WeChat).

Three tabs: "Track" (a tracking number opens its parcel), "My Parcels" (incoming or sent,
filtered by status) and "Send" (recipient typed or picked from the address book, weight,
size, insurance; then a courier, each with its price and arrival day, cheapest first; then a
pickup slot, and payment through the host's wallet, ``kit.PaySheet`` with the WeChat Pay
PIN). A parcel's page shows its status, courier, arrival day and timeline; a sent parcel
waiting for pickup can have its pickup cancelled (refunded); an incoming parcel still in
transit can be redirected to a parcel locker or another address.

Couriers, the address book and parcels are the mini-program's own ``Store``
(``apps.Parcel.couriers``, ``.contacts``, ``.parcels``): verifiers read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ...world.app import App, Route, app_strings
from ...world.data import Store, Table
from ...world.kit import (
    Chips,
    ConfirmDialog,
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
    Dialog,
    DialogButton,
    ListItem,
    Node,
    Screen,
    Text,
    TextField,
    Toggle,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

TABS = ("Track", "My Parcels", "Send")
DIRECTIONS = ("Incoming", "Sent")
STATUSES = ("Awaiting pickup", "In transit", "Out for delivery", "Delivered", "Cancelled")
SIZES = {"Small": 0, "Medium": 500, "Large": 1500}
INSURANCE = 300
SLOTS = ("Today 16:00-18:00", "Tomorrow 09:00-11:00", "Tomorrow 14:00-16:00",
         "Tomorrow 18:00-20:00")
LOCKERS = ("Hive Box, North Gate", "Hive Box, Building 5", "Cainiao Station, Block B",
           "Community Locker, East Entrance")
REDIRECTABLE = ("Awaiting pickup", "In transit")
#: Seconds the courier's tracking details take to load after "Track".
LOADING_SECONDS = 5


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Courier:
    """A courier: the price is ``base`` plus ``per_kg`` per started kilogram (cents);
    parcels arrive ``days`` days after sending."""

    id: int
    name: str
    base: int
    per_kg: int
    days: int


@dataclass(frozen=True)
class Contact:
    """An address-book entry."""

    id: int
    name: str
    phone: str
    address: str


@dataclass(frozen=True)
class Parcel:
    """A parcel: ``direction`` incoming or sent; ``eta`` an ISO day; ``weight`` in tenths
    of a kilogram; ``locker`` set when redirected to one; ``events`` its timeline, latest
    first."""

    id: int
    number: str
    direction: str
    courier: str
    status: str
    sender: str
    recipient: str
    eta: str
    address: str = ""
    phone: str = ""
    locker: str = ""
    weight: int = 0
    size: str = ""
    insurance: bool = False
    slot: str = ""
    price: int = 0
    events: tuple[str, ...] = ()


@dataclass
class ParcelData(Store):
    couriers: Table[Courier] = field(default_factory=lambda: Table(kind=Courier))
    contacts: Table[Contact] = field(default_factory=lambda: Table(kind=Contact))
    parcels: Table[Parcel] = field(default_factory=lambda: Table(kind=Parcel))
    #: The location permission: "" (not asked yet), "allowed" or "denied".
    location: str = ""
    #: Meters from the phone to each locker (shown only with the location allowed).
    lockers: tuple[tuple[str, int], ...] = tuple(zip(LOCKERS, (350, 700, 950, 1400),
                                                     strict=True))


@dataclass
class ParcelUi:
    """Transient state: the tab, the filters, the send form, dialogs and the payment."""

    tab: str = "Track"
    number: str = ""
    direction: str = "Incoming"
    status: str = ""
    name: str = ""
    phone: str = ""
    address: str = ""
    weight: str = ""
    size: str = "Small"
    insurance: bool = False
    courier: int = 0
    slot: str = ""
    locker: str = ""
    new_address: str = ""
    paying: PayState | None = None
    cancelling: int | None = None
    loading_until: datetime | None = None
    asking: bool = False
    near: bool = False


# --- pure helpers ---------------------------------------------------------------------------
def tenths(text: str) -> int | None:
    """A weight typed in kg ("2.5") in tenths of a kg (25); None when not a weight."""
    try:
        value = round(float(text.strip().lower().removesuffix("kg").strip()) * 10)
    except ValueError:
        return None
    return value if 0 < value <= 500 else None


def quote(c: Courier, weight: int, size: str, insurance: bool) -> int:
    """The price in cents of sending ``weight`` tenths of a kg of ``size`` with ``c``."""
    kilos = -(-weight // 10)
    return c.base + c.per_kg * kilos + SIZES.get(size, 0) + (INSURANCE if insurance else 0)


#: The tracking-number prefix of a courier with a Chinese name (an English one's first two
#: letters: SF Express, SF; 顺丰速运, SF as well).
COURIER_CODES = {"顺丰速运": "SF", "中通快递": "ZT", "圆通速递": "YT", "京东物流": "JD",
                 "中国邮政EMS": "EM", "韵达快递": "YU", "百世快递": "BE"}


def courier_code(courier: str) -> str:
    """The letters a courier's tracking numbers start with: SF for SF Express and 顺丰速运."""
    return COURIER_CODES.get(courier, courier[:2].upper())


def tracking_number(courier: str, serial: int) -> str:
    """The tracking number of the ``serial``-th parcel of the app, sent with ``courier``."""
    return f"{courier_code(courier)}{880_000_000 + 7_919 * serial}"


def listed(data: ParcelData, direction: str, status: str) -> list[Parcel]:
    """Parcels of a direction (and a status, when one is chosen), newest first."""
    return sorted((p for p in data.parcels if p.direction == direction.lower()
                   and (not status or p.status == status)), key=lambda p: -p.id)


# --- the app -------------------------------------------------------------------------------
class ParcelApp(App):
    manifest = MANIFEST

    data: ParcelData
    ui: ParcelUi

    def initial_data(self) -> ParcelData:
        return ParcelData()

    def initial_ui(self) -> ParcelUi:
        return ParcelUi()

    @property
    def ticking(self) -> bool:
        """While tracking details load, the screen changes as time passes."""
        until = self.ui.loading_until
        return until is not None and self.system.now < until

    def toast(self, text: str) -> None:
        """A toast; the kit's own (the capsule menu's "Link copied") in the locale's words."""
        if self.system.locale != DEFAULT_LOCALE:
            text = app_strings(type(self), self.system.locale).strings.get(text, text)
        super().toast(text)

    def day(self, iso: str) -> str:
        """An ISO day as the locale writes it: "2026-10-17" in en-US, "10月17日" in zh-CN."""
        if self.system.locale == DEFAULT_LOCALE or not iso:
            return iso
        return format_date(datetime.fromisoformat(iso).date(), self.system.locale, year=False)

    def word(self, text: str) -> str:
        """A fixed word stored in the data (a status, a size, a slot, a locker) in the
        locale's words; anything else (a typed address) as it is."""
        if self.system.locale == DEFAULT_LOCALE:
            return text
        return app_strings(type(self), self.system.locale).strings.get(text, text)

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def track(self) -> None:
        number = self.ui.number.strip().upper()
        found = next((p for p in self.data.parcels if p.number == number), None)
        if found is None:
            self.toast("No parcel with this tracking number")
            return
        self.ui.loading_until = self.system.now + timedelta(seconds=LOADING_SECONDS)
        self.go("parcel", found.id)

    def pick_contact(self, name: str) -> None:
        c = next((c for c in self.data.contacts if c.name == name), None)
        if c is not None:
            self.ui.name, self.ui.phone, self.ui.address = c.name, c.phone, c.address

    def choose_courier(self) -> None:
        if not (self.ui.name.strip() and self.ui.phone.strip() and self.ui.address.strip()):
            self.toast("Enter the recipient's name, phone and address")
            return
        if tenths(self.ui.weight) is None:
            self.toast("Enter the weight in kg")
            return
        self.go("couriers")

    def select_courier(self, courier_id: int) -> None:
        self.ui.courier, self.ui.slot = courier_id, ""
        self.go("confirm")

    def arrival(self, c: Courier) -> str:
        return (self.system.now.date() + timedelta(days=c.days)).isoformat()

    def ask_pay(self) -> None:
        c = self.data.couriers.get(self.ui.courier)
        weight = tenths(self.ui.weight)
        if c is None or weight is None:
            return
        if not self.ui.slot:
            self.toast("Choose a pickup time")
            return
        self.ui.paying = PayState(quote(c, weight, self.ui.size, self.ui.insurance), c.name,
                                  self.t("Parcel to {name}", name=self.ui.name.strip()))

    def set_pin(self, pin: str) -> None:
        if self.ui.paying is not None:
            self.ui.paying.pin = pin

    def confirm_pay(self) -> None:
        c, state = self.data.couriers.get(self.ui.courier), self.ui.paying
        weight = tenths(self.ui.weight)
        if c is None or state is None or weight is None or pay(self.system, state) is not None:
            return
        ui = self.ui
        number = tracking_number(c.name, len(self.data.parcels) + 1)
        made = self.data.parcels.new(
            number=number, direction="sent", courier=c.name, status="Awaiting pickup",
            sender="Me", recipient=ui.name.strip(), phone=ui.phone.strip(),
            address=ui.address.strip(), eta=self.arrival(c), weight=weight, size=ui.size,
            insurance=ui.insurance, slot=ui.slot, price=state.amount,
            events=(self.t("{when} Order placed, pickup {slot}",
                           when=f"{self.system.now:%Y-%m-%d %H:%M}", slot=self.word(ui.slot)),))
        self.ui = ParcelUi(tab="My Parcels", direction="Sent")
        self.toast("Paid. A courier will pick up your parcel")
        self.stack = [Route("main"), Route("parcel", made.id)]

    def cancel_pickup(self, parcel_id: int) -> None:
        p = self.data.parcels.get(parcel_id)
        self.ui.cancelling = None
        if p is None or p.status != "Awaiting pickup" or p.direction != "sent":
            return
        stamp = self.t("{when} Pickup cancelled", when=f"{self.system.now:%Y-%m-%d %H:%M}")
        self.data.parcels.update(parcel_id, status="Cancelled", events=(stamp, *p.events))
        if p.price:
            wallet = self.system.wallet
            wallet.balance += p.price
            wallet.transactions.new(amount=p.price, counterparty=p.courier,
                                    date=self.system.now.date().isoformat(), memo=self.t("Refund"))
        self.toast("Pickup cancelled, refund sent to your wallet")

    def open_redirect(self, parcel_id: int) -> None:
        self.ui.locker, self.ui.new_address, self.ui.near = "", "", False
        self.go("redirect", parcel_id)

    def near_me(self) -> None:
        """Sort the lockers by distance, asking for the location first if needed."""
        if self.data.location == "allowed":
            self.ui.near = True
        else:
            self.ui.asking = True

    def decide_location(self, allow: bool) -> None:
        self.data.location = "allowed" if allow else "denied"
        self.ui.asking, self.ui.near = False, allow

    def redirect(self, parcel_id: int) -> None:
        p = self.data.parcels.get(parcel_id)
        if p is None or p.status not in REDIRECTABLE or p.direction != "incoming":
            self.toast("This parcel can no longer be redirected")
            return
        where = self.ui.locker or self.ui.new_address.strip()
        if not where:
            self.toast("Choose a locker or enter an address")
            return
        stamp = self.t("{when} Redirected to {where}", when=f"{self.system.now:%Y-%m-%d %H:%M}",
                       where=self.word(where))
        if self.ui.locker:
            self.data.parcels.update(parcel_id, locker=self.ui.locker,
                                     events=(stamp, *p.events))
        else:
            self.data.parcels.update(parcel_id, locker="", address=where,
                                     events=(stamp, *p.events))
        self.toast("Delivery redirected")
        self.back()

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name == "parcel":
            screen = self.parcel_screen(route.arg)
        elif route.name == "couriers":
            screen = self.couriers_screen()
        elif route.name == "confirm":
            screen = self.confirm_screen()
        elif route.name == "redirect":
            screen = self.redirect_screen(route.arg)
        else:
            screen = self.main_screen()
        screen = with_capsule(self, screen)
        return in_locale(self, screen)

    def parcel_row(self, p: Parcel) -> Node:
        who = self.t("From {name}", name=self.word(p.sender)) if p.direction == "incoming" \
            else self.t("To {name}", name=self.word(p.recipient))
        return ListItem(p.number, f"{who} · {p.courier} · {self.word(p.status)}",
                        id=f"parcel_{p.id}",
                        glyph="▣", on_click=lambda: self.go("parcel", p.id))

    def main_screen(self) -> Screen:
        ui = self.ui
        content: list[Node] = [Tabs(TABS, ui.tab, lambda t: self.set_ui(tab=t), id="tabs")]
        if ui.tab == "My Parcels":
            shown = listed(self.data, ui.direction, ui.status)
            content += [
                Chips(DIRECTIONS, [ui.direction], lambda d: self.set_ui(direction=d),
                      id="directions"),
                Chips(STATUSES[:4], [ui.status],
                      lambda s: self.set_ui(status="" if s == ui.status else s),
                      id="statuses"),
                VirtualList(len(shown), lambda i: self.parcel_row(shown[i]),
                            id="parcel_list", empty_text="No parcels")]
        elif ui.tab == "Send":
            book = sorted(c.name for c in self.data.contacts)
            content += [
                Text("Recipient", style="title", id="recipient_title"),
                Chips(book, [ui.name], self.pick_contact, id="address_book"),
                TextField(ui.name, lambda v: self.set_ui(name=v), id="name", label="Name",
                          hint="Recipient's name"),
                TextField(ui.phone, lambda v: self.set_ui(phone=v), id="phone",
                          label="Phone", hint="Recipient's phone"),
                TextField(ui.address, lambda v: self.set_ui(address=v), id="address",
                          label="Address", hint="Delivery address"),
                TextField(ui.weight, lambda v: self.set_ui(weight=v), id="weight",
                          label="Weight (kg)", hint="Weight (kg)"),
                Chips(tuple(SIZES), [ui.size], lambda s: self.set_ui(size=s), id="sizes"),
                Toggle(self.t("Insurance (+{price})", price=yuan(INSURANCE)), ui.insurance,
                       lambda: self.set_ui(insurance=not ui.insurance), id="insurance"),
                Button("Choose courier", self.choose_courier, id="choose_courier")]
        else:
            content += [
                TextField(ui.number, lambda v: self.set_ui(number=v), id="tracking_number",
                          label="Tracking number", hint="Tracking number",
                          on_submit=self.track),
                Button("Track", self.track, id="track")]
        return Screen(top_bar=TopBar("Parcel Delivery"), content=content)

    def couriers_screen(self) -> Screen:
        weight = tenths(self.ui.weight) or 10
        offers = sorted(self.data.couriers,
                        key=lambda c: (quote(c, weight, self.ui.size, self.ui.insurance), c.id))
        return Screen(top_bar=TopBar("Choose a courier", on_back=self.back), content=[
            Text("Cheapest first", style="caption", id="courier_sort"),
            VirtualList(len(offers), lambda i: ListItem(
                offers[i].name,
                f"{yuan(quote(offers[i], weight, self.ui.size, self.ui.insurance))} · "
                + self.t("arrives {day}", day=self.day(self.arrival(offers[i]))),
                id=f"courier_{offers[i].id}",
                on_click=lambda: self.select_courier(offers[i].id)),
                id="courier_list", empty_text="No couriers serve this route")])

    def confirm_screen(self) -> Screen:
        c = self.data.couriers.get(self.ui.courier)
        weight = tenths(self.ui.weight)
        if c is None or weight is None:
            return Screen(top_bar=TopBar("Confirm", on_back=self.back), content=[])
        ui = self.ui
        price = quote(c, weight, ui.size, ui.insurance)
        dialog = None if ui.paying is None else PaySheet(
            ui.paying, on_pin=self.set_pin, on_pay=self.confirm_pay,
            on_cancel=lambda: self.set_ui(paying=None))
        return Screen(top_bar=TopBar("Confirm", on_back=self.back), content=[
            Text(f"{c.name} · " + self.t("arrives {day}", day=self.day(self.arrival(c))),
                 id="confirm_courier"),
            Text(self.t("To {name}", name=ui.name) + f" · {ui.phone}", id="confirm_recipient"),
            Text(ui.address, id="confirm_address"),
            Text(self.t("{kg} kg", kg=f"{weight / 10:g}") + f" · {self.word(ui.size)}"
                 + (self.t(" · insured") if ui.insurance else ""), id="confirm_parcel"),
            Text("Pickup time", style="title", id="slot_title"),
            Chips(SLOTS, [ui.slot], lambda s: self.set_ui(slot=s), id="slots"),
            Button(self.t("Pay {total}", total=yuan(price)), self.ask_pay, id="pay")],
            dialog=dialog, on_dismiss=lambda: self.set_ui(paying=None))

    def parcel_screen(self, parcel_id: int) -> Screen:
        p = self.data.parcels.get(parcel_id)
        if p is None:
            return Screen(top_bar=TopBar("Parcel", on_back=self.back), content=[])
        until = self.ui.loading_until
        if until is not None and self.system.now < until:
            return Screen(top_bar=TopBar("Parcel", on_back=self.back), content=[
                Text("Loading tracking details from the courier…", id="loading")])
        where = p.locker or p.address
        rows: list[Node] = [
            Text(p.number, style="title", id="parcel_number", copyable=True),
            Text(self.word(p.status), id="parcel_status"),
            Text(self.t("Courier: {name}", name=p.courier), id="parcel_courier"),
            Text(self.t("From {sender} to {recipient}", sender=self.word(p.sender),
                        recipient=self.word(p.recipient)),
                 id="parcel_people"),
            Text(self.t("Deliver to: {where}", where=self.word(where)), id="parcel_where"),
        ]
        if p.status not in ("Delivered", "Cancelled"):
            rows.append(Text(self.t("Expected {day}", day=self.day(p.eta)), id="parcel_eta"))
        if p.direction == "sent" and p.status == "Awaiting pickup":
            rows.append(Button("Cancel pickup", lambda: self.set_ui(cancelling=parcel_id),
                               id="cancel_pickup", style="danger"))
        if p.direction == "incoming" and p.status in REDIRECTABLE:
            rows.append(Button("Redirect delivery", lambda: self.open_redirect(parcel_id),
                               id="redirect", style="secondary"))
        elif p.direction == "incoming" and p.status == "Out for delivery":
            rows.append(Text("Out for delivery: it can no longer be redirected",
                             style="caption", id="no_redirect"))
        rows.append(Text("Timeline", style="title", id="timeline_title"))
        rows += [Text(e, style="caption", id=f"event_{i}") for i, e in enumerate(p.events)]
        dialog = None
        if self.ui.cancelling == parcel_id:
            dialog = ConfirmDialog("Cancel the pickup?",
                                   self.t("{total} will be refunded to your wallet.",
                                          total=yuan(p.price)),
                                   on_confirm=lambda: self.cancel_pickup(parcel_id),
                                   on_cancel=lambda: self.set_ui(cancelling=None),
                                   confirm="Cancel pickup", cancel="Keep", destructive=True)
        return Screen(top_bar=TopBar("Parcel", on_back=self.back), content=rows,
                      dialog=dialog, on_dismiss=lambda: self.set_ui(cancelling=None))

    def redirect_screen(self, parcel_id: int) -> Screen:
        ui = self.ui
        near = ui.near and self.data.location == "allowed"
        lockers = sorted(self.data.lockers, key=lambda x: x[1]) if near else self.data.lockers
        rows: list[Node] = [
            Text("Parcel lockers", style="title", id="lockers_title"),
            Chips([name for name, _ in lockers], [ui.locker],
                  lambda s: self.set_ui(locker="" if s == ui.locker else s), id="lockers")]
        if near:
            rows += [Text(self.t("{name}: {meters} m away", name=self.word(name), meters=meters),
                          style="caption", id=f"locker_m_{i}")
                     for i, (name, meters) in enumerate(lockers)]
        else:
            rows.append(Button("Find lockers near me", self.near_me, id="near_me",
                               style="secondary"))
        rows += [
            TextField(ui.new_address, lambda v: self.set_ui(new_address=v, locker=""),
                      id="new_address", label="Or a new address", hint="New address"),
            Button("Confirm redirect", lambda: self.redirect(parcel_id), id="confirm_redirect")]
        dialog = None
        if ui.asking:
            dialog = Dialog("Allow Parcel Delivery to use your location?",
                            "It is used to find parcel lockers near you.",
                            [DialogButton("Don't allow", lambda: self.decide_location(False),
                                          id="button_dont_allow"),
                             DialogButton("Allow", lambda: self.decide_location(True),
                                          id="button_allow")])
        return Screen(top_bar=TopBar("Redirect delivery", on_back=self.back), content=rows,
                      dialog=dialog, on_dismiss=lambda: self.set_ui(asking=False))
