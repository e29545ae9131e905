"""The Utility Bills mini-program driven through phone actions: reached from WeChat, the
accounts, bills and receipts tabs, paying a bill and a top-up with the WeChat Pay PIN,
monthly history, auto-pay with a limit, adding an account, the capsule."""

from __future__ import annotations

from datetime import date, timedelta

import numpy as np
import pytest
from driving import fill, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, REGISTRY, TEMPLATES, Episode
from phone_gym.mockapps.bills.app import BillsApp, cents, outstanding, receipt_number
from phone_gym.mockapps.bills.fixtures import (
    BILLS,
    PAYMENTS,
    add_account,
    add_bill,
    add_history,
    months_before,
    rows,
)
from phone_gym.mockapps.chat.fixtures import set_wallet
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.state import WorldState


def bills_of(device: Device) -> BillsApp:
    app = device.app("Bills")
    assert isinstance(app, BillsApp)
    return app


@pytest.fixture
def device() -> Device:
    """An electricity account with an overdue bill, a water account with a bill not yet due
    and six months of history, a mobile number; ¥1000 in the wallet, PIN 246810."""
    dev = Device(APPS)
    state = WorldState(dev)
    today = dev.system.now.date()
    power = add_account(state, "Electricity", "3100456789")
    water = add_account(state, "Water", "5200112233")
    add_account(state, "Mobile", "13812345678")
    add_bill(state, power, "2026-10", 23_450, (today - timedelta(days=3)).isoformat())
    add_bill(state, water, "2026-10", 6_780, (today + timedelta(days=9)).isoformat())
    add_history(state, water, np.random.default_rng(0), today, n=6,
                usages=[10, 25, 12, 8, 30, 9])
    set_wallet(state, 100_000, "246810")
    return dev


def to_bills(device: Device) -> None:
    open_app(device, "Chat")
    tap(device, id="tab_discover")
    tap(device, id="mini_programs")
    tap(device, id="mini_bills")


def pay_with_pin(device: Device, pin: str) -> None:
    fill(device, "pay_pin", pin)
    press(device, "back")
    tap(device, id="button_pay")


def test_accounts_and_the_bills_tab_mark_overdue(device: Device) -> None:
    to_bills(device)
    assert device.foreground == "Bills"
    assert shown(device, "Electricity · 3100456789", kind="list_item")
    tap(device, id="tab_bills")
    assert shown(device, "2 unpaid · ¥302.30")
    assert shown(device, "Electricity 2026-10 · ¥234.50", kind="list_item")


def test_paying_a_bill_with_the_pin_marks_it_paid_and_keeps_a_receipt(device: Device) -> None:
    to_bills(device)
    tap(device, "Electricity · 3100456789", kind="list_item")
    assert shown(device, id="due_1")
    tap(device, id="pay_bill_1")
    pay_with_pin(device, "000000")  # a wrong PIN pays nothing
    assert shown(device, "Incorrect PIN") and device.system.wallet.balance == 100_000
    fill(device, "pay_pin", "246810")
    press(device, "back")
    tap(device, id="button_pay")
    app = bills_of(device)
    assert [b.id for b in outstanding(app.data)] == [2]
    [receipt] = list(app.data.payments)
    assert (receipt.amount, receipt.bill, receipt.kind) == (23_450, 1, "Electricity")
    assert device.system.wallet.balance == 100_000 - 23_450
    assert shown(device, "No outstanding bills")
    press(device, "back")
    tap(device, id="tab_receipts")
    tap(device, id=f"receipt_{receipt.id}")
    assert shown(device, id="receipt_no")


def test_top_up_a_mobile_number(device: Device) -> None:
    to_bills(device)
    tap(device, "Mobile · 13812345678", kind="list_item")
    fill(device, "amount", "50")
    press(device, "back")
    tap(device, id="pay_amount_button")
    pay_with_pin(device, "246810")
    [receipt] = list(bills_of(device).data.payments)
    assert (receipt.number, receipt.amount, receipt.bill) == ("13812345678", 5_000, 0)


