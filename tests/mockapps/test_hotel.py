"""The Hotel Booking mini-program driven through phone actions: reached from WeChat, search,
filters and sorting, booking with the WeChat Pay PIN, cancelling with a refund, the capsule."""

from __future__ import annotations

import numpy as np
import pytest
from driving import fill, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS
from phone_gym.mockapps.chat.fixtures import set_wallet
from phone_gym.mockapps.hotel.app import HotelApp, HotelUi, nights, results
from phone_gym.mockapps.hotel.fixtures import add_hotel
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.state import WorldState


def hotel_of(device: Device) -> HotelApp:
    app = device.app("Hotel")
    assert isinstance(app, HotelApp)
    return app


@pytest.fixture
def device() -> Device:
    """Three Hangzhou hotels and one in Shanghai; ¥2000 in the wallet, PIN 135790."""
    dev = Device(APPS)
    state = WorldState(dev)
    rng = np.random.default_rng(0)
    add_hotel(state, "Jade Inn", "Hangzhou", 40_000, 47, {"West Lake": 800}, rng)
    add_hotel(state, "Lotus Hotel", "Hangzhou", 30_000, 42, {"West Lake": 500}, rng)
    add_hotel(state, "Maple Suites", "Hangzhou", 35_000, 45, {"West Lake": 4000}, rng)
    add_hotel(state, "Pearl Hotel", "Shanghai", 20_000, 49, {"The Bund": 100}, rng)
    set_wallet(state, 200_000, "135790")
    return dev


def to_results(device: Device) -> None:
    open_app(device, "Chat")
    tap(device, id="tab_discover")
    tap(device, id="mini_programs")
    tap(device, id="mini_hotel")
    fill(device, "city", "Hangzhou")
    fill(device, "checkin", "2026-06-01")
    fill(device, "checkout", "2026-06-03")
    press(device, "back")
    tap(device, id="search_hotels")


def names(device: Device) -> list[str]:
    return [h.name for h in results(hotel_of(device).data, hotel_of(device).ui)]


def test_open_app_refuses_and_wechat_opens_it(device: Device) -> None:
    error = device.step(PhoneAction("open_app", app="Hotel"))
    assert error is not None and "mini-program in WeChat" in error
    to_results(device)
    assert device.foreground == "Hotel" and shown(device, "3 hotels")


def test_filters_and_sorting(device: Device) -> None:
    to_results(device)
    tap(device, id="tab_lowest_price")
    assert names(device) == ["Lotus Hotel", "Maple Suites", "Jade Inn"]
    tap(device, id="chip_4_5")
    assert names(device) == ["Maple Suites", "Jade Inn"]
    tap(device, id="chip_within_1_km")
    assert names(device) == ["Jade Inn"]
    tap(device, id="chip_within_1_km")
    tap(device, id="chip_4_5")
    tap(device, id="tab_top_rated")
    assert names(device)[0] == "Jade Inn"
    fill(device, "max_price", "360")
    assert names(device) == ["Maple Suites", "Lotus Hotel"]


def test_booking_pays_and_records_the_order_then_cancel_refunds(device: Device) -> None:
    to_results(device)
    tap(device, "Jade Inn", kind="list_item")
    assert shown(device, "2 nights: ¥800.00")
    tap(device, id="book")
    fill(device, "guest", "Li Na")
    press(device, "back")
    tap(device, id="pay")
    fill(device, "pay_pin", "135790")
    press(device, "back")
    tap(device, id="button_pay")
    [order] = list(hotel_of(device).data.orders)
    assert (order.hotel_name, order.checkin, order.checkout, order.nights, order.guest,
            order.total, order.status) == ("Jade Inn", "2026-06-01", "2026-06-03", 2, "Li Na",
                                           80_000, "paid")
    assert device.system.wallet.balance == 120_000
    tap(device, id=f"order_{order.id}")
    tap(device, id="cancel_order")
    tap(device, id="button_cancel_booking")
    assert hotel_of(device).data.orders.get(order.id).status == "cancelled"  # type: ignore[union-attr]
    assert device.system.wallet.balance == 200_000


def test_the_capsule_closes_back_to_wechat(device: Device) -> None:
    to_results(device)
    tap(device, id="capsule_close")
    assert device.foreground == "Chat" and shown(device, id="mini_hotel")
    tap(device, id="mini_hotel")
    assert shown(device, id="search_hotels")


def test_nights() -> None:
    assert nights("2026-06-01", "2026-06-04") == 3
    assert nights("2026-06-04", "2026-06-01") == 0 and nights("x", "") == 0
    assert results(HotelApp(WorldState(Device(APPS)).device.system).data, HotelUi()) == []


def test_check_app() -> None:
    assert check_app("Hotel", 1500).steps == 1500
