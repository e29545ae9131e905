"""The Shop app driven through phone actions: categories, search with filters and sorting,
variants, the cart and its sheet, checkout (cards, addresses, the membership pop-up), orders
(cancel, return), reviews and the wishlist."""

from __future__ import annotations

import numpy as np
import pytest
from driving import Driver, act, fill, long_press, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.shop.app import ShopApp, filtered
from phone_gym.mockapps.shop.fixtures import add_order, add_product, seed_account
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.data import Table
from phone_gym.world.state import WorldState


def shop(device: Device) -> ShopApp:
    app = device.apps["Shop"]
    assert isinstance(app, ShopApp)
    return app


def product(name: str, category: str, price: int, rating: float, *, free: bool = False,
            sizes: tuple[str, ...] = (), colors: tuple[str, ...] = (), added: int = 5,
            brand: str = "Acme") -> dict[str, object]:
    return {"name": name, "category": category, "brand": brand, "price": price,
            "rating": rating, "free_shipping": free, "sizes": sizes, "colors": colors,
            "added": added}


@pytest.fixture
def device() -> Device:
    """Shop with two cards (the first the default), addresses, and five products."""
    dev = Device([ShopApp])
    state = WorldState(dev)
    seed_account(state, np.random.default_rng(0))
    add_product(state, product("Acme Runner", "Shoes", 5999, 4.2, sizes=("8", "9"),
                               colors=("Black", "White"), added=30))
    add_product(state, product("Zed Sneaker", "Shoes", 3999, 3.5, sizes=("8", "9"),
                               colors=("Black",), brand="Zed", added=2))
    add_product(state, product("Acme Boot", "Shoes", 8999, 4.8, free=True, sizes=("9",),
                               colors=("Black",), added=10))
    add_product(state, product("Acme Kettle", "Kitchen", 2499, 4.0, free=True))
    add_product(state, product("Acme Pan", "Kitchen", 3499, 4.6, free=True))
    open_app(dev, "Shop")
    return dev


def titles(device: Device) -> list[str]:
    """The product rows on screen, top to bottom."""
    return [e.text for e in ui_elements(device.frame())
            if e.short_id.startswith("product_") and not e.short_id.endswith("_wish")]


def enabled(device: Device, widget_id: str) -> bool:
    found = Driver(device).find(id=widget_id)
    assert found is not None, widget_id
    return bool(found.node.enabled)


def test_category_sort_and_filters(device: Device) -> None:
    tap(device, id="category_shoes")
    assert titles(device) == ["Acme Runner", "Zed Sneaker", "Acme Boot"]
    tap(device, id="sort")
    tap(device, "Price: low to high", kind="radio")
    assert titles(device) == ["Zed Sneaker", "Acme Runner", "Acme Boot"]
    tap(device, id="filters")
    tap(device, "4+ stars", kind="chip")
    fill(device, "max_price", "70")
    tap(device, id="apply")
    assert titles(device) == ["Acme Runner"]
    ui = shop(device).ui
    assert [p.name for p in filtered(shop(device).data, ui)] == ["Acme Runner"]
    tap(device, id="filters")
    tap(device, id="reset")
    tap(device, "Free shipping only", kind="toggle")
    tap(device, id="apply")
    assert titles(device) == ["Acme Boot"]


def test_buy_now_needs_a_variant_and_leaves_the_cart(device: Device) -> None:
    data = shop(device).data
    data.cart.new(product_id=4, qty=1)
    tap(device, id="search_entry")
    fill(device, "search", "Runner")
    tap(device, "Acme Runner", kind="list_item")
    tap(device, id="buy_now")
    assert shop(device).route.name == "product"  # no size or color picked yet
    tap(device, "9", kind="chip")
    tap(device, "White", kind="chip")
    tap(device, id="qty_up")
    tap(device, id="buy_now")
    assert shown(device, "Order total: $125.97")  # 2 x 59.99 + 5.99 shipping
    tap(device, id="pay_with")
    tap(device, data.cards.get(2).label, kind="radio")  # type: ignore[union-attr]
    tap(device, id="place_order")
    order = data.orders.values()[-1]
    assert (order.card_id, order.address_id, order.status, order.total) == (2, 1, "Processing",
                                                                            12597)
    line = data.order_lines.first(order_id=order.id)
    assert line is not None and (line.product_id, line.size, line.color, line.qty) == (
        1, "9", "White", 2)
    assert len(data.cart) == 1  # "Buy it now" does not touch the cart


def test_cart_sheet_wishlist_and_checkout(device: Device) -> None:
    data = shop(device).data
    tap(device, id="category_kitchen")
    tap(device, "Acme Kettle", kind="list_item")
    tap(device, id="add_to_cart")
    tap(device, id="add_to_cart")
    press(device, "back")
    tap(device, "Acme Pan", kind="list_item")
    tap(device, id="add_to_cart")
    tap(device, id="cart_icon")
    assert [(x.product_id, x.qty) for x in data.cart] == [(4, 2), (5, 1)]
    tap(device, "Acme Pan", kind="list_item")
    tap(device, id="option_move_to_wishlist")
    assert [w.product_id for w in data.wishlist] == [5]
    tap(device, "Acme Kettle", kind="list_item")
    tap(device, id="option_decrease_quantity")
    press(device, "back")
    tap(device, id="checkout")
    assert shown(device, "Shipping: Free")
    tap(device, id="place_order")
    assert len(data.cart) == 0 and len(data.orders) == 1
    assert shop(device).ui.tab == "Orders"