def test_history_and_autopay(device: Device) -> None:
    to_bills(device)
    tap(device, "Water · 5200112233", kind="list_item")
    tap(device, id="history")
    assert shown(device, months_before(device.system.now.date(), 1)[0], kind="list_item")
    press(device, "back")
    tap(device, id="autopay")
    tap(device, id="autopay_switch")
    tap(device, id="save_autopay")  # a limit is required
    assert not bills_of(device).data.accounts.get(2).autopay  # type: ignore[union-attr]
    fill(device, "autopay_limit", "150")
    press(device, "back")
    tap(device, id="save_autopay")
    water = bills_of(device).data.accounts.get(2)
    assert water is not None and (water.autopay, water.autopay_limit) == (True, 15_000)
    assert shown(device, id="autopay")  # back on the account page


def test_add_account_checks_the_number(device: Device) -> None:
    to_bills(device)
    tap(device, id="add_account")
    tap(device, "Gas", kind="chip")
    fill(device, "new_number", "12ab")
    press(device, "back")
    tap(device, id="add")
    assert len(bills_of(device).data.accounts) == 3
    fill(device, "new_number", "7700123456")
    press(device, "back")
    tap(device, id="add")
    assert any(a.kind == "Gas" and a.number == "7700123456"
               for a in bills_of(device).data.accounts)


def test_the_capsule_closes_back_to_wechat(device: Device) -> None:
    to_bills(device)
    tap(device, id="capsule_close")
    assert device.foreground == "Chat" and shown(device, id="mini_bills")


def test_cents() -> None:
    assert cents("12.5") == 1250 and cents("¥1,200") == 120_000
    assert cents("x") is None and cents("0") is None
    assert date.fromisoformat("2026-01-01")  # months_before crosses the year
    assert months_before(date(2026, 1, 15), 2) == ["2025-12", "2025-11"]


def test_check_app() -> None:
    assert check_app("Bills", 1500).steps == 1500


# --- verifier regressions (red-team review) ----------------------------------------------
def episode(task_id: str, seed: int = 0) -> Episode:
    return Episode(TEMPLATES[task_id], Device(REGISTRY.apps), np.random.default_rng(seed))


def solve_saying(ep: Episode, prefix: str, text: str) -> None:
    """Run the template's oracle on the device, typing ``text`` where it types a message
    starting with ``prefix`` (no answer, no finish)."""
    ui = ep.driver()
    for action in ep.template.oracle(ui, ep.params):
        if action.type in ("answer", "finish"):
            continue
        if action.type == "type" and str(action.text).startswith(prefix):
            action = PhoneAction("type", text=text)
        ep.device.step(action)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_receipt_to_chat_refuses_every_receipt_number_dumped(seed: int) -> None:
    ep = episode("BillsReceiptToChat", seed)
    right = ep.template.number(ep.params, ep.initial)  # type: ignore[attr-defined]
    every = [receipt_number(r["date"], r["id"]) for r in rows(ep.initial, PAYMENTS)]
    assert right in every and len(set(every)) > 1
    solve_saying(ep, "The receipt number:", "Receipts: " + ", ".join(every))
    assert not ep.verify().success
    fine = episode("BillsReceiptToChat", seed)
    solve_saying(fine, "The receipt number:", f"{right.lower()} is the receipt")
    assert fine.verify().success, fine.verify().reason


def test_overdue_leaves_no_bill_due_today() -> None:
    """"Overdue" and "not due yet" leave no bill in between (due today is neither)."""
    for seed in range(30):
        ep = episode("BillsPayOverdue", seed)
        today = ep.template.start.date().isoformat()
        assert all(b["due"] != today for b in rows(ep.initial, BILLS)), seed


def test_peak_water_month_oracle_reads_the_amount_off_the_screen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The oracle answers what the history row shows, not a value worked out from params."""
    import phone_gym.mockapps.bills.tasks as bills_tasks

    ep = episode("BillsPeakWaterMonth", 4)
    expected = ep.template.expected(ep.params)  # type: ignore[attr-defined]
    assert not ep.verify().success  # the criteria are made now, before the patch
    monkeypatch.setattr(bills_tasks, "usage_amount", lambda kind, usage: 0)
    ui = ep.driver()
    answers = []
    for action in ep.template.oracle(ui, ep.params):
        if action.type == "answer":
            answers.append(action.text)
        elif action.type != "finish":
            ep.device.step(action)
    assert answers == [f"¥{expected:.2f}"]
    assert ep.verify(answer=answers[0]).success
