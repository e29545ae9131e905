"""美团 (Meituan): food delivery, as in the 外卖 channel of the Meituan app.

The bottom bar has 首页 (a search field, category chips, sort chips and the shop list: each
shop's rating, monthly sales, distance, delivery time, minimum order 起送 and delivery fee
配送), 订单 (orders, newest first) and 我的. A shop's page lists its menu, each dish with
"+" (id ``add_<dish>``); the cart bar shows what is chosen and 去结算 (id ``checkout``), held
back with "差¥x起送" until the minimum order is met. 确认订单 lists the cart (a line can be
reduced), the address (收货地址, id ``address``: one of the saved ones), the delivery fee and
the total; 提交订单 (id ``submit_order``) brings up the payment confirmation (美团支付: the
wallet's PIN, id ``pay_pin``; 确认支付, id ``button_pay``), which pays from the phone's
wallet (``kit.pay``) and places the order with its estimated arrival (预计送达, now plus
the shop's delivery time). An order's page shows it and 再来一单 (id ``reorder``: its dishes
into the cart of that shop, to the same address).

Shops, dishes, addresses and orders are the app's own ``Store`` (``apps.Meituan...``); an
order's ``items`` are ``(dish, quantity)`` pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial
from typing import Any

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import BottomNav, Chip, PayState, pay, yuan
from ...world.widgets import (
    Button,
    Column,
    Dialog,
    DialogButton,
    Icon,
    ListItem,
    ListView,
    Node,
    Row,
    Screen,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

TABS = ("首页", "订单", "我的")
TAB_ICONS = ("home", "list", "person")
CATEGORIES = ("全部", "快餐简餐", "面食粥点", "奶茶饮品", "甜点蛋糕")
SORTS = ("综合排序", "距离最近", "配送费最低")
#: ``kit.pay``'s reasons, as 美团支付 shows them.
PAY_ERRORS = {"Incorrect PIN": "支付密码错误，请重试", "Insufficient balance": "余额不足",
              "Nothing to pay": "没有需要支付的金额"}
Item = tuple[str, int]  # dish name, quantity


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Shop:
    """A shop: ``distance`` in metres, ``rating`` in tenths (46: 4.6分), ``fee`` and
    ``minimum`` (起送) in cents, ``minutes`` its delivery time, ``sales`` per month."""

    id: int
    name: str
    category: str
    distance: int
    rating: int
    fee: int
    minimum: int
    minutes: int
    sales: int = 0


@dataclass(frozen=True)
class Dish:
    id: int
    shop: int
    name: str
    price: int  # cents
    sales: int = 0


@dataclass(frozen=True)
class Address:
    id: int
    label: str  # 家, 公司, 学校
    text: str
    contact: str = ""


@dataclass(frozen=True)
class MeituanOrder:
    """A placed order: ``eta`` is the estimated arrival ("12:35"), ``status`` 配送中 or
    已送达."""

    id: int
    shop: int
    shop_name: str
    items: tuple[Item, ...]
    address: str
    total: int
    eta: str
    status: str = "配送中"


@dataclass
class MeituanData(Store):
    shops: Table[Shop] = field(default_factory=lambda: Table(kind=Shop))
    dishes: Table[Dish] = field(default_factory=lambda: Table(kind=Dish))
    addresses: Table[Address] = field(default_factory=lambda: Table(kind=Address))
    orders: Table[MeituanOrder] = field(default_factory=lambda: Table(kind=MeituanOrder))


def order_id(o: MeituanOrder) -> int:
    return o.id


def newest_orders(data: MeituanData) -> Sequence[MeituanOrder]:
    """The orders, newest first (an index kept on write: the list builds only the rows on
    screen)."""
    return data.orders.index("by_id", order_id).view(data.orders, reverse=True)


@dataclass
class MeituanUi:
    """Transient state: the tab, search, filters, the cart (of one shop), the address
    chosen and the payment waiting for its PIN."""

    tab: str = "首页"
    query: str = ""
    category: str = "全部"
    sort: str = "综合排序"
    shop: int | None = None
    cart: dict[int, int] = field(default_factory=dict)  # dish id -> quantity
    address: int | None = None
    paying: PayState | None = None


# --- updates -------------------------------------------------------------------------------
def distance_text(metres: int) -> str:
    return f"{metres}m" if metres < 1000 else f"{metres / 1000:.1f}km"


def price_text(cents: int) -> str:
    """``1000`` -> ``"¥10"``, ``150`` -> ``"¥1.50"`` (whole yuan without cents, as 美团)."""
    return yuan(cents).removesuffix(".00")


def shop_line(s: Shop) -> str:
    """The shop row's second line, as 美团 lists it: what decides an order first (the row
    is cut at the screen's edge: monthly sales last)."""
    return (f"{s.rating / 10:.1f}分 · 起送{price_text(s.minimum)} · 配送{price_text(s.fee)} · "
            f"{distance_text(s.distance)} · {s.minutes}分钟 · 月售{s.sales}")


