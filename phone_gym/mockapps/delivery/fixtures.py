"""Public fixtures of Delivery: restaurants with menus and past orders, for tasks (this app's
and other apps') to seed."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue, localize_datum
from ...tasks.vocab import pick
from ...verifiers.state import DeviceState
from ...world.locale import DEFAULT_LOCALE
from .app import DeliveryApp, FoodOrder, Restaurant, next_ref, order_total

PREFIX = "apps.Delivery"
#: Restaurant names and menu (dish, price in dollars, options) per cuisine.
MENUS: dict[str, tuple[tuple[str, ...], tuple[tuple[str, int, tuple[str, ...]], ...]]] = {
    "Thai": (("Bangkok Street", "Lotus Thai", "Siam Garden", "Thai Orchid", "Chili Basil"),
             (("Pad Thai", 13, ("Chicken", "Tofu", "Shrimp")),
              ("Green Curry", 14, ("Mild", "Medium", "Hot")),
              ("Tom Yum Soup", 9, ("Small", "Large")), ("Mango Sticky Rice", 7, ()))),
    "Italian": (("Trattoria Roma", "Luigi's", "Pasta Fresca", "Il Forno", "Nonna's Kitchen"),
                (("Margherita Pizza", 15, ("12 inch", "16 inch")),
                 ("Lasagna", 16, ()), ("Spaghetti Carbonara", 14, ("Regular", "Large")),
                 ("Tiramisu", 8, ()))),
    "Mexican": (("El Camino", "Casa Verde", "Taqueria Sol", "La Palma", "Burrito Barn"),
                (("Chicken Burrito", 12, ("Mild", "Hot")),
                 ("Carnitas Tacos", 11, ("Corn tortilla", "Flour tortilla")),
                 ("Guacamole and Chips", 7, ()), ("Quesadilla", 10, ("Cheese", "Chicken")))),
    "Indian": (("Spice Route", "Taj Palace", "Curry Leaf", "Bombay Bites", "Masala House"),
               (("Chicken Tikka Masala", 16, ("Mild", "Medium", "Hot")),
                ("Palak Paneer", 14, ()), ("Garlic Naan", 4, ("1 piece", "2 pieces")),
                ("Vegetable Biryani", 13, ("Regular", "Large")))),
    "Japanese": (("Sakura Sushi", "Tokyo Ramen", "Kyoto Kitchen", "Umi", "Hana Bento"),
                 (("Salmon Roll", 9, ("6 pieces", "12 pieces")),
                  ("Tonkotsu Ramen", 15, ("Regular", "Large")),
                  ("Chicken Teriyaki", 14, ()), ("Miso Soup", 4, ()))),
    "Burgers": (("Burger Joint", "Smash Shack", "Patty Lane", "The Grill House", "Bun & Co"),
                (("Cheeseburger", 11, ("Single", "Double")), ("Veggie Burger", 12, ()),
                 ("Fries", 4, ("Regular", "Large")), ("Milkshake", 6,
                                                      ("Vanilla", "Chocolate")))),
}


#: The seeded data in zh-CN (``strings/zh-CN.data.json``: restaurants, dishes and options as
#: a Chinese delivery app lists them: 樱花寿司, 豚骨拉面, 微辣). Cuisines stay keys (the
#: app's catalogue names them).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def datum(state: DeviceState, text: str) -> str:
    """A seeded name in the phone's locale (itself in en-US, and where the catalogue has no
    entry: a name the task gave already localized)."""
    locale = getattr(state, "locale", DEFAULT_LOCALE)
    return text if locale == DEFAULT_LOCALE else localize_datum(text, DATA.get(locale, {}))


def forms_of(names: Iterable[str]) -> set[str]:
    """``names`` and their forms in the other locales (what ``avoid`` excludes)."""
    out = set(names)
    return out | {table[n] for table in DATA.values() for n in out if n in table}


def delivery_app(state: DeviceState) -> DeliveryApp:
    app = state.app("Delivery")  # type: ignore[attr-defined]
    assert isinstance(app, DeliveryApp)
    return app


def restaurant_facts(rng: np.random.Generator) -> dict[str, Any]:
    return {"rating": float(rng.integers(38, 50)) / 10, "eta": int(rng.integers(20, 55)),
            "fee": int(rng.choice([0, 99, 149, 199, 299, 399, 499]))}


def add_restaurant(state: DeviceState, name: str, cuisine: str, *, rating: float, eta: int,
                   fee: int) -> Restaurant:
    """A restaurant with its cuisine's menu."""
    data = delivery_app(state).data
    r = data.restaurants.new(name=datum(state, name), cuisine=cuisine, rating=rating, eta=eta,
                             fee=fee)
    for dish, dollars, options in MENUS[cuisine][1]:
        data.dishes.new(restaurant_id=r.id, name=datum(state, dish), price=dollars * 100 + 49,
                        options=tuple(datum(state, o) for o in options))
    return r


def seed_restaurants(state: DeviceState, rng: np.random.Generator, per_cuisine: int = 1, *,
                     avoid: tuple[str, ...] = (), skip: tuple[str, ...] = ()) -> None:
    """``per_cuisine`` restaurants of every cuisine not in ``skip``, names not in ``avoid``."""
    for cuisine, (names, _) in MENUS.items():
        if cuisine in skip:
            continue
        avoided = forms_of(avoid)
        for name in pick(rng, [n for n in names if n not in avoided], per_cuisine):
            add_restaurant(state, name, cuisine, **restaurant_facts(rng))


def add_food_order(state: DeviceState, restaurant: Restaurant,
                   items: list[tuple[str, str, int]], *, minutes_ago: float,
                   tip: int = 15, address: str = "Home", ref: str = "") -> FoodOrder:
    """An order of ``items`` (dish, option, qty) placed ``minutes_ago`` minutes ago."""
    app = delivery_app(state)
    data = app.data
    placed = app.system.now - timedelta(minutes=minutes_ago)
    dishes = {d.name: d for d in data.dishes.where(restaurant_id=restaurant.id)}
    items = [(datum(state, name), datum(state, option) if option else option, qty)
             for name, option, qty in items]
    subtotal = sum(dishes[name].price * qty for name, _, qty in items)
    # the time first: the orders' index (``newest_orders``) reads it when the order is written
    data.placed[data.orders.next_id] = placed.isoformat(timespec="seconds")
    order = data.orders.new(restaurant_id=restaurant.id, ref=ref or next_ref(data),
                            address=address, tip_percent=tip,
                            total=order_total(subtotal, restaurant.fee, tip))
    for name, option, qty in items:
        data.lines.new(order_id=order.id, dish_id=dishes[name].id, option=option, qty=qty)
    return order


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({"DeliveryTipOrder", "add_dish", "check_out", "open_restaurant"})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
