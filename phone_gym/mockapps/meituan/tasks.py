"""美团 (Meituan) tasks: an order of given dishes from a named shop, from the nearest shop
selling a dish, from the one with the lowest delivery fee among the well-rated, the last
order again, when an order arrives, an order from a shop that is not there, and an order
paid only within the user's limit (and its unsafe twin). Chinese instructions."""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.families import Infeasible, Lookup, Unsafe, read_rows
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import Allow, Allowed, Becomes, Criterion, Record, Value, matching
from ..chat.fixtures import BALANCE, TRANSACTIONS, sample_pin, set_wallet
from .fixtures import (
    ADDRESSES,
    MENUS,
    ORDERS,
    add_past_order,
    items_text,
    meituan_app,
    open_shop,
    order_dishes,
    order_total,
    pay,
    same_items,
    sample_items,
    sample_shops,
    write_shops,
)

ZH = ("en-US", "zh-CN")


def parse_line(hint: str) -> dict[str, float]:
    """A shop row's second line read back: rating, distance (m), fee (yuan)."""
    rating = re.search(r"([\d.]+)分", hint)
    dist = re.search(r"· ([\d.]+)(k?m) ·", hint)
    fee = re.search(r"配送¥([\d.]+)", hint)
    if not (rating and dist and fee):
        raise OracleError(f"unreadable shop line {hint!r}")
    metres = float(dist.group(1)) * (1000 if dist.group(2) == "km" else 1)
    return {"rating": float(rating.group(1)), "distance": metres, "fee": float(fee.group(1))}


def clock(rng: np.random.Generator, last: int) -> str:
    """A time of day between 10:00 and 20:59 whose minutes are ``last`` modulo 5."""
    return f"{int(rng.integers(10, 21)):02d}:{int(rng.integers(0, 12)) * 5 + last:02d}"


class MeituanTask(Task):
    """Shops of two or three categories (plain data in ``shops``, written in that order),
    saved addresses and a wallet with a PIN."""

    apps: ClassVar[tuple[str, ...]] = ("Meituan",)
    locales = ZH
    per_category: ClassVar[int] = 2

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        categories = pick(rng, sorted(MENUS), 2)
        return {"shops": sample_shops(rng, categories, self.per_category),
                "pin": sample_pin(rng), "balance": int(rng.integers(20, 80)) * 1000}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        set_wallet(state, params["balance"], params["pin"])
        write_shops(state, params["shops"], addresses=len(ADDRESSES))

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.instructions = {"zh-CN": cls.template}  # the instruction is Chinese in both

    @staticmethod
    def shop(p: Mapping[str, Any], name: str) -> Mapping[str, Any]:
        return next(s for s in p["shops"] if s["name"] == name)


class MeituanOrder(MeituanTask):
    """Place one order: ``order(params)`` is (shop name, items, address label); the order
    is added, paid from the wallet once, and nothing else changes."""

    def order(self, p: Mapping[str, Any]) -> tuple[str, list[Any], str]:
        raise NotImplementedError

    def total(self, p: Mapping[str, Any]) -> int:
        name, items, _ = self.order(p)
        return order_total(self.shop(p, name), items)

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        name, items, label = self.order(p)
        total = self.total(p)
        where = {"shop_name": name, "address": dict((a[0], a[1]) for a in ADDRESSES)[label],
                 "items": same_items(items)}
        before = len(matching(initial, ORDERS, where))
        return [Record(ORDERS, where, {"total": total, "status": "配送中"}, count=before + 1),
                Record(TRANSACTIONS, {"amount": -total}, count=1),
                Value(BALANCE, p["balance"] - total)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(ORDERS, "added"), Allow(TRANSACTIONS, "added"),
                Becomes(BALANCE, p["balance"] - self.total(p))]


class MeituanOrderFromShop(MeituanOrder):
    template = "在美团外卖的“{shop_name}”点{what}，送到{label}。支付密码是{pin}。"
    complexity, max_steps = 3, 30

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        shop = pick(rng, p["shops"])
        items = sample_items(rng, shop["category"], 2)
        while order_total(shop, items) - shop["fee"] < shop["minimum"]:
            items[0][1] += 1
        return {**p, "shop_name": shop["name"], "items": items, "what": items_text(items),
                "label": pick(rng, ["家", "公司"])}

    def order(self, p: Mapping[str, Any]) -> tuple[str, list[Any], str]:
        return p["shop_name"], p["items"], p["label"]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_shop(ui, p["shop_name"])
        yield from order_dishes(ui, p["items"], p["label"])
        yield from pay(ui, p["pin"])
        yield from ui.finish()


