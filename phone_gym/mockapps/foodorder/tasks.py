"""Food Order tasks (a mini-program in Chat): an order of given dishes with options to a
saved address, and the last order placed again."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import Allow, Allowed, Becomes, Criterion, Matcher, Record, Value, matching
from ...world.app import app_strings
from ..chat.fixtures import (
    BALANCE,
    NAMES,
    TRANSACTIONS,
    open_mini_program,
    pay_with_pin,
    sample_pin,
    seed_social,
    set_wallet,
)
from ..chat.fixtures import DATA as DATA_CHAT
from .app import FoodOrderApp, normal_items
from .fixtures import (
    ADDRESS_OF,
    ADDRESSES,
    DATA,
    MENUS,
    ORDERS,
    add_past_order,
    food_app,
    localize_items,
    sample_items,
    seed_food,
)

TAGS = frozenset({"mini_program"})


def same_items(items: Sequence[Sequence[Any]]) -> Matcher:
    """Order items equal to ``items`` (dish, option, quantity), in any order."""
    want = normal_items(items)
    return Matcher(lambda v: isinstance(v, (list, tuple)) and normal_items(v) == want,
                   f"items {want}")


def items_text(items: Sequence[Sequence[Any]]) -> str:
    parts = [f"{q} {d}" + (f" ({o})" if o else "") for d, o, q in items]
    return " and ".join(parts)


def items_text_zh(items: Sequence[Sequence[Any]]) -> str:
    """The items as a Chinese instruction writes them: 2份麻婆豆腐（特辣）和1份米饭."""
    return "和".join(f"{q}份{d}" + (f"（{o}）" if o else "") for d, o, q in items)


def colon(ui: Driver) -> str:
    """The separator of an address's label and text in the Food Order's lists (": ", ：)."""
    return app_strings(FoodOrderApp, ui.locale).t(": ")


class FoodTask(Task):
    """Restaurants ``restaurants`` (ids in that order), saved addresses, a wallet, and a few
    WeChat friends."""

    apps: ClassVar[tuple[str, ...]] = ("Chat", "FoodOrder")
    tags = TAGS
    locales = ("en-US", "zh-CN")
    data = {"zh-CN": {**DATA_CHAT["zh-CN"], **DATA["zh-CN"]}}

    def localize_params(self, params: dict[str, Any], table: Mapping[str, str]
                        ) -> dict[str, Any]:
        return localize_items(params, table)  # type: ignore[no-any-return]

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"restaurants": pick(rng, sorted(MENUS), 3), "pin": sample_pin(rng),
                "balance": int(rng.integers(10, 50)) * 10_000, "friends": pick(rng, NAMES, 3)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        set_wallet(state, params["balance"], params["pin"])
        seed_social(state, rng, params["friends"])
        seed_food(state, rng, params["restaurants"], addresses=len(ADDRESSES))

    @staticmethod
    def restaurant(initial: Mapping[str, Any], name: str) -> Mapping[str, Any]:
        rows = initial["apps"]["FoodOrder"]["restaurants"]
        return next(r for r in rows.values() if r["name"] == name)

    @staticmethod
    def price(initial: Mapping[str, Any], rid: int, dish: str) -> int:
        rows = initial["apps"]["FoodOrder"]["dishes"]
        return int(next(d["price"] for d in rows.values()
                        if d["restaurant"] == rid and d["name"] == dish))

    def order(self, p: Mapping[str, Any]) -> tuple[str, list[Any], str]:
        """The order the task asks for: restaurant name, items, address text."""
        raise NotImplementedError

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        name, items, address = self.order(p)
        r = self.restaurant(initial, name)
        total = sum(self.price(initial, r["id"], d) * q for d, _, q in items) + r["fee"]
        where = {"restaurant": r["id"], "address": address, "items": same_items(items)}
        before = len(matching(initial, ORDERS, where))
        return [Record(ORDERS, where, {"total": total, "status": "paid"}, count=before + 1),
                Record(TRANSACTIONS, {"amount": -total}, count=1),
                Value(BALANCE, p["balance"] - total)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        name, items, _ = self.order(p)
        r = self.restaurant(initial, name)
        total = sum(self.price(initial, r["id"], d) * q for d, _, q in items) + r["fee"]
        return [Allow(ORDERS, "added"), Allow(TRANSACTIONS, "added"),
                Becomes(BALANCE, p["balance"] - total)]


class FoodOrderDishes(FoodTask):
    template = ('Using the Food Order mini-program in WeChat, order {what} from {restaurant}, '
                'delivered to my {label} address. My WeChat Pay PIN is {pin}.')
    instructions = {"zh-CN": "用微信里的点餐小程序，在{restaurant}点{what}，送到我的“{label}”地址。"
                             "我的微信支付密码是{pin}。"}
    complexity, max_steps = 3, 40

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        name = pick(rng, p["restaurants"])
        items = sample_items(rng, name, 2)
        label = pick(rng, ["Home", "Office", "Office"])
        return {**p, "restaurant": name, "items": [list(i) for i in items],
                "what": items_text(items), "label": label}

    def sample_in(self, rng: np.random.Generator, locale: str) -> dict[str, Any]:
        p = super().sample_in(rng, locale)
        return {**p, "what": items_text_zh(p["items"])} if locale == "zh-CN" else p

    def order(self, p: Mapping[str, Any]) -> tuple[str, list[Any], str]:
        return p["restaurant"], p["items"], ADDRESS_OF[p["label"]]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_mini_program(ui, "FoodOrder")
        yield from ui.tap(p["restaurant"], kind="list_item")
        for dish, option, qty in p["items"]:
            for _ in range(qty):
                yield from ui.tap(dish, kind="list_item")
                if option:
                    yield from ui.tap(option, kind="radio")
        yield from ui.tap(id="checkout")
        if ADDRESS_OF[p["label"]] != ADDRESS_OF[ADDRESSES[0][0]]:
            yield from ui.tap(id="address")
            yield from ui.tap(f"{p['label']}{colon(ui)}{ADDRESS_OF[p['label']]}", kind="radio")
        yield from pay_with_pin(ui, p["pin"], submit="place_order")
        yield from ui.finish()


class FoodReorderLast(FoodTask):
    template = ('Order again exactly what I ordered last time in WeChat\'s Food Order '
                'mini-program, to the same address. My WeChat Pay PIN is {pin}.')
    instructions = {"zh-CN": "在微信的点餐小程序里，把我上一次点的外卖原样再点一单，"
                             "送到同一个地址。我的微信支付密码是{pin}。"}
    complexity, max_steps = 2, 24

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        past = []
        for name in p["restaurants"]:
            past.append({"restaurant": name, "items": [list(i) for i in
                                                       sample_items(rng, name, 2)],
                         "address": pick(rng, [a for _, a in ADDRESSES])})
        return {**p, "past": past}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        made = {r.name: r for r in food_app(state).data.restaurants}
        for order in params["past"]:
            add_past_order(state, made[order["restaurant"]],
                           [tuple(i) for i in order["items"]], order["address"])

    def order(self, p: Mapping[str, Any]) -> tuple[str, list[Any], str]:
        last = p["past"][-1]
        return last["restaurant"], last["items"], last["address"]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why("Opening my past orders in the Food Order mini-program")
        yield from open_mini_program(ui, "FoodOrder")
        yield from ui.tap(id="my_orders")
        orders = sorted((e for e in ui.find_all(kind="list_item")
                         if e.short_id.startswith("order_")), key=lambda e: e.bounds[1])
        if not orders:
            raise OracleError("no past order listed")
        last = orders[0]  # My orders lists the newest first
        ui.why(f"The newest order, at the top, is from {last.text} ({last.hint}): opening it")
        yield from ui.tap(id=last.short_id)
        where = ui.must(id="order_address").text
        ui.why(f"Reordering the same dishes to {where}")
        yield from ui.tap(id="reorder")
        ui.why("Paying with the PIN the instruction gives")
        yield from pay_with_pin(ui, p["pin"], submit="place_order")
        ui.why(f"The order from {last.text} is placed again")
        yield from ui.finish()


TEMPLATES: list[Task] = [FoodOrderDishes(), FoodReorderLast()]
