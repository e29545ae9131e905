"""Public fixtures of the Food Order mini-program: restaurants, menus, addresses, orders."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.task import data_catalogue, localize_data, localize_datum
from ...tasks.vocab import pick
from ...world.locale import DEFAULT_LOCALE, MissingString
from ..chat.fixtures import open_mini_program, pay_with_pin
from .app import Address, Dish, FoodOrder, FoodOrderApp, Restaurant

ORDERS = "apps.FoodOrder.orders"
#: Restaurants: name, cuisine, menu of (dish, price in yuan, option name, options).
MENUS: dict[str, tuple[str, tuple[tuple[str, int, str, tuple[str, ...]], ...]]] = {
    "Sichuan House": ("Sichuan", (
        ("Mapo Tofu", 28, "Spice", ("Mild", "Medium", "Hot")),
        ("Kung Pao Chicken", 36, "Spice", ("Mild", "Medium", "Hot")),
        ("Dan Dan Noodles", 22, "Spice", ("Mild", "Hot")),
        ("Steamed Rice", 3, "", ()),
        ("Cucumber Salad", 12, "", ()))),
    "Noodle Bar": ("Noodles", (
        ("Beef Noodle Soup", 32, "Size", ("Regular", "Large")),
        ("Zhajiang Noodles", 26, "Size", ("Regular", "Large")),
        ("Pork Dumplings", 18, "Count", ("8 pieces", "12 pieces")),
        ("Soy Milk", 6, "", ()))),
    "Green Bowl": ("Salads", (
        ("Chicken Caesar Bowl", 42, "Dressing", ("Caesar", "Sesame", "None")),
        ("Quinoa Veggie Bowl", 38, "Dressing", ("Sesame", "Lemon")),
        ("Fruit Cup", 15, "", ()),
        ("Lemon Tea", 12, "Ice", ("Regular ice", "No ice")))),
    "Dim Sum Corner": ("Cantonese", (
        ("Shrimp Har Gow", 30, "", ()),
        ("BBQ Pork Buns", 24, "", ()),
        ("Rice Noodle Rolls", 26, "Filling", ("Shrimp", "Beef")),
        ("Egg Tarts", 16, "", ()))),
    "Burger Lab": ("Burgers", (
        ("Classic Burger", 39, "Doneness", ("Medium", "Well done")),
        ("Crispy Chicken Burger", 35, "", ()),
        ("Fries", 14, "Size", ("Regular", "Large")),
        ("Cola", 8, "Ice", ("Regular ice", "No ice")))),
}
ADDRESSES = (("Home", "Room 1203, 88 Wensan Rd"), ("Office", "Floor 9, 500 Tianmu Rd"),
             ("Gym", "2 Huanglong Rd"))
#: The seeded data in zh-CN (``strings/zh-CN.data.json``: English datum -> Chinese datum):
#: the templates' params are localized with it (``Task.data``), the menus written with it.
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}
#: Each saved address's text by its label, in every locale ("Home" and 家).
ADDRESS_OF: dict[str, str] = {
    **dict(ADDRESSES),
    **{table.get(label, label): table.get(text, text)
       for table in DATA.values() for label, text in ADDRESSES}}


#: Each dish's option name ("Classic Burger": "Doneness"): the context of its options'
#: translation ("Doneness:Medium" is 五分熟, a spice level "Medium" 适中).
OPTION_OF: dict[str, str] = {dish: option for _, menu in MENUS.values()
                             for dish, _, option, _ in menu}


def datum(state: Any, text: str, context: str = "") -> str:
    """The menu datum ``text`` in the phone's locale, its ``"context:text"`` entry first
    (``MissingString`` when the data catalogue lacks it)."""
    locale = getattr(state, "locale", DEFAULT_LOCALE)
    if locale == DEFAULT_LOCALE:
        return text
    table = DATA[locale]
    if text not in table and f"{context}:{text}" not in table:
        raise MissingString(f"FoodOrder: no {locale} datum for {text!r} (add it to "
                            f"foodorder/strings/{locale}.data.json)")
    return localize_datum(text, table, context)


def localize_items(value: Any, table: Any) -> Any:
    """Params ``value`` with each order item ``[dish, option, quantity]`` in ``table``'s
    words, its option read in the dish's option context (``OPTION_OF``), then the rest
    (``localize_data``)."""
    if isinstance(value, (list, tuple)) and len(value) == 3 \
            and all(isinstance(v, t) for v, t in zip(value, (str, str, int), strict=True)) \
            and value[0] in OPTION_OF:
        dish, option, qty = value
        item = [table.get(dish, dish), localize_datum(option, table, OPTION_OF[dish]), qty]
        return item if isinstance(value, list) else tuple(item)
    if isinstance(value, dict):
        return {k: localize_items(v, table) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(localize_items(v, table) for v in value)
    return localize_data(value, table)


def menu_key(name: str) -> str:
    """The ``MENUS`` key of restaurant ``name`` (its English name or a localized one)."""
    if name in MENUS:
        return name
    for table in DATA.values():
        found = next((k for k, v in table.items() if v == name and k in MENUS), None)
        if found is not None:
            return found
    raise ValueError(f"no restaurant {name!r}; accepted: {', '.join(MENUS)}")


def food_app(state: Any) -> FoodOrderApp:
    app = state.app("FoodOrder")
    assert isinstance(app, FoodOrderApp)
    return app


def seed_food(state: Any, rng: np.random.Generator, names: Sequence[str],
              addresses: int = 2) -> dict[str, Restaurant]:
    """Restaurants ``names`` (from ``MENUS``) with their menus, and the first ``addresses``
    saved addresses."""
    data = food_app(state).data
    made = {}
    for name in names:
        cuisine, menu = MENUS[menu_key(name)]
        r = data.restaurants.new(name=name, cuisine=datum(state, cuisine),
                                 rating=int(rng.integers(40, 50)),
                                 fee=int(rng.integers(0, 4)) * 100)
        for dish, price, option_name, options in menu:
            data.dishes.new(restaurant=r.id, name=datum(state, dish), price=price * 100,
                            option_name=datum(state, option_name) if option_name else "",
                            options=tuple(datum(state, o, option_name) for o in options))
        made[name] = r
    for label, text in ADDRESSES[:addresses]:
        data.addresses.new(label=datum(state, label), text=datum(state, text))
    return made


def dishes_of(state: Any, restaurant: Restaurant) -> list[Dish]:
    return [d for d in food_app(state).data.dishes if d.restaurant == restaurant.id]


def add_past_order(state: Any, restaurant: Restaurant, items: Sequence[tuple[str, str, int]],
                   address: Address | str) -> FoodOrder:
    data = food_app(state).data
    prices = {d.name: d.price for d in data.dishes if d.restaurant == restaurant.id}
    total = sum(prices[n] * q for n, _, q in items) + restaurant.fee
    text = address if isinstance(address, str) else address.text
    return data.orders.new(restaurant=restaurant.id, restaurant_name=restaurant.name,
                           items=tuple(items), address=text, total=total, status="paid")


def sample_items(rng: np.random.Generator, name: str, k: int) -> list[tuple[str, str, int]]:
    """``k`` different dishes of restaurant ``name``, each with an option and a quantity."""
    _, menu = MENUS[name]
    out = []
    for dish, _, _, options in pick(rng, list(menu), k):
        out.append((dish, pick(rng, options) if options else "", int(rng.integers(1, 3))))
    return out


def open_food(ui: Driver) -> Iterator[PhoneAction]:
    """WeChat > Discover > Mini Programs > Food Order (the catalogue's name for
    ``chat.fixtures.open_mini_program(ui, "FoodOrder")``)."""
    return open_mini_program(ui, "FoodOrder")


def pay(ui: Driver, pin: str) -> Iterator[PhoneAction]:
    """Place the order in the cart and pay it with the wallet ``pin``."""
    return pay_with_pin(ui, pin, submit="place_order")


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({"FoodOrderDishes"})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
