"""淘宝 (Taobao) tasks: buy the cheapest result in a given SKU, favourite the best seller,
add a product to the cart, remove a favourite, which SKU an order was, check out the cart,
and a SKU the product does not offer. Chinese instructions."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.families import DeleteRecord, Infeasible, Lookup, read_rows
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import Allow, Allowed, Becomes, Criterion, NoRecord, Record, Value
from ..chat.fixtures import BALANCE, TRANSACTIONS, sample_pin, set_wallet
from .fixtures import (
    CART,
    CATALOGUE,
    FAVORITES,
    ORDERS,
    add_past_order,
    by_title,
    choose_sku,
    favorite,
    open_product,
    pay,
    put_in_cart,
    sample_products,
    search,
    write_products,
)

ZH = ("en-US", "zh-CN")
#: A SKU no product of the word offers.
MISSING_SKU = {"数据线": "3米", "保温杯": "红色", "T恤": "XXXL", "蓝牙耳机": "粉色",
               "抽纸": "48包"}


class TaobaoTask(Task):
    """Products of two search words (plain data in ``products``, ids in that order) and a
    wallet with a PIN."""

    apps: ClassVar[tuple[str, ...]] = ("Taobao",)
    locales = ZH

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.instructions = {"zh-CN": cls.template}  # the instruction is Chinese in both

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        words = pick(rng, sorted(CATALOGUE), 2)
        products = sample_products(rng, words)
        return {"word": words[0], "products": products, "pin": sample_pin(rng),
                "balance": int(rng.integers(30, 90)) * 1000, **self.more(rng, words[0],
                                                                          products)}

    def more(self, rng: np.random.Generator, word: str,
             products: list[dict[str, Any]]) -> dict[str, Any]:
        return {}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        set_wallet(state, params["balance"], params["pin"])
        write_products(state, params["products"])

    @staticmethod
    def of_word(p: Mapping[str, Any]) -> list[tuple[int, dict[str, Any]]]:
        """The products of the task's search word, with their ids."""
        return [(i + 1, x) for i, x in enumerate(p["products"]) if x["word"] == p["word"]]

    @staticmethod
    def product_id(p: Mapping[str, Any], title: str) -> int:
        return next(i + 1 for i, x in enumerate(p["products"]) if x["title"] == title)


def price_of(hint: str) -> float:
    found = re.match(r"¥([\d.]+)", hint)
    if found is None:
        raise OracleError(f"no price in {hint!r}")
    return float(found.group(1))


def sales_of(hint: str) -> int:
    found = re.search(r"(\d+)人付款", hint)
    if found is None:
        raise OracleError(f"no sales in {hint!r}")
    return int(found.group(1))


class Purchase(TaobaoTask):
    """Buy one product in one SKU: ``bought(params)`` is (product id, SKU, price)."""

    def bought(self, p: Mapping[str, Any]) -> tuple[int, str, int]:
        raise NotImplementedError

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        pid, sku, price = self.bought(p)
        return [Record(ORDERS, {"product": pid, "sku": sku, "qty": 1}, {"total": price},
                       count=1),
                Record(TRANSACTIONS, {"amount": -price}, count=1),
                Value(BALANCE, p["balance"] - price)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(ORDERS, "added", max=1), Allow(TRANSACTIONS, "added", max=1),
                Becomes(BALANCE, p["balance"] - self.bought(p)[2])]


class TaobaoBuyCheapest(Purchase):
    template = "在淘宝搜“{word}”，买价格最低的那一件，{sku_name}选{sku}。支付密码是{pin}。"
    complexity, max_steps = 3, 24
    derivations = {"product": "the lowest price among the results listed"}

    def more(self, rng: np.random.Generator, word: str,
             products: list[dict[str, Any]]) -> dict[str, Any]:
        sku_name, skus, _, _ = CATALOGUE[word]
        return {"sku_name": sku_name, "sku": pick(rng, skus)}

    def bought(self, p: Mapping[str, Any]) -> tuple[int, str, int]:
        pid, x = min(self.of_word(p), key=lambda t: t[1]["price"])
        return pid, p["sku"], x["price"]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from search(ui, p["word"])
        yield from ui.tap(id="sort_2")  # 价格: cheapest first
        rows = yield from read_rows(ui, "item")
        row, title, hint = min(rows, key=lambda r: price_of(r[2]))
        ui.why(f"最便宜的是“{title}”（{hint}）")
        yield from ui.tap(id=row)
        yield from choose_sku(ui, p["sku"])
        yield from ui.tap(id="buy_now")
        yield from pay(ui, p["pin"])
        yield from ui.finish()


class TaobaoFavoriteBestSeller(TaobaoTask):
    template = "在淘宝搜“{word}”，把付款人数最多的那件宝贝收藏起来。"
    complexity, max_steps = 2, 16
    derivations = {"product": "the most sales among the results listed"}

    def target(self, p: Mapping[str, Any]) -> int:
        return max(self.of_word(p), key=lambda t: t[1]["sales"])[0]

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record(FAVORITES, {"product": self.target(p)}, count=1)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(FAVORITES, "added", max=1)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from search(ui, p["word"])
        rows = yield from read_rows(ui, "item")
        row, title, hint = max(rows, key=lambda r: sales_of(r[2]))
        ui.why(f"付款人数最多的是“{title}”（{hint}）")
        yield from ui.tap(id=row)
        if ui.must(id="favorite").text == "收藏":
            yield from ui.tap(id="favorite")
        yield from ui.finish()


