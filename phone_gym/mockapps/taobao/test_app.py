"""淘宝 (Taobao): the authoring checks on the app and every template, and the app's own
behaviour: a SKU must be chosen before buying, paying needs the right PIN and places the
order, checking out the cart empties it, 收藏 toggles, 分享 sends the link to WeChat."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver
from phone_gym.mockapps.chat.fixtures import ME, add_group, chat_app, set_wallet
from phone_gym.mockapps.taobao import APP, TEMPLATES
from phone_gym.mockapps.taobao.fixtures import (
    by_title,
    choose_sku,
    open_product,
    pay,
    product_link,
    put_in_cart,
    sample_products,
    taobao_app,
    write_products,
)
from phone_gym.testing import check_app, check_task
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.state import WorldState

TITLE = "316不锈钢保温杯 大容量"


@pytest.mark.parametrize("task_id", [t.id for t in TEMPLATES])
def test_check_task(task_id: str) -> None:
    check_task(task_id, 20, processes=False)


@pytest.mark.parametrize("task_id", [t.id for t in TEMPLATES])
def test_check_task_on_a_zh_phone(task_id: str) -> None:
    check_task(task_id, 20, processes=False, locale="zh-CN", starts=(0,))


def test_check_app() -> None:
    check_app(APP, 3000)


def phone() -> tuple[Device, WorldState, Driver]:
    device = Device(APPS)
    state = WorldState(device)
    set_wallet(state, 50_000, "135790")
    write_products(state, sample_products(np.random.default_rng(2), ["保温杯", "抽纸"]))
    return device, state, Driver(lambda: ui_elements(device.frame()), state)


def run(device: Device, actions: Iterable[PhoneAction]) -> None:
    for action in actions:
        assert device.step(action) is None


def test_buying_needs_a_sku_and_the_pin() -> None:
    device, state, ui = phone()
    run(device, open_product(ui, TITLE, "保温杯"))
    run(device, ui.tap(id="buy_now"))
    assert ui.find(id="submit_order") is None  # no SKU chosen: still on the product
    run(device, choose_sku(ui, "蓝色"))
    run(device, ui.tap(id="buy_now"))
    run(device, pay(ui, "000000"))
    assert ui.must(id="pay_error").text == "支付密码不正确"
    assert not taobao_app(state).data.orders
    run(device, ui.fill("pay_pin", "135790"))
    run(device, ui.press("back"))
    run(device, ui.tap(id="button_pay"))
    [order] = taobao_app(state).data.orders
    price = by_title(state)[TITLE].price
    assert (order.title, order.sku, order.qty, order.total) == (TITLE, "蓝色", 1, price)
    assert state.system.wallet.balance == 50_000 - price


def test_checking_out_the_cart_orders_every_line_and_empties_it() -> None:
    device, state, ui = phone()
    products = by_title(state)
    put_in_cart(state, products[TITLE], "白色", 2)
    put_in_cart(state, products["原木抽纸 家用实惠装"], "12包")
    run(device, ui.open_app("Taobao"))
    run(device, ui.tap("购物车"))
    run(device, ui.tap(id="cart_checkout"))
    run(device, pay(ui, "135790"))
    data = taobao_app(state).data
    assert not data.cart
    assert sorted((o.title, o.sku, o.qty) for o in data.orders) == [
        (TITLE, "白色", 2), ("原木抽纸 家用实惠装", "12包", 1)]


def test_favorite_toggles_and_share_sends_the_link() -> None:
    device, state, ui = phone()
    group = add_group(state, "家人群")
    run(device, open_product(ui, TITLE, "保温杯"))
    run(device, ui.tap(id="favorite"))
    assert ui.must(id="favorite").text == "已收藏" and len(taobao_app(state).data.favorites) == 1
    run(device, ui.tap(id="favorite"))
    assert not taobao_app(state).data.favorites
    run(device, ui.tap(id="share"))
    run(device, ui.tap("家人群", kind="list_item"))
    run(device, ui.tap(id="button_send"))
    [msg] = chat_app(state).data.messages
    assert (msg.chat, msg.sender, msg.kind, msg.text, msg.content) == (
        group.id, ME, "link", TITLE, product_link(by_title(state)[TITLE].id))