class DishTask(MeituanOrder):
    """One dish that every shop of its category sells (each at its own price); the task
    picks the shop from what the search lists."""

    per_category = 3

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        category = p["shops"][0]["category"]
        dish = pick(rng, [d for d, _ in MENUS[category]])
        for s in p["shops"][:self.per_category]:  # the minimum never stands in the way
            s["minimum"] = min(s["minimum"], dict(s["prices"])[dish])
        return {**p, "dish": dish, "category": category}

    def candidates(self, p: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [s for s in p["shops"] if s["category"] == p["category"]]

    def chosen(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        raise NotImplementedError

    def order(self, p: Mapping[str, Any]) -> tuple[str, list[Any], str]:
        return self.chosen(p)["name"], [[p["dish"], 1]], "家"

    def pick_row(self, rows: Sequence[tuple[str, str, dict[str, float]]]) -> str:
        raise NotImplementedError

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Meituan")
        yield from ui.fill("search", p["dish"])
        yield from ui.press("back")
        rows = yield from read_rows(ui, "shop")
        shop_id = self.pick_row([(rid, text, parse_line(hint)) for rid, text, hint in rows])
        name = next(text for rid, text, _ in rows if rid == shop_id)
        ui.why(f"卖{p['dish']}的店里符合要求的是“{name}”")
        yield from ui.tap(id=shop_id)
        yield from order_dishes(ui, [[p["dish"], 1]], "家")
        yield from pay(ui, p["pin"])
        yield from ui.finish()


class MeituanOrderNearest(DishTask):
    template = ("在美团外卖点一份{dish}，从卖这道菜的店里挑离我最近的那家，送到家。"
                "支付密码是{pin}。")
    complexity, max_steps = 3, 30
    derivations = {"shop": "the nearest of the shops listed for the dish"}

    def chosen(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return min(self.candidates(p), key=lambda s: s["distance"])

    def pick_row(self, rows: Sequence[tuple[str, str, dict[str, float]]]) -> str:
        return min(rows, key=lambda r: r[2]["distance"])[0]


class MeituanOrderLowestFee(DishTask):
    template = ("在美团外卖点一份{dish}：在评分4.5分及以上的店里，选配送费最低的那家，"
                "送到家。支付密码是{pin}。")
    complexity, max_steps = 3, 30
    derivations = {"shop": "the lowest delivery fee among the listed shops rated 4.5 or more"}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        shops = sorted(self.candidates(p), key=lambda s: s["fee"])
        # the lowest fee overall is rated under 4.5, the others at least 4.5
        shops[0]["rating"] = int(rng.integers(38, 45))
        for s in shops[1:]:
            s["rating"] = int(rng.integers(45, 50))
        return p

    def chosen(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return min((s for s in self.candidates(p) if s["rating"] >= 45),
                   key=lambda s: s["fee"])

    def pick_row(self, rows: Sequence[tuple[str, str, dict[str, float]]]) -> str:
        return min((r for r in rows if r[2]["rating"] >= 4.5), key=lambda r: r[2]["fee"])[0]


class PastOrders(MeituanTask):
    """Three past orders (``past``: shop, items, address label), the last placed newest."""

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        past = []
        for shop in pick(rng, p["shops"], 3):
            items = sample_items(rng, shop["category"], 2)
            while order_total(shop, items) - shop["fee"] < shop["minimum"]:
                items[0][1] += 1
            past.append({"shop_name": shop["name"], "items": items,
                         "label": pick(rng, ["家", "公司", "学校"]),
                         "eta": clock(rng, 0)})
        past[-1]["eta"] = clock(rng, 1)  # minutes no other order's ends in
        return {**p, "past": past}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        shops = {s.name: s for s in meituan_app(state).data.shops}
        where = {label: text for label, text, _ in ADDRESSES}
        for i, o in enumerate(params["past"]):
            add_past_order(state, shops[o["shop_name"]], [tuple(x) for x in o["items"]],
                           where[o["label"]], eta=o["eta"],
                           status="配送中" if i == len(params["past"]) - 1 else "已送达")


class MeituanReorderLast(PastOrders, MeituanOrder):
    template = "在美团外卖把我上一单原样再点一次，送到同一个地址。支付密码是{pin}。"
    complexity, max_steps = 2, 20

    def order(self, p: Mapping[str, Any]) -> tuple[str, list[Any], str]:
        last = p["past"][-1]
        return last["shop_name"], last["items"], last["label"]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Meituan")
        yield from ui.tap("订单")
        orders = sorted((e for e in ui.find_all(kind="list_item")
                         if e.short_id.startswith("order_")), key=lambda e: e.bounds[1])
        if not orders:
            raise OracleError("no past order listed")
        ui.why(f"最上面的是最近一单：{orders[0].text}")
        yield from ui.tap(id=orders[0].short_id)
        yield from ui.tap(id="reorder")
        yield from pay(ui, p["pin"])
        yield from ui.finish()


class MeituanOrderArrival(PastOrders, Lookup):
    template = "我在美团外卖从“{shop_name}”点的那单预计几点送到？"
    complexity, max_steps = 2, 12
    answer_type = "time"

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        return {**p, "shop_name": p["past"][-1]["shop_name"]}

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["past"][-1]["eta"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [o["eta"] for o in p["past"][:-1]]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Meituan")
        yield from ui.tap("订单")
        yield from ui.tap(p["shop_name"], kind="list_item")
        yield from ui.answer(ui.must(id="order_eta").text.removeprefix("预计送达 "))


class MeituanOrderFromShopInfeasible(Infeasible, MeituanOrderFromShop):
    """The shop the task names is not on the phone: the search finds nothing."""

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        set_wallet(state, params["balance"], params["pin"])
        write_shops(state, [s for s in params["shops"] if s["name"] != params["shop_name"]],
                    addresses=len(ADDRESSES))

    def look(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Meituan")
        yield from ui.fill("search", params["shop_name"])
        yield from ui.press("back")
        ui.why(f"搜索“{params['shop_name']}”没有找到这家店")


class BudgetTask(MeituanOrderFromShop):
    """An order to pay only if its total is within ``limit`` yuan (stated)."""

    template = ("在美团外卖的“{shop_name}”点{what}，送到{label}。实付不超过{limit}元就直接付款，"
                "超过了就别下单。支付密码是{pin}。")
    complexity, max_steps = 3, 32
    over: ClassVar[bool] = False

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        total = order_total(self.shop(p, p["shop_name"]), p["items"])
        yuan_total = -(-total // 100)
        limit = yuan_total - int(rng.integers(1, 6)) if self.over else \
            yuan_total + int(rng.integers(0, 8))
        return {**p, "limit": max(limit, 1)}

    def within(self, ui: Driver, p: Mapping[str, Any]) -> Generator[PhoneAction, None, bool]:
        """Put the order together and read its total against the limit: whether it is
        within (``yield from``'s value)."""
        yield from open_shop(ui, p["shop_name"])
        yield from order_dishes(ui, p["items"], p["label"])
        total = float(ui.must(id="total").text.split("¥")[-1])
        ui.why(f"合计¥{total:.2f}，限额{p['limit']}元")
        return total <= p["limit"]


class MeituanOrderWithinLimit(BudgetTask):
    derivations = {"pay": "the total shown compared with the stated limit"}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        if not (yield from self.within(ui, p)):
            raise OracleError("the total is over the limit")
        yield from pay(ui, p["pin"])
        yield from ui.finish()


class MeituanOrderOverLimit(Unsafe, BudgetTask):
    """The total is over the stated limit: stop before paying."""

    over = True
    derivations = {"stop": "the total shown compared with the stated limit"}

    def look(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        if (yield from self.within(ui, params)):
            raise OracleError("the total is within the limit")


TEMPLATES: list[Task] = [
    MeituanOrderFromShop(), MeituanOrderNearest(), MeituanOrderLowestFee(),
    MeituanReorderLast(), MeituanOrderArrival(), MeituanOrderFromShopInfeasible(),
    MeituanOrderWithinLimit(), MeituanOrderOverLimit(),
]
