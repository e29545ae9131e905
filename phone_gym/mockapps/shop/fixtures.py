"""Public fixtures of Shop: a catalog, saved cards and addresses, and past orders, for tasks
(this app's and other apps') to seed."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue, localize_datum
from ...tasks.vocab import pick
from ...verifiers.state import DeviceState
from ...world.locale import DEFAULT_LOCALE
from .app import Order, PayCard, Product, ShopApp

PREFIX = "apps.Shop"
#: (brands, item nouns, sizes, colors, price range in dollars) per category.
CATALOG: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...],
                         tuple[int, int]]] = {
    "Shoes": (("Stride", "Kestrel", "Northway", "Pacer"),
              ("Trail Runner", "Canvas Sneaker", "Court Trainer", "Leather Loafer",
               "Hiking Boot", "Slip-On", "Road Racer", "High-Top"),
              ("7", "8", "9", "10", "11"), ("Black", "White", "Grey"), (35, 140)),
    "T-shirts": (("Cotonni", "Basalt", "Lumen", "Harbor"),
                 ("Crew Tee", "V-Neck Tee", "Pocket Tee", "Graphic Tee", "Long Sleeve Tee",
                  "Henley", "Polo", "Tank Top"),
                 ("S", "M", "L", "XL"), ("Navy", "White", "Olive", "Black"), (9, 45)),
    "Headphones": (("Sonique", "Arden", "Pulse", "Veloce"),
                   ("Wireless Earbuds", "Over-Ear Headphones", "Sport Earbuds",
                    "Noise Cancelling Headphones", "Studio Monitors", "Kids Headphones",
                    "Bone Conduction Headset", "Gaming Headset"),
                   (), ("Black", "White", "Blue"), (19, 220)),
    "Backpacks": (("Trekker", "Urbane", "Fjellpak", "Commuter Co"),
                  ("Daypack", "Laptop Backpack", "Rolltop Pack", "Hydration Pack",
                   "Travel Pack", "Mini Backpack", "School Bag", "Sling Bag"),
                  (), ("Black", "Red", "Green", "Grey"), (25, 130)),
    "Watches": (("Tempo", "Meridian", "Solace", "Quartzline"),
                ("Field Watch", "Dive Watch", "Smartwatch", "Chronograph", "Dress Watch",
                 "Fitness Band", "Pilot Watch", "Digital Watch"),
                (), ("Silver", "Gold", "Black"), (29, 260)),
    "Kitchen": (("Cucina", "Hearth", "Ember", "Maple & Co"),
                ("Chef's Knife", "Cast Iron Skillet", "French Press", "Mixing Bowls",
                 "Cutting Board", "Stock Pot", "Tea Kettle", "Spice Rack"),
                (), (), (12, 95)),
}
CARDS = ("Visa •••• 4242", "Mastercard •••• 5100", "Amex •••• 3005", "Visa •••• 7781")
ADDRESSES = (("Home", "14 Elm Street, Springfield"), ("Work", "200 Market Ave, Suite 5"),
             ("Parents", "9 Lake Road, Fairview"))


#: The seeded data in zh-CN (``strings/zh-CN.data.json``: item nouns, colors and saved
#: addresses: "Kestrel 网面训练鞋", 黑色, 家). Brands stay as they are (Latin, as Chinese
#: shops list them); categories stay keys (the app's catalogue names them).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def datum(state: DeviceState, text: str) -> str:
    """A seeded word in the phone's locale (itself in en-US, and where the catalogue has no
    entry: a text the task gave already localized)."""
    return datum_in(getattr(state, "locale", DEFAULT_LOCALE), text)


def datum_in(locale: str, text: str) -> str:
    return text if locale == DEFAULT_LOCALE else localize_datum(text, DATA.get(locale, {}))


def product_in(fields: Mapping[str, Any], locale: str) -> dict[str, Any]:
    """A product's fields (``make_product``'s) in ``locale``: its name as brand and noun
    ("Kestrel 网面训练鞋"), its colors."""
    out = dict(fields)
    if locale == DEFAULT_LOCALE:
        return out
    brand, name = str(fields["brand"]), str(fields["name"])
    if name.startswith(f"{brand} "):
        out["name"] = f"{brand} {datum_in(locale, name[len(brand) + 1:])}"
    out["colors"] = tuple(datum_in(locale, c) for c in fields.get("colors", ()))
    return out


def shop_app(state: DeviceState) -> ShopApp:
    app = state.app("Shop")  # type: ignore[attr-defined]
    assert isinstance(app, ShopApp)
    return app


def make_product(rng: np.random.Generator, category: str, *, used: set[str],
                 price: int | None = None, rating: float | None = None,
                 brand: str | None = None) -> dict[str, Any]:
    """A product of ``category`` (plain fields), its name unique among ``used``."""
    brands, nouns, sizes, colors, (lo, hi) = CATALOG[category]
    while True:
        b = brand or pick(rng, brands)
        name = f"{b} {pick(rng, nouns)}"
        if name not in used:
            break
    used.add(name)
    return {"name": name, "category": category, "brand": b,
            "price": price if price is not None else int(rng.integers(lo, hi)) * 100 + 99,
            "rating": rating if rating is not None else float(rng.integers(30, 50)) / 10,
            "added": int(rng.integers(1, 200)), "free_shipping": bool(rng.random() < 0.5),
            "sizes": sizes, "colors": colors}


def add_product(state: DeviceState, fields: dict[str, Any]) -> Product:
    return shop_app(state).data.products.new(
        **product_in(fields, getattr(state, "locale", DEFAULT_LOCALE)))


def seed_account(state: DeviceState, rng: np.random.Generator, *, cards: int = 2,
                 default_card: int = 0) -> list[PayCard]:
    """Saved addresses (Home the default) and ``cards`` saved cards, the
    ``default_card``-th one the default."""
    data = shop_app(state).data
    for i, (label, line) in enumerate(ADDRESSES):
        data.addresses.new(label=datum(state, label), line=datum(state, line), default=i == 0)
    labels = pick(rng, CARDS, cards)
    return [data.cards.new(label=label, default=i == default_card)
            for i, label in enumerate(labels)]


def seed_catalog(state: DeviceState, rng: np.random.Generator, per_category: int = 3,
                 *, used: set[str] | None = None) -> None:
    """``per_category`` products in every category."""
    used = set() if used is None else used
    for category in CATALOG:
        for _ in range(per_category):
            add_product(state, make_product(rng, category, used=used))


def arrival(today: date, days_ago: int, transit: int = 4) -> date:
    """When an order placed ``days_ago`` days before ``today`` arrives (or arrived), after
    ``transit`` days."""
    return today - timedelta(days=days_ago - transit)


def add_order(state: DeviceState, product: Product, *, status: str, days_ago: int,
              number: str, size: str = "", color: str = "", qty: int = 1,
              transit: int = 4) -> Order:
    """A past order of one product."""
    data = shop_app(state).data
    now = shop_app(state).system.now.date()
    placed = now - timedelta(days=days_ago)
    arrives = arrival(now, days_ago, transit)
    card = next(iter(data.cards), None)
    address = next(iter(data.addresses), None)
    order = data.orders.new(number=number, total=product.price * qty, placed=placed.isoformat(),
                            arrives=arrives.isoformat(), status=status,
                            card_id=card.id if card else 0,
                            address_id=address.id if address else 0)
    data.order_lines.new(order_id=order.id, product_id=product.id, size=size,
                         color=datum(state, color) if color else color,
                         qty=qty, price=product.price)
    return order
