"""The Expense app (Pro Expense) driven through phone actions: the list and its total, an
expense's page, the editor with its categories and checks, deleting one expense or a
selection; and its tasks' checks."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest
from driving import act, fill, long_press, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.expense.app import (
    Expense,
    ExpenseApp,
    add_expense,
    money,
    parse_amount,
)
from phone_gym.mockapps.expense.fixtures import amount_text
from phone_gym.mockapps.expense.tasks import ExpenseDeleteDuplicates2, ExpenseDeleteSingle
from phone_gym.tasks.families import duplicate_fields
from phone_gym.tasks.task import Episode
from phone_gym.testing import check_app
from phone_gym.world import Device


def tracker(device: Device) -> ExpenseApp:
    app = device.apps["Expense"]
    assert isinstance(app, ExpenseApp)
    return app


def expenses(device: Device) -> list[Expense]:
    return list(tracker(device).data.expenses)


@pytest.fixture
def device() -> Device:
    """A phone with the tracker holding three expenses (ids 1..3), opened on its list."""
    dev = Device([ExpenseApp])
    data = tracker(dev).data
    add_expense(data, "Groceries", 4250, category="Food", note="Paid by card",
                date="2023-10-03")
    add_expense(data, "Bus pass", 3000, category="Transportation", date="2023-10-10")
    add_expense(data, "Dentist", 12000, category="Health Care", date="2023-10-01")
    dev.invalidate()
    act(dev, PhoneAction("open_app", app="Expense"))
    return dev


def test_amounts() -> None:
    assert money(123456) == "$1,234.56" and money(5) == "$0.05"
    assert parse_amount("12.5") == 1250 and parse_amount("$1,234.56") == 123456
    assert parse_amount("0") is None and parse_amount("abc") is None
    assert amount_text(12000) == "$120" and amount_text(12050) == "$120.50"


def test_list_is_newest_first_with_total(device: Device) -> None:
    items = [p.node for p in device.frame().items if p.node.kind == "list_item"]
    assert [n.text for n in items] == ["Bus pass", "Groceries", "Dentist"]
    assert items[1].hint == "$42.50 · Food · Oct 3, 2023"
    assert shown(device, "Total: $192.50")


def test_the_list_is_the_drawers_expense_logs(device: Device) -> None:
    assert shown(device, "Expense Logs", kind="top_bar")
    tap(device, desc="Open navigation drawer")
    assert shown(device, "Pro Expense", id="drawer_header")
    tap(device, id="nav_expense_logs")
    assert not shown(device, id="navigation_drawer") and shown(device, "Total: $192.50")


def test_expense_page(device: Device) -> None:
    tap(device, "Groceries", kind="list_item")
    assert shown(device, "$42.50", id="amount") and shown(device, "Paid by card", id="note")
    press(device, "back")
    assert shown(device, "Expense Logs", kind="top_bar")


def test_add_an_expense_with_a_category(device: Device) -> None:
    tap(device, id="new_expense")
    tap(device, "Entertainment", kind="chip")
    fill(device, "name", "Concert")
    fill(device, "amount", "75.20")
    fill(device, "note", "With friends")
    tap(device, id="save")
    added = expenses(device)[-1]
    assert (added.name, added.amount, added.category, added.note, added.date) == (
        "Concert", 7520, "Entertainment", "With friends",
        device.system.now.date().isoformat())  # today


def test_editor_checks_amount_and_date(device: Device) -> None:
    tap(device, id="new_expense")
    fill(device, "name", "Taxi")
    fill(device, "amount", "0")
    tap(device, id="save")
    assert shown(device, "Enter an amount above zero")
    assert len(expenses(device)) == 3


def test_the_date_is_picked_in_a_month_grid_or_typed(device: Device) -> None:
    today = device.system.now.date()
    tap(device, id="new_expense")
    fill(device, "name", "Taxi")
    fill(device, "amount", "12")
    assert shown(device, today.isoformat(), id="date_value")
    tap(device, id="date")
    tap(device, id="month_navigation_previous")
    first = today.replace(day=1) - timedelta(days=1)  # the last day of last month
    tap(device, id=f"day_{first.isoformat()}")
    tap(device, id="confirm_button")
    assert shown(device, first.isoformat(), id="date_value")
    tap(device, id="date")  # typed: a bad date is refused, the picker stays
    tap(device, id="mtrl_picker_header_toggle")
    fill(device, "mtrl_picker_text_input_date", "13/45/2023")
    tap(device, id="confirm_button")
    assert shown(device, id="mtrl_picker_error")
    fill(device, "mtrl_picker_text_input_date", "10/03/2023")
    tap(device, id="confirm_button")
    assert shown(device, "2023-10-03", id="date_value")
    tap(device, id="save")
    assert [e.date for e in expenses(device) if e.name == "Taxi"] == ["2023-10-03"]


def test_edit_an_expense(device: Device) -> None:
    tap(device, "Bus pass", kind="list_item")
    tap(device, id="edit")
    fill(device, "amount", "35")
    tap(device, id="save")
    assert tracker(device).data.expenses.get(2).amount == 3500  # type: ignore[union-attr]


def test_delete_from_the_page(device: Device) -> None:
    tap(device, "Dentist", kind="list_item")
    tap(device, id="delete")
    tap(device, id="button_delete")
    assert [e.name for e in expenses(device)] == ["Groceries", "Bus pass"]


def test_select_several_and_delete_them(device: Device) -> None:
    long_press(device, "Bus pass", kind="list_item")
    tap(device, "Dentist", kind="list_item")
    tap(device, "Dentist", kind="list_item")  # a second tap unselects
    tap(device, "Groceries", kind="list_item")
    assert shown(device, "2 selected")
    tap(device, id="delete_selected")
    tap(device, id="button_delete")
    assert [e.name for e in expenses(device)] == ["Dentist"]


def test_plain_delete_task_seeds_decoys() -> None:
    dev = Device([ExpenseApp])
    ep = Episode(ExpenseDeleteSingle(), dev, np.random.default_rng(0))
    names = [e.name for e in expenses(dev)]
    assert names.count(ep.params["names"][0]) == 1 and len(names) == 4


def test_near_duplicates_differ_from_the_pair() -> None:
    dev = Device([ExpenseApp])
    ep = Episode(ExpenseDeleteDuplicates2(), dev, np.random.default_rng(1))
    twin = duplicate_fields(ep.initial, "apps.Expense.expenses", ExpenseDeleteDuplicates2.keys)
    same_name = [e for e in expenses(dev) if e.name == twin["name"]]
    assert len(same_name) == 5 and len(expenses(dev)) == 42
    assert sorted(e.amount for e in same_name)[:2] == [twin["amount"]] * 2


def test_check_app() -> None:
    report = check_app(ExpenseApp, 3000)
    assert report.steps == 3000
