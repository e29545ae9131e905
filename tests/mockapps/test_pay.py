"""The Pay app (Alipay-like wallet) driven through phone actions: the balance and hiding it,
paying a merchant by its code with the PIN sheet, a transfer with a note and a red packet to
a contact, the bills with search; all in the shared system wallet. And check_app."""

from __future__ import annotations

import pytest
from driving import act, fill, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.pay.app import PayApp, merchant_of, parse_amount
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.kit.capsule import PIN_SETTING


def wallet_app(device: Device) -> PayApp:
    app = device.apps["Pay"]
    assert isinstance(app, PayApp)
    return app


@pytest.fixture
def device() -> Device:
    """A phone with ¥500.00 in the wallet (PIN 246810), a past payment and two contacts."""
    dev = Device([PayApp])
    system = dev.system
    system.wallet.balance = 50_000
    system.wallet.transactions.new(amount=-2_350, counterparty="Luckin Coffee",
                                   date="2026-10-10")
    system.put_setting(*PIN_SETTING, "246810")
    system.add_contact("Wang Fang", "+86 138 0013 8000")
    system.add_contact("Li Lei", "+86 138 0013 8001")
    dev.invalidate()
    act(dev, PhoneAction("open_app", app="Pay"))
    return dev


def test_values() -> None:
    assert merchant_of("2804175531") == "Luckin Coffee" and merchant_of("123") is None
    assert parse_amount("¥12.5") == 1250 and parse_amount("-3") is None


def test_balance_and_hiding_it(device: Device) -> None:
    assert shown(device, "¥500.00", id="balance")
    tap(device, id="hide_balance")
    assert shown(device, "¥ ****", id="balance") and wallet_app(device).data.hide_balance


def test_pay_a_merchant_by_code(device: Device) -> None:
    tap(device, id="scan")
    fill(device, "code", "99 9999 9999")
    assert shown(device, id="unknown_code")
    fill(device, "code", "28 0419 7702")
    assert shown(device, "Pay to FamilyMart")
    fill(device, "amount", "35.80")
    tap(device, id="pay")
    fill(device, "pay_pin", "000000")
    tap(device, id="button_pay")
    assert shown(device, "Incorrect PIN") and device.system.wallet.balance == 50_000
    fill(device, "pay_pin", "246810")
    tap(device, id="button_pay")
    wallet = device.system.wallet
    assert wallet.balance == 50_000 - 3_580
    last = wallet.transactions.values()[-1]
    assert (last.counterparty, last.amount) == ("FamilyMart", -3_580)
    assert shown(device, id="balance")  # back home


def test_transfer_with_a_note_and_a_red_packet(device: Device) -> None:
    tap(device, id="transfer")
    fill(device, "search", "li")
    assert shown(device, "Li Lei") and not shown(device, "Wang Fang")
    tap(device, "Li Lei", kind="list_item")
    fill(device, "amount", "100")
    fill(device, "note", "Taxi share")
    tap(device, id="send")
    fill(device, "pay_pin", "246810")
    tap(device, id="button_pay")
    tap(device, id="red_packet")
    tap(device, "Wang Fang", kind="list_item")
    fill(device, "amount", "8.88")
    tap(device, id="send")
    fill(device, "pay_pin", "246810")
    tap(device, id="button_pay")
    rows = [(t.counterparty, t.amount, t.memo) for t in device.system.wallet.transactions]
    assert rows[-2:] == [("Li Lei", -10_000, "Taxi share"),
                         ("Wang Fang", -888, "Red packet: Best wishes")]


def test_too_little_money_is_refused(device: Device) -> None:
    tap(device, id="scan")
    fill(device, "code", "2804175531")
    fill(device, "amount", "900")
    tap(device, id="pay")
    fill(device, "pay_pin", "246810")
    tap(device, id="button_pay")
    assert shown(device, "Insufficient balance")
    assert len(device.system.wallet.transactions) == 1


def test_bills_search(device: Device) -> None:
    tap(device, id="bills")
    assert shown(device, "Luckin Coffee", kind="list_item")
    fill(device, "search", "mart")
    assert not shown(device, "Luckin Coffee", kind="list_item")


def test_check_app() -> None:
    report = check_app(PayApp, 2000)
    assert report.steps == 2000
