"""大众点评 (Dazhong Dianping): restaurants, reviews and 团购 deals, as in the Dianping app.

The bottom bar has 首页 (a search field, id ``search``, over filter chips: 智能排序, 距离最近,
好评优先, ids ``sort_default``/``sort_distance``/``sort_rating``, and a 人均 budget,
``budget_0`` for 不限, ``budget_50``/``budget_100``/``budget_200``; then the shops, rows
``shop_<id>`` whose second line is "4.6分 · 人均¥88 · 川菜 · 1.2km"), 收藏 (the saved shops,
rows ``fav_<id>``) and 我的 (我的评价, rows ``myreview_<id>``; 我的团购券, rows
``voucher_<id>``). A shop's page shows its 评分 (id ``rating``), 人均 (id ``price``), 地址
(id ``address``), 收藏 (id ``fav``), 写评价 (id ``write_review``), its 团购 (rows
``deal_<id>``: a tap brings up the payment, 大众点评支付 with the wallet's PIN, ``pay_pin``
and ``button_pay``) and its reviews (rows ``review_<id>``). 写评价 has star chips
(``star_1``..``star_5``), the text (id ``review_text``) and 发布 (id ``post_review``).

Shops, deals, reviews and vouchers are the app's ``Store`` (``apps.Dianping...``); the
search, the filters and a payment in progress are transient.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import BottomNav, Chip, PayState, pay, yuan
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

TABS = ("首页", "收藏", "我的")
TAB_ICONS = ("home", "star", "person")
ME = "我"
SORTS = {"default": "智能排序", "distance": "距离最近", "rating": "好评优先"}
BUDGETS = (0, 50, 100, 200)
#: ``kit.pay``'s reasons, as 大众点评 shows them.
PAY_ERRORS = {"Incorrect PIN": "支付密码错误", "Insufficient balance": "余额不足",
              "Nothing to pay": "没有需要支付的金额"}


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Shop:
    """A restaurant: ``rating`` in tenths (46 is 4.6分), ``price`` 人均 in yuan,
    ``distance`` in metres; ``faved`` by the owner."""

    id: int
    name: str
    cuisine: str
    address: str
    rating: int
    price: int
    distance: int
    faved: bool = False


@dataclass(frozen=True)
class Review:
    id: int
    shop: int
    author: str
    stars: int
    text: str


@dataclass(frozen=True)
class Deal:
    """A 团购 of shop ``shop``: ``price`` and ``original`` (门市价) in cents."""

    id: int
    shop: int
    title: str
    price: int
    original: int


@dataclass(frozen=True)
class Voucher:
    """A bought 团购 voucher."""

    id: int
    deal: int
    shop: int
    title: str
    price: int


@dataclass
class DianpingData(Store):
    shops: Table[Shop] = field(default_factory=lambda: Table(kind=Shop))
    deals: Table[Deal] = field(default_factory=lambda: Table(kind=Deal))
    reviews: Table[Review] = field(default_factory=lambda: Table(kind=Review))
    vouchers: Table[Voucher] = field(default_factory=lambda: Table(kind=Voucher))


@dataclass
class DianpingUi:
    """Transient state: the tab, the search and its filters, the review draft, the deal
    being paid."""

    tab: str = "首页"
    query: str = ""
    sort: str = "default"
    budget: int = 0
    stars: int = 0
    text: str = ""
    deal: int = 0
    paying: PayState | None = None


# --- updates -------------------------------------------------------------------------------
def find_shops(data: DianpingData, query: str, sort: str = "default",
               budget: int = 0) -> list[Shop]:
    """The shops whose name or cuisine holds ``query``, 人均 within ``budget`` (0: any),
    by ``sort``: distance, rating (best first) or the default (id)."""
    q = query.strip()
    shops = [s for s in data.shops if (not q or q in s.name or q in s.cuisine)
             and (not budget or s.price <= budget)]
    keys = {"distance": lambda s: (s.distance, s.id), "rating": lambda s: (-s.rating, s.id)}
    return sorted(shops, key=keys.get(sort, lambda s: s.id))


def distance_text(metres: int) -> str:
    return f"{metres}m" if metres < 1000 else f"{metres / 1000:.1f}km"


def rating_text(rating: int) -> str:
    return f"{rating / 10:.1f}"


def stars_text(n: int) -> str:
    return "★" * n + "☆" * (5 - n)


# --- the app -------------------------------------------------------------------------------
class DianpingApp(App):
    manifest = MANIFEST

    data: DianpingData
    ui: DianpingUi

    def initial_data(self) -> DianpingData:
        return DianpingData()

    def initial_ui(self) -> DianpingUi:
        return DianpingUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def toggle_fav(self, shop_id: int) -> None:
        s = self.data.shops.get(shop_id)
        if s is not None:
            self.data.shops.update(shop_id, faved=not s.faved)
            self.toast(self.t("已取消收藏") if s.faved else self.t("收藏成功"))

    def start_review(self, shop_id: int) -> None:
        self.ui.stars, self.ui.text = 0, ""
        self.go("review", shop_id)

    def post_review(self, shop_id: int) -> None:
        text = self.ui.text.strip()
        if not 1 <= self.ui.stars <= 5 or not text:
            self.toast(self.t("请打分并填写评价内容"))
            return
        self.data.reviews.new(shop=shop_id, author=ME, stars=self.ui.stars, text=text)
        self.ui.stars, self.ui.text = 0, ""
        self.toast(self.t("评价发布成功"))
        self.back()

    def buy(self, deal_id: int) -> None:
        d = self.data.deals.get(deal_id)
        s = self.data.shops.get(d.shop) if d else None
        if d is None or s is None:
            return
        self.ui.deal, self.ui.paying = deal_id, PayState(d.price, s.name, d.title)

    def set_pin(self, pin: str) -> None:
        if self.ui.paying is not None:
            self.ui.paying.pin = pin

    def confirm_pay(self) -> None:
        d, state = self.data.deals.get(self.ui.deal), self.ui.paying
        if d is None or state is None:
            return
        if pay(self.system, state):
            state.error = PAY_ERRORS.get(state.error, state.error)
            return
        self.data.vouchers.new(deal=d.id, shop=d.shop, title=d.title, price=d.price)
        self.ui.paying, self.ui.deal = None, 0
        self.toast(self.t("购买成功，券已放入我的团购券"))

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name == "shop" and self.data.shops.get(route.arg) is not None:
            return self.shop_screen(route.arg)
        if route.name == "review" and self.data.shops.get(route.arg) is not None:
            return self.review_screen(route.arg)
        return self.home()

    def shop_row(self, s: Shop, prefix: str) -> Node:
        return ListItem(s.name, self.t("{r}分 · 人均¥{p} · {c} · {d}", r=rating_text(s.rating),
                                       p=s.price, c=s.cuisine, d=distance_text(s.distance)),
                        id=f"{prefix}_{s.id}", glyph=s.name[:1],
                        on_click=partial(self.go, "shop", s.id))

    def home(self) -> Screen:
        tab = self.ui.tab if self.ui.tab in TABS else TABS[0]
        content: list[Node]
        if tab == "收藏":
            content = [ListView([self.shop_row(s, "fav") for s in
                                 sorted(self.data.shops, key=lambda s: s.id) if s.faved],
                                id="favs", empty_text=self.t("还没有收藏的商户"))]
        elif tab == "我的":
            names = {s.id: s.name for s in self.data.shops}
            mine = sorted((r for r in self.data.reviews if r.author == ME), key=lambda r: -r.id)
            content = [
                Text(self.t("我的评价（{n}）", n=len(mine)), style="title", id="mine_label"),
                ListView([ListItem(names.get(r.shop, ""), f"{stars_text(r.stars)} {r.text}",
                                   id=f"myreview_{r.id}") for r in mine], id="my_reviews",
                         empty_text=self.t("还没有写过评价")),
                Text(self.t("我的团购券"), style="title", id="vouchers_label"),
                ListView([ListItem(v.title, f"{names.get(v.shop, '')} · {yuan(v.price)}",
                                   id=f"voucher_{v.id}")
                          for v in sorted(self.data.vouchers, key=lambda v: -v.id)],
                         id="vouchers", empty_text=self.t("还没有团购券"))]
        else:
            shops = find_shops(self.data, self.ui.query, self.ui.sort, self.ui.budget)
            content = [
                TextField(self.ui.query, lambda v: self.set_ui(query=v),
                          hint=self.t("搜索商户、菜系"), id="search", label=self.t("搜索")),
                Row([Chip(self.t(label), key == self.ui.sort, partial(self.set_ui, sort=key),
                          id=f"sort_{key}") for key, label in SORTS.items()], id="sorts"),
                Row([Chip(self.t("人均{b}元以内", b=b) if b else self.t("人均不限"),
                          b == self.ui.budget, partial(self.set_ui, budget=b),
                          id=f"budget_{b}") for b in BUDGETS], id="budgets"),
                ListView([self.shop_row(s, "shop") for s in shops], id="shops",
                         empty_text=self.t("没有找到符合条件的商户"))]
        return Screen(top_bar=TopBar(self.t(tab)), content=content,
                      bottom=BottomNav([self.t(t) for t in TABS], TAB_ICONS, self.t(tab),
                                       self.pick_tab, style=self.manifest.look.nav_style))

    def pick_tab(self, label: str) -> None:
        self.ui.tab = next((t for t in TABS if self.t(t) == label), TABS[0])

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
        return Dialog(self.t("大众点评支付"), "", [
            DialogButton(self.t("取消"), partial(self.set_ui, paying=None), id="button_cancel"),
            DialogButton(self.t("确认支付"), self.confirm_pay, id="button_pay")], body=body)

    def shop_screen(self, shop_id: int) -> Screen:
        s = self.data.shops[shop_id]
        deals = sorted((d for d in self.data.deals if d.shop == shop_id), key=lambda d: d.id)
        reviews = sorted((r for r in self.data.reviews if r.shop == shop_id),
                         key=lambda r: -r.id)
        dialog = self.pay_dialog()
        return Screen(
            top_bar=TopBar(s.name, on_back=self.back),
            content=[Text(self.t("{r}分", r=rating_text(s.rating)), style="title", id="rating"),
                     Text(self.t("人均 ¥{p}", p=s.price), id="price"),
                     Text(s.cuisine, style="caption", id="cuisine"),
                     Text(self.t("地址：{a}", a=s.address), id="address", copyable=True),
                     Text(self.t("距您 {d}", d=distance_text(s.distance)), id="distance"),
                     Row([Button(self.t("已收藏") if s.faved else self.t("收藏"),
                                 partial(self.toggle_fav, shop_id), id="fav",
                                 style="secondary"),
                          Button(self.t("写评价"), partial(self.start_review, shop_id),
                                 id="write_review", style="secondary")], id="shop_actions"),
                     Text(self.t("团购"), style="title", id="deals_label"),
                     ListView([ListItem(d.title, self.t("{p} 门市价{o}", p=yuan(d.price),
                                                        o=yuan(d.original)),
                                        id=f"deal_{d.id}", on_click=partial(self.buy, d.id))
                               for d in deals], id="deals", empty_text=self.t("暂无团购")),
                     Text(self.t("网友评价（{n}）", n=len(reviews)), style="title",
                          id="reviews_label"),
                     ListView([ListItem(r.author, f"{stars_text(r.stars)} {r.text}",
                                        id=f"review_{r.id}") for r in reviews], id="reviews",
                              empty_text=self.t("还没有评价"))],
            dialog=dialog, on_dismiss=partial(self.set_ui, paying=None) if dialog else None)

    def review_screen(self, shop_id: int) -> Screen:
        s = self.data.shops[shop_id]
        return Screen(
            top_bar=TopBar(self.t("评价 {name}", name=s.name), on_back=self.back),
            content=[Text(self.t("总体评分"), id="stars_label"),
                     Row([Chip(self.t("{n}星", n=n), n == self.ui.stars,
                               partial(self.set_ui, stars=n), id=f"star_{n}")
                          for n in range(1, 6)], id="stars"),
                     TextField(self.ui.text, lambda v: self.set_ui(text=v),
                               hint=self.t("分享你的用餐体验"), id="review_text",
                               label=self.t("评价内容"), multiline=True),
                     Button(self.t("发布"), partial(self.post_review, shop_id),
                            id="post_review")])
