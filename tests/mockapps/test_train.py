"""The Train Tickets mini-program driven through phone actions: reached from WeChat, search
with the station swap, filters and sorting, booking two passengers with a seat preference
and the WeChat Pay PIN, adding a passenger, refunding under the fee rule, the capsule."""

from __future__ import annotations

from datetime import date, timedelta

import numpy as np
import pytest
from driving import fill, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS
from phone_gym.mockapps.chat.fixtures import set_wallet
from phone_gym.mockapps.train.app import TrainApp, mask, refund_fee, results
from phone_gym.mockapps.train.fixtures import add_order, add_passenger, add_train, seats_for
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.state import WorldState

LINE = ("Shanghai Hongqiao", "Hangzhou East")


def train_of(device: Device) -> TrainApp:
    app = device.app("Train")
    assert isinstance(app, TrainApp)
    return app


def in_days(device: Device, n: int) -> str:
    return (device.system.now.date() + timedelta(days=n)).isoformat()


@pytest.fixture
def device() -> Device:
    """Four trains Shanghai -> Hangzhou ten days ahead (G1 sold out in Second), one back;
    passengers Li Na and Zhang Wei; ¥2000 in the wallet, PIN 135790."""
    dev = Device(APPS)
    state = WorldState(dev)
    rng = np.random.default_rng(0)
    day = in_days(dev, 10)
    add_train(state, "G1", LINE, day, 7 * 60, 60, seats_for("G", 7_000, {"Second": 0}))
    add_train(state, "D305", LINE, day, 6 * 60, 100, seats_for("D", 7_000, {"Second": 3}))
    add_train(state, "K88", LINE, day, 5 * 60, 200, seats_for("K", 7_000))
    add_train(state, "G7", LINE, day, 13 * 60, 55, seats_for("G", 7_000))
    add_train(state, "G8", LINE[::-1], day, 9 * 60, 60, seats_for("G", 7_000))
    add_passenger(state, "Li Na", rng)
    add_passenger(state, "Zhang Wei", rng)
    set_wallet(state, 200_000, "135790")
    return dev


def to_results(device: Device, swap: bool = False) -> None:
    open_app(device, "Chat")
    tap(device, id="tab_discover")
    tap(device, id="mini_programs")
    tap(device, id="mini_train")
    fill(device, "from", LINE[1] if swap else LINE[0])
    fill(device, "to", LINE[0] if swap else LINE[1])
    fill(device, "date", in_days(device, 10))
    press(device, "back")
    if swap:
        tap(device, id="swap")
    tap(device, id="search_trains")


def numbers(device: Device) -> list[str]:
    return [t.number for t in results(train_of(device).data, train_of(device).ui)]


def test_open_app_refuses_and_wechat_opens_it(device: Device) -> None:
    error = device.step(PhoneAction("open_app", app="Train"))
    assert error is not None and "mini-program in WeChat" in error
    to_results(device, swap=True)
    assert device.foreground == "Train" and shown(device, "4 trains")


def test_filters_and_sorting(device: Device) -> None:
    to_results(device)
    assert numbers(device) == ["K88", "D305", "G1", "G7"]
    tap(device, id="tab_fastest")
    assert numbers(device) == ["G7", "G1", "D305", "K88"]
    tap(device, id="tab_cheapest")
    assert numbers(device)[0] == "K88"
    tap(device, id="chip_high_speed_only")
    assert numbers(device) == ["D305", "G7", "G1"]  # G1 sold out in Second: First counts
    tap(device, id="tab_earliest")
    tap(device, id="chip_12_00_18_00")
    assert numbers(device) == ["G7"]


def test_sold_out_class_cannot_be_booked(device: Device) -> None:
    to_results(device)
    tap(device, "G1", kind="list_item")
    assert shown(device, id="train_stops")
    tap(device, id="class_second")
    assert train_of(device).route.name == "train"


def test_book_two_with_window_seats_then_refund(device: Device) -> None:
    to_results(device)
    tap(device, "G7", kind="list_item")
    tap(device, id="class_second")
    ids = {p.name: p.id for p in train_of(device).data.passengers}
    tap(device, id=f"passenger_{ids['Li Na']}")
    tap(device, id=f"passenger_{ids['Zhang Wei']}")
    tap(device, id="chip_window")
    assert shown(device, "Total ¥140.00")
    tap(device, id="submit")
    fill(device, "pay_pin", "000000")
    press(device, "back")
    tap(device, id="button_pay")
    assert not list(train_of(device).data.orders) and shown(device, "Incorrect PIN")
    fill(device, "pay_pin", "135790")
    press(device, "back")
    tap(device, id="button_pay")
    [order] = list(train_of(device).data.orders)
    assert (order.number, order.seat_class, sorted(order.passengers), order.total) == (
        "G7", "Second", ["Li Na", "Zhang Wei"], 14_000)
    assert all(s[-1] in "AF" for s in order.seats) and len(set(order.seats)) == 2
    assert device.system.wallet.balance == 186_000
    tap(device, id=f"order_{order.id}")
    tap(device, id="refund")
    assert shown(device, "Refund these tickets?")
    tap(device, id="button_refund")
    assert train_of(device).data.orders.get(order.id).status == "refunded"  # type: ignore[union-attr]
    assert device.system.wallet.balance == 200_000  # ten days ahead: no fee


def test_add_passenger_from_the_booking_form(device: Device) -> None:
    to_results(device)
    tap(device, "G7", kind="list_item")
    tap(device, id="class_first")
    tap(device, id="add_passenger")
    fill(device, "passenger_name", "Wu Xia")
    fill(device, "passenger_id", "12345")
    press(device, "back")
    tap(device, id="save_passenger")
    assert len(train_of(device).data.passengers) == 2
    fill(device, "passenger_id", "33010519900307123X")
    press(device, "back")
    tap(device, id="save_passenger")
    new = max(train_of(device).data.passengers, key=lambda p: p.id)
    assert new.name == "Wu Xia" and new.id in train_of(device).ui.chosen
    assert shown(device, f"Wu Xia ({mask(new.id_number)})")


def test_orders_tabs_and_fee_rule(device: Device) -> None:
    state = WorldState(device)
    app = train_of(device)
    g7 = next(t for t in app.data.trains if t.number == "G7")
    add_order(state, g7, "Second", ["Li Na"])
    open_app(device, "Chat")
    tap(device, id="tab_discover")
    tap(device, id="mini_programs")
    tap(device, id="mini_train")
    tap(device, id="my_orders")
    assert shown(device, "G7 Shanghai Hongqiao → Hangzhou East")
    tap(device, id="tab_past")
    assert shown(device, "No orders")
    today = date(2026, 5, 1)
    assert refund_fee(10_000, "2026-05-09", today) == 0
    assert refund_fee(10_000, "2026-05-05", today) == 500
    assert refund_fee(10_000, "2026-05-02", today) == 1_000
    assert mask("330105199003071234") == "3301**********1234"


def test_the_capsule_closes_back_to_wechat(device: Device) -> None:
    to_results(device)
    tap(device, id="capsule_close")
    assert device.foreground == "Chat" and shown(device, id="mini_train")


def test_check_app() -> None:
    assert check_app("Train", 1500).steps == 1500
