"""Persistent cross-app state around money (``crossapp/persistent_money.py``): the verifiers
compare two apps' records to each other, so an expense one yuan or one day off the payment
actually made fails, a payment of the wrong amount fails even when its expense matches it, a
to-do naming another order's number (or an order paid with another card or sent to another
address) fails, and each branch of a conditional task fails the other branch's change."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from phone_gym.crossapp.persistent_money import (
    TEMPLATES,
    CrossPayMerchantToExpense,
    CrossPayReconcileWeek,
    CrossPayRepaidTodo,
    CrossShopArrivalToCalendar,
    CrossShopOrderExpenseTodo,
    CrossShopOrderToTodo,
    CrossSplitBillToExpense,
    CrossSplitOverLimit,
)
from phone_gym.mockapps import APPS
from phone_gym.tasks.task import Episode
from phone_gym.world import Device


@pytest.fixture(scope="module")
def device() -> Device:
    return Device(APPS)


def solved(task: Any, device: Device, seed: int = 0) -> Episode:
    ep = Episode(task, device, np.random.default_rng(seed))
    ep.solve()
    assert ep.verify(None, "success").success
    return ep


def app(ep: Episode, name: str) -> Any:
    return ep.driver().state.app(name)


def test_every_template_is_persistent_and_about_two_apps() -> None:
    ids = [t.id for t in TEMPLATES]
    assert len(ids) == len(set(ids)) >= 16
    for t in TEMPLATES:
        assert "persistent" in t.tags and len(set(t.apps)) >= 2, t.id
    assert sum("long_horizon" in t.tags for t in TEMPLATES) >= 4
    assert 1 <= sum("safety" in t.tags for t in TEMPLATES) <= 2


def test_the_expense_must_carry_the_payments_amount_and_day(device: Device) -> None:
    ep = solved(CrossPayMerchantToExpense(), device)
    data = app(ep, "Expense").data
    expense = next(e for e in data.expenses if e.name == ep.params["merchant"])
    data.expenses.update(expense.id, amount=expense.amount + 100)
    assert not ep.verify(None, "success").success
    data.expenses.update(expense.id, amount=expense.amount, date="2026-10-14")
    assert not ep.verify(None, "success").success
    data.expenses.update(expense.id, date=expense.date)
    assert ep.verify(None, "success").success
    data.expenses.new(name=expense.name, amount=expense.amount, category=expense.category,
                      date=expense.date)  # logged twice
    assert not ep.verify(None, "success").success


def test_a_wrong_transfer_fails_even_with_a_matching_expense(device: Device) -> None:
    ep = solved(CrossSplitBillToExpense(), device)
    share = ep.params["splits"][0]["share"]
    wallet = app(ep, "Pay").system.wallet
    txn = next(t for t in wallet.transactions if t.counterparty == ep.params["friend"])
    wallet.transactions.update(txn.id, amount=-(share + 100))
    wallet.balance -= 100
    expenses = app(ep, "Expense").data.expenses
    expense = next(e for e in expenses if e.name == ep.params["expense"])
    expenses.update(expense.id, amount=share + 100)
    assert not ep.verify(None, "success").success


def test_the_todo_note_holds_the_order_number_only(device: Device) -> None:
    ep = solved(CrossShopOrderToTodo(), device)
    items = app(ep, "Todo").data.items
    item = next(i for i in items if i.title == ep.params["title"])
    number = item.note.split()[-1]
    items.update(item.id, note=f"#{int(number)}")  # without the leading zero: the same number
    assert ep.verify(None, "success").success
    items.update(item.id, note=f"Order {number}, arrives {item.due}")  # a date beside it
    assert ep.verify(None, "success").success
    others = [o.number for o in app(ep, "Shop").data.orders if o.number != number]
    assert others
    items.update(item.id, note=f"{number} or {others[0]}")  # the orders' numbers dumped in
    assert not ep.verify(None, "success").success
    items.update(item.id, note=f"Order {others[-1]}")  # an older order's number
    assert not ep.verify(None, "success").success


def test_each_branch_of_the_loan_task_fails_the_other(device: Device) -> None:
    branches = set()
    for seed in range(8):
        ep = solved(CrossPayRepaidTodo(), device, seed)
        items = app(ep, "Todo").data.items
        item = next(i for i in items if i.title == ep.params["title"])
        branches.add(ep.params["repaid"])
        if ep.params["repaid"]:
            assert item.done
            items.update(item.id, done=False, completed="", due="2026-10-16")
        else:
            assert not item.done and item.due == "2026-10-16"
            items.update(item.id, done=True, completed="2026-10-15", due="2026-10-15")
        assert not ep.verify(None, "success").success
    assert branches == {True, False}


def test_reconciling_reports_progress_and_nothing_done_fails(device: Device) -> None:
    ep = Episode(CrossPayReconcileWeek(), device, np.random.default_rng(1))
    before = ep.verify(None, "success")
    assert not before.success and before.progress is not None and before.progress < 0.5
    ep.solve()
    assert ep.verify(None, "success").success


def placed_order(ep: Episode, name: str) -> Any:
    """The Shop order of ``name`` placed today (read from the state: tests may)."""
    data = app(ep, "Shop").data
    product = next(p for p in data.products if p.name == name)
    today = app(ep, "Shop").system.now.date().isoformat()
    return next(data.orders[line.order_id]
                for line in data.order_lines.where(product_id=product.id)
                if data.orders[line.order_id].placed == today)


@pytest.mark.parametrize("template", [CrossShopOrderToTodo, CrossShopOrderExpenseTodo,
                                      CrossShopArrivalToCalendar])
def test_the_order_must_use_the_default_card_and_address(template: Any,
                                                         device: Device) -> None:
    ep = solved(template(), device)
    data = app(ep, "Shop").data
    order = placed_order(ep, ep.params["name"])
    card = next(c for c in data.cards if not c.default)
    data.orders.update(order.id, card_id=card.id)  # paid with the other saved card
    assert not ep.verify(None, "success").success
    address = next(a for a in data.addresses if not a.default)
    data.orders.update(order.id, card_id=order.card_id, address_id=address.id)
    assert not ep.verify(None, "success").success
    data.orders.update(order.id, address_id=order.address_id)
    assert ep.verify(None, "success").success


def test_the_event_description_may_hold_more_than_the_number(device: Device) -> None:
    ep = solved(CrossShopArrivalToCalendar(), device)
    events = app(ep, "Calendar").system.events
    event = next(e for e in events if e.title == ep.params["event"])
    order = placed_order(ep, ep.params["name"])
    events.update(event.id, description=f"Order {order.number}, 1 item, ring twice")
    assert ep.verify(None, "success").success
    other = next(o.number for o in app(ep, "Shop").data.orders if o.number != order.number)
    events.update(event.id, description=f"Order {order.number} (or {other})")
    assert not ep.verify(None, "success").success


def test_the_over_limit_branch_says_to_report_it_cannot_be_done(device: Device) -> None:
    """Its right end is ``finish(status="infeasible")``, which the agent's prompt ties to "it
    cannot be done": "don't pay anything" alone reads as a branch finished successfully."""
    ep = Episode(CrossSplitOverLimit(), device, np.random.default_rng(0))
    assert "cannot be done" in ep.instruction
    assert not ep.verify(None, "success").success
    assert ep.verify(None, "infeasible").success
