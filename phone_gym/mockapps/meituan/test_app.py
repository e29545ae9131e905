"""美团 (Meituan): the authoring checks on the app and every template, and the app's own
behaviour: the minimum order holds checkout back, paying needs the right PIN and places the
order with its arrival time, 再来一单 fills the cart again."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver
from phone_gym.mockapps.chat.fixtures import set_wallet
from phone_gym.mockapps.meituan import APP, TEMPLATES
from phone_gym.mockapps.meituan.fixtures import (
    meituan_app,
    open_shop,
    order_dishes,
    pay,
    sample_shops,
    write_shops,
)
from phone_gym.testing import check_app, check_task
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.state import WorldState


@pytest.mark.parametrize("task_id", [t.id for t in TEMPLATES])
def test_check_task(task_id: str) -> None:
    check_task(task_id, 20, processes=False)


def test_check_app() -> None:
    check_app(APP, 3000)


def phone() -> tuple[Device, WorldState, Driver]:
    device = Device(APPS)
    state = WorldState(device)
    set_wallet(state, 50_000, "246810")
    shops = sample_shops(np.random.default_rng(1), ["快餐简餐"], 2)
    shops[0].update(name="张记黄焖鸡", minimum=3000, fee=300, minutes=30,
                    prices=[("黄焖鸡米饭", 2200), ("卤肉饭", 1900)])
    write_shops(state, shops, addresses=2)
    return device, state, Driver(lambda: ui_elements(device.frame()), state)


def run(device: Device, actions: Iterable[PhoneAction]) -> None:
    for action in actions:
        assert device.step(action) is None


def test_checkout_waits_for_the_minimum_order() -> None:
    device, _, ui = phone()
    run(device, open_shop(ui, "张记黄焖鸡"))
    run(device, ui.tap(id="add_1"))
    button = next(e for e in ui.elements() if e.short_id == "checkout")
    assert button.text == "差¥8.00起送" and not button.enabled
    run(device, ui.tap(id="add_2"))
    assert ui.must(id="checkout").text == "去结算"


def test_paying_needs_the_pin_and_places_the_order_with_its_arrival() -> None:
    device, state, ui = phone()
    run(device, open_shop(ui, "张记黄焖鸡"))
    run(device, order_dishes(ui, [["黄焖鸡米饭", 1], ["卤肉饭", 1]], "公司"))
    assert ui.must(id="total").text == "合计 ¥44.00"
    run(device, pay(ui, "000000"))
    assert ui.must(id="pay_error").text == "支付密码错误，请重试"
    assert not meituan_app(state).data.orders and state.system.wallet.balance == 50_000
    run(device, ui.fill("pay_pin", "246810"))
    run(device, ui.press("back"))
    run(device, ui.tap(id="button_pay"))
    [order] = meituan_app(state).data.orders
    assert (order.shop_name, order.items, order.total, order.address) == (
        "张记黄焖鸡", (("黄焖鸡米饭", 1), ("卤肉饭", 1)), 4400, "科技园南区A座9楼")
    assert state.system.wallet.balance == 50_000 - 4400
    assert ui.must(id="order_eta").text == f"预计送达 {order.eta}"


def test_reorder_fills_the_cart_to_the_same_address() -> None:
    device, state, ui = phone()
    run(device, open_shop(ui, "张记黄焖鸡"))
    run(device, order_dishes(ui, [["卤肉饭", 2]], "公司"))
    run(device, pay(ui, "246810"))
    run(device, ui.tap(id="reorder"))
    assert ui.must(id="address").hint.startswith("公司 · ")
    assert [e.text for e in ui.find_all(kind="list_item") if e.short_id.startswith("line_")] \
        == ["卤肉饭"]
    assert ui.must(id="total").text == "合计 ¥41.00"


@pytest.mark.parametrize("task_id", [t.id for t in TEMPLATES])
def test_check_task_on_a_zh_phone(task_id: str) -> None:
    check_task(task_id, 20, processes=False, locale="zh-CN", starts=(0,))
