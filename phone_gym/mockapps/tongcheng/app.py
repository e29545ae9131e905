"""同程旅行 (Tongcheng): a mini-program inside Chat (WeChat), for hotels and train tickets.

The start page has 酒店 and 火车票 (ids ``entry_hotels``, ``entry_trains``) and 我的订单
(``my_orders``). 酒店: 城市, 入住, 离店 (``city``, ``checkin``, ``checkout``, YYYY-MM-DD)
and 查找酒店 (``search_hotels``); the results have a landmark per chip (``mark_<i>``),
距离 chips (``near_1``, ``near_3``: 1 or 3 km of it), a 预算 per night (``max_price``) and
sort chips 推荐, 低价优先, 好评优先 (``sort_<i>``); rows ``hotel_<id>``. A hotel's page
(``hotel_name``, ``hotel_price``, ``hotel_score``) has 预订 (``book``). 火车票: 出发, 到达,
日期 (``from``, ``to``, ``day``) and 查询 (``search_trains``); trains by departure or by
the lowest 二等座 price (``order_0``, ``order_1``), rows ``train_<id>``; a train's page
lists its seats (``seat_<i>``, tickets left ``left_<i>``). Booking takes the 入住人 or
乘车人 (``traveller``) and pays through the host's wallet (``kit.PaySheet``, the WeChat
Pay PIN) with 提交订单 (``submit``).

Hotels, trains and orders are the mini-program's own ``Store`` (``apps.Tongcheng.hotels``,
``.trains``, ``.orders``); prices are cents, a hotel's ``score`` tenths (46 is 4.6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from functools import partial
from typing import Any

from ...world.app import App, Route, app_strings
from ...world.data import Store, Table
from ...world.kit import Chip, NavRow, PaySheet, PayState, pay, with_capsule
from ...world.kit.localize import in_locale
from ...world.locale import DEFAULT_LOCALE
from ...world.widgets import (
    Button,
    ListItem,
    ListView,
    Node,
    Row,
    Screen,
    Text,
    TextField,
    TopBar,
)
from .manifest import MANIFEST

SORTS = ("推荐", "低价优先", "好评优先")
TRAIN_ORDERS = ("出发最早", "价格最低")
NEAR = {"near_1": 1000, "near_3": 3000}
SEATS = ("二等座", "一等座", "商务座")
PAID = "已支付"


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hotel:
    """A hotel: ``price`` per night in cents, ``score`` tenths, ``distances`` metres to its
    city's landmarks."""

    id: int
    name: str
    city: str
    price: int
    score: int
    address: str = ""
    distances: tuple[tuple[str, int], ...] = ()

    def distance_to(self, landmark: str) -> int | None:
        return dict(self.distances).get(landmark)


@dataclass(frozen=True)
class Train:
    """A train on ``day`` (ISO); ``seats``: (class, price in cents, tickets left)."""

    id: int
    number: str
    origin: str
    dest: str
    day: str
    depart: str
    arrive: str
    seats: tuple[tuple[str, int, int], ...] = ()


@dataclass(frozen=True)
class Order:
    """An order: ``kind`` 酒店 or 火车票, ``ref`` the hotel's or train's id, ``item`` the
    seat class (a hotel's is 标准间), ``start``/``end`` ISO days, ``total`` cents."""

    id: int
    kind: str
    ref: int
    title: str
    item: str
    start: str
    end: str
    traveller: str
    total: int
    depart: str = ""
    status: str = PAID


@dataclass
class TongchengData(Store):
    hotels: Table[Hotel] = field(default_factory=lambda: Table(kind=Hotel))
    trains: Table[Train] = field(default_factory=lambda: Table(kind=Train))
    orders: Table[Order] = field(default_factory=lambda: Table(kind=Order))


