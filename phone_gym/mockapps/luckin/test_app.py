"""瑞幸咖啡: the authoring checks on the app and every template, and the app's own
behaviour: options price the cup, stores list nearest first, a coupon whose condition the
cart does not meet cannot be chosen, paying places the order with its 取餐码 and uses the
coupon."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver
from phone_gym.mockapps.chat.fixtures import set_wallet
from phone_gym.mockapps.luckin import APP, TEMPLATES
from phone_gym.mockapps.luckin.fixtures import (
    add_items,
    choose_nearest_store,
    luckin_app,
    open_luckin,
    pay,
    pickup_code,
    write_coupons,
    write_menu,
    write_stores,
)
from phone_gym.testing import check_app, check_task
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.state import WorldState


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
    write_menu(state)
    write_stores(state, [{"name": "文三路店", "address": "文三路259号", "distance": 900},
                         {"name": "武林银泰店", "address": "延安路530号", "distance": 300}])
    write_coupons(state, [{"title": "满60减10", "off": 1000, "threshold": 6000},
                          {"title": "轻乳茶立减8元", "off": 800, "category": "轻乳茶"},
                          {"title": "满30减5", "off": 500, "threshold": 3000}])
    return device, state, Driver(lambda: ui_elements(device.frame()), state)


def run(device: Device, actions: Iterable[PhoneAction]) -> None:
    for action in actions:
        assert device.step(action) is None


def test_stores_list_nearest_first_and_the_pick_is_kept() -> None:
    device, _, ui = phone()
    run(device, open_luckin(ui))
    assert ui.must(id="store").hint == "文三路店 · 距您900m"
    run(device, choose_nearest_store(ui))
    assert ui.must(id="store").hint == "武林银泰店 · 距您300m"


def test_an_iced_only_drink_offers_no_hot_cup() -> None:
    device, _, ui = phone()
    run(device, open_luckin(ui))
    run(device, ui.tap("椰云拿铁", kind="list_item"))
    assert [e.text for e in ui.find_all(kind="chip") if e.short_id.startswith("temp_")] == ["冰"]


def test_a_coupon_needs_its_condition_and_paying_uses_it() -> None:
    device, state, ui = phone()
    run(device, open_luckin(ui))
    run(device, add_items(ui, [["生椰拿铁", "热", "少甜", "超大杯", 1]]))
    assert ui.must(id="total").text == "合计 ¥32.00"  # 29 + 3 for 超大杯
    run(device, ui.tap(id="coupon"))
    assert ui.must(id="coupon_1").hint.endswith("不可用")
    run(device, ui.tap(id="coupon_1"))  # 满60 on a ¥32 cart: stays on the list
    assert ui.find(id="coupon_list") is not None
    run(device, ui.tap(id="coupon_3"))
    assert ui.must(id="total").text == "合计 ¥27.00"
    run(device, pay(ui, "246810"))
    [order] = luckin_app(state).data.orders
    assert (order.store, order.total, order.coupon) == ("文三路店", 2700, "满30减5")
    assert order.items == (("生椰拿铁", "热", "少甜", "超大杯", 1),)
    assert ui.must(id="pickup_code").text == f"取餐码 {pickup_code(1, 2700)}"
    assert luckin_app(state).data.coupons.get(3).used  # type: ignore[union-attr]
    assert state.system.wallet.balance == 50_000 - 2700