class OneProduct(TaobaoTask):
    """A task about the product ``title`` (of the search word) in SKU ``sku``."""

    def more(self, rng: np.random.Generator, word: str,
             products: list[dict[str, Any]]) -> dict[str, Any]:
        x = pick(rng, [x for x in products if x["word"] == word])
        return {"title": x["title"], "sku_name": x["sku_name"], "sku": pick(rng, x["skus"])}


class TaobaoAddToCart(OneProduct):
    template = "在淘宝把“{title}”加入购物车，{sku_name}选{sku}。"
    complexity, max_steps = 2, 16

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        other = pick(rng, [x for x in params["products"] if x["title"] != params["title"]])
        put_in_cart(state, by_title(state)[other["title"]], pick(rng, other["skus"]))

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record(CART, {"product": self.product_id(p, p["title"]), "sku": p["sku"],
                              "qty": 1}, count=1)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(CART, "added", max=1)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_product(ui, p["title"], p["word"])
        yield from choose_sku(ui, p["sku"])
        yield from ui.tap(id="add_cart")
        yield from ui.finish()


class TaobaoUnfavorite(OneProduct, DeleteRecord):
    template = "在淘宝的收藏里，把“{title}”取消收藏。"
    complexity, max_steps = 2, 12
    collection = FAVORITES

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        TaobaoTask.setup(self, state, params, rng)
        for x in pick(rng, params["products"], 3):
            if x["title"] != params["title"]:
                favorite(state, by_title(state)[x["title"]])
        favorite(state, by_title(state)[params["title"]])

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"product": self.product_id(p, p["title"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Taobao")
        yield from ui.tap("我的淘宝")
        yield from ui.tap(id="my_favorites")
        yield from ui.tap(p["title"], kind="list_item")
        if ui.must(id="favorite").text == "已收藏":
            yield from ui.tap(id="favorite")
        yield from ui.finish()


class TaobaoOrderSku(OneProduct, Lookup):
    template = "我在淘宝买的“{title}”，当时选的{sku_name}是什么？"
    complexity, max_steps = 2, 10

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        TaobaoTask.setup(self, state, params, rng)
        for x in pick(rng, params["products"], 3):
            if x["title"] != params["title"]:
                add_past_order(state, by_title(state)[x["title"]], pick(rng, x["skus"]))
        add_past_order(state, by_title(state)[params["title"]], params["sku"])

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["sku"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [s for s in CATALOGUE[p["word"]][1] if s != p["sku"]]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Taobao")
        yield from ui.tap("我的淘宝")
        yield from ui.tap(id="my_orders")
        row = ui.find(p["title"], kind="list_item")
        if row is None:
            yield from ui.reveal(p["title"], kind="list_item")
            row = ui.must(p["title"], kind="list_item")
        yield from ui.answer(row.hint.split(" · ")[0])


class TaobaoCheckoutCart(TaobaoTask):
    template = "把淘宝购物车里的宝贝全部结算。支付密码是{pin}。"
    complexity, max_steps = 2, 12

    def more(self, rng: np.random.Generator, word: str,
             products: list[dict[str, Any]]) -> dict[str, Any]:
        lines = [{"title": x["title"], "sku": pick(rng, x["skus"]),
                  "qty": int(rng.integers(1, 3)), "price": x["price"]}
                 for x in pick(rng, products, int(rng.integers(2, 4)))]
        return {"lines": lines}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        return {**p, "balance": max(p["balance"], self.total(p) + 10_000)}  # it can pay

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        for line in params["lines"]:
            put_in_cart(state, by_title(state)[line["title"]], line["sku"], line["qty"])

    def total(self, p: Mapping[str, Any]) -> int:
        return sum(x["price"] * x["qty"] for x in p["lines"])

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        out: list[Criterion] = [
            Record(ORDERS, {"product": self.product_id(p, x["title"]), "sku": x["sku"],
                            "qty": x["qty"]}, {"total": x["price"] * x["qty"]}, count=1)
            for x in p["lines"]]
        return [*out, NoRecord(CART, {}),
                Record(TRANSACTIONS, {"amount": -self.total(p)}, count=1),
                Value(BALANCE, p["balance"] - self.total(p))]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        n = len(p["lines"])
        return [Allow(ORDERS, "added", max=n), Allow(CART, "removed", max=n),
                Allow(TRANSACTIONS, "added", max=1),
                Becomes(BALANCE, p["balance"] - self.total(p))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Taobao")
        yield from ui.tap("购物车")
        yield from ui.tap(id="cart_checkout")
        yield from pay(ui, p["pin"])
        yield from ui.finish()


class TaobaoBuySkuInfeasible(Infeasible, OneProduct):
    """The product does not come in the SKU the task names."""

    template = "在淘宝买一件“{title}”，{sku_name}选{sku}。支付密码是{pin}。"
    complexity, max_steps = 2, 16

    def more(self, rng: np.random.Generator, word: str,
             products: list[dict[str, Any]]) -> dict[str, Any]:
        return {**super().more(rng, word, products), "sku": MISSING_SKU[word]}

    def look(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_product(ui, params["title"], params["word"])
        ui.why(f"这件宝贝没有{params['sku_name']}“{params['sku']}”可选")


TEMPLATES: list[Task] = [
    TaobaoBuyCheapest(), TaobaoFavoriteBestSeller(), TaobaoAddToCart(), TaobaoUnfavorite(),
    TaobaoOrderSku(), TaobaoCheckoutCart(), TaobaoBuySkuInfeasible(),
]
