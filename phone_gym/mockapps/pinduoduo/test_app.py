"""拼多多: the authoring checks on the app and every template, and the app's own behaviour:
the two prices, a started group waits for its second member, joining a group that is one
short completes it, paying needs the right PIN."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver
from phone_gym.mockapps.chat.fixtures import set_wallet
from phone_gym.mockapps.pinduoduo import APP, TEMPLATES
from phone_gym.mockapps.pinduoduo.app import open_groups
from phone_gym.mockapps.pinduoduo.fixtures import open_product, pay, pdd_app, write_products
from phone_gym.testing import check_app, check_task
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.state import WorldState

PRODUCTS = [{"name": "维达抽纸 24包", "solo": 3990, "group": 2990, "sold": 500},
            {"name": "手机支架", "solo": 1990, "group": 990, "sold": 900}]


@pytest.mark.parametrize("task_id", [t.id for t in TEMPLATES])
def test_check_task(task_id: str) -> None:
    check_task(task_id, 20, processes=False)


@pytest.mark.parametrize("task_id", [t.id for t in TEMPLATES])
def test_check_task_on_a_zh_phone(task_id: str) -> None:
    check_task(task_id, 20, processes=False, locale="zh-CN")


def test_check_app() -> None:
    check_app(APP, 2000)


def phone() -> tuple[Device, WorldState, Driver]:
    device = Device(APPS)
    state = WorldState(device)
    set_wallet(state, 50_000, "246810")
    write_products(state, PRODUCTS, [{"product": "维达抽纸 24包", "leader": "王**"}])
    return device, state, Driver(lambda: ui_elements(device.frame()), state)


def run(device: Device, actions: Iterable[PhoneAction]) -> None:
    for action in actions:
        assert device.step(action) is None


def test_the_page_shows_both_prices_and_the_open_groups() -> None:
    device, _, ui = phone()
    run(device, open_product(ui, "维达抽纸 24包"))
    assert ui.must(id="group_price").text == "拼单价 ¥29.90"
    assert ui.must(id="solo_price").text == "单独购买价 ¥39.90"
    assert ui.must(id="group_1").text == "王**的拼单"


def test_a_started_group_waits_and_a_wrong_pin_pays_nothing() -> None:
    device, state, ui = phone()
    run(device, open_product(ui, "手机支架"))
    run(device, ui.tap(id="start_group"))
    run(device, pay(ui, "000000"))
    assert not pdd_app(state).data.orders and state.system.wallet.balance == 50_000
    run(device, ui.fill("pay_pin", "246810"))
    run(device, ui.press("back"))
    run(device, ui.tap(id="button_pay"))
    [order] = pdd_app(state).data.orders
    assert (order.kind, order.price, order.status) == ("拼单", 990, "待成团")
    group = pdd_app(state).data.groups.get(order.group)
    assert group is not None and (group.leader, group.members) == ("我", 1)
    assert state.system.wallet.balance == 50_000 - 990


def test_joining_a_group_one_short_completes_it() -> None:
    device, state, ui = phone()
    run(device, open_product(ui, "维达抽纸 24包"))
    run(device, ui.tap(id="group_1"))
    run(device, pay(ui, "246810"))
    [order] = pdd_app(state).data.orders
    assert (order.group, order.price, order.status) == (1, 2990, "拼单成功")
    assert pdd_app(state).data.groups.get(1).members == 2  # type: ignore[union-attr]
    assert open_groups(pdd_app(state).data, 1) == []  # a full group is no longer open


def test_a_solo_purchase_pays_the_solo_price() -> None:
    device, state, ui = phone()
    run(device, open_product(ui, "手机支架"))
    run(device, ui.tap(id="buy_solo"))
    run(device, pay(ui, "246810"))
    [order] = pdd_app(state).data.orders
    assert (order.kind, order.price, order.status, order.group) == ("单独购买", 1990, "待发货", 0)
