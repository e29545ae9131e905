"""淘宝 (Taobao): shopping, as in the Taobao app.

The bottom bar has 首页 (the search field, id ``search``; with a query, the results with
sort chips 综合 / 销量 / 价格: each product's price, how many paid for it (人付款) and its
shop), 购物车 (the cart: lines with their SKU, each removable, and 结算, id
``cart_checkout``) and 我的淘宝 (我的订单, id ``my_orders``, and 我的收藏, id
``my_favorites``). A product's page shows its price, sales and shop, the SKU chips (ids
``sku_<n>``: one must be chosen), 收藏 (id ``favorite``: on and off), 分享 (id ``share``:
the product's link to a WeChat chat, after a confirmation), 加入购物车 (id ``add_cart``)
and 立即购买 (id ``buy_now``). 确认订单 shows what is bought, the address and the total;
提交订单 (id ``submit_order``) brings up the payment confirmation (支付宝: the wallet's PIN,
id ``pay_pin``; 确认付款, id ``button_pay``), which pays from the phone's wallet
(``kit.pay``) and places one order per line.

Products, the cart, favourites and orders are the app's own ``Store``
(``apps.Taobao...``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
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
from ..chat.fixtures import send as chat_send
from .manifest import MANIFEST

TABS = ("首页", "购物车", "我的淘宝")
TAB_ICONS = ("home", "shopping_cart", "person")
SORTS = ("综合", "销量", "价格")
LINK = "https://item.taobao.com/item.htm?id={id}"
ADDRESS = "幸福小区3栋1202室 李明"
PAY_ERRORS = {"Incorrect PIN": "支付密码不正确", "Insufficient balance": "余额不足",
              "Nothing to pay": "没有需要支付的金额"}


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Product:
    """A product: ``price`` in cents, ``sales`` how many paid, ``skus`` the choices of
    ``sku_name`` (颜色, 尺码, 规格)."""

    id: int
    title: str
    price: int
    sales: int
    shop: str
    sku_name: str
    skus: tuple[str, ...]


@dataclass(frozen=True)
class CartLine:
    id: int
    product: int
    sku: str
    qty: int = 1


@dataclass(frozen=True)
class Favorite:
    id: int
    product: int


@dataclass(frozen=True)
class TaobaoOrder:
    id: int
    product: int
    title: str
    sku: str
    qty: int
    total: int
    shop: str
    address: str = ADDRESS
    status: str = "待发货"


@dataclass
class TaobaoData(Store):
    products: Table[Product] = field(default_factory=lambda: Table(kind=Product))
    cart: Table[CartLine] = field(default_factory=lambda: Table(kind=CartLine))
    favorites: Table[Favorite] = field(default_factory=lambda: Table(kind=Favorite))
    orders: Table[TaobaoOrder] = field(default_factory=lambda: Table(kind=TaobaoOrder))


def order_id(o: TaobaoOrder) -> int:
    return o.id


def newest_orders(data: TaobaoData) -> Sequence[TaobaoOrder]:
    """The orders, newest first (an index kept on write: the list builds only the rows on
    screen)."""
    return data.orders.index("by_id", order_id).view(data.orders, reverse=True)


@dataclass
class TaobaoUi:
    """Transient state: the tab, the search, the sort, the SKU chosen on a product's page,
    what 确认订单 buys (``(product, sku, qty)``; ``from_cart``: the cart's lines), the
    payment waiting for its PIN, the chat a share is being confirmed for."""

    tab: str = "首页"
    query: str = ""
    sort: str = "综合"
    sku: str = ""
    buying: list[tuple[int, str, int]] = field(default_factory=list)
    from_cart: bool = False
    paying: PayState | None = None
    share_to: int | None = None


# --- updates -------------------------------------------------------------------------------
def results(data: TaobaoData, query: str, sort: str) -> list[Product]:
    """The products whose title holds every word of ``query``, in ``sort``'s order."""
    words = query.split()
    found = [p for p in data.products if words and all(w in p.title for w in words)]
    if sort == "销量":
        return sorted(found, key=lambda p: (-p.sales, p.id))
    if sort == "价格":
        return sorted(found, key=lambda p: (p.price, p.id))
    return sorted(found, key=lambda p: p.id)


def add_to_cart(data: TaobaoData, product: int, sku: str) -> CartLine:
    same = next((c for c in data.cart if (c.product, c.sku) == (product, sku)), None)
    if same is not None:
        return data.cart.update(same.id, qty=same.qty + 1)
    return data.cart.new(product=product, sku=sku, qty=1)


def favorite_of(data: TaobaoData, product: int) -> Favorite | None:
    return next((f for f in data.favorites if f.product == product), None)


def sales_text(sales: int) -> str:
    return f"{sales // 10000}万+人付款" if sales >= 10000 else f"{sales}人付款"


def link(product_id: int) -> str:
    return LINK.format(id=product_id)


# --- the app -------------------------------------------------------------------------------
class TaobaoApp(App):
    manifest = MANIFEST

    data: TaobaoData
    ui: TaobaoUi

    def initial_data(self) -> TaobaoData:
        return TaobaoData()

    def make_indexes(self) -> None:
        newest_orders(self.data)

    def initial_ui(self) -> TaobaoUi:
        return TaobaoUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    # --- handlers ------------------------------------------------------------------------
    def open_product(self, product_id: int) -> None:
        self.ui.sku = ""
        self.go("product", product_id)

    def toggle_favorite(self, product_id: int) -> None:
        found = favorite_of(self.data, product_id)
        if found is None:
            self.data.favorites.new(product=product_id)
            self.toast(self.t("已收藏"))
        else:
            self.data.favorites.remove(found.id)
            self.toast(self.t("已取消收藏"))

    def chosen_sku(self, product: Product) -> str | None:
        if self.ui.sku in product.skus:
            return self.ui.sku
        self.toast(self.t("请选择{sku_name}", sku_name=product.sku_name))
        return None

    def add_cart(self, product_id: int) -> None:
        product = self.data.products.get(product_id)
        sku = self.chosen_sku(product) if product else None
        if product is None or sku is None:
            return
        add_to_cart(self.data, product_id, sku)
        self.toast(self.t("已加入购物车"))

    def buy_now(self, product_id: int) -> None:
        product = self.data.products.get(product_id)
        sku = self.chosen_sku(product) if product else None
        if product is None or sku is None:
            return
        self.ui.buying, self.ui.from_cart, self.ui.paying = [(product_id, sku, 1)], False, None
        self.go("confirm")

    def checkout_cart(self) -> None:
        lines = sorted(self.data.cart, key=lambda c: c.id)
        if not lines:
            return
        self.ui.buying = [(c.product, c.sku, c.qty) for c in lines]
        self.ui.from_cart, self.ui.paying = True, None
        self.go("confirm")

    def lines(self) -> list[tuple[Product, str, int]]:
        out = []
        for pid, sku, qty in self.ui.buying:
            product = self.data.products.get(pid)
            if product is not None:
                out.append((product, sku, qty))
        return out

    def total(self) -> int:
        return sum(p.price * q for p, _, q in self.lines())

    def submit(self) -> None:
        if self.lines():
            self.ui.paying = PayState(self.total(), "淘宝", "淘宝订单")

    def set_pin(self, pin: str) -> None:
        if self.ui.paying is not None:
            self.ui.paying.pin = pin

    def confirm_pay(self) -> None:
        state, lines = self.ui.paying, self.lines()
        if state is None or not lines:
            return
        if pay(self.system, state):
            state.error = PAY_ERRORS.get(state.error, state.error)
            return
        for p, sku, qty in lines:
            self.data.orders.new(product=p.id, title=p.title, sku=sku, qty=qty,
                                 total=p.price * qty, shop=p.shop)
            if self.ui.from_cart:
                for c in [c for c in self.data.cart if (c.product, c.sku) == (p.id, sku)]:
                    self.data.cart.remove(c.id)
        self.ui.buying, self.ui.paying, self.ui.tab = [], None, "我的淘宝"
        self.toast(self.t("支付成功"))
        self.stack = [Route("main"), Route("orders")]

    def chat_store(self) -> Any:
        finder = getattr(self.host, "app", None)
        chat = finder("Chat") if callable(finder) else None
        return getattr(chat, "data", None)

    def confirm_share(self, product_id: int, chat_id: int) -> None:
        store, product = self.chat_store(), self.data.products.get(product_id)
        self.ui.share_to = None
        if store is None or product is None or store.chats.get(chat_id) is None:
            return
        chat_send(store, chat_id, product.title, "link",
                  time=self.system.now.strftime("%H:%M"), content=link(product.id))
        self.toast(self.t("已分享"))
        self.back()

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name == "product" and self.data.products.get(route.arg) is not None:
            return self.product_screen(route.arg)
        if route.name == "share" and self.data.products.get(route.arg) is not None:
            return self.share_screen(route.arg)
        if route.name == "confirm" and self.lines():
            return self.confirm_screen()
        if route.name == "orders":
            return self.orders_screen()
        if route.name == "favorites":
            return self.favorites_screen()
        return self.home()

    def product_row(self, p: Product, prefix: str = "item") -> Node:
        return ListItem(p.title, f"{yuan(p.price)} · {sales_text(p.sales)} · {p.shop}",
                        id=f"{prefix}_{p.id}", glyph="🛍",
                        on_click=partial(self.open_product, p.id))

    def pick_tab(self, label: str) -> None:
        self.ui.tab = next((t for t in TABS if self.t(t) == label), TABS[0])

    def home(self) -> Screen:
        tab = self.ui.tab if self.ui.tab in TABS else TABS[0]
        content: list[Node]
        if tab == "购物车":
            content = self.cart_content()
        elif tab == "我的淘宝":
            content = [ListItem(self.t("淘宝用户"), self.t("淘气值 860"), id="account", glyph="👤"),
                       ListItem(self.t("我的订单"), self.t("{n} 个订单", n=len(self.data.orders)),
                                id="my_orders",
                                glyph="📦", on_click=partial(self.go, "orders")),
                       ListItem(self.t("我的收藏"),
                                self.t("{n} 件宝贝", n=len(self.data.favorites)),
                                id="my_favorites", glyph="★",
                                on_click=partial(self.go, "favorites"))]
        else:
            found = results(self.data, self.ui.query, self.ui.sort)
            content = [TextField(self.ui.query, lambda v: self.set_ui(query=v),
                                 hint=self.t("搜索宝贝"), id="search", label=self.t("搜索"))]
            if self.ui.query.strip():
                content += [
                    Row([Chip(self.t(s), s == self.ui.sort, partial(self.set_ui, sort=s),
                              id=f"sort_{i}") for i, s in enumerate(SORTS)], id="sorts"),
                    ListView([self.product_row(p) for p in found], id="results",
                             empty_text=self.t("没有找到相关宝贝"))]
            else:
                content.append(Text(self.t("猜你喜欢：输入关键词搜索宝贝"), style="caption",
                                    id="hint"))
        return Screen(top_bar=TopBar(self.t("淘宝")), content=content,
                      bottom=BottomNav([self.t(t) for t in TABS], TAB_ICONS, self.t(tab),
                                       self.pick_tab,
                                       style=self.manifest.look.nav_style))

    def cart_content(self) -> list[Node]:
        rows = []
        for c in sorted(self.data.cart, key=lambda c: c.id):
            p = self.data.products.get(c.product)
            if p is None:
                continue
            rows.append(ListItem(p.title, f"{p.sku_name}：{c.sku} · ×{c.qty} · "
                                 f"{yuan(p.price * c.qty)}", id=f"cart_{c.id}", glyph="🛒",
                                 trailing=Icon("🗑", self.t("删除{title}", title=p.title),
                                               partial(self.data.cart.remove, c.id),
                                               id=f"remove_{c.id}")))
        total = sum(p.price * c.qty for c in self.data.cart
                    if (p := self.data.products.get(c.product)) is not None)
        return [Text(self.t("购物车（{n}）", n=len(rows)), style="title", id="section"),
                ListView(rows, id="cart_list", empty_text=self.t("购物车竟然是空的")),
                Text(self.t("合计 {v}", v=yuan(total)), id="cart_total"),
                Button(self.t("结算"), self.checkout_cart, id="cart_checkout", enabled=bool(rows))]

    def product_screen(self, product_id: int) -> Screen:
        p = self.data.products.get(product_id)
        assert p is not None
        liked = favorite_of(self.data, product_id) is not None
        return Screen(
            top_bar=TopBar(self.t("宝贝详情"), on_back=self.back, actions=[
                Icon("⇪", self.t("分享"), partial(self.go, "share", product_id), id="share")]),
            content=[Text(yuan(p.price), style="big", id="price"),
                     Text(p.title, style="title", id="title"),
                     Text(f"{sales_text(p.sales)} · {p.shop}", style="caption", id="shop"),
                     Text(self.t("选择{sku_name}", sku_name=p.sku_name), id="sku_label"),
                     Row([Chip(s, s == self.ui.sku, partial(self.set_ui, sku=s),
                               id=f"sku_{i}") for i, s in enumerate(p.skus)], id="skus")],
            dock=Column([
                Button(self.t("已收藏") if liked else self.t("收藏"),
                       partial(self.toggle_favorite, product_id),
                       id="favorite"),
                Row([Button(self.t("加入购物车"), partial(self.add_cart, product_id),
                            id="add_cart"),
                     Button(self.t("立即购买"), partial(self.buy_now, product_id), id="buy_now")])],
                id="buy_bar"))

    def pay_dialog(self) -> Node | None:
        state = self.ui.paying
        if state is None:
            return None
        body: list[Node] = [Text(yuan(state.amount), style="big", id="pay_amount"),
                            TextField(state.pin, self.set_pin, hint=self.t("请输入6位支付密码"),
                                      id="pay_pin", label=self.t("支付密码"))]
        if state.error:
            body.append(Text(state.error, style="caption", id="pay_error"))
        return Dialog(self.t("支付宝"), "", [
            DialogButton(self.t("取消"), partial(self.set_ui, paying=None), id="button_cancel"),
            DialogButton(self.t("确认付款"), self.confirm_pay, id="button_pay")], body=body)

    def confirm_screen(self) -> Screen:
        rows = [ListItem(p.title, f"{p.sku_name}：{sku} · ×{q} · {yuan(p.price * q)}",
                         id=f"line_{i}", glyph="🛍")
                for i, (p, sku, q) in enumerate(self.lines())]
        return Screen(
            top_bar=TopBar(self.t("确认订单"), on_back=self.back),
            content=[ListItem(self.t("收货地址"), ADDRESS, id="address", glyph="📍"),
                     ListView(rows, id="lines")],
            dock=Column([Text(self.t("合计 {v}", v=yuan(self.total())), id="total"),
                         Button(self.t("提交订单"), self.submit, id="submit_order")], id="pay_bar"),
            dialog=self.pay_dialog(), on_dismiss=partial(self.set_ui, paying=None))

    def orders_screen(self) -> Screen:
        orders = newest_orders(self.data)

        def row(i: int) -> Node:
            o = orders[i]
            return ListItem(o.title, self.t("{sku} · ×{qty} · 实付{v} · {status}", sku=o.sku,
                                            qty=o.qty, v=yuan(o.total), status=o.status),
                            id=f"order_{o.id}", glyph="📦")
        return Screen(top_bar=TopBar(self.t("我的订单"), on_back=self.back),
                      content=[VirtualList(len(orders), row, id="order_list",
                                           empty_text=self.t("还没有订单"))])

    def favorites_screen(self) -> Screen:
        rows = []
        for f in sorted(self.data.favorites, key=lambda f: -f.id):
            p = self.data.products.get(f.product)
            if p is not None:
                rows.append(self.product_row(p, "fav"))
        return Screen(top_bar=TopBar(self.t("我的收藏"), on_back=self.back),
                      content=[ListView(rows, id="favorite_list", empty_text=self.t("还没有收藏"))])

    def share_screen(self, product_id: int) -> Screen:
        store = self.chat_store()
        chats = sorted(store.chats, key=lambda c: (c.title, c.id)) if store else []
        items = [ListItem(c.title, self.t("群聊") if c.group else "", id=f"to_{c.id}",
                          glyph="#" if c.group else c.title[:1],
                          on_click=partial(self.set_ui, share_to=c.id)) for c in chats]
        product = self.data.products.get(product_id)
        target = store.chats.get(self.ui.share_to) if store and self.ui.share_to else None
        dialog = None
        if target is not None and product is not None:
            dialog = Dialog(self.t("分享给 {title}？", title=target.title),
                            self.t("[链接] {title}", title=product.title), [
                DialogButton(self.t("取消"), partial(self.set_ui, share_to=None),
                             id="button_cancel"),
                DialogButton(self.t("发送"), partial(self.confirm_share, product_id, target.id),
                             id="button_send")])
        return Screen(top_bar=TopBar(self.t("分享给微信好友"), on_back=self.back),
                      content=[ListView(items, id="share_list", empty_text=self.t("没有微信聊天"))],
                      dialog=dialog, on_dismiss=partial(self.set_ui, share_to=None))
