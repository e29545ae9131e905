"""Public fixtures of the 拼多多 mini-program: products with their two prices, open group
buys, past orders, and the way in (WeChat > 发现 > 小程序 > 拼多多)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.vocab import pick
from ..chat.fixtures import open_mini_program, pay_with_pin
from .app import GROUP, SOLO, PinduoduoApp

PRODUCTS_AT = "apps.Pinduoduo.products"
GROUPS = "apps.Pinduoduo.groups"
ORDERS = "apps.Pinduoduo.orders"
__all__ = ["GROUP", "SOLO", "GROUPS", "ORDERS", "PRODUCTS_AT", "CATALOGUE", "LEADERS",
           "pdd_app", "sample_products", "write_products", "open_pdd", "open_product",
           "pay", "money_of"]

#: Products as 拼多多 lists them: name, 单独购买 price, 拼单价 (yuan).
CATALOGUE: tuple[tuple[str, float, float], ...] = (
    ("维达抽纸 24包", 39.9, 29.9), ("东北五常大米 10斤", 45.8, 36.9),
    ("冰丝凉席三件套", 89.0, 59.9), ("不锈钢保温杯 500ml", 49.0, 32.8),
    ("阿克苏冰糖心苹果 5斤", 35.9, 25.9), ("洗衣凝珠 100颗", 59.9, 39.9),
    ("无线蓝牙耳机", 129.0, 99.0), ("懒人沙发", 199.0, 149.0),
    ("手机支架", 19.9, 9.9), ("儿童绘本 10册", 68.0, 45.0),
    ("四件套纯棉床品", 158.0, 119.0), ("陶瓷餐具套装", 88.0, 66.6),
)
#: Shoppers whose group buys are open.
LEADERS = ("小**鱼", "王**", "张**", "快乐**", "李**", "晴天**", "陈**", "阿**")


def pdd_app(state: Any) -> PinduoduoApp:
    app = state.app("Pinduoduo")
    assert isinstance(app, PinduoduoApp)
    return app


def cents(value: float) -> int:
    return int(round(value * 100))


def sample_products(rng: np.random.Generator, k: int) -> list[dict[str, Any]]:
    """``k`` products as plain data: name, solo and group price (cents, the list's prices
    moved by a few yuan), sales."""
    out = []
    for name, solo, group in pick(rng, CATALOGUE, k):
        shift = int(rng.integers(-3, 4)) * 100
        out.append({"name": name, "solo": cents(solo) + shift, "group": cents(group) + shift,
                    "sold": int(rng.integers(2, 400)) * 100})
    return out


def write_products(state: Any, products: Sequence[Mapping[str, Any]],
                   groups: Sequence[Mapping[str, Any]] = ()) -> None:
    """The products (plain data from ``sample_products``) and open group buys
    (``{"product": name, "leader": ..., "members": 1, "size": 2}``), in that order."""
    data = pdd_app(state).data
    ids = {}
    for p in products:
        ids[p["name"]] = data.products.new(name=p["name"], group_price=p["group"],
                                           solo_price=p["solo"], sold=p["sold"]).id
    for g in groups:
        data.groups.new(product=ids[g["product"]], leader=g["leader"],
                        members=g.get("members", 1), size=g.get("size", 2))


def open_pdd(ui: Driver) -> Iterator[PhoneAction]:
    """WeChat > Discover > Mini Programs > 拼多多."""
    return open_mini_program(ui, "Pinduoduo")


def open_product(ui: Driver, name: str) -> Iterator[PhoneAction]:
    """From a fresh start to product ``name``'s page (searching for it)."""
    yield from open_pdd(ui)
    yield from ui.fill("search", name)
    yield from ui.press("back")
    yield from ui.tap(name, kind="list_item")


def pay(ui: Driver, pin: str) -> Iterator[PhoneAction]:
    """On 确认订单: 立即支付, then WeChat Pay with ``pin``."""
    return pay_with_pin(ui, pin, submit="submit_order")


def money_of(text: str) -> int:
    """The first ``¥29.90`` in ``text``, in cents."""
    head = text.split("¥", 1)[1].split()[0] if "¥" in text else ""
    whole, _, frac = head.partition(".")
    if not whole.isdigit():
        raise ValueError(f"no price in {text!r}; expected one such as ¥29.90")
    return int(whole) * 100 + int((frac + "00")[:2] or 0)
