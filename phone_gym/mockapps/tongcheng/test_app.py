"""同程旅行 (Tongcheng), a WeChat mini-program: the authoring checks on the app and every
template, and its own behaviour: listed in WeChat's 小程序 with a Chinese description, the
距离 and 预算 filters with 好评优先, trains by 二等座 price, and a booking paid through WeChat
Pay (a wrong PIN pays nothing)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver
from phone_gym.mockapps.chat.fixtures import set_wallet
from phone_gym.mockapps.tongcheng import APP, TEMPLATES
from phone_gym.mockapps.tongcheng.app import TongchengUi, hotel_results, train_results
from phone_gym.mockapps.tongcheng.fixtures import (
    book_and_pay,
    first_row,
    search_hotels,
    search_trains,
    seed_hotels,
    tongcheng_app,
    write_trains,
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
    check_task(task_id, 20, processes=False, locale="zh-CN", starts=(0,))


def test_check_app() -> None:
    check_app(APP, 3000)


def test_templates_are_mini_program_templates() -> None:
    assert all("mini_program" in t.tags for t in TEMPLATES)


def phone(locale: str = "en-US") -> tuple[Device, WorldState, Driver]:
    device = Device(APPS, locale=locale)
    state = WorldState(device)
    return device, state, Driver(lambda: ui_elements(device.frame()), state)


def run(device: Device, actions: Iterable[PhoneAction]) -> None:
    for action in actions:
        assert device.step(action) is None


def test_listed_in_wechat_mini_programs_in_chinese() -> None:
    device, state, ui = phone("zh-CN")
    run(device, ui.open_app("Chat"))
    run(device, ui.tap(id="tab_discover"))
    run(device, ui.tap(id="mini_programs"))
    row = ui.must(id="mini_tongcheng")
    assert row.text == "同程旅行"
    assert row.hint == "酒店、火车票预订，按预算和距离筛选，微信支付"


def test_filters_and_sorts() -> None:
    _, state, _ = phone()
    rng = np.random.default_rng(3)
    # (price, score, metres to 外滩)
    made = seed_hotels(state, rng, "上海", [(40000, 45, 800), (30000, 48, 5000),
                                           (60000, 49, 500), (35000, 42, 900)], "外滩")
    data = tongcheng_app(state).data
    ui = TongchengUi(city="上海", landmark="外滩", near="near_1", max_price="500",
                     sort="好评优先")
    assert [h.id for h in hotel_results(data, ui)] == [made[0].id, made[3].id]
    trains = write_trains(state, "南京南", "杭州东", "2026-10-22", [
        {"number": f"G{n}", "depart": d, "minutes": 90,
         "seats": [("二等座", p, 5), ("一等座", p * 2, 5), ("商务座", p * 3, 1)]}
        for n, d, p in ((1, "08:00", 12000), (2, "09:00", 9000), (3, "07:00", 15000))])
    ui = TongchengUi(origin="南京南", dest="杭州东", day="2026-10-22")
    assert [t.number for t in train_results(data, ui)] == ["G3", "G1", "G2"]
    ui.train_order = "价格最低"
    assert [t.number for t in train_results(data, ui)] == ["G2", "G1", "G3"]
    assert trains[0].arrive == "09:30"


def test_booking_pays_with_wechat_pay() -> None:
    device, state, ui = phone()
    set_wallet(state, 100_000, "135790")
    h = seed_hotels(state, np.random.default_rng(1), "杭州", [(40000, 46, 700)], "西湖")[0]
    run(device, search_hotels(ui, "杭州", "2026-10-20", 2))
    run(device, ui.tap(id=first_row(ui, "hotel_")))
    run(device, book_and_pay(ui, "王芳", "000000", "book"))  # a wrong PIN
    assert not list(tongcheng_app(state).data.orders)
    assert state.system.wallet.balance == 100_000
    run(device, ui.tap(id="button_cancel"))
    run(device, ui.press("back"))
    run(device, book_and_pay(ui, "王芳", "135790", "book"))
    (order,) = tongcheng_app(state).data.orders
    assert (order.ref, order.total, order.traveller) == (h.id, 80000, "王芳")
    assert state.system.wallet.balance == 20_000


def test_train_search_lists_the_day_only() -> None:
    device, state, ui = phone()
    write_trains(state, "武汉", "长沙南", "2026-10-22", [
        {"number": "G9", "depart": "10:00", "minutes": 80,
         "seats": [("二等座", 16400, 3), ("一等座", 26200, 3), ("商务座", 52000, 1)]}])
    run(device, search_trains(ui, "武汉", "长沙南", "2026-10-23"))
    assert not [e for e in ui.find_all(kind="list_item") if e.short_id.startswith("train_")]
