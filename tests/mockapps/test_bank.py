"""The Bank app driven through phone actions: signing in with the PIN, accounts and their
activity (search, category and period chips), a transfer and a payment through the review
screen, adding a payee, paying a bill, scheduling, disputing a transaction, card controls;
and check_app."""

from __future__ import annotations

from datetime import date

import pytest
from driving import act, fill, long_press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.bank.app import (
    BankApp,
    MoveForm,
    in_period,
    make_movement,
    money,
    parse_amount,
)
from phone_gym.testing import check_app
from phone_gym.world import Device


def bank(device: Device) -> BankApp:
    app = device.apps["Bank"]
    assert isinstance(app, BankApp)
    return app


@pytest.fixture
def device() -> Device:
    """A phone with the bank holding checking (1, $1,000), savings (2, $500) and a credit
    card (3), three checking transactions, a payee and two bills; opened, signed out."""
    dev = Device([BankApp])
    data = bank(dev).data
    data.pin = "1357"
    data.accounts.new(name="Total Checking", kind="checking", number="111122223333",
                      balance=100_000)
    data.accounts.new(name="Savings", kind="savings", number="444455556666", balance=50_000)
    data.accounts.new(name="Freedom Card", kind="credit", number="4111222233334444",
                      balance=12_000)
    today = dev.system.now.date()
    for day, name, amount, category in (
            (today, "Safeway", -4_250, "Groceries"),
            (date(today.year, today.month, 1), "Shell", -3_000, "Gas"),
            (date(today.year, today.month - 1, 20), "Kroger", -2_000, "Groceries")):
        data.transactions.new(account=1, date=day.isoformat(), description=name,
                              amount=amount, category=category)
    data.payees.new(name="Maria Lopez", number="9876543210")
    data.bills.new(biller="Metro Water", amount=4_500, due=today.isoformat())
    data.bills.new(biller="Comcast", amount=8_000, due=today.isoformat(), paid=True)
    dev.invalidate()
    act(dev, PhoneAction("open_app", app="Bank"))
    return dev


def sign_in(device: Device, pin: str = "1357") -> None:
    fill(device, "pin", pin)
    tap(device, id="sign_in")


def test_amounts() -> None:
    assert money(123_456) == "$1,234.56" and money(-500) == "-$5.00"
    assert parse_amount("12.5") == 1250 and parse_amount("$1,000") == 100_000
    assert parse_amount("0") is None and parse_amount("x") is None


def test_a_wrong_pin_keeps_the_app_locked(device: Device) -> None:
    sign_in(device, "0000")
    assert shown(device, id="pin_error") and not bank(device).ui.signed_in
    sign_in(device)
    assert shown(device, "Total Checking", kind="list_item")


def test_activity_filters(device: Device) -> None:
    sign_in(device)
    tap(device, id="account_1")
    assert shown(device, "$1,000.00", id="balance")
    assert {n for n in ("Safeway", "Shell", "Kroger") if shown(device, n)} == {
        "Safeway", "Shell", "Kroger"}
    tap(device, "This month", kind="chip")
    tap(device, "Groceries", kind="chip")
    assert shown(device, "Safeway") and not shown(device, "Kroger")
    assert not shown(device, "Shell")
    tap(device, "Groceries", kind="chip")  # off again
    fill(device, "search", "shell")
    assert shown(device, "Shell") and not shown(device, "Safeway")


def test_a_transfer_goes_through_the_review(device: Device) -> None:
    sign_in(device)
    tap(device, id="tab_pay")
    tap(device, id="transfer")
    fill(device, "amount", "200")
    tap(device, id="to_2")
    tap(device, id="review")
    assert shown(device, "$200.00", id="review_amount")
    tap(device, id="confirm")
    data = bank(device).data
    assert [a.balance for a in data.accounts][:2] == [80_000, 70_000]
    payment = data.payments.values()[-1]
    assert (payment.kind, payment.source, payment.to_account, payment.amount) == (
        "transfer", 1, 2, 20_000)


def test_an_overdraft_is_warned_about(device: Device) -> None:
    sign_in(device)
    tap(device, id="tab_pay")
    tap(device, id="transfer")
    tap(device, "Savings", kind="chip")
    fill(device, "amount", "800")
    tap(device, id="to_1")
    tap(device, id="review")
    assert shown(device, id="overdraw")
    assert not bank(device).data.payments


