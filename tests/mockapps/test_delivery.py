"""The Delivery app driven through phone actions: cuisines and sorting, a dish's options,
one restaurant per cart, checkout with address and tip, order status following the clock
(cancel only while preparing), reorder."""

from __future__ import annotations

import pytest
from driving import Driver, act, fill, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.delivery.app import DeliveryApp, order_total
from phone_gym.mockapps.delivery.fixtures import add_food_order, add_restaurant
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.state import WorldState


def delivery(device: Device) -> DeliveryApp:
    app = device.apps["Delivery"]
    assert isinstance(app, DeliveryApp)
    return app


@pytest.fixture
def device() -> Device:
    """Three Thai restaurants and one Italian one, opened on the restaurant list."""
    dev = Device([DeliveryApp])
    state = WorldState(dev)
    add_restaurant(state, "Lotus Thai", "Thai", rating=4.5, eta=40, fee=99)
    add_restaurant(state, "Siam Garden", "Thai", rating=4.1, eta=20, fee=499)
    add_restaurant(state, "Chili Basil", "Thai", rating=4.8, eta=30, fee=0)
    add_restaurant(state, "Luigi's", "Italian", rating=4.3, eta=25, fee=199)
    open_app(dev, "Delivery")
    return dev


def rows(device: Device) -> list[str]:
    return [e.text for e in ui_elements(device.frame()) if e.short_id.startswith("restaurant_")]


def wait(device: Device, seconds: float) -> None:
    act(device, PhoneAction("wait", seconds=seconds))


def test_cuisine_chips_and_sorting(device: Device) -> None:
    tap(device, "Thai", kind="chip")
    assert rows(device) == ["Lotus Thai", "Siam Garden", "Chili Basil"]
    for sort, order in (("Fastest delivery", ["Siam Garden", "Chili Basil", "Lotus Thai"]),
                        ("Rating", ["Chili Basil", "Lotus Thai", "Siam Garden"]),
                        ("Delivery fee", ["Chili Basil", "Lotus Thai", "Siam Garden"])):
        tap(device, id="sort")
        tap(device, sort, kind="radio")
        assert rows(device) == order
    tap(device, "Thai", kind="chip")  # off again
    assert len(rows(device)) == 4
    fill(device, "search", "luigi")
    assert rows(device) == ["Luigi's"]


def test_options_one_restaurant_per_cart_and_checkout(device: Device) -> None:
    data = delivery(device).data
    tap(device, "Lotus Thai", kind="list_item")
    tap(device, "Green Curry", kind="list_item")
    tap(device, id="add_to_cart")
    assert len(data.cart) == 0  # an option must be chosen
    tap(device, "Hot", kind="chip")
    tap(device, id="qty_up")
    tap(device, id="add_to_cart")
    assert [(x.option, x.qty) for x in data.cart] == [("Hot", 2)]
    press(device, "back")  # adding went back to the menu: now the list
    tap(device, "Luigi's", kind="list_item")
    tap(device, "Lasagna", kind="list_item")
    tap(device, id="add_to_cart")
    assert shown(device, "Start a new cart?")
    tap(device, id="button_cancel")
    assert [(x.option, x.qty) for x in data.cart] == [("Hot", 2)]
    press(device, "back")
    press(device, "back")
    tap(device, "Lotus Thai", kind="list_item")
    tap(device, id="cart_icon")
    tap(device, id="checkout")
    tap(device, id="deliver_to")
    tap(device, "Work", kind="radio")
    tap(device, "20%", kind="chip")
    expected = order_total(2 * 1449, 99, 20)
    assert shown(device, f"Total: ${expected // 100}.{expected % 100:02d}")
    tap(device, id="place_order")
    order = data.orders.values()[0]
    assert (order.address, order.tip_percent, order.total, order.status) == (
        "Work", 20, expected, "Placed")
    assert len(data.cart) == 0 and len(data.lines) == 1


def test_status_follows_the_clock_and_cancel_only_while_preparing(device: Device) -> None:
    state = WorldState(device)
    app = delivery(device)
    lotus = app.data.restaurants.first(name="Lotus Thai")
    assert lotus is not None
    add_food_order(state, lotus, [("Pad Thai", "Tofu", 1)], minutes_ago=0)
    tap(device, id="tab_orders")
    tap(device, "Lotus Thai", kind="list_item")
    assert shown(device, "Confirming your order") and not shown(device, id="cancel_order")
    wait(device, 60)
    wait(device, 60)
    assert shown(device, "Preparing")
    tap(device, id="cancel_order")
    tap(device, id="button_keep_order")
    assert app.data.orders.get(1).status == "Placed"  # type: ignore[union-attr]
    for _ in range(14):
        wait(device, 60)
    assert shown(device, "On the way") and not shown(device, id="cancel_order")
    add_food_order(state, lotus, [("Pad Thai", "Tofu", 1)], minutes_ago=5)
    press(device, "back")
    found = Driver(device).find(id="order_2")
    assert found is not None
    tap(device, id="order_2")
    tap(device, id="cancel_order")
    tap(device, id="button_cancel_order")
    assert app.data.orders.get(2).status == "Cancelled"  # type: ignore[union-attr]
    assert shown(device, "Cancelled")


def test_reorder_fills_the_cart_and_opens_checkout(device: Device) -> None:
    state = WorldState(device)
    app = delivery(device)
    luigi = app.data.restaurants.first(name="Luigi's")
    assert luigi is not None
    add_food_order(state, luigi, [("Lasagna", "", 2), ("Tiramisu", "", 1)], minutes_ago=3000)
    tap(device, id="tab_orders")
    tap(device, "Luigi's", kind="list_item")
    assert shown(device, "Delivered")
    tap(device, id="reorder")
    tap(device, id="place_order")
    assert len(app.data.orders) == 2
    assert [(x.dish_id, x.qty) for x in app.data.lines.where(order_id=2)] == [
        (x.dish_id, x.qty) for x in app.data.lines.where(order_id=1)]


def test_check_app() -> None:
    report = check_app(DeliveryApp, 2000)
    assert report.steps == 2000
