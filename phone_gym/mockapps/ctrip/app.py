"""携程旅行 (Ctrip): hotels and train tickets, as in the Ctrip app.

The bottom bar has 首页 (the 酒店 and 火车票 entries), 行程 (the orders, rows
``order_<id>``) and 我的. 酒店: 目的地, 入住 and 离店 (YYYY-MM-DD; ids ``city``,
``checkin``, ``checkout``) and 搜索 (``search_hotels``); the results have sort chips (欢迎度
排序, 低价优先, 距离优先: ids ``sort_<i>``), a landmark per chip (``mark_<i>``), 星级 chips
(``star_4``, ``star_5``: 四星及以上, 五星), 距离 chips (``near_1``, ``near_3``: within 1 or
3 km of the landmark) and a 价格 cap per night (``max_price``); rows ``hotel_<id>`` show
the lowest room price. A hotel's page lists its rooms (``room_<i>``, name and price per
night, 预订 ``book_<i>``); the booking form takes the 入住人 (``traveller``) and 提交订单
(``submit``) asks to confirm the payment (``button_pay``). 火车票: 出发站, 到达站, 出发日期
(``from``, ``to``, ``day``) and 查询 (``search_trains``); the trains by departure
(``train_<id>``: number, times, the seat classes' prices); a train's page lists its seat
classes (``seat_<i>``) with the tickets left (``left_<i>``); booking one takes the 乘车人
and pays as a hotel does.

Hotels, trains and orders are the app's own ``Store`` (``apps.Ctrip.hotels``, ``.trains``,
``.orders``); prices are cents.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from functools import partial
from typing import Any

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import BottomNav, Chip
from ...world.widgets import (
    Button,
    Dialog,
    DialogButton,
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

TABS = ("首页", "行程", "我的")
TAB_ICONS = ("home", "list", "person")
SORTS = ("欢迎度排序", "低价优先", "距离优先")
STARS = {"star_4": ("四星及以上", 4), "star_5": ("五星", 5)}
NEAR = {"near_1": 1000, "near_3": 3000}
SEATS = ("二等座", "一等座", "商务座")
PAID = "已支付"


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hotel:
    """A hotel: ``star`` 2..5, ``distances`` metres to its city's landmarks, ``rooms``
    (name, price per night in cents)."""

    id: int
    name: str
    city: str
    star: int
    address: str = ""
    distances: tuple[tuple[str, int], ...] = ()
    rooms: tuple[tuple[str, int], ...] = ()

    def distance_to(self, landmark: str) -> int | None:
        return dict(self.distances).get(landmark)

    @property
    def price(self) -> int:
        """The lowest room price (what the results list shows)."""
        return min((p for _, p in self.rooms), default=0)


@dataclass(frozen=True)
class Train:
    """A train on ``day`` (ISO) from ``origin`` to ``dest``; ``seats``: (class, price in
    cents, tickets left)."""

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
    """An order: ``kind`` 酒店 or 火车票; ``ref`` the hotel's or train's id, ``item`` the
    room or seat class, ``start``/``end`` ISO days (a train's are its day), ``total``
    cents."""

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
    route: str = ""
    status: str = PAID


@dataclass
class CtripData(Store):
    hotels: Table[Hotel] = field(default_factory=lambda: Table(kind=Hotel))
    trains: Table[Train] = field(default_factory=lambda: Table(kind=Train))
    orders: Table[Order] = field(default_factory=lambda: Table(kind=Order))


@dataclass
class CtripUi:
    """Transient state: the tab, both search forms, the hotel filters, the booking."""

    tab: str = "首页"
    city: str = ""
    checkin: str = ""
    checkout: str = ""
    max_price: str = ""
    stars: str = ""
    near: str = ""
    sort: str = SORTS[0]
    landmark: str = ""
    origin: str = ""
    dest: str = ""
    day: str = ""
    traveller: str = ""
    paying: bool = False


# --- pure helpers ---------------------------------------------------------------------------
def parse_day(text: str) -> date | None:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        return None


def nights(checkin: str, checkout: str) -> int:
    """Nights between two ISO days (0 when either is not a day or they are out of order)."""
    a, b = parse_day(checkin), parse_day(checkout)
    return max(0, (b - a).days) if a and b else 0


def yuan(cents: int) -> str:
    """"¥368", "¥368.50" as Ctrip writes prices."""
    return f"¥{cents // 100}" if cents % 100 == 0 else f"¥{cents / 100:.2f}"


def km(metres: int) -> str:
    return f"{metres / 1000:.1f}公里"


def landmarks(data: CtripData, city: str) -> list[str]:
    out: list[str] = []
    for h in data.hotels:
        if h.city == city.strip():
            out.extend(m for m, _ in h.distances if m not in out)
    return out


def hotel_results(data: CtripData, ui: CtripUi) -> list[Hotel]:
    """The city's hotels passing the filters, in the chosen order."""
    shown = [h for h in data.hotels if ui.city.strip() and h.city == ui.city.strip()]
    if ui.stars in STARS:
        shown = [h for h in shown if h.star >= STARS[ui.stars][1]]
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
        return sorted(shown, key=lambda h: (h.distance_to(ui.landmark) or 10**9, h.id))
    return sorted(shown, key=lambda h: h.id)


def train_results(data: CtripData, ui: CtripUi) -> list[Train]:
    """The trains from the origin to the destination on the day, by departure."""
    return sorted((t for t in data.trains if t.origin == ui.origin.strip()
                   and t.dest == ui.dest.strip() and t.day == ui.day.strip()),
                  key=lambda t: (t.depart, t.id))


# --- the app -------------------------------------------------------------------------------
class CtripApp(App):
    manifest = MANIFEST

    data: CtripData
    ui: CtripUi

    def initial_data(self) -> CtripData:
        return CtripData()

    def initial_ui(self) -> CtripUi:
        return CtripUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def toggle(self, key: str, value: str) -> None:
        setattr(self.ui, key, "" if getattr(self.ui, key) == value else value)

    def search_hotels(self) -> None:
        if not self.ui.city.strip():
            self.toast(self.t("请输入目的地"))
            return
        if nights(self.ui.checkin, self.ui.checkout) <= 0:
            self.toast(self.t("请输入入住和离店日期（YYYY-MM-DD）"))
            return
        marks = landmarks(self.data, self.ui.city)
        if self.ui.landmark not in marks:
            self.ui.landmark = marks[0] if marks else ""
        self.go("hotels")

    def search_trains(self) -> None:
        if not self.ui.origin.strip() or not self.ui.dest.strip() or \
                parse_day(self.ui.day) is None:
            self.toast(self.t("请输入出发站、到达站和出发日期（YYYY-MM-DD）"))
            return
        self.go("trains")

    def start_booking(self, kind: str, ref: int, index: int) -> None:
        self.ui.traveller, self.ui.paying = "", False
        self.go("book", (kind, ref, index))

    def quote(self, arg: tuple[str, int, int]) -> tuple[str, str, int] | None:
        """What a booking buys: (title, item, total cents), or None when it cannot."""
        kind, ref, index = arg
        if kind == "酒店":
            h = self.data.hotels.get(ref)
            n = nights(self.ui.checkin, self.ui.checkout)
            if h is None or n <= 0 or not 0 <= index < len(h.rooms):
                return None
            room, price = h.rooms[index]
            return h.name, room, price * n
        t = self.data.trains.get(ref)
        if t is None or not 0 <= index < len(t.seats) or t.seats[index][2] <= 0:
            return None
        return t.number, t.seats[index][0], t.seats[index][1]

    def submit(self, arg: tuple[str, int, int]) -> None:
        if self.quote(arg) is None:
            return
        if not self.ui.traveller.strip():
            self.toast(self.t("请填写入住人") if arg[0] == "酒店" else self.t("请填写乘车人"))
            return
        self.ui.paying = True

    def pay(self, arg: tuple[str, int, int]) -> None:
        got = self.quote(arg)
        self.ui.paying = False
        if got is None:
            return
        title, item, total = got
        kind, ref, index = arg
        if kind == "酒店":
            start, end, depart = self.ui.checkin.strip(), self.ui.checkout.strip(), ""
            route = self.ui.city.strip()
        else:
            t = self.data.trains.get(ref)
            assert t is not None
            start = end = t.day
            depart = t.depart
            route = f"{t.origin} → {t.dest}"
            seats = list(t.seats)
            seat, price, left = seats[index]
            seats[index] = (seat, price, left - 1)
            self.data.trains.update(ref, seats=tuple(seats))
        self.data.orders.new(kind=kind, ref=ref, title=title, item=item, start=start, end=end,
                             traveller=self.ui.traveller.strip(), total=total, depart=depart,
                             route=route, status=PAID)
        self.toast(self.t("支付成功"))
        self.ui.tab = "行程"
        self.stack = [Route("main")]

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name == "hotel_search":
            return self.hotel_search()
        if route.name == "hotels":
            return self.hotels_screen()
        if route.name == "hotel":
            return self.hotel_screen(route.arg)
        if route.name == "train_search":
            return self.train_search()
        if route.name == "trains":
            return self.trains_screen()
        if route.name == "train":
            return self.train_screen(route.arg)
        if route.name == "book":
            return self.book_screen(route.arg)
        if route.name == "order":
            return self.order_screen(route.arg)
        return self.home()

    def pick_tab(self, label: str) -> None:
        self.ui.tab = next((t for t in TABS if self.t(t) == label), TABS[0])

    def home(self) -> Screen:
        tab = self.ui.tab if self.ui.tab in TABS else TABS[0]
        content: list[Node]
        if tab == "行程":
            orders = sorted(self.data.orders, key=lambda o: -o.id)
            content = [Text(self.t("全部订单"), style="title", id="orders_label"),
                       ListView([ListItem(
                           f"{o.title} · {o.item}",
                           self.t("{kind} · {route} · {start} · {traveller} · {status}",
                                  kind=self.t(o.kind), route=o.route, start=o.start,
                                  traveller=o.traveller, status=self.t(o.status)),
                           id=f"order_{o.id}", glyph="list",
                           on_click=partial(self.go, "order", o.id)) for o in orders],
                           id="orders", empty_text=self.t("暂无订单"))]
        elif tab == "我的":
            content = [Text(self.t("我的携程"), style="title", id="me"),
                       Text(self.t("全部订单（{n}）", n=len(self.data.orders)), id="order_count")]
        else:
            content = [Row([Button(self.t("酒店"), partial(self.go, "hotel_search"),
                                   id="entry_hotels"),
                            Button(self.t("火车票"), partial(self.go, "train_search"),
                                   id="entry_trains")], id="entries")]
        return Screen(top_bar=TopBar(self.t("携程旅行")), content=content,
                      bottom=BottomNav([self.t(t) for t in TABS], TAB_ICONS, self.t(tab),
                                       self.pick_tab, style=self.manifest.look.nav_style))

    def hotel_search(self) -> Screen:
        ui = self.ui
        return Screen(top_bar=TopBar(self.t("酒店"), on_back=self.back), content=[
            TextField(ui.city, lambda v: self.set_ui(city=v), id="city",
                      label=self.t("目的地"), hint=self.t("城市")),
            TextField(ui.checkin, lambda v: self.set_ui(checkin=v), id="checkin",
                      label=self.t("入住"), hint=self.t("入住日期（YYYY-MM-DD）")),
            TextField(ui.checkout, lambda v: self.set_ui(checkout=v), id="checkout",
                      label=self.t("离店"), hint=self.t("离店日期（YYYY-MM-DD）")),
            Button(self.t("搜索"), self.search_hotels, id="search_hotels")])

    def hotel_row(self, h: Hotel) -> Node:
        d = h.distance_to(self.ui.landmark)
        where = self.t("距{mark}{d}", mark=self.ui.landmark, d=km(d)) if d is not None \
            else h.address
        return ListItem(h.name, id=f"hotel_{h.id}", glyph="hotel",
                        parts=[("price", self.t("{price}起", price=yuan(h.price))),
                               ("star", self.t("{n}星", n=h.star)), ("distance", where)],
                        on_click=partial(self.go, "hotel", h.id))

    def hotels_screen(self) -> Screen:
        ui = self.ui
        shown = hotel_results(self.data, ui)
        marks = landmarks(self.data, ui.city)
        return Screen(
            top_bar=TopBar(self.t("{city} · {a} 至 {b}", city=ui.city.strip(), a=ui.checkin,
                                  b=ui.checkout), on_back=self.back),
            content=[
                Row([Chip(self.t(s), s == ui.sort, partial(self.set_ui, sort=s),
                          id=f"sort_{i}") for i, s in enumerate(SORTS)], id="sorts"),
                Row([Chip(m, m == ui.landmark, partial(self.set_ui, landmark=m),
                          id=f"mark_{i}") for i, m in enumerate(marks)], id="marks"),
                Row([Chip(self.t(label), ui.stars == key, partial(self.toggle, "stars", key),
                          id=key) for key, (label, _) in STARS.items()]
                    + [Chip(self.t("{n}公里内", n=m // 1000), ui.near == key,
                            partial(self.toggle, "near", key), id=key)
                       for key, m in NEAR.items()], id="filters"),
                TextField(ui.max_price, lambda v: self.set_ui(max_price=v), id="max_price",
                          label=self.t("价格上限（元/晚）"), hint=self.t("价格上限（元/晚）")),
                Text(self.t("共{n}家酒店", n=len(shown)), style="caption", id="result_count"),
                ListView([self.hotel_row(h) for h in shown], id="hotel_list",
                         empty_text=self.t("没有符合条件的酒店"))])

    def hotel_screen(self, hotel_id: int) -> Screen:
        h = self.data.hotels.get(hotel_id)
        if h is None:
            return Screen(top_bar=TopBar(self.t("酒店"), on_back=self.back), content=[])
        n = nights(self.ui.checkin, self.ui.checkout)
        rows: list[Node] = [
            Text(h.name, style="title", id="hotel_name"),
            Text(self.t("{n}星级", n=h.star), id="hotel_star"),
            Text(h.address, id="hotel_address", copyable=True),
            *[Text(self.t("距{mark}{d}", mark=m, d=km(d)), style="caption",
                   id=f"distance_{i}") for i, (m, d) in enumerate(h.distances)],
            Text(self.t("{a} 至 {b} · 共{n}晚", a=self.ui.checkin, b=self.ui.checkout, n=n),
                 id="hotel_dates")]
        for i, (room, price) in enumerate(h.rooms):
            rows.append(Row([Text(self.t("{room} · {price}/晚", room=room, price=yuan(price)),
                                  id=f"room_{i}"),
                             Button(self.t("预订"), partial(self.start_booking, "酒店",
                                                          hotel_id, i), id=f"book_{i}")],
                            id=f"room_row_{i}"))
        return Screen(top_bar=TopBar(h.name, on_back=self.back), content=rows)

    def train_search(self) -> Screen:
        ui = self.ui
        return Screen(top_bar=TopBar(self.t("火车票"), on_back=self.back), content=[
            TextField(ui.origin, lambda v: self.set_ui(origin=v), id="from",
                      label=self.t("出发站"), hint=self.t("出发站")),
            TextField(ui.dest, lambda v: self.set_ui(dest=v), id="to",
                      label=self.t("到达站"), hint=self.t("到达站")),
            TextField(ui.day, lambda v: self.set_ui(day=v), id="day",
                      label=self.t("出发日期"), hint=self.t("出发日期（YYYY-MM-DD）")),
            Button(self.t("查询"), self.search_trains, id="search_trains")])

    def trains_screen(self) -> Screen:
        ui = self.ui
        shown = train_results(self.data, ui)
        return Screen(
            top_bar=TopBar(self.t("{a} → {b} · {day}", a=ui.origin.strip(), b=ui.dest.strip(),
                                  day=ui.day.strip()), on_back=self.back),
            content=[ListView([ListItem(
                self.t("{number} · {depart} → {arrive}", number=t.number, depart=t.depart,
                       arrive=t.arrive),
                " ".join(self.t("{seat}{price}", seat=s, price=yuan(p)) + (
                    "" if n > 0 else self.t("（无票）")) for s, p, n in t.seats),
                id=f"train_{t.id}", glyph="train", on_click=partial(self.go, "train", t.id))
                for t in shown], id="train_list", empty_text=self.t("该日期没有车次"))])

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
        dialog = None if not self.ui.paying else Dialog(
            self.t("确认支付"), self.t("{title} · {item}，支付{total}", title=title, item=item,
                                      total=yuan(total)),
            [DialogButton(self.t("取消"), partial(self.set_ui, paying=False), id="button_cancel"),
             DialogButton(self.t("确认支付"), partial(self.pay, arg), id="button_pay")])
        return Screen(
            top_bar=TopBar(self.t("填写订单"), on_back=self.back),
            content=[Text(title, style="title", id="book_title"),
                     Text(f"{item} · {when}", id="book_item"),
                     TextField(self.ui.traveller, lambda v: self.set_ui(traveller=v),
                               id="traveller", label=who, hint=who),
                     Text(self.t("订单总额 {total}", total=yuan(total)), id="book_total"),
                     Button(self.t("提交订单"), partial(self.submit, arg), id="submit")],
            dialog=dialog, on_dismiss=partial(self.set_ui, paying=False))

    def order_screen(self, order_id: int) -> Screen:
        o = self.data.orders.get(order_id)
        if o is None:
            return Screen(top_bar=TopBar(self.t("订单详情"), on_back=self.back), content=[])
        when = (self.t("{a} 至 {b}", a=o.start, b=o.end) if o.kind == "酒店"
                else self.t("{day} {depart}出发", day=o.start, depart=o.depart))
        return Screen(top_bar=TopBar(self.t("订单详情"), on_back=self.back), content=[
            Text(o.title, style="title", id="order_title"),
            Text(o.item, id="order_item"),
            Text(o.route, id="order_route"),
            Text(when, id="order_when"),
            Text(self.t("出行人：{name}", name=o.traveller), id="order_traveller"),
            Text(self.t("{total} · {status}", total=yuan(o.total), status=self.t(o.status)),
                 id="order_total")])