@dataclass
class TongchengUi:
    """Transient state: both search forms, the filters and sorts, the booking."""

    city: str = ""
    checkin: str = ""
    checkout: str = ""
    max_price: str = ""
    near: str = ""
    sort: str = SORTS[0]
    landmark: str = ""
    origin: str = ""
    dest: str = ""
    day: str = ""
    train_order: str = TRAIN_ORDERS[0]
    traveller: str = ""
    paying: PayState | None = None


# --- pure helpers ---------------------------------------------------------------------------
def parse_day(text: str) -> date | None:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        return None


def nights(checkin: str, checkout: str) -> int:
    a, b = parse_day(checkin), parse_day(checkout)
    return max(0, (b - a).days) if a and b else 0


def yuan(cents: int) -> str:
    return f"¥{cents // 100}" if cents % 100 == 0 else f"¥{cents / 100:.2f}"


def km(metres: int) -> str:
    return f"{metres / 1000:.1f}公里"


def score(tenths: int) -> str:
    return f"{tenths // 10}.{tenths % 10}"


def landmarks(data: TongchengData, city: str) -> list[str]:
    out: list[str] = []
    for h in data.hotels:
        if h.city == city.strip():
            out.extend(m for m, _ in h.distances if m not in out)
    return out


def hotel_results(data: TongchengData, ui: TongchengUi) -> list[Hotel]:
    """The city's hotels within the distance and the budget, in the chosen order."""
    shown = [h for h in data.hotels if ui.city.strip() and h.city == ui.city.strip()]
    if ui.near in NEAR:
        shown = [h for h in shown if (d := h.distance_to(ui.landmark)) is not None
                 and d <= NEAR[ui.near]]
    try:
        cap = round(float(ui.max_price.strip().lstrip("¥")) * 100) if ui.max_price.strip() \
            else None
    except ValueError:
        cap = None
    if cap is not None:
        shown = [h for h in shown if h.price <= cap]
    if ui.sort == SORTS[1]:
        return sorted(shown, key=lambda h: (h.price, h.id))
    if ui.sort == SORTS[2]:
        return sorted(shown, key=lambda h: (-h.score, h.id))
    return sorted(shown, key=lambda h: h.id)


def second_class(t: Train) -> int:
    """The train's 二等座 price when it has tickets (a large number when not)."""
    return next((p for s, p, n in t.seats if s == SEATS[0] and n > 0), 10**9)


def train_results(data: TongchengData, ui: TongchengUi) -> list[Train]:
    shown = [t for t in data.trains if t.origin == ui.origin.strip()
             and t.dest == ui.dest.strip() and t.day == ui.day.strip()]
    if ui.train_order == TRAIN_ORDERS[1]:
        return sorted(shown, key=lambda t: (second_class(t), t.depart, t.id))
    return sorted(shown, key=lambda t: (t.depart, t.id))


