"""瑞幸咖啡 (Luckin Coffee): coffee ordered for pick-up, as in its WeChat mini-program.

The bottom bar has 菜单, 购物车, 订单 and 我的. 菜单 shows the pick-up store (自提门店, id
``store``: a tap lists the stores nearest first, each with its distance; a tap picks one),
category chips (ids ``category_<i>``) and the drinks of the category (ids ``drink_<id>``). A
drink's page has its options as chips: 温度 (冰/热, only those the drink comes in; ids
``temp_<i>``), 糖度 (ids ``sugar_<i>``), 杯型 (大杯, or 超大杯 for ¥3 more; ids ``size_<i>``),
preset to the first of each, and 加入购物车 (id ``add_to_cart``). 购物车 lists the lines (one
can be reduced), 优惠券 (id ``coupon``: the coupons, each with its condition, 满¥x可用 and
perhaps one category; one that the cart does not meet cannot be chosen), the subtotal, the
discount and 合计 (id ``total``); 去结算 (id ``checkout``) brings up WeChat Pay
(``kit.PaySheet``). Paying places the order at the store with a 取餐码 (pick-up code) and
marks the coupon used; the order's page shows the code (id ``pickup_code``).

Drinks, stores, coupons and orders are the mini-program's own ``Store``
(``apps.Luckin...``); an order's ``items`` are ``(drink, 温度, 糖度, 杯型, quantity)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ...world.app import App, Route, app_strings
from ...world.data import Store, Table
from ...world.kit import BottomNav, Chip, PaySheet, PayState, pay, with_capsule, yuan
from ...world.kit.localize import localize_tree
from ...world.locale import DEFAULT_LOCALE
from ...world.widgets import (
    Button,
    Column,
    Icon,
    ListItem,
    ListView,
    Node,
    Row,
    Screen,
    Text,
    TopBar,
)
from .manifest import MANIFEST

TABS = ("菜单", "购物车", "订单", "我的")
TAB_ICONS = ("menu", "shopping_cart", "list", "person")
CATEGORIES = ("生椰家族", "拿铁家族", "美式家族", "轻乳茶")
TEMPS = ("冰", "热")
SUGARS = ("不另外加糖", "少甜", "标准甜")
SIZES = ("大杯", "超大杯")
#: What 超大杯 costs more than 大杯, in cents.
LARGER = 300
Item = tuple[str, str, str, str, int]  # drink, temperature, sugar, size, quantity


@dataclass(frozen=True)
class Drink:
    """A drink of ``category``: ``price`` (大杯) in cents; ``temps`` those it comes in."""

    id: int
    name: str
    category: str
    price: int
    temps: tuple[str, ...] = TEMPS


@dataclass(frozen=True)
class CoffeeStore:
    """A store: ``distance`` from the user in metres."""

    id: int
    name: str
    address: str
    distance: int


@dataclass(frozen=True)
class Coupon:
    """``off`` cents off an order of at least ``threshold`` cents (holding a drink of
    ``category``, when set)."""

    id: int
    title: str
    off: int
    threshold: int = 0
    category: str = ""
    used: bool = False


@dataclass(frozen=True)
class CoffeeOrder:
    """A placed order: ``code`` is its 取餐码; ``status`` 制作中 or 已取餐."""

    id: int
    store: str
    items: tuple[Item, ...]
    coupon: str
    total: int
    code: str
    status: str = "制作中"


@dataclass
class LuckinData(Store):
    drinks: Table[Drink] = field(default_factory=lambda: Table(kind=Drink))
    stores: Table[CoffeeStore] = field(default_factory=lambda: Table(kind=CoffeeStore))
    coupons: Table[Coupon] = field(default_factory=lambda: Table(kind=Coupon))
    orders: Table[CoffeeOrder] = field(default_factory=lambda: Table(kind=CoffeeOrder))


@dataclass
class LuckinUi:
    """Transient state: the tab, the pick-up store, the category, the drink's chosen
    options, the cart (``Item`` lines), the chosen coupon and the payment waiting for its
    PIN."""

    tab: str = "菜单"
    store: int = 0  # the pick-up store (0: the first, the one used last)
    category: str = CATEGORIES[0]
    temp: str = ""
    sugar: str = SUGARS[0]
    size: str = SIZES[0]
    cart: list[Item] = field(default_factory=list)
    coupon: int = 0
    paying: PayState | None = None


def line_price(drinks: dict[str, Drink], item: Item) -> int:
    drink = drinks.get(item[0])
    return 0 if drink is None else (drink.price + (LARGER if item[3] == SIZES[1] else 0)) * item[4]


def usable(coupon: Coupon, subtotal: int, categories: set[str]) -> bool:
    """Whether ``coupon`` applies to a cart of ``subtotal`` holding ``categories``."""
    return (not coupon.used and subtotal >= coupon.threshold
            and (not coupon.category or coupon.category in categories))


def pickup_code(order_id: int, total: int) -> str:
    """The order's 取餐码: four digits."""
    return str(1000 + (order_id * 7919 + total * 31) % 9000)


