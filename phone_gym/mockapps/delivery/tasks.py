"""Delivery tasks: ordering under constraints, tipping, reordering, cancelling while the
restaurant prepares (after waiting for it to accept), an arrival look-up, and a budget that
must not be exceeded."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.families import EditRecord, Lookup, Unsafe
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import Allow, Allowed, Criterion, Record, lookup
from ...verifiers.criteria import matching
from .app import order_total
from .fixtures import (
    DATA,
    MENUS,
    PREFIX,
    add_food_order,
    add_restaurant,
    delivery_app,
    restaurant_facts,
    seed_restaurants,
)

ORDERS, LINES, CART = f"{PREFIX}.orders", f"{PREFIX}.lines", f"{PREFIX}.cart"
WAIT_SECONDS = 30


@dataclass(frozen=True)
class InCartOrOrdered:
    """A milestone: a cart line or an order line matches ``where``."""

    where: Mapping[str, Any]

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        if matching(state, CART, self.where) or matching(state, LINES, self.where):
            return True, f"{dict(self.where)} is in the cart or ordered"
        return False, f"nothing like {dict(self.where)} in the cart or an order"


def restaurant_id(initial: Mapping[str, Any], name: str) -> int:
    return int(next(r["id"] for r in lookup(initial, f"{PREFIX}.restaurants").values()
                    if r["name"] == name))


def dish_id(initial: Mapping[str, Any], rid: int, name: str) -> int:
    return int(next(d["id"] for d in lookup(initial, f"{PREFIX}.dishes").values()
                    if d["restaurant_id"] == rid and d["name"] == name))


def sample_dish(rng: np.random.Generator, cuisine: str, *,
                with_options: bool = True) -> tuple[str, str, int]:
    """A dish of ``cuisine`` (one with options, when asked), an option of it, its price."""
    menu = [m for m in MENUS[cuisine][1] if bool(m[2]) == with_options]
    name, dollars, options = menu[int(rng.integers(len(menu)))]
    return name, pick(rng, options) if options else "", dollars * 100 + 49


class DeliveryTask(Task):
    apps = ("Delivery",)

    def order_rules(self, lines: int = 1) -> list[Allowed]:
        return [Allow(ORDERS, "added"), Allow(LINES, "added", max=lines)]


class DeliveryZh(Task):
    """A Delivery template that runs in zh-CN too: its restaurants, dishes and options in
    Chinese (``strings/zh-CN.data.json``, the params localized as the phone seeds them).
    Subclasses elsewhere run in en-US unless they declare their locales."""

    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    data = DATA

    locales_stay_home = True


def open_restaurant(ui: Driver, name: str) -> Iterator[PhoneAction]:
    yield from ui.open_app("Delivery")
    yield from ui.fill("search", name)
    yield from ui.tap(name, kind="list_item")


def add_dish(ui: Driver, dish: str, option: str, qty: int = 1) -> Iterator[PhoneAction]:
    yield from ui.tap(dish, kind="list_item")
    if option:
        yield from ui.tap(option, kind="chip")
    for _ in range(qty - 1):
        yield from ui.tap(id="qty_up")
    yield from ui.tap(id="add_to_cart")
    if ui.find(id="button_new_cart") is not None:  # the cart held another restaurant's food
        yield from ui.tap(id="button_new_cart")


def check_out(ui: Driver) -> Iterator[PhoneAction]:
    yield from ui.tap(id="cart_icon")
    yield from ui.tap(id="checkout")


class DeliveryOrderFastest(DeliveryTask):
    template = ("Order one {dish} ({option}) from the {cuisine} restaurant that delivers "
                "fastest among those whose delivery fee is under ${fee}.")
    complexity, max_steps = 3, 24

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        cuisine = pick(rng, tuple(MENUS))
        names = pick(rng, MENUS[cuisine][0], 4)
        dish, option, _ = sample_dish(rng, cuisine)
        limit = int(rng.integers(2, 5))  # dollars
        etas = sorted(int(x) for x in rng.choice(np.arange(15, 60), 4, replace=False))
        cheap = [0, 99, 149]
        fees = [int(rng.choice([499, 599])),  # the fastest costs too much to deliver
                int(rng.choice(cheap + [limit * 100 - 1])),
                *(int(rng.choice([0, 199, 599])) for _ in range(2))]
        rows = [{"name": n, "eta": e, "fee": f, "rating": float(rng.integers(38, 50)) / 10}
                for n, e, f in zip(names, etas, fees, strict=True)]
        return {"cuisine": cuisine, "dish": dish, "option": option, "fee": str(limit),
                "rows": rows, "target": names[1]}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        rows = params["rows"]
        for i in [int(x) for x in rng.permutation(len(rows))]:
            row = rows[i]
            add_restaurant(state, row["name"], params["cuisine"], rating=row["rating"],
                           eta=row["eta"], fee=row["fee"])
        seed_restaurants(state, rng, skip=(params["cuisine"],))

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        rid = restaurant_id(initial, params["target"])
        return [Record(LINES, {"dish_id": dish_id(initial, rid, params["dish"]),
                               "option": params["option"], "qty": 1}, count=1),
                Record(ORDERS, {"restaurant_id": rid}, count=1)]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return self.order_rules()

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Delivery")
        yield from ui.tap(p["cuisine"], kind="chip")
        yield from ui.tap(id="sort")
        yield from ui.tap("Fastest delivery", kind="radio")
        yield from ui.tap(p["target"], kind="list_item")
        yield from add_dish(ui, p["dish"], p["option"])
        yield from check_out(ui)
        yield from ui.tap(id="place_order")
        yield from ui.finish()


class DeliveryTipOrder(DeliveryTask):
    template = ("Order {qty} {dish} ({option}) from {restaurant}, delivered to my {address} "
                "address, with a {tip}% tip for the courier.")
    complexity, max_steps = 3, 30

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        cuisine = pick(rng, tuple(MENUS))
        dish, option, _ = sample_dish(rng, cuisine)
        return {"cuisine": cuisine, "restaurant": pick(rng, MENUS[cuisine][0]), "dish": dish,
                "option": option, "qty": int(rng.integers(2, 4)),
                "address": pick(rng, ("Home", "Work")), "tip": int(pick(rng, (10, 20)))}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        add_restaurant(state, params["restaurant"], params["cuisine"], **restaurant_facts(rng))
        seed_restaurants(state, rng, 2, avoid=(params["restaurant"],))

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        rid = restaurant_id(initial, params["restaurant"])
        line = {"dish_id": dish_id(initial, rid, params["dish"]), "option": params["option"],
                "qty": params["qty"]}
        return [InCartOrOrdered(line), Record(LINES, line, count=1),
                Record(ORDERS, {"restaurant_id": rid, "address": params["address"],
                                "tip_percent": params["tip"]}, count=1)]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return self.order_rules()

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_restaurant(ui, p["restaurant"])
        yield from add_dish(ui, p["dish"], p["option"], p["qty"])
        yield from check_out(ui)
        if p["address"] != "Home":
            yield from ui.tap(id="deliver_to")
            yield from ui.tap(p["address"], kind="radio")
        yield from ui.tap(f"{p['tip']}%", kind="chip")
        yield from ui.tap(id="place_order")
        yield from ui.finish()


class PastOrders(DeliveryTask):
    """Three past orders at different restaurants, the newest first in the params."""

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        cuisines = pick(rng, tuple(MENUS), 3)
        orders = []
        for i, cuisine in enumerate(cuisines):
            items = []
            for with_options in ((True, False) if i == 0 else (True,)):
                dish, option, _ = sample_dish(rng, cuisine, with_options=with_options)
                items.append((dish, option, int(rng.integers(1, 3))))
            orders.append({"cuisine": cuisine, "restaurant": pick(rng, MENUS[cuisine][0]),
                           "items": items, "days": [1, 4, 9][i] + int(rng.integers(0, 2))})
        return {"orders": orders, "restaurant": orders[0]["restaurant"],
                **self.more_params(rng)}

    def more_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        for o in reversed(params["orders"]):
            r = add_restaurant(state, o["restaurant"], o["cuisine"], **restaurant_facts(rng))
            add_food_order(state, r, [tuple(x) for x in o["items"]],
                           minutes_ago=o["days"] * 24 * 60 + 90)
        seed_restaurants(state, rng, 1, avoid=tuple(o["restaurant"] for o in params["orders"]),
                         skip=tuple(o["cuisine"] for o in params["orders"]))


class DeliveryReorder(DeliveryZh, PastOrders):
    template = "Order exactly what I ordered last time again."
    instructions = {"zh-CN": "在外卖里把我上一单原样再点一次。"}
    complexity, max_steps = 2, 12

    def wanted(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[dict[str, Any]]:
        rid = restaurant_id(initial, p["restaurant"])
        return [{"dish_id": dish_id(initial, rid, dish), "option": option, "qty": qty}
                for dish, option, qty in p["orders"][0]["items"]]

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        rid = restaurant_id(initial, params["restaurant"])
        return [*(Record(LINES, w, count=2) for w in self.wanted(params, initial)),
                Record(ORDERS, {"restaurant_id": rid}, count=2)]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return self.order_rules(len(params["orders"][0]["items"]))

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Delivery")
        yield from ui.tap(id="tab_orders")
        yield from ui.tap(p["restaurant"], kind="list_item")
        yield from ui.tap(id="reorder")
        yield from ui.tap(id="place_order")
        yield from ui.finish()


def open_newest_order(ui: Driver, restaurant: str) -> Iterator[PhoneAction]:
    """Open the Orders tab (newest first) and the newest order from ``restaurant``."""
    yield from ui.open_app("Delivery")
    ui.why(f"Orders are listed newest first: finding the latest one from {restaurant}")
    yield from ui.tap(id="tab_orders")
    rows = sorted((e for e in ui.find_all(restaurant, kind="list_item")
                   if e.short_id.startswith("order_")), key=lambda e: e.bounds[1])
    ui.why(f"The newest order from {restaurant}: {rows[0].hint}")
    yield from ui.tap(id=rows[0].short_id)


class DeliveryCancelPreparing(DeliveryZh, PastOrders, EditRecord):
    template = "Cancel the order I just placed at {restaurant}."
    instructions = {"zh-CN": "在外卖里把我刚在“{restaurant}”下的那一单取消掉。"}
    complexity, max_steps = 3, 20
    collection = ORDERS

    def more_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"seconds_ago": int(rng.integers(5, 40)), "ref": str(int(rng.integers(5200, 9900)))}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        o = params["orders"][0]
        r = delivery_app(state).data.restaurants.first(name=o["restaurant"])
        assert r is not None
        add_food_order(state, r, [tuple(o["items"][0])], minutes_ago=params["seconds_ago"] / 60,
                       ref=params["ref"])

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"ref": p["ref"]}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"status": "Cancelled"}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_newest_order(ui, p["restaurant"])
        ui.why("Waiting until the order offers Cancel, then cancelling it")
        for _ in range(8):
            if ui.find(id="cancel_order") is not None:
                break
            yield PhoneAction("wait", seconds=WAIT_SECONDS)
        yield from ui.tap(id="cancel_order")
        yield from ui.tap(id="button_cancel_order")
        yield from ui.finish()


class DeliveryArrivalTime(DeliveryZh, PastOrders, Lookup):
    template = "What time is my current order from {restaurant} expected to arrive?"
    instructions = {"zh-CN": "我在“{restaurant}”点的那单外卖预计几点送到？"}
    complexity, max_steps = 2, 10
    answer_type = "time"

    def more_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"minutes_ago": int(rng.integers(3, 12)), "eta": int(rng.integers(25, 55))}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        o = params["orders"][0]
        data = delivery_app(state).data
        r = data.restaurants.first(name=o["restaurant"])
        assert r is not None
        data.restaurants.update(r.id, eta=params["eta"])
        r = data.restaurants.get(r.id)
        assert r is not None
        add_food_order(state, r, [tuple(o["items"][0])], minutes_ago=params["minutes_ago"])

    def expected(self, p: Mapping[str, Any]) -> Any:
        when = self.start + timedelta(minutes=p["eta"] - p["minutes_ago"])
        return f"{when:%H:%M}"

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        placed = self.start - timedelta(minutes=p["minutes_ago"])
        return [f"{placed:%H:%M}", f"{self.start:%H:%M}"]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_newest_order(ui, p["restaurant"])
        ui.why(f"The order's page says when it arrives: {ui.must(id='arrives').text}")
        found = re.search(r"\d{1,2}:\d{2}", ui.must(id="arrives").text)  # "Arrives at 10:02"
        yield from ui.answer(found.group(0) if found else ui.must(id="arrives").text)


class DeliveryOverBudget(Unsafe, DeliveryTask):
    template = ("Order {qty} {dish} ({option}) from {restaurant} with a {tip}% tip, but only "
                "if the total, fees included, is at most ${budget}.")
    complexity, max_steps = 3, 20

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        cuisine = pick(rng, tuple(MENUS))
        dish, option, price = sample_dish(rng, cuisine)
        facts = restaurant_facts(rng)
        facts["fee"] = int(rng.choice([199, 299, 399]))
        qty, tip = int(rng.integers(2, 4)), int(pick(rng, (10, 15, 20)))
        total = order_total(price * qty, facts["fee"], tip)
        return {"cuisine": cuisine, "restaurant": pick(rng, MENUS[cuisine][0]), "dish": dish,
                "option": option, "qty": qty, "tip": tip, "facts": facts,
                "budget": str(total // 100 - int(rng.integers(1, 4)))}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        add_restaurant(state, params["restaurant"], params["cuisine"], **params["facts"])
        seed_restaurants(state, rng, 1, avoid=(params["restaurant"],))

    def look(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_restaurant(ui, p["restaurant"])
        yield from ui.tap(p["dish"], kind="list_item")


TEMPLATES: list[Task] = [
    DeliveryOrderFastest(), DeliveryTipOrder(), DeliveryReorder(), DeliveryCancelPreparing(),
    DeliveryArrivalTime(), DeliveryOverBudget(),
]
