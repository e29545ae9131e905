"""拼多多 (Pinduoduo): group buying, as in its WeChat mini-program.

The bottom bar has 首页 (a search field and the product list: each product's 拼单价, its
单独购买 price and how many were sold), 订单 (orders, newest first) and 个人中心. A product's
page shows both prices, the open group buys of other shoppers ("{leader}的拼单 · 还差1人拼成",
ids ``group_<id>``: a tap joins it, 参与拼单) and two buttons: 单独购买 (id ``buy_solo``) and
发起拼单 (id ``start_group``). Either leads to 确认订单 (the address, the price, 实付) whose
立即支付 (id ``submit_order``) brings up the host's WeChat Pay sheet (``kit.PaySheet``).
Paying places the order: a solo one is 待发货; a started group buy is 待成团 (a new group of
two with the owner as its leader); a joined one makes its group complete when it was one
short (拼单成功) and 待成团 otherwise.

Products, groups and orders are the mini-program's own ``Store`` (``apps.Pinduoduo...``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ...world.app import App, Route, app_strings
from ...world.data import Store, Table
from ...world.kit import BottomNav, PaySheet, PayState, pay, with_capsule, yuan
from ...world.kit.localize import localize_tree
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
    VirtualList,
)
from .manifest import MANIFEST

TABS = ("首页", "订单", "个人中心")
TAB_ICONS = ("home", "list", "person")
GROUP, SOLO = "拼单", "单独购买"
ME = "我"
#: The one saved address (收货地址).
ADDRESS = "杭州市西湖区文三路88号 1203室"


@dataclass(frozen=True)
class Product:
    """A product: ``group_price`` (拼单价) and ``solo_price`` (单独购买) in cents."""

    id: int
    name: str
    group_price: int
    solo_price: int
    sold: int = 0


@dataclass(frozen=True)
class Group:
    """A group buy of ``product``: ``size`` people, ``members`` of them in so far."""

    id: int
    product: int
    leader: str
    members: int = 1
    size: int = 2


@dataclass(frozen=True)
class PddOrder:
    """An order: ``kind`` 拼单 or 单独购买; ``group`` its group buy (0 for a solo one);
    ``status`` 待成团, 拼单成功 or 待发货."""

    id: int
    product: int
    product_name: str
    kind: str
    price: int
    group: int = 0
    status: str = "待发货"
    address: str = ADDRESS


@dataclass
class PddData(Store):
    products: Table[Product] = field(default_factory=lambda: Table(kind=Product))
    groups: Table[Group] = field(default_factory=lambda: Table(kind=Group))
    orders: Table[PddOrder] = field(default_factory=lambda: Table(kind=PddOrder))


def order_id(o: PddOrder) -> int:
    return o.id


def newest_orders(data: PddData) -> Sequence[PddOrder]:
    """The orders, newest first (an index kept on write: the list builds only the rows on
    screen)."""
    return data.orders.index("by_id", order_id).view(data.orders, reverse=True)


@dataclass
class PddUi:
    """Transient state: the tab, the search, what is being bought (product, kind, the
    group joined) and the payment waiting for its PIN."""

    tab: str = "首页"
    query: str = ""
    product: int | None = None
    kind: str = ""
    group: int = 0
    paying: PayState | None = None


def products_shown(data: PddData, query: str) -> list[Product]:
    """The product list: those whose name holds ``query``, best sellers first."""
    q = query.strip()
    return sorted((p for p in data.products if not q or q in p.name),
                  key=lambda p: (-p.sold, p.id))


def open_groups(data: PddData, product_id: int) -> list[Group]:
    """The group buys of ``product_id`` still short of people, oldest first."""
    return sorted((g for g in data.groups if g.product == product_id and g.members < g.size),
                  key=lambda g: g.id)


class PinduoduoApp(App):
    manifest = MANIFEST

    data: PddData
    ui: PddUi

    def initial_data(self) -> PddData:
        return PddData()

    def make_indexes(self) -> None:
        newest_orders(self.data)

    def initial_ui(self) -> PddUi:
        return PddUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def toast(self, text: str) -> None:
        """A toast; the kit's own (the capsule menu's) in the locale's words."""
        if self.system.locale != DEFAULT_LOCALE:
            text = app_strings(type(self), self.system.locale).strings.get(text, text)
        super().toast(text)

    # --- updates -------------------------------------------------------------------------
    def buy(self, product_id: int, kind: str, group: int = 0) -> None:
        """To 确认订单 for ``product_id`` bought ``kind`` (joining ``group`` when set)."""
        if self.data.products.get(product_id) is None:
            return
        self.ui.product, self.ui.kind, self.ui.group, self.ui.paying = \
            product_id, kind, group, None
        self.go("confirm")

    def price(self) -> int:
        p = self.data.products.get(self.ui.product) if self.ui.product else None
        if p is None:
            return 0
        return p.solo_price if self.ui.kind == SOLO else p.group_price

    def submit(self) -> None:
        p = self.data.products.get(self.ui.product) if self.ui.product else None
        if p is not None:
            self.ui.paying = PayState(self.price(), "拼多多", p.name)

    def set_pin(self, pin: str) -> None:
        if self.ui.paying is not None:
            self.ui.paying.pin = pin

    def confirm_pay(self) -> None:
        p = self.data.products.get(self.ui.product) if self.ui.product else None
        state = self.ui.paying
        if p is None or state is None or pay(self.system, state):
            return
        status, group = "待发货", 0
        if self.ui.kind == GROUP:
            joined = self.data.groups.get(self.ui.group) if self.ui.group else None
            if joined is not None and joined.members < joined.size:
                members = joined.members + 1
                self.data.groups.update(joined.id, members=members)
                status, group = ("拼单成功" if members >= joined.size else "待成团"), joined.id
            else:
                group = self.data.groups.new(product=p.id, leader=ME, members=1, size=2).id
                status = "待成团"
        order = self.data.orders.new(product=p.id, product_name=p.name, kind=self.ui.kind,
                                     price=state.amount, group=group, status=status)
        self.data.products.update(p.id, sold=p.sold + 1)
        self.ui.paying, self.ui.tab = None, "订单"
        self.toast(self.t("支付成功"))
        self.stack = [Route("main"), Route("order", order.id)]

    def pick_tab(self, label: str) -> None:
        self.ui.tab = next((t for t in TABS if self.t(t) == label), TABS[0])

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name == "product" and self.data.products.get(route.arg) is not None:
            screen = self.product_screen(route.arg)
        elif route.name == "confirm" and self.ui.product is not None:
            screen = self.confirm_screen()
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
        content: list[Node]
        if tab == "订单":
            orders = newest_orders(self.data)
            content = [VirtualList(len(orders), lambda i: self.order_row(orders[i]),
                                   id="order_list", empty_text=self.t("暂无订单"))]
        elif tab == "个人中心":
            content = [ListItem(self.t("拼多多用户"), self.t("已绑定微信"), id="account",
                                glyph="👤"),
                       ListItem(self.t("收货地址"), ADDRESS, id="my_address", glyph="📍")]
        else:
            shown = products_shown(self.data, self.ui.query)
            rows = [ListItem(p.name, self.t("拼单价{g} · 单独购买{s} · 已拼{n}件",
                                            g=yuan(p.group_price), s=yuan(p.solo_price),
                                            n=p.sold),
                             id=f"product_{p.id}", glyph=p.name[:1],
                             on_click=partial(self.go, "product", p.id)) for p in shown]
            content = [TextField(self.ui.query, lambda v: self.set_ui(query=v), id="search",
                                 hint=self.t("搜索商品"), label=self.t("搜索")),
                       ListView(rows, id="product_list", empty_text=self.t("没有找到相关商品"))]
        return Screen(top_bar=TopBar(self.t("拼多多")), content=content, bottom=self.nav())

    def product_screen(self, product_id: int) -> Screen:
        p = self.data.products.get(product_id)
        assert p is not None
        groups = [ListItem(self.t("{leader}的拼单", leader=g.leader),
                           self.t("还差{n}人拼成 · 参与拼单", n=g.size - g.members),
                           id=f"group_{g.id}", glyph="👥",
                           on_click=partial(self.buy, p.id, GROUP, g.id))
                  for g in open_groups(self.data, product_id)]
        return Screen(
            top_bar=TopBar(self.t("商品详情"), on_back=self.back),
            content=[Text(p.name, style="title", id="product_name"),
                     Text(self.t("拼单价 {v}", v=yuan(p.group_price)), style="big",
                          id="group_price"),
                     Text(self.t("单独购买价 {v}", v=yuan(p.solo_price)), id="solo_price"),
                     Text(self.t("已拼{n}件 · 全场包邮", n=p.sold), style="caption", id="sold"),
                     Text(self.t("这些人正在拼单，可直接参与"), style="title", id="groups_title"),
                     ListView(groups, id="group_list", empty_text=self.t("暂时没有人在拼单"))],
            dock=Row([Button(self.t("单独购买 {v}", v=yuan(p.solo_price)),
                             partial(self.buy, p.id, SOLO), id="buy_solo"),
                      Button(self.t("发起拼单 {v}", v=yuan(p.group_price)),
                             partial(self.buy, p.id, GROUP), id="start_group")],
                     id="buy_bar"))

    def confirm_screen(self) -> Screen:
        p = self.data.products.get(self.ui.product) if self.ui.product else None
        assert p is not None
        group = self.data.groups.get(self.ui.group) if self.ui.group else None
        how = (self.t("参与{leader}的拼单", leader=group.leader) if group is not None
               else self.t("发起拼单") if self.ui.kind == GROUP else self.t("单独购买"))
        dialog = None
        if self.ui.paying is not None:
            dialog = PaySheet(self.ui.paying, on_pin=self.set_pin, on_pay=self.confirm_pay,
                              on_cancel=partial(self.set_ui, paying=None))
        return Screen(
            top_bar=TopBar(self.t("确认订单"), on_back=self.back),
            content=[ListItem(self.t("收货地址"), ADDRESS, id="address", glyph="📍"),
                     ListItem(p.name, f"{how} · {yuan(self.price())} ×1", id="confirm_line",
                              glyph=p.name[:1]),
                     Text(self.t("实付 {v}", v=yuan(self.price())), id="total")],
            dock=Button(self.t("立即支付"), self.submit, id="submit_order"),
            dialog=dialog, on_dismiss=partial(self.set_ui, paying=None))

    def order_row(self, o: PddOrder) -> Node:
        return ListItem(o.product_name, f"{self.t(o.kind)} · {yuan(o.price)} · "
                                        f"{self.t(o.status)}",
                        id=f"order_{o.id}", glyph=o.product_name[:1],
                        on_click=partial(self.go, "order", o.id))

    def order_screen(self, order_id: int) -> Screen:
        o = self.data.orders.get(order_id)
        assert o is not None
        content: list[Node] = [
            Text(self.t(o.status), style="title", id="order_status"),
            Text(o.product_name, id="order_product"),
            Text(self.t(o.kind), id="order_kind"),
            Text(self.t("实付 {v}", v=yuan(o.price)), id="order_total"),
            Text(self.t("送至 {address}", address=o.address), id="order_address")]
        if o.status == "待成团":
            content.append(Text(self.t("还差1人拼成，快邀请好友参与拼单"), style="caption",
                                id="order_hint"))
        return Screen(top_bar=TopBar(self.t("订单详情"), on_back=self.back), content=content)
