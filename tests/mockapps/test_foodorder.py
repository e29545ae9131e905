"""The Food Order mini-program driven through phone actions: a restaurant's menu with
options, the cart, the address, paying with the WeChat Pay PIN, and reordering."""

from __future__ import annotations

import numpy as np
import pytest
from driving import fill, open_app, press, shown, tap

from phone_gym.mockapps import APPS
from phone_gym.mockapps.chat.fixtures import set_wallet
from phone_gym.mockapps.foodorder.app import FoodOrderApp, add_to_cart, normal_items
from phone_gym.mockapps.foodorder.fixtures import seed_food
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.state import WorldState


def food_of(device: Device) -> FoodOrderApp:
    app = device.app("FoodOrder")
    assert isinstance(app, FoodOrderApp)
    return app


@pytest.fixture
def device() -> Device:
    dev = Device(APPS)
    state = WorldState(dev)
    seed_food(state, np.random.default_rng(0), ["Noodle Bar", "Green Bowl"], addresses=2)
    set_wallet(state, 100_000, "135790")
    return dev


def into_noodle_bar(device: Device) -> None:
    open_app(device, "Chat")
    tap(device, id="tab_discover")
    tap(device, id="mini_programs")
    tap(device, id="mini_foodorder")
    tap(device, "Noodle Bar", kind="list_item")


def test_order_with_options_to_the_office(device: Device) -> None:
    into_noodle_bar(device)
    tap(device, "Beef Noodle Soup", kind="list_item")
    tap(device, "Large", kind="radio")
    tap(device, "Beef Noodle Soup", kind="list_item")
    tap(device, "Large", kind="radio")
    tap(device, "Soy Milk", kind="list_item")
    assert shown(device, "Cart: 3 items · ¥70.00")
    tap(device, id="checkout")
    tap(device, id="address")
    tap(device, "Office: Floor 9, 500 Tianmu Rd", kind="radio")
    fee = food_of(device).fee()
    tap(device, id="place_order")
    fill(device, "pay_pin", "135790")
    press(device, "back")
    tap(device, id="button_pay")
    [order] = list(food_of(device).data.orders)
    assert normal_items(order.items) == [("beef noodle soup", "large", 2), ("soy milk", "", 1)]
    assert order.address == "Floor 9, 500 Tianmu Rd" and order.total == 7000 + fee
    assert device.system.wallet.balance == 100_000 - 7000 - fee


def test_removing_a_line_and_reordering(device: Device) -> None:
    into_noodle_bar(device)
    tap(device, "Soy Milk", kind="list_item")
    tap(device, "Pork Dumplings", kind="list_item")
    tap(device, "8 pieces", kind="radio")
    tap(device, id="checkout")
    tap(device, id="remove_0")
    assert [line[0].name for line in food_of(device).cart_lines()] == ["Pork Dumplings"]
    tap(device, id="place_order")
    fill(device, "pay_pin", "135790")
    press(device, "back")
    tap(device, id="button_pay")
    tap(device, id="order_1")
    tap(device, id="reorder")
    tap(device, id="place_order")
    fill(device, "pay_pin", "135790")
    press(device, "back")
    tap(device, id="button_pay")
    first, second = list(food_of(device).data.orders)
    assert first.items == second.items and first.address == second.address


def test_add_to_cart_counts() -> None:
    cart: list[tuple[int, str, int]] = []
    add_to_cart(cart, 1, "Hot")
    add_to_cart(cart, 1, "Hot")
    add_to_cart(cart, 1, "Mild")
    assert cart == [(1, "Hot", 2), (1, "Mild", 1)]


def test_check_app() -> None:
    assert check_app("FoodOrder", 1500).steps == 1500