def test_add_a_payee_then_pay_and_schedule(device: Device) -> None:
    sign_in(device)
    tap(device, id="tab_pay")
    tap(device, id="add_payee")
    fill(device, "payee_name", "Noah Kim")
    fill(device, "payee_number", "12ab")
    tap(device, id="save_payee")
    assert shown(device, id="payee_error")
    fill(device, "payee_number", "55554444")
    tap(device, id="save_payee")
    tap(device, "Noah Kim", kind="list_item")
    fill(device, "amount", "25.50")
    tap(device, "Monthly", kind="chip")
    fill(device, "start", "2026-11-01")
    tap(device, id="review")
    tap(device, id="confirm")
    data = bank(device).data
    payment = data.payments.values()[-1]
    assert (payment.payee, payment.payee_number, payment.amount, payment.repeat,
            payment.date) == ("Noah Kim", "55554444", 2550, "Monthly", "2026-11-01")
    assert data.accounts.get(1).balance == 100_000  # type: ignore[union-attr]
    tap(device, id="scheduled")
    assert shown(device, "Noah Kim", kind="list_item")


def test_pay_a_bill_marks_it_paid(device: Device) -> None:
    sign_in(device)
    tap(device, id="tab_bills")
    tap(device, id="bill_1")
    tap(device, id="review")
    tap(device, id="confirm")
    data = bank(device).data
    assert data.bills.get(1).paid and data.accounts.get(1).balance == 95_500  # type: ignore[union-attr]


def test_make_movement_refuses_a_bad_form(device: Device) -> None:
    data = bank(device).data
    assert make_movement(data, MoveForm(kind="transfer", source=1, to_account=1,
                                        amount="5"), "2026-10-15") is None
    assert make_movement(data, MoveForm(kind="payment", source=1, payee=9, amount="5"),
                         "2026-10-15") is None
    assert not data.payments


def test_dispute_lock_and_delete_payee(device: Device) -> None:
    sign_in(device)
    tap(device, id="account_1")
    tap(device, "Shell", kind="list_item")
    tap(device, id="report")
    tap(device, id="button_report")
    assert bank(device).data.transactions.get(2).disputed  # type: ignore[union-attr]
    act(device, PhoneAction("press", button="back"))
    act(device, PhoneAction("press", button="back"))
    tap(device, id="tab_cards")
    tap(device, id="card_3")
    tap(device, "Lock card", kind="toggle")
    assert bank(device).data.accounts.get(3).locked  # type: ignore[union-attr]
    assert not shown(device, "4111222233334444")
    tap(device, id="show_number")
    assert shown(device, "4111222233334444")
    act(device, PhoneAction("press", button="back"))
    tap(device, id="tab_pay")
    long_press(device, "Maria Lopez", kind="list_item")
    tap(device, "Delete payee", kind="menu_item")
    tap(device, id="button_delete")
    assert not bank(device).data.payees


def test_check_app() -> None:
    report = check_app(BankApp, 2000)
    assert report.steps == 2000


def test_the_account_list_reads_its_index_as_the_filters_did(device: Device) -> None:
    """The account page's transactions (a per-account index, newest first) equal the
    filter-and-sort over every transaction, with and without the filters, after writes."""
    app, today = bank(device), device.system.now.date()
    txns = app.data.transactions
    for i in range(40):
        txns.new(account=1 + i % 3, date=date(today.year, today.month - i % 3, 1 + i % 27)
                 .isoformat(), description=f"Shop {i}", amount=-100 * i,
                 category=("Gas", "Groceries")[i % 2])
    txns.update(5, date=today.isoformat())
    txns.remove(7)

    def brute(account: int) -> list[int]:
        q, ui = app.ui.query.strip().lower(), app.ui
        rows = [t for t in txns if t.account == account
                and (not q or q in t.description.lower())
                and (not ui.category or t.category == ui.category)
                and in_period(t, ui.period, today)]
        return [t.id for t in sorted(rows, key=lambda t: (t.date, t.id), reverse=True)]

    for query, category, period in (("", "", "All"), ("shop 1", "", "All"),
                                    ("", "Gas", "This month"), ("", "", "Last 7 days")):
        app.ui.query, app.ui.category, app.ui.period = query, category, period
        for account in (1, 2, 3, 4):
            assert [t.id for t in app.shown_txns(account)] == brute(account)