def test_membership_offer_declined_or_joined(device: Device) -> None:
    data = shop(device).data
    data.promo = True
    tap(device, id="category_kitchen")
    tap(device, "Acme Pan", kind="list_item")
    tap(device, id="buy_now")
    assert shown(device, id="button_no_thanks")
    tap(device, id="button_no_thanks")
    assert not data.plus and not shown(device, id="button_no_thanks")
    press(device, "back")
    tap(device, id="buy_now")
    assert not shown(device, id="button_join")  # offered once per visit
    act(device, PhoneAction("close_app", app="Shop"))  # the offer comes back next visit
    open_app(device, "Shop")
    tap(device, id="category_kitchen")
    tap(device, "Acme Pan", kind="list_item")
    tap(device, id="buy_now")
    tap(device, id="button_join")
    assert data.plus


def test_orders_cancel_and_return(device: Device) -> None:
    state = WorldState(device)
    app = shop(device)
    runner = app.data.products.get(1)
    pan = app.data.products.get(5)
    assert runner is not None and pan is not None
    add_order(state, runner, status="Shipped", days_ago=1, number="11111", size="9")
    add_order(state, pan, status="Processing", days_ago=0, number="22222")
    add_order(state, pan, status="Delivered", days_ago=8, number="33333")
    tap(device, id="tab_orders")
    tap(device, "Order 11111", kind="list_item")
    assert not enabled(device, "cancel_order")  # shipped: too late
    press(device, "back")
    tap(device, "Order 22222", kind="list_item")
    tap(device, id="cancel_order")
    tap(device, id="button_keep_order")
    assert app.data.orders.get(2).status == "Processing"  # type: ignore[union-attr]
    tap(device, id="cancel_order")
    tap(device, id="button_cancel_order")
    assert app.data.orders.get(2).status == "Cancelled"  # type: ignore[union-attr]
    press(device, "back")
    tap(device, "Order 33333", kind="list_item")
    tap(device, id="return")
    assert not enabled(device, "submit_return")  # no reason picked yet
    tap(device, "Arrived damaged", kind="chip")
    tap(device, id="submit_return")
    order = app.data.orders.get(3)
    assert order is not None
    assert (order.status, order.return_reason) == ("Return requested", "Arrived damaged")


def test_review_and_wishlist_menus(device: Device) -> None:
    data = shop(device).data
    tap(device, id="category_kitchen")
    long_press(device, "Acme Kettle", kind="list_item")
    tap(device, "Add to wishlist", kind="menu_item")
    assert [w.product_id for w in data.wishlist] == [4]
    tap(device, "Acme Kettle", kind="list_item")
    tap(device, id="write_review")
    tap(device, id="submit_review")
    assert len(data.reviews) == 0  # needs stars and words
    tap(device, id="star_4")
    fill(device, "review_text", "Boils fast")
    tap(device, id="submit_review")
    review = data.reviews.values()[0]
    assert (review.product_id, review.stars, review.text) == (4, 4, "Boils fast")
    assert shown(device, "Reviews (1)")


def test_check_app() -> None:
    report = check_app(ShopApp, 2000)
    assert report.steps == 2000


def test_the_orders_tab_reads_no_whole_table(device: Device,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """With 300 orders the Orders tab, a scroll and an order's page read indexes kept on
    write: no scan of every order line per row (``Table.where``), and no sort of every
    order per frame (benchmarks/growth.py: flat as the orders grow)."""
    state = WorldState(device)
    kettle = next(p for p in shop(device).data.products if p.name == "Acme Kettle")
    for i in range(300):
        add_order(state, kettle, status="Delivered", days_ago=300 - i, number=f"{i:05d}")
    data, scans = shop(device).data, list[object]()
    big = (data.orders, data.order_lines)
    where, every = Table.where, Table.__iter__

    def scan_where(self: Table, **fields: object) -> list[object]:
        scans.extend([fields] if any(self is t for t in big) else [])
        return where(self, **fields)

    def scan_all(self: Table) -> object:
        scans.extend(["all"] if any(self is t for t in big) else [])
        return every(self)

    monkeypatch.setattr(Table, "where", scan_where)
    monkeypatch.setattr(Table, "__iter__", scan_all)
    tap(device, id="tab_orders", kind="tab")
    tap(device, "Order 00299", kind="list_item")
    assert shown(device, "Order 00299")
    press(device, "back")
    act(device, PhoneAction("scroll", x=500, y=600, direction="down"))
    assert not shown(device, "Order 00299", kind="list_item") and scans == []
