"""携程旅行 (Ctrip): the authoring checks on the app and every template, and the app's own
behaviour: the 星级 and 距离 filters with 低价优先, a room's total over the nights, booking
(the traveller required, the payment confirmed) and a train seat's tickets going down."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver
from phone_gym.mockapps.ctrip import APP, TEMPLATES
from phone_gym.mockapps.ctrip.app import CtripUi, hotel_results, yuan
from phone_gym.mockapps.ctrip.fixtures import (
    book,
    ctrip_app,
    search_hotels,
    search_trains,
    seat_row,
    seed_hotels,
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


def phone() -> tuple[Device, WorldState, Driver]:
    device = Device(APPS)
    state = WorldState(device)
    return device, state, Driver(lambda: ui_elements(device.frame()), state)


def run(device: Device, actions: Iterable[PhoneAction]) -> None:
    for action in actions:
        assert device.step(action) is None


def test_filters_and_sort() -> None:
    device, state, ui = phone()
    rng = np.random.default_rng(3)
    # (lowest price, star, metres to 西湖)
    made = seed_hotels(state, rng, "杭州", [(40000, 4, 800), (30000, 3, 500), (35000, 5, 4000),
                                           (50000, 5, 900)], "西湖")
    data = ctrip_app(state).data
    ui_state = CtripUi(city="杭州", landmark="西湖", stars="star_4", near="near_1",
                       sort="低价优先")
    assert [h.id for h in hotel_results(data, ui_state)] == [made[0].id, made[3].id]
    ui_state.max_price = "450"
    assert [h.id for h in hotel_results(data, ui_state)] == [made[0].id]
    run(device, search_hotels(ui, "杭州", "2026-10-20", 2))
    run(device, ui.tap(id="star_5"))
    rows = [e.text for e in ui.find_all(kind="list_item") if e.short_id.startswith("hotel_")]
    assert sorted(rows) == sorted([made[2].name, made[3].name])


def test_booking_needs_a_traveller_and_a_confirmed_payment() -> None:
    device, state, ui = phone()
    rng = np.random.default_rng(4)
    h = seed_hotels(state, rng, "上海", [(36800, 4, 700)], "外滩")[0]
    run(device, search_hotels(ui, "上海", "2026-10-20", 3))
    run(device, ui.tap(h.name, kind="list_item"))
    assert ui.must(id="room_0").text == f"大床房 · {yuan(36800)}/晚"
    run(device, ui.tap(id="book_0"))
    assert ui.must(id="book_total").text == "订单总额 ¥1104"
    run(device, ui.tap(id="submit"))
    assert ui.find(id="button_pay") is None  # no traveller yet
    run(device, ui.press("back"))
    run(device, book(ui, "李娜", "book_0"))
    (order,) = ctrip_app(state).data.orders
    assert (order.ref, order.item, order.total, order.start, order.end, order.traveller) == (
        h.id, "大床房", 110400, "2026-10-20", "2026-10-23", "李娜")


def test_a_seat_bought_is_one_ticket_fewer() -> None:
    device, state, ui = phone()
    t = write_trains(state, "北京南", "上海虹桥", "2026-10-21", [
        {"number": "G1", "depart": "09:00", "minutes": 280,
         "seats": [("二等座", 55300, 2), ("一等座", 93000, 0), ("商务座", 176000, 1)]}])[0]
    run(device, search_trains(ui, "北京南", "上海虹桥", "2026-10-21"))
    run(device, ui.tap(id=f"train_{t.id}"))
    assert ui.must(id="train_times").text == "北京南 09:00 → 上海虹桥 13:40"
    assert seat_row(ui, "一等座") is None  # sold out
    row = seat_row(ui, "二等座")
    assert row is not None
    run(device, book(ui, "张伟", row))
    train = ctrip_app(state).data.trains.get(t.id)
    assert train is not None and train.seats[0][2] == 1
    (order,) = ctrip_app(state).data.orders
    assert (order.kind, order.total, order.depart, order.route) == (
        "火车票", 55300, "09:00", "北京南 → 上海虹桥")
