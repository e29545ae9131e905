"""Public fixtures of the 瑞幸咖啡 mini-program: the menu, stores at sampled distances,
coupons with conditions, past orders, and the oracle's moves (the way in, the nearest store,
drinks with their options into the cart, paying)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.families import read_rows
from ...tasks.vocab import pick
from ..chat.fixtures import open_mini_program, pay_with_pin
from .app import LARGER, SIZES, SUGARS, TEMPS, LuckinApp, normal_items, pickup_code

ORDERS = "apps.Luckin.orders"
COUPONS = "apps.Luckin.coupons"
__all__ = ["ORDERS", "COUPONS", "MENU", "STORES", "SUGARS", "SIZES", "TEMPS", "luckin_app",
           "sample_items", "items_text", "item_price", "sample_stores", "write_menu",
           "write_stores", "write_coupons", "add_past_order", "open_luckin",
           "choose_nearest_store", "add_items", "pay", "normal_items", "pickup_code"]

#: The menu: drink, category, 大杯 price (yuan), the temperatures it comes in.
MENU: tuple[tuple[str, str, int, tuple[str, ...]], ...] = (
    ("生椰拿铁", "生椰家族", 29, TEMPS), ("椰云拿铁", "生椰家族", 32, ("冰",)),
    ("冰吸生椰拿铁", "生椰家族", 32, ("冰",)), ("丝绒拿铁", "拿铁家族", 29, TEMPS),
    ("厚乳拿铁", "拿铁家族", 29, TEMPS), ("标准美式", "美式家族", 23, TEMPS),
    ("橙C美式", "美式家族", 26, ("冰",)), ("茉莉花香轻乳茶", "轻乳茶", 27, TEMPS),
    ("大红袍轻乳茶", "轻乳茶", 27, TEMPS),
)
#: Stores: name, address.
STORES: tuple[tuple[str, str], ...] = (
    ("西湖文化广场店", "环城北路西湖文化广场B1"), ("文三路店", "文三路259号昌地火炬大厦"),
    ("黄龙万科中心店", "学院路77号黄龙万科中心"), ("武林银泰店", "延安路530号武林银泰1楼"),
    ("浙大紫金港店", "余杭塘路866号浙大紫金港"), ("湖滨银泰店", "东坡路7号湖滨银泰in77"),
)


def luckin_app(state: Any) -> LuckinApp:
    app = state.app("Luckin")
    assert isinstance(app, LuckinApp)
    return app


def sample_items(rng: np.random.Generator, k: int, *, hot_ok: bool = True
                 ) -> list[list[Any]]:
    """``k`` different drinks as ``[drink, 温度, 糖度, 杯型, quantity]`` (options they come
    in)."""
    out = []
    for name, _, _, temps in pick(rng, MENU, k):
        out.append([name, pick(rng, list(temps)), pick(rng, SUGARS), pick(rng, SIZES),
                    int(rng.integers(1, 3))])
    return out


def items_text(items: Sequence[Sequence[Any]]) -> str:
    """The items as an instruction says them: 1杯冰生椰拿铁（超大杯，少甜）."""
    return "和".join(f"{q}杯{t}{d}（{z}，{s}）" for d, t, s, z, q in items)


def item_price(item: Sequence[Any]) -> int:
    """The price of a line, in cents."""
    base = next(p for name, _, p, _ in MENU if name == item[0]) * 100
    return (base + (LARGER if item[3] == SIZES[1] else 0)) * int(item[4])


def sample_stores(rng: np.random.Generator, k: int = 4) -> list[dict[str, Any]]:
    """``k`` stores with distinct distances (metres); the first (the one the menu opens
    with) is never the nearest."""
    stores = [{"name": n, "address": a} for n, a in pick(rng, STORES, k)]
    metres = sorted(int(m) * 10 for m in rng.choice(np.arange(20, 300), size=k,
                                                     replace=False))
    order = [int(i) for i in rng.permutation(k)]
    if order[0] == 0:
        order[0], order[1] = order[1], order[0]
    for s, i in zip(stores, order, strict=True):
        s["distance"] = metres[i]
    return stores


def write_menu(state: Any) -> None:
    data = luckin_app(state).data
    for name, category, price, temps in MENU:
        data.drinks.new(name=name, category=category, price=price * 100, temps=tuple(temps))


def write_stores(state: Any, stores: Sequence[Mapping[str, Any]]) -> None:
    data = luckin_app(state).data
    for s in stores:
        data.stores.new(name=s["name"], address=s["address"], distance=s["distance"])


def write_coupons(state: Any, coupons: Sequence[Mapping[str, Any]]) -> None:
    """Coupons as plain data: ``title``, ``off`` and ``threshold`` (cents), ``category``."""
    data = luckin_app(state).data
    for c in coupons:
        data.coupons.new(title=c["title"], off=c["off"], threshold=c.get("threshold", 0),
                         category=c.get("category", ""), used=c.get("used", False))


def add_past_order(state: Any, store: str, items: Sequence[Sequence[Any]], code: str,
                   status: str = "已取餐") -> None:
    total = sum(item_price(i) for i in items)
    luckin_app(state).data.orders.new(store=store, items=tuple(tuple(i) for i in items),
                                      coupon="", total=total, code=code, status=status)


def open_luckin(ui: Driver) -> Iterator[PhoneAction]:
    """WeChat > Discover > Mini Programs > 瑞幸咖啡."""
    return open_mini_program(ui, "Luckin")


def choose_nearest_store(ui: Driver) -> Iterator[PhoneAction]:
    """On 菜单: open the store list (nearest first, as it says) and pick the top one."""
    yield from ui.tap(id="store")
    rows = yield from read_rows(ui, "store")
    if not rows:
        raise OracleError("no store listed")
    def metres(hint: str) -> int:
        head = hint.split(" · ")[0].removeprefix("距您").removesuffix("m")
        if not head.isdigit():
            raise OracleError(f"unreadable store line {hint!r}")
        return int(head)
    nearest = min(rows, key=lambda r: metres(r[2]))
    ui.why(f"离我最近的门店是{nearest[1]}（{nearest[2].split(' · ')[0]}）")
    yield from ui.tap(id=nearest[0])


def add_items(ui: Driver, items: Sequence[Sequence[Any]]) -> Iterator[PhoneAction]:
    """On 菜单: each drink with its options into the cart, once per cup; then to 购物车."""
    for drink, temp, sugar, size, qty in items:
        category = next(c for name, c, _, _ in MENU if name == drink)
        for _ in range(int(qty)):
            yield from ui.tap(category, kind="chip")
            yield from ui.tap(drink, kind="list_item")
            for option in (temp, sugar, size):
                yield from ui.tap(option, kind="chip")
            yield from ui.tap(id="add_to_cart")
    yield from ui.tap(id="tab_shopping_cart")


def pay(ui: Driver, pin: str) -> Iterator[PhoneAction]:
    """On 购物车: 去结算, then WeChat Pay with ``pin``."""
    return pay_with_pin(ui, pin, submit="checkout")
