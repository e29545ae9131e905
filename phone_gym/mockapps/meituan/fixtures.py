"""Public fixtures of 美团 (Meituan): shops and their menus, saved addresses, past orders,
the vocabulary they are drawn from, and the oracle steps other tasks reuse (order dishes
from a shop, pay)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.vocab import pick
from ...verifiers import Matcher
from ..chat.fixtures import pay_with_pin
from .app import Address, MeituanApp, MeituanOrder, Shop, normal_items

ORDERS = "apps.Meituan.orders"
#: Categories: their dishes with a base price in yuan.
MENUS: dict[str, tuple[tuple[str, int], ...]] = {
    "快餐简餐": (("黄焖鸡米饭", 22), ("宫保鸡丁饭", 24), ("鱼香肉丝饭", 21), ("番茄炒蛋饭", 18),
             ("卤肉饭", 19)),
    "面食粥点": (("红烧牛肉面", 26), ("兰州拉面", 20), ("皮蛋瘦肉粥", 12), ("鲜肉小笼包", 15),
             ("酸辣粉", 16)),
    "奶茶饮品": (("珍珠奶茶", 14), ("杨枝甘露", 18), ("柠檬茶", 12), ("生椰拿铁", 19),
             ("芋泥波波", 17)),
    "甜点蛋糕": (("芒果班戟", 22), ("提拉米苏", 28), ("蛋挞", 9), ("双皮奶", 15),
             ("草莓蛋糕卷", 26)),
}
#: Shop names by category (fictional shops of the usual kinds).
SHOP_NAMES: dict[str, tuple[str, ...]] = {
    "快餐简餐": ("张记黄焖鸡", "好食堂快餐", "老街小炒", "米香阁"),
    "面食粥点": ("西北拉面馆", "粥小鲜", "面面俱到", "老陕面庄"),
    "奶茶饮品": ("茶语时光", "一杯鲜茶", "椰子村", "甜心茶铺"),
    "甜点蛋糕": ("甜品研究所", "糖水铺子", "蛋糕小屋", "芒果先生"),
}
ADDRESSES = (("家", "幸福小区3栋1202室", "李明 138****6621"),
             ("公司", "科技园南区A座9楼", "李明 138****6621"),
             ("学校", "东湖大学8号宿舍楼", "李明 138****6621"))


def meituan_app(state: Any) -> MeituanApp:
    app = state.app("Meituan")
    assert isinstance(app, MeituanApp)
    return app


def sample_shops(rng: np.random.Generator, categories: Sequence[str],
                 per_category: int = 2) -> list[dict[str, Any]]:
    """Shops as plain data (``write_shops`` writes them): ``per_category`` of each
    category, with distinct distances and fees, their own prices for the category's
    dishes."""
    count = per_category * len(categories)
    distances = sorted(int(d) * 100 for d in rng.choice(np.arange(3, 50), count, replace=False))
    rng.shuffle(distances)  # type: ignore[arg-type]
    fees = [int(f) * 50 for f in rng.choice(np.arange(0, 12), count, replace=False)]
    shops = []
    for ci, category in enumerate(categories):
        for j, name in enumerate(pick(rng, SHOP_NAMES[category], per_category)):
            i = ci * per_category + j
            shops.append({
                "name": name, "category": category, "distance": distances[i],
                "rating": int(rng.integers(38, 50)), "fee": fees[i],
                "minimum": int(rng.integers(1, 4)) * 500, "minutes": int(rng.integers(25, 50)),
                "sales": int(rng.integers(2, 90)) * 100,
                "prices": [(dish, (base + int(rng.integers(-2, 5))) * 100)
                           for dish, base in MENUS[category]]})
    return shops


def write_shops(state: Any, shops: Sequence[Mapping[str, Any]],
                addresses: int = 2) -> dict[str, Shop]:
    """The shops ``shops`` (from ``sample_shops``), written in that order, with their
    menus, and the first ``addresses`` saved addresses; the shops by name."""
    data = meituan_app(state).data
    made = {}
    for s in shops:
        shop = data.shops.new(name=s["name"], category=s["category"], distance=s["distance"],
                              rating=s["rating"], fee=s["fee"], minimum=s["minimum"],
                              minutes=s["minutes"], sales=s["sales"])
        for k, (dish, price) in enumerate(s["prices"]):
            data.dishes.new(shop=shop.id, name=dish, price=price, sales=(k * 37 + 11) % 300)
        made[shop.name] = shop
    for label, text, contact in ADDRESSES[:addresses]:
        data.addresses.new(label=label, text=text, contact=contact)
    return made


def addresses(state: Any) -> list[Address]:
    return sorted(meituan_app(state).data.addresses, key=lambda a: a.id)


def order_total(shop: Mapping[str, Any], items: Sequence[Sequence[Any]]) -> int:
    """What an order of ``items`` (dish, quantity) from ``shop`` (plain data) costs, the
    delivery fee included."""
    prices = dict(shop["prices"])
    return sum(prices[d] * int(q) for d, q in items) + int(shop["fee"])


def add_past_order(state: Any, shop: Shop, items: Sequence[tuple[str, int]], address: str,
                   *, eta: str = "12:00", status: str = "已送达") -> MeituanOrder:
    """A placed order of ``items`` from ``shop`` to ``address`` (its total from the menu),
    arriving (or arrived) at ``eta``."""
    data = meituan_app(state).data
    prices = {d.name: d.price for d in data.dishes if d.shop == shop.id}
    total = sum(prices[n] * q for n, q in items) + shop.fee
    return data.orders.new(shop=shop.id, shop_name=shop.name, items=tuple(items),
                           address=address, total=total, eta=eta, status=status)


def sample_items(rng: np.random.Generator, category: str, k: int,
                 most: int = 2) -> list[list[Any]]:
    """``k`` different dishes of ``category``, each with a quantity up to ``most``."""
    return [[dish, int(rng.integers(1, most + 1))]
            for dish, _ in pick(rng, list(MENUS[category]), k)]


def same_items(items: Sequence[Sequence[Any]]) -> Matcher:
    """Order items equal to ``items`` (dish, quantity), in any order."""
    want = normal_items(items)
    return Matcher(lambda v: isinstance(v, (list, tuple)) and normal_items(v) == want,
                   f"items {want}")


def items_text(items: Sequence[Sequence[Any]]) -> str:
    """"2份黄焖鸡米饭和1份卤肉饭"."""
    return "和".join(f"{q}份{d}" for d, q in items)


def open_shop(ui: Driver, name: str) -> Iterator[PhoneAction]:
    """Launch 美团, search for the shop ``name`` and open it."""
    yield from ui.open_app("Meituan")
    yield from ui.fill("search", name)
    yield from ui.press("back")
    yield from ui.tap(name, kind="list_item")


def order_dishes(ui: Driver, items: Sequence[Sequence[Any]], label: str = "家"
                 ) -> Iterator[PhoneAction]:
    """On a shop's page: add ``items`` (dish, quantity), check out, and choose the saved
    address ``label`` unless it is already the one shown."""
    for dish, qty in items:
        row = ui.find(dish, kind="list_item")
        if row is None:
            yield from ui.reveal(dish, kind="list_item")
            row = ui.must(dish, kind="list_item")
        dish_id = row.short_id.removeprefix("dish_")
        for _ in range(int(qty)):
            yield from ui.tap(id=f"add_{dish_id}")
    yield from ui.tap(id="checkout")
    if not ui.must(id="address").hint.startswith(f"{label} · "):
        yield from ui.tap(id="address")
        row = next(e for e in ui.find_all(kind="list_item") if e.text.startswith(f"{label} · "))
        yield from ui.tap(id=row.short_id)


def pay(ui: Driver, pin: str) -> Iterator[PhoneAction]:
    """On 确认订单: submit the order and pay with the wallet ``pin``."""
    return pay_with_pin(ui, pin, submit="submit_order")