def normal_items(items: Any) -> list[tuple[str, str, str, str, int]]:
    """Order items as sorted tuples (from records or snapshots)."""
    return sorted((str(d), str(t), str(s), str(z), int(q)) for d, t, s, z, q in items or ())


class LuckinApp(App):
    manifest = MANIFEST

    data: LuckinData
    ui: LuckinUi

    def initial_data(self) -> LuckinData:
        return LuckinData()

    def initial_ui(self) -> LuckinUi:
        return LuckinUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def toast(self, text: str) -> None:
        """A toast; the kit's own (the capsule menu's) in the locale's words."""
        if self.system.locale != DEFAULT_LOCALE:
            text = app_strings(type(self), self.system.locale).strings.get(text, text)
        super().toast(text)

    # --- reading the state ---------------------------------------------------------------
    def store(self) -> CoffeeStore | None:
        found = self.data.stores.get(self.ui.store) if self.ui.store else None
        return found or min(self.data.stores, key=lambda s: s.id, default=None)

    def by_name(self) -> dict[str, Drink]:
        return {d.name: d for d in self.data.drinks}

    def subtotal(self) -> int:
        drinks = self.by_name()
        return sum(line_price(drinks, item) for item in self.ui.cart)

    def categories(self) -> set[str]:
        drinks = self.by_name()
        return {drinks[i[0]].category for i in self.ui.cart if i[0] in drinks}

    def coupon(self) -> Coupon | None:
        c = self.data.coupons.get(self.ui.coupon) if self.ui.coupon else None
        return c if c is not None and usable(c, self.subtotal(), self.categories()) else None

    def total(self) -> int:
        c = self.coupon()
        return max(self.subtotal() - (c.off if c else 0), 0)

    # --- updates -------------------------------------------------------------------------
    def open_drink(self, drink: Drink) -> None:
        self.ui.temp, self.ui.sugar, self.ui.size = drink.temps[0], SUGARS[0], SIZES[0]
        self.go("drink", drink.id)

    def add(self, drink_id: int) -> None:
        d = self.data.drinks.get(drink_id)
        if d is None or self.ui.temp not in d.temps:
            return
        key = (d.name, self.ui.temp, self.ui.sugar, self.ui.size)
        for i, item in enumerate(self.ui.cart):
            if item[:4] == key:
                self.ui.cart[i] = (*key, item[4] + 1)
                break
        else:
            self.ui.cart.append((*key, 1))
        self.toast(self.t("已加入购物车"))
        self.back()

    def reduce(self, index: int) -> None:
        if 0 <= index < len(self.ui.cart):
            item = self.ui.cart[index]
            if item[4] > 1:
                self.ui.cart[index] = (*item[:4], item[4] - 1)
            else:
                self.ui.cart.pop(index)

    def pick_store(self, store_id: int) -> None:
        self.ui.store = store_id
        self.back()

    def pick_coupon(self, coupon_id: int) -> None:
        c = self.data.coupons.get(coupon_id) if coupon_id else None
        if c is not None and not usable(c, self.subtotal(), self.categories()):
            return
        self.ui.coupon = coupon_id
        self.back()

    def checkout(self) -> None:
        if self.ui.cart and self.store() is not None:
            self.ui.paying = PayState(self.total(), self.t("瑞幸咖啡"), self.store().name)  # type: ignore[union-attr]

    def set_pin(self, pin: str) -> None:
        if self.ui.paying is not None:
            self.ui.paying.pin = pin

    def confirm_pay(self) -> None:
        store, state, coupon = self.store(), self.ui.paying, self.coupon()
        if store is None or state is None or not self.ui.cart or pay(self.system, state):
            return
        if coupon is not None:
            self.data.coupons.update(coupon.id, used=True)
        order_id = max((o.id for o in self.data.orders), default=0) + 1
        order = self.data.orders.new(store=store.name, items=tuple(self.ui.cart),
                                     coupon=coupon.title if coupon else "",
                                     total=state.amount,
                                     code=pickup_code(order_id, state.amount), status="制作中")
        self.ui.cart, self.ui.coupon, self.ui.paying, self.ui.tab = [], 0, None, "订单"
        self.toast(self.t("支付成功"))
        self.stack = [Route("main"), Route("order", order.id)]

    def pick_tab(self, label: str) -> None:
        self.ui.tab = next((t for t in TABS if self.t(t) == label), TABS[0])

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name == "drink" and self.data.drinks.get(route.arg) is not None:
            screen = self.drink_screen(route.arg)
        elif route.name == "stores":
            screen = self.stores_screen()
        elif route.name == "coupons":
            screen = self.coupons_screen()
        elif route.name == "order" and self.data.orders.get(route.arg) is not None:
            screen = self.order_screen(route.arg)
        else:
            screen = self.home()
        screen = with_capsule(self, screen)
        if self.system.locale != DEFAULT_LOCALE:
            strings = dict(app_strings(type(self), self.system.locale).strings)
            for part in (*screen.content, screen.top_bar, screen.bottom, screen.dialog,
                         screen.dock):
                if part is not None:
                    localize_tree(part, strings)
        return screen

    def nav(self) -> Node:
        tab = self.ui.tab if self.ui.tab in TABS else TABS[0]
        return BottomNav([self.t(t) for t in TABS], TAB_ICONS, self.t(tab), self.pick_tab,
                         style=self.manifest.look.nav_style)

    def home(self) -> Screen:
        tab = self.ui.tab if self.ui.tab in TABS else TABS[0]
        dock: Node | None = None
        dialog: Node | None = None
        if tab == "购物车":
            content, dock = self.cart_content()
            if self.ui.paying is not None:
                dialog = PaySheet(self.ui.paying, on_pin=self.set_pin, on_pay=self.confirm_pay,
                                  on_cancel=partial(self.set_ui, paying=None))
        elif tab == "订单":
            orders = sorted(self.data.orders, key=lambda o: -o.id)
            rows = [ListItem(o.store, self.t("{what} · {v} · {status}", what="，".join(
                f"{i[0]}×{i[4]}" for i in o.items), v=yuan(o.total), status=self.t(o.status)),
                             id=f"order_{o.id}", glyph="☕",
                             on_click=partial(self.go, "order", o.id)) for o in orders]
            content = [ListView(rows, id="order_list", empty_text=self.t("暂无订单"))]
        elif tab == "我的":
            left = sum(1 for c in self.data.coupons if not c.used)
            content = [ListItem(self.t("瑞幸会员"), self.t("已绑定微信"), id="account", glyph="👤"),
                       ListItem(self.t("优惠券"), self.t("{n}张可用", n=left), id="my_coupons",
                                glyph="🎫")]
        else:
            content = self.menu_content()
        return Screen(top_bar=TopBar(self.t("瑞幸咖啡")), content=content, bottom=self.nav(),
                      dock=dock, dialog=dialog, on_dismiss=partial(self.set_ui, paying=None))

    def menu_content(self) -> list[Node]:
        store = self.store()
        drinks = sorted((d for d in self.data.drinks if d.category == self.ui.category),
                        key=lambda d: d.id)
        rows = [ListItem(d.name, self.t("{v}起 · {temps}", v=yuan(d.price),
                                        temps="/".join(d.temps)),
                         id=f"drink_{d.id}", glyph="☕", on_click=partial(self.open_drink, d))
                for d in drinks]
        return [ListItem(self.t("自提门店"),
                         self.t("{name} · 距您{m}m", name=store.name, m=store.distance)
                         if store else self.t("请选择门店"), id="store", glyph="📍",
                         on_click=partial(self.go, "stores")),
                Row([Chip(self.t(c), c == self.ui.category, partial(self.set_ui, category=c),
                          id=f"category_{i}") for i, c in enumerate(CATEGORIES)],
                    id="categories"),
                ListView(rows, id="drink_list", empty_text=self.t("该分类暂无饮品"))]

    def drink_screen(self, drink_id: int) -> Screen:
        d = self.data.drinks.get(drink_id)
        assert d is not None

        def chips(label: str, options: tuple[str, ...], chosen: str, attr: str,
                  key: str) -> list[Node]:
            return [Text(self.t(label), style="title", id=f"{key}_label"),
                    Row([Chip(self.t(o) if o in SIZES or o in SUGARS else o, o == chosen,
                              partial(self.set_ui, **{attr: o}), id=f"{key}_{i}")
                         for i, o in enumerate(options)], id=f"{key}_chips")]
        price = d.price + (LARGER if self.ui.size == SIZES[1] else 0)
        return Screen(
            top_bar=TopBar(d.name, on_back=self.back),
            content=[Text(yuan(price), style="big", id="drink_price"),
                     *chips("温度", d.temps, self.ui.temp, "temp", "temp"),
                     *chips("糖度", SUGARS, self.ui.sugar, "sugar", "sugar"),
                     *chips("杯型", SIZES, self.ui.size, "size", "size"),
                     Text(self.t("超大杯另加{v}", v=yuan(LARGER)), style="caption",
                          id="size_note")],
            dock=Button(self.t("加入购物车"), partial(self.add, d.id), id="add_to_cart"))

    def cart_content(self) -> tuple[list[Node], Node]:
        drinks = self.by_name()
        rows = [ListItem(item[0], f"{item[3]}/{item[1]}/{item[2]} ×{item[4]} · "
                                  f"{yuan(line_price(drinks, item))}", id=f"line_{i}",
                         trailing=Icon("−", self.t("减少{name}", name=item[0]),
                                       partial(self.reduce, i), id=f"reduce_{i}"))
                for i, item in enumerate(self.ui.cart)]
        store = self.store()
        coupon = self.coupon()
        left = sum(1 for c in self.data.coupons if not c.used)
        content: list[Node] = [
            ListItem(self.t("自提门店"), store.name if store else self.t("请选择门店"),
                     id="cart_store", glyph="📍", on_click=partial(self.go, "stores")),
            ListView(rows, id="cart", empty_text=self.t("购物车是空的")),
            ListItem(self.t("优惠券"), coupon.title if coupon else
                     self.t("不使用优惠券（{n}张可用）", n=left), id="coupon", glyph="🎫",
                     on_click=partial(self.go, "coupons")),
            Text(self.t("小计 {v}", v=yuan(self.subtotal())), id="subtotal"),
            Text(self.t("优惠 -{v}", v=yuan(coupon.off if coupon else 0)), id="discount")]
        dock = Column([Text(self.t("合计 {v}", v=yuan(self.total())), id="total"),
                       Button(self.t("去结算"), self.checkout, id="checkout",
                              enabled=bool(self.ui.cart) and store is not None)],
                      id="pay_bar")
        return content, dock

    def stores_screen(self) -> Screen:
        rows = [ListItem(s.name, self.t("距您{m}m · {address}", m=s.distance, address=s.address),
                         id=f"store_{s.id}", glyph="📍", on_click=partial(self.pick_store, s.id))
                for s in sorted(self.data.stores, key=lambda s: (s.distance, s.id))]
        return Screen(top_bar=TopBar(self.t("选择门店"), on_back=self.back),
                      content=[ListView(rows, id="store_list", empty_text=self.t("附近暂无门店"))])

    def coupons_screen(self) -> Screen:
        subtotal, cats = self.subtotal(), self.categories()
        rows: list[Node] = [ListItem(self.t("不使用优惠券"), "", id="coupon_none",
                                     on_click=partial(self.pick_coupon, 0))]
        for c in sorted(self.data.coupons, key=lambda c: c.id):
            if c.used:
                continue
            rule = self.t("满{v}可用", v=yuan(c.threshold)) if c.threshold else self.t("无门槛")
            if c.category:
                rule += self.t(" · 限{category}", category=c.category)
            state = self.t("可用") if usable(c, subtotal, cats) else self.t("不可用")
            rows.append(ListItem(c.title, self.t("减{v} · {rule} · {state}", v=yuan(c.off),
                                                 rule=rule, state=state),
                                 id=f"coupon_{c.id}", glyph="🎫",
                                 on_click=partial(self.pick_coupon, c.id)))
        return Screen(top_bar=TopBar(self.t("选择优惠券"), on_back=self.back),
                      content=[ListView(rows, id="coupon_list")])

    def order_screen(self, order_id: int) -> Screen:
        o = self.data.orders.get(order_id)
        assert o is not None
        items = [Text(f"{i[0]} {i[3]}/{i[1]}/{i[2]} ×{i[4]}", id=f"item_{n}")
                 for n, i in enumerate(o.items)]
        return Screen(top_bar=TopBar(self.t("订单详情"), on_back=self.back), content=[
            Text(self.t(o.status), style="title", id="order_status"),
            Text(self.t("取餐码 {code}", code=o.code), style="big", id="pickup_code"),
            Text(self.t("自提门店：{store}", store=o.store), id="order_store"),
            *items,
            Text(self.t("优惠券：{title}", title=o.coupon) if o.coupon else
                 self.t("未使用优惠券"), id="order_coupon"),
            Text(self.t("实付 {v}", v=yuan(o.total)), id="order_total")])