# --- the app -------------------------------------------------------------------------------
class TongchengApp(App):
    manifest = MANIFEST

    data: TongchengData
    ui: TongchengUi

    def initial_data(self) -> TongchengData:
        return TongchengData()

    def initial_ui(self) -> TongchengUi:
        return TongchengUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def toggle_near(self, key: str) -> None:
        self.ui.near = "" if self.ui.near == key else key

    def search_hotels(self) -> None:
        if not self.ui.city.strip() or nights(self.ui.checkin, self.ui.checkout) <= 0:
            self.toast(self.t("请输入城市、入住和离店日期（YYYY-MM-DD）"))
            return
        marks = landmarks(self.data, self.ui.city)
        if self.ui.landmark not in marks:
            self.ui.landmark = marks[0] if marks else ""
        self.go("hotels")

    def search_trains(self) -> None:
        if not self.ui.origin.strip() or not self.ui.dest.strip() or \
                parse_day(self.ui.day) is None:
            self.toast(self.t("请输入出发、到达和日期（YYYY-MM-DD）"))
            return
        self.go("trains")

    def start_booking(self, kind: str, ref: int, index: int) -> None:
        self.ui.traveller, self.ui.paying = "", None
        self.go("book", (kind, ref, index))

    def quote(self, arg: tuple[str, int, int]) -> tuple[str, str, int] | None:
        """What a booking buys: (title, item, total cents), or None when it cannot."""
        kind, ref, index = arg
        if kind == "酒店":
            h = self.data.hotels.get(ref)
            n = nights(self.ui.checkin, self.ui.checkout)
            return None if h is None or n <= 0 else (h.name, "标准间", h.price * n)
        t = self.data.trains.get(ref)
        if t is None or not 0 <= index < len(t.seats) or t.seats[index][2] <= 0:
            return None
        return t.number, t.seats[index][0], t.seats[index][1]

    def submit(self, arg: tuple[str, int, int]) -> None:
        got = self.quote(arg)
        if got is None:
            return
        if not self.ui.traveller.strip():
            self.toast(self.t("请填写入住人") if arg[0] == "酒店" else self.t("请填写乘车人"))
            return
        self.ui.paying = PayState(got[2], got[0], got[1])

    def set_pin(self, pin: str) -> None:
        if self.ui.paying is not None:
            self.ui.paying.pin = pin

    def confirm_pay(self, arg: tuple[str, int, int]) -> None:
        got, state = self.quote(arg), self.ui.paying
        if got is None or state is None or pay(self.system, state) is not None:
            return
        title, item, total = got
        kind, ref, index = arg
        if kind == "酒店":
            start, end, depart = self.ui.checkin.strip(), self.ui.checkout.strip(), ""
        else:
            t = self.data.trains.get(ref)
            assert t is not None
            start = end = t.day
            depart = t.depart
            seats = list(t.seats)
            seats[index] = (seats[index][0], seats[index][1], seats[index][2] - 1)
            self.data.trains.update(ref, seats=tuple(seats))
        self.data.orders.new(kind=kind, ref=ref, title=title, item=item, start=start, end=end,
                             traveller=self.ui.traveller.strip(), total=total, depart=depart,
                             status=PAID)
        self.ui.paying = None
        self.toast(self.t("支付成功"))
        self.stack = [Route("main"), Route("orders")]

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        views = {"hotel_search": self.hotel_search, "hotels": self.hotels_screen,
                 "train_search": self.train_search, "trains": self.trains_screen,
                 "orders": self.orders_screen}
        if route.name in views:
            screen = views[route.name]()
        elif route.name == "hotel":
            screen = self.hotel_screen(route.arg)
        elif route.name == "train":
            screen = self.train_screen(route.arg)
        elif route.name == "book":
            screen = self.book_screen(route.arg)
        else:
            screen = self.home()
        screen = with_capsule(self, screen)
        return in_locale(self, screen)

    def toast(self, text: str) -> None:
        """A toast; the kit's own (the capsule menu's "Link copied") in the locale's words."""
        if self.system.locale != DEFAULT_LOCALE:
            text = app_strings(type(self), self.system.locale).strings.get(text, text)
        super().toast(text)

    def home(self) -> Screen:
        return Screen(top_bar=TopBar(self.t("同程旅行")), content=[
            Row([Button(self.t("酒店"), partial(self.go, "hotel_search"), id="entry_hotels"),
                 Button(self.t("火车票"), partial(self.go, "train_search"),
                        id="entry_trains")], id="entries"),
            NavRow(self.t("我的订单"), partial(self.go, "orders"), id="my_orders")])

    def hotel_search(self) -> Screen:
        ui = self.ui
        return Screen(top_bar=TopBar(self.t("酒店"), on_back=self.back), content=[
            TextField(ui.city, lambda v: self.set_ui(city=v), id="city",
                      label=self.t("城市"), hint=self.t("城市")),
            TextField(ui.checkin, lambda v: self.set_ui(checkin=v), id="checkin",
                      label=self.t("入住"), hint=self.t("入住日期（YYYY-MM-DD）")),
            TextField(ui.checkout, lambda v: self.set_ui(checkout=v), id="checkout",
                      label=self.t("离店"), hint=self.t("离店日期（YYYY-MM-DD）")),
            Button(self.t("查找酒店"), self.search_hotels, id="search_hotels")])

    def hotels_screen(self) -> Screen:
        ui = self.ui
        shown = hotel_results(self.data, ui)
        rows = []
        for h in shown:
            d = h.distance_to(ui.landmark)
            rows.append(ListItem(h.name, id=f"hotel_{h.id}", glyph="hotel", parts=[
                ("price", self.t("{price}/晚", price=yuan(h.price))),
                ("score", self.t("{score}分", score=score(h.score))),
                ("distance", self.t("距{mark}{d}", mark=ui.landmark, d=km(d))
                 if d is not None else h.address)],
                on_click=partial(self.go, "hotel", h.id)))
        return Screen(
            top_bar=TopBar(self.t("{city} · {a} 至 {b}", city=ui.city.strip(), a=ui.checkin,
                                  b=ui.checkout), on_back=self.back),
            content=[
                Row([Chip(self.t(s), s == ui.sort, partial(self.set_ui, sort=s),
                          id=f"sort_{i}") for i, s in enumerate(SORTS)], id="sorts"),
                Row([Chip(m, m == ui.landmark, partial(self.set_ui, landmark=m),
                          id=f"mark_{i}") for i, m in enumerate(landmarks(self.data, ui.city))],
                    id="marks"),
                Row([Chip(self.t("{n}公里内", n=m // 1000), ui.near == key,
                          partial(self.toggle_near, key), id=key) for key, m in NEAR.items()],
                    id="filters"),
                TextField(ui.max_price, lambda v: self.set_ui(max_price=v), id="max_price",
                          label=self.t("预算（元/晚）"), hint=self.t("预算（元/晚）")),
                Text(self.t("共{n}家酒店", n=len(shown)), style="caption", id="result_count"),
                ListView(rows, id="hotel_list", empty_text=self.t("没有符合条件的酒店"))])

    def hotel_screen(self, hotel_id: int) -> Screen:
        h = self.data.hotels.get(hotel_id)
        if h is None:
            return Screen(top_bar=TopBar(self.t("酒店"), on_back=self.back), content=[])
        n = nights(self.ui.checkin, self.ui.checkout)
        return Screen(top_bar=TopBar(h.name, on_back=self.back), content=[
            Text(h.name, style="title", id="hotel_name"),
            Text(h.address, id="hotel_address", copyable=True),
            Text(self.t("{score}分", score=score(h.score)), id="hotel_score"),
            Text(self.t("{price}/晚", price=yuan(h.price)), id="hotel_price"),
            *[Text(self.t("距{mark}{d}", mark=m, d=km(d)), style="caption",
                   id=f"distance_{i}") for i, (m, d) in enumerate(h.distances)],
            Text(self.t("共{n}晚 · {total}", n=n, total=yuan(h.price * n)), id="hotel_total"),
            Button(self.t("预订"), partial(self.start_booking, "酒店", hotel_id, 0), id="book")])

    def train_search(self) -> Screen:
        ui = self.ui
        return Screen(top_bar=TopBar(self.t("火车票"), on_back=self.back), content=[
            TextField(ui.origin, lambda v: self.set_ui(origin=v), id="from",
                      label=self.t("出发"), hint=self.t("出发站")),
            TextField(ui.dest, lambda v: self.set_ui(dest=v), id="to",
                      label=self.t("到达"), hint=self.t("到达站")),
            TextField(ui.day, lambda v: self.set_ui(day=v), id="day",
                      label=self.t("日期"), hint=self.t("日期（YYYY-MM-DD）")),
            Button(self.t("查询"), self.search_trains, id="search_trains")])

    def trains_screen(self) -> Screen:
        ui = self.ui
        return Screen(
            top_bar=TopBar(self.t("{a} → {b} · {day}", a=ui.origin.strip(), b=ui.dest.strip(),
                                  day=ui.day.strip()), on_back=self.back),
            content=[Row([Chip(self.t(o), o == ui.train_order,
                               partial(self.set_ui, train_order=o), id=f"order_{i}")
                          for i, o in enumerate(TRAIN_ORDERS)], id="train_orders"),
                     ListView([ListItem(
                         self.t("{number} · {depart} → {arrive}", number=t.number,
                                depart=t.depart, arrive=t.arrive),
                         " ".join(self.t("{seat}{price}", seat=s, price=yuan(p)) + (
                             "" if n > 0 else self.t("（无票）")) for s, p, n in t.seats),
                         id=f"train_{t.id}", glyph="train",
                         on_click=partial(self.go, "train", t.id))
                         for t in train_results(self.data, ui)], id="train_list",
                         empty_text=self.t("该日期没有车次"))])

    def train_screen(self, train_id: int) -> Screen:
        t = self.data.trains.get(train_id)
        if t is None:
            return Screen(top_bar=TopBar(self.t("火车票"), on_back=self.back), content=[])
        rows: list[Node] = [
            Text(t.number, style="title", id="train_number"),
            Text(self.t("{a} {depart} → {b} {arrive}", a=t.origin, depart=t.depart, b=t.dest,
                        arrive=t.arrive), id="train_times"),
            Text(t.day, id="train_day")]
        for i, (seat, price, left) in enumerate(t.seats):
            rows.append(ListItem(
                self.t("{seat} {price}", seat=seat, price=yuan(price)), id=f"seat_{i}",
                glyph="event_seat",
                parts=[(f"left_{i}", self.t("余{n}张", n=left) if left > 0 else self.t("无票"))],
                on_click=partial(self.start_booking, "火车票", t.id, i) if left > 0 else None))
        return Screen(top_bar=TopBar(t.number, on_back=self.back), content=rows)

    def book_screen(self, arg: tuple[str, int, int]) -> Screen:
        got = self.quote(arg)
        if got is None:
            return Screen(top_bar=TopBar(self.t("填写订单"), on_back=self.back), content=[])
        title, item, total = got
        who = self.t("入住人") if arg[0] == "酒店" else self.t("乘车人")
        when = (self.t("{a} 至 {b}", a=self.ui.checkin, b=self.ui.checkout)
                if arg[0] == "酒店" else self.ui.day)
        paying = self.ui.paying
        dialog = None if paying is None else PaySheet(
            paying, on_pin=self.set_pin, on_pay=partial(self.confirm_pay, arg),
            on_cancel=partial(self.set_ui, paying=None))
        return Screen(
            top_bar=TopBar(self.t("填写订单"), on_back=self.back),
            content=[Text(title, style="title", id="book_title"),
                     Text(f"{self.t(item)} · {when}", id="book_item"),
                     TextField(self.ui.traveller, lambda v: self.set_ui(traveller=v),
                               id="traveller", label=who, hint=who),
                     Text(self.t("订单总额 {total}", total=yuan(total)), id="book_total"),
                     Button(self.t("提交订单"), partial(self.submit, arg), id="submit")],
            dialog=dialog, on_dismiss=partial(self.set_ui, paying=None))

    def orders_screen(self) -> Screen:
        orders = sorted(self.data.orders, key=lambda o: -o.id)
        return Screen(top_bar=TopBar(self.t("我的订单"), on_back=self.back), content=[
            ListView([ListItem(
                f"{o.title} · {self.t(o.item)}", id=f"order_{o.id}", glyph="list", parts=[
                    (f"when_{o.id}", self.t("{a} 至 {b}", a=o.start, b=o.end) if o.kind == "酒店"
                     else self.t("{day} {depart}出发", day=o.start, depart=o.depart)),
                    (f"who_{o.id}", o.traveller), (f"total_{o.id}", yuan(o.total)),
                    (f"status_{o.id}", self.t(o.status))]) for o in orders],
                id="order_list", empty_text=self.t("暂无订单"))])
