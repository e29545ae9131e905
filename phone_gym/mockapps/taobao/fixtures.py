"""Public fixtures of 淘宝 (Taobao): products by search word, the cart, favourites and past
orders, the vocabulary they are drawn from, and the oracle steps other tasks reuse."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ..chat.fixtures import pay_with_pin
from .app import LINK, Product, TaobaoApp

PRODUCTS = "apps.Taobao.products"
CART = "apps.Taobao.cart"
FAVORITES = "apps.Taobao.favorites"
ORDERS = "apps.Taobao.orders"
#: Search words: the SKU dimension and its choices, the base price in yuan, and products
#: as (title, shop) (fictional shops of the usual kinds).
CATALOGUE: dict[str, tuple[str, tuple[str, ...], int, tuple[tuple[str, str], ...]]] = {
    "数据线": ("规格", ("1米", "1.5米", "2米"), 19, (
        ("快充Type-C数据线 编织耐用", "极客数码旗舰店"),
        ("苹果数据线 MFi认证 快充", "果粉配件专营店"),
        ("三合一数据线 一拖三 车载", "易连数码专营店"),
        ("磁吸数据线 弯头 游戏专用", "电竞装备小铺"))),
    "保温杯": ("颜色", ("白色", "黑色", "蓝色"), 69, (
        ("316不锈钢保温杯 大容量", "居家好物旗舰店"),
        ("便携保温杯 女士小巧", "杯具生活馆"),
        ("智能测温保温杯 商务款", "品味生活旗舰店"),
        ("儿童保温杯 带吸管", "宝贝成长母婴店"))),
    "T恤": ("尺码", ("S", "M", "L", "XL"), 59, (
        ("纯棉短袖T恤 男 宽松", "简约男装旗舰店"),
        ("印花T恤 女 夏季 oversize", "少女心服饰店"),
        ("速干运动T恤 跑步", "运动先锋专营店"),
        ("情侣T恤 纯色 百搭", "街头潮牌店"))),
    "蓝牙耳机": ("颜色", ("白色", "黑色"), 129, (
        ("无线蓝牙耳机 降噪 长续航", "声悦数码旗舰店"),
        ("运动蓝牙耳机 挂耳式 防水", "运动先锋专营店"),
        ("骨传导蓝牙耳机 不入耳", "极客数码旗舰店"),
        ("半入耳蓝牙耳机 游戏低延迟", "电竞装备小铺"))),
    "抽纸": ("规格", ("6包", "12包", "24包"), 25, (
        ("原木抽纸 家用实惠装", "居家好物旗舰店"),
        ("婴儿抽纸 柔软 无香", "宝贝成长母婴店"),
        ("竹浆本色抽纸 4层加厚", "绿色生活馆"),
        ("便携小包抽纸 随身装", "品味生活旗舰店"))),
}


def taobao_app(state: Any) -> TaobaoApp:
    app = state.app("Taobao")
    assert isinstance(app, TaobaoApp)
    return app


def sample_products(rng: np.random.Generator, words: Sequence[str]) -> list[dict[str, Any]]:
    """The products of search words ``words`` as plain data (``write_products`` writes
    them), each with a distinct price and sales figure within its word."""
    out = []
    for word in words:
        sku_name, skus, base, items = CATALOGUE[word]
        prices = rng.choice(np.arange(base - 8, base + 40), len(items), replace=False)
        sales = rng.choice(np.arange(2, 199), len(items), replace=False) * 50
        for (title, shop), price, sold in zip(items, prices, sales, strict=True):
            out.append({"title": title, "word": word, "shop": shop,
                        "price": int(price) * 100 + 90, "sales": int(sold),
                        "sku_name": sku_name, "skus": list(skus)})
    return out


def write_products(state: Any, products: Sequence[Mapping[str, Any]]) -> dict[str, Product]:
    """The products ``products``, written in that order: by title."""
    data = taobao_app(state).data
    made = {}
    for p in products:
        made[p["title"]] = data.products.new(
            title=p["title"], price=p["price"], sales=p["sales"], shop=p["shop"],
            sku_name=p["sku_name"], skus=tuple(p["skus"]))
    return made


def by_title(state: Any) -> dict[str, Product]:
    """The products on the phone, by title."""
    return {p.title: p for p in taobao_app(state).data.products}


def favorite(state: Any, product: Product) -> None:
    taobao_app(state).data.favorites.new(product=product.id)


def put_in_cart(state: Any, product: Product, sku: str, qty: int = 1) -> None:
    taobao_app(state).data.cart.new(product=product.id, sku=sku, qty=qty)


def add_past_order(state: Any, product: Product, sku: str, qty: int = 1,
                   status: str = "已签收") -> None:
    taobao_app(state).data.orders.new(product=product.id, title=product.title, sku=sku,
                                      qty=qty, total=product.price * qty, shop=product.shop,
                                      status=status)


def product_link(product_id: int) -> str:
    """The link a shared product's WeChat message carries."""
    return LINK.format(id=product_id)


def search(ui: Driver, query: str) -> Iterator[PhoneAction]:
    """Launch 淘宝 and search for ``query`` (the keyboard put away)."""
    yield from ui.open_app("Taobao")
    yield from ui.fill("search", query)
    yield from ui.press("back")


def open_product(ui: Driver, title: str, word: str) -> Iterator[PhoneAction]:
    """Search for ``word`` and open the product titled ``title``."""
    yield from search(ui, word)
    yield from ui.tap(title, kind="list_item")


def choose_sku(ui: Driver, sku: str) -> Iterator[PhoneAction]:
    """On a product's page: tap the SKU chip ``sku``."""
    chip = next(e for e in ui.find_all() if e.short_id.startswith("sku_") and e.text == sku)
    if not chip.checked:
        yield from ui.tap(id=chip.short_id)


def pay(ui: Driver, pin: str) -> Iterator[PhoneAction]:
    """On 确认订单: submit and pay with the wallet ``pin``."""
    return pay_with_pin(ui, pin, submit="submit_order")