def shops_shown(data: MeituanData, query: str, category: str, sort: str) -> list[Shop]:
    """The shop list: those whose name, or one of whose dishes, holds ``query``, in
    ``category``, in the order ``sort`` asks."""
    q = query.strip()
    selling = {d.shop for d in data.dishes if q and q in d.name}
    shops = [s for s in data.shops
             if (not q or q in s.name or s.id in selling)
             and category in ("全部", s.category)]
    if sort == "距离最近":
        return sorted(shops, key=lambda s: (s.distance, s.id))
    if sort == "配送费最低":
        return sorted(shops, key=lambda s: (s.fee, s.id))
    return sorted(shops, key=lambda s: (-s.rating * s.sales, s.id))


def normal_items(items: Any) -> list[tuple[str, int]]:
    """Order items as sorted ``(dish, quantity)`` pairs (from records or snapshots)."""
    return sorted((str(name).strip(), int(qty)) for name, qty in items or ())


def eta_after(now: Any, minutes: int) -> str:
    return str((now + timedelta(minutes=minutes)).strftime("%H:%M"))


# --- the app -------------------------------------------------------------------------------
class MeituanApp(App):
    manifest = MANIFEST

    data: MeituanData
    ui: MeituanUi

    def initial_data(self) -> MeituanData:
        return MeituanData()

    def make_indexes(self) -> None:
        newest_orders(self.data)

    def initial_ui(self) -> MeituanUi:
        return MeituanUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    # --- handlers ------------------------------------------------------------------------
    def open_shop(self, shop_id: int) -> None:
        if self.ui.shop != shop_id:
            self.ui.cart = {}
        self.ui.shop = shop_id
        self.go("shop", shop_id)

    def add(self, dish_id: int) -> None:
        dish = self.data.dishes.get(dish_id)
        if dish is None or dish.shop != self.ui.shop:
            return
        self.ui.cart[dish_id] = self.ui.cart.get(dish_id, 0) + 1

    def reduce(self, dish_id: int) -> None:
        qty = self.ui.cart.get(dish_id, 0)
        if qty > 1:
            self.ui.cart[dish_id] = qty - 1
        else:
            self.ui.cart.pop(dish_id, None)

    def current_shop(self) -> Shop | None:
        return self.data.shops.get(self.ui.shop) if self.ui.shop is not None else None

    def cart_lines(self) -> list[tuple[Dish, int]]:
        lines = [(self.data.dishes.get(d), q) for d, q in self.ui.cart.items()]
        return sorted(((d, q) for d, q in lines if d is not None), key=lambda x: x[0].id)

    def subtotal(self) -> int:
        return sum(d.price * q for d, q in self.cart_lines())

    def total(self) -> int:
        shop = self.current_shop()
        return self.subtotal() + (shop.fee if shop else 0)

    def chosen_address(self) -> Address | None:
        if self.ui.address is not None and self.data.addresses.get(self.ui.address):
            return self.data.addresses.get(self.ui.address)
        return min(self.data.addresses, key=lambda a: a.id, default=None)

    def checkout(self) -> None:
        shop = self.current_shop()
        if shop is None or not self.ui.cart or self.subtotal() < shop.minimum:
            return
        self.ui.paying = None
        self.go("checkout")

    def pick_address(self, address_id: int) -> None:
        self.ui.address = address_id
        self.back()

    def submit(self) -> None:
        shop = self.current_shop()
        if shop is None or not self.ui.cart or self.chosen_address() is None:
            return
        self.ui.paying = PayState(self.total(), shop.name, "美团外卖订单")

    def set_pin(self, pin: str) -> None:
        if self.ui.paying is not None:
            self.ui.paying.pin = pin

    def confirm_pay(self) -> None:
        shop, address, state = self.current_shop(), self.chosen_address(), self.ui.paying
        if shop is None or address is None or state is None or not self.ui.cart:
            return
        if pay(self.system, state):
            state.error = PAY_ERRORS.get(state.error, state.error)
            return
        items = tuple((d.name, q) for d, q in self.cart_lines())
        order = self.data.orders.new(
            shop=shop.id, shop_name=shop.name, items=items, address=address.text,
            total=state.amount, eta=eta_after(self.system.now, shop.minutes), status="配送中")
        self.ui.cart, self.ui.paying, self.ui.tab = {}, None, "订单"
        self.toast(self.t("支付成功"))
        self.stack = [Route("main"), Route("order", order.id)]

    def reorder(self, order_id: int) -> None:
        order = self.data.orders.get(order_id)
        shop = self.data.shops.get(order.shop) if order else None
        if order is None or shop is None:
            return
        by_name = {d.name: d.id for d in self.data.dishes if d.shop == shop.id}
        self.ui.shop = shop.id
        self.ui.cart = {by_name[n]: q for n, q in order.items if n in by_name}
        self.ui.address = next((a.id for a in self.data.addresses if a.text == order.address),
                               None)
        self.ui.paying = None
        self.go("checkout")

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name == "shop" and self.data.shops.get(route.arg) is not None:
            return self.shop_screen(route.arg)
        if route.name == "checkout" and self.current_shop() is not None:
            return self.checkout_screen()
        if route.name == "addresses":
            return self.address_screen()
        if route.name == "order" and self.data.orders.get(route.arg) is not None:
            return self.order_screen(route.arg)
        return self.home()

    def pick_tab(self, label: str) -> None:
        self.ui.tab = next((t for t in TABS if self.t(t) == label), TABS[0])

    def nav(self) -> Node:
        tab = self.ui.tab if self.ui.tab in TABS else TABS[0]
        return BottomNav([self.t(t) for t in TABS], TAB_ICONS, self.t(tab), self.pick_tab,
                         style=self.manifest.look.nav_style)

    def home(self) -> Screen:
        tab = self.ui.tab if self.ui.tab in TABS else TABS[0]
        if tab == "订单":
            content = self.orders_content()
        elif tab == "我的":
            content = [ListItem(self.t("美团用户"), self.t("已绑定手机号"), id="account",
                                glyph="👤"),
                       ListItem(self.t("收货地址"), self.t("{n} 个", n=len(self.data.addresses)),
                                id="my_addresses", glyph="📍",
                                on_click=partial(self.go, "addresses")),
                       Text(self.t("钱包余额 {v}", v=yuan(self.system.wallet.balance)),
                            id="balance")]
        else:
            content = self.shops_content()
        return Screen(top_bar=TopBar(self.t("美团外卖")), content=content, bottom=self.nav())

    def shops_content(self) -> list[Node]:
        shops = shops_shown(self.data, self.ui.query, self.ui.category, self.ui.sort)
        rows = [ListItem(s.name, shop_line(s), id=f"shop_{s.id}", glyph=s.name[:1],
                         on_click=partial(self.open_shop, s.id)) for s in shops]
        return [
            TextField(self.ui.query, lambda v: self.set_ui(query=v), hint=self.t("搜索商家或菜品"),
                      id="search", label=self.t("搜索")),
            Row([Chip(self.t(c), c == self.ui.category, partial(self.set_ui, category=c),
                      id=f"category_{i}") for i, c in enumerate(CATEGORIES)], id="categories"),
            Row([Chip(self.t(s), s == self.ui.sort, partial(self.set_ui, sort=s), id=f"sort_{i}")
                 for i, s in enumerate(SORTS)], id="sorts"),
            ListView(rows, id="shop_list", empty_text=self.t("附近没有找到相关商家")),
        ]

    def orders_content(self) -> list[Node]:
        orders = newest_orders(self.data)

        def row(i: int) -> Node:
            o = orders[i]
            return ListItem(o.shop_name, "，".join(f"{n}×{q}" for n, q in o.items)
                            + f" · {yuan(o.total)} · {o.status}", id=f"order_{o.id}",
                            glyph=o.shop_name[:1], on_click=partial(self.go, "order", o.id))
        return [Text(self.t("全部订单"), style="title", id="section"),
                VirtualList(len(orders), row, id="order_list", empty_text=self.t("暂无订单"))]

    def shop_screen(self, shop_id: int) -> Screen:
        shop = self.data.shops.get(shop_id)
        assert shop is not None
        dishes = sorted((d for d in self.data.dishes if d.shop == shop_id), key=lambda d: d.id)
        rows = [ListItem(d.name, self.t("{v} · 月售{sales}", v=yuan(d.price), sales=d.sales),
                         id=f"dish_{d.id}",
                         glyph="🍽",
                         trailing=Icon("+", self.t("加入{name}", name=d.name),
                                       partial(self.add, d.id),
                                       id=f"add_{d.id}")) for d in dishes]
        mine = self.ui.shop == shop_id
        count = sum(self.ui.cart.values()) if mine else 0
        subtotal = self.subtotal() if mine else 0
        short = shop.minimum - subtotal
        label = self.t("去结算") if count and short <= 0 else (
            self.t("差{v}起送", v=yuan(short)) if count
            else self.t("{v}起送", v=yuan(shop.minimum)))
        return Screen(
            top_bar=TopBar(shop.name, on_back=self.back),
            content=[Text(shop_line(shop), style="caption", id="shop_info"),
                     ListView(rows, id="menu", empty_text=self.t("商家暂未上架菜品"))],
            dock=Column([Text(self.t("已选{count}件 · {v} · 另需配送费{v2}", count=count,
                                     v=yuan(subtotal), v2=yuan(shop.fee)),
                             id="cart_summary"),
                        Button(label, self.checkout, id="checkout",
                               enabled=bool(count) and short <= 0)], id="cart_bar"))

    def pay_dialog(self) -> Node | None:
        state = self.ui.paying
        if state is None:
            return None
        body: list[Node] = [Text(yuan(state.amount), style="big", id="pay_amount"),
                            Text(self.t("付款给 {payee}", payee=state.payee), id="pay_payee"),
                            TextField(state.pin, self.set_pin, hint=self.t("请输入6位支付密码"),
                                      id="pay_pin", label=self.t("支付密码"))]
        if state.error:
            body.append(Text(state.error, style="caption", id="pay_error"))
        return Dialog(self.t("美团支付"), "", [
            DialogButton(self.t("取消"), partial(self.set_ui, paying=None), id="button_cancel"),
            DialogButton(self.t("确认支付"), self.confirm_pay, id="button_pay")], body=body)

    def checkout_screen(self) -> Screen:
        shop = self.current_shop()
        assert shop is not None
        lines = self.cart_lines()
        rows = [ListItem(d.name, f"×{q} · {yuan(d.price * q)}", id=f"line_{d.id}",
                         trailing=Icon("−", self.t("减少{name}", name=d.name),
                                       partial(self.reduce, d.id),
                                       id=f"reduce_{d.id}")) for d, q in lines]
        address = self.chosen_address()
        where = f"{address.label} · {address.text}" if address else self.t("请添加收货地址")
        return Screen(
            top_bar=TopBar(self.t("确认订单"), on_back=self.back),
            content=[ListItem(self.t("收货地址"), where, id="address", glyph="📍",
                              on_click=partial(self.go, "addresses")),
                     Text(shop.name, style="title", id="checkout_shop"),
                     ListView(rows, id="cart", empty_text=self.t("购物车是空的")),
                     Text(self.t("配送费 {v}", v=yuan(shop.fee)), id="fee"),
                     Text(self.t("预计{minutes}分钟送达", minutes=shop.minutes), style="caption",
                          id="minutes")],
            dock=Column([Text(self.t("合计 {v}", v=yuan(self.total())), id="total"),
                        Button(self.t("提交订单"), self.submit, id="submit_order",
                               enabled=bool(lines) and address is not None)], id="pay_bar"),
            dialog=self.pay_dialog(), on_dismiss=partial(self.set_ui, paying=None))

    def address_screen(self) -> Screen:
        rows = [ListItem(f"{a.label} · {a.text}", a.contact, id=f"addr_{a.id}", glyph="📍",
                         on_click=partial(self.pick_address, a.id))
                for a in sorted(self.data.addresses, key=lambda a: a.id)]
        return Screen(top_bar=TopBar(self.t("选择收货地址"), on_back=self.back),
                      content=[ListView(rows, id="address_list",
                                        empty_text=self.t("暂无收货地址"))])

    def order_screen(self, order_id: int) -> Screen:
        o = self.data.orders.get(order_id)
        assert o is not None
        items = [Text(f"{n} ×{q}", id=f"item_{i}") for i, (n, q) in enumerate(o.items)]
        return Screen(top_bar=TopBar(self.t("订单详情"), on_back=self.back), content=[
            Text(o.status, style="title", id="order_status"),
            Text(self.t("预计送达 {eta}", eta=o.eta), id="order_eta"),
            Text(o.shop_name, id="order_shop"),
            *items,
            Text(self.t("实付 {v}", v=yuan(o.total)), id="order_total"),
            Text(self.t("送至 {address}", address=o.address), id="order_address"),
            Button(self.t("再来一单"), partial(self.reorder, order_id), id="reorder"),
        ])
