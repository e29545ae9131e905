"""Expense: an expense tracker (modelled on Pro Expense, the tracker AndroidWorld uses).

Expenses live in the app's own database (a ``Table`` of frozen ``Expense`` records, snapshot
path ``apps.Expense.expenses``; amounts in cents). The screens are the kit's record app
(``kit.records.RecordApp``): the expense list (newest date first, with the total; a long
press starts selecting several expenses, which a top bar action deletes after a
confirmation; titled "Expense Logs", the navigation drawer's one destination modelled), an
expense's page (edit, delete with a confirmation) and the editor (name, amount, note, date,
and the category picked among chips). This module declares what is the tracker's own: the
record, money and dates, the fields, the order, the row.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from ...world.data import Store, Table
from ...world.data import total as total_of
from ...world.kit.records import RecordApp, RecordField, RecordLook, RecordView
from ...world.locale import DEFAULT_LOCALE, format_date, format_money
from ...world.system import SystemState
from ...world.widgets import Node
from .manifest import MANIFEST

#: Pro Expense's categories (AndroidWorld's expense tasks draw from these eleven).
CATEGORIES = ("Others", "Income", "Food", "Housing", "Social", "Entertainment",
              "Transportation", "Clothes", "Health Care", "Education", "Donation")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Expense:
    """One expense (a database row); ``amount`` in cents, ``date`` an ISO day."""

    id: int
    name: str
    amount: int
    category: str = "Others"
    note: str = ""
    date: str = ""


@dataclass
class ExpenseData(Store):
    """What the app stores (verifiers compare ``apps.Expense.expenses.<id>``)."""

    expenses: Table[Expense] = field(default_factory=lambda: Table(kind=Expense))


def add_expense(data: ExpenseData, name: str, amount: int, **values: object) -> Expense:
    return data.expenses.new(name=name, amount=amount, **values)


# --- values --------------------------------------------------------------------------------
def money(cents: int) -> str:
    """``$1,234.50``."""
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def parse_amount(text: str) -> int | None:
    """Cents from ``12``, ``12.5``, ``$1,234.56``; None when it is not a positive amount."""
    try:
        value = float(text.strip().lstrip("$").replace(",", ""))
    except ValueError:
        return None
    cents = round(value * 100)
    return cents if 0 < cents < 10**11 else None


def parse_day(text: str) -> str | None:
    """The ISO day ``text`` names (``2023-10-05``), or None."""
    try:
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        return None


def short_date(iso: str) -> str:
    """``Oct 5, 2023`` (the text itself when it is not an ISO day)."""
    day = parse_day(iso)
    if day is None:
        return iso
    d = date.fromisoformat(day)
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"


def today(system: SystemState) -> str:
    return system.now.date().isoformat()


def check_values(values: Mapping[str, str]) -> dict[str, str]:
    """The editor's own checks: a positive amount and an ISO date."""
    errors: dict[str, str] = {}
    if values.get("amount", "").strip() and parse_amount(values["amount"]) is None:
        errors["amount"] = "Enter an amount above zero"
    if parse_day(values.get("date", "")) is None:
        errors["date"] = "Use a date like 2023-10-15"
    return errors


# --- the look ------------------------------------------------------------------------------
#: The editor's fields, in order (the category last, as chips under a caption).
FIELDS = (
    RecordField("name", "Name", required=True),
    RecordField("amount", "Amount", "number", required=True, shown=money,
                text=lambda cents: f"{cents / 100:.2f}",
                parse=lambda text: parse_amount(text) or 0),
    RecordField("note", "Note"),
    RecordField("date", "Date", "date", default=today, shown=short_date,
                parse=lambda text: parse_day(text) or text.strip()),  # checked: a day
    RecordField("category", "Category", "chips", choices=CATEGORIES, id="categories",
                default="Others", parse=lambda text: text or "Others"),
)


def list_order(e: Expense) -> tuple[int, int]:
    """Newest date first, then newest entry first."""
    return (-_day_number(e.date), -e.id)


@functools.lru_cache(maxsize=1024)
def _day_number(text: str) -> int:
    """The ordinal of the day ``text`` names (0: none); a list's expenses share a few days."""
    day = parse_day(text)
    return date.fromisoformat(day).toordinal() if day else 0


def total(shown: Sequence[Expense]) -> str:
    """The list's total (kept on write for the whole list, not summed every frame)."""
    return f"Total: {money(total_of(shown, 'amount'))}"


LOOK = RecordLook(noun="expense", table="expenses", title="Pro Expense", fields=FIELDS,
                  order=list_order, page=("amount", "category", "note", "date"),
                  glyph=lambda e: e.category[:1], parts=("amount", "category", "date"),
                  total=total, validate=check_values,
                  # the drawer's "Expense Logs" (its Home dashboard, Statistics, Backup and
                  # Settings are not modelled)
                  views=(RecordView("Expense Logs", "receipt_long"),))


class ExpenseApp(RecordApp):
    manifest = MANIFEST
    look = LOOK

    data: ExpenseData

    def initial_data(self) -> ExpenseData:
        return ExpenseData()

    def value_text(self, f: RecordField, value: object) -> str:
        """Amounts and days as the phone's locale writes them (¥12.50, 2023年10月5日)."""
        locale = self.system.locale
        if locale == DEFAULT_LOCALE:
            return f.shown(value)
        if f.key == "amount" and isinstance(value, int):
            return format_money(value, locale)
        if f.key == "category" and value in CATEGORIES:
            return self.t(str(value))
        day = parse_day(str(value)) if f.key == "date" else None
        if day is not None:
            return format_date(date.fromisoformat(day), locale)
        return f.shown(value)

    def record_row(self, r: Expense) -> Node:
        item = super().record_row(r)
        if self.system.locale != DEFAULT_LOCALE and not self.ui.selected \
                and r.category in CATEGORIES:
            item.glyph = self.t(r.category)[:1]  # the category's first character: 餐
        return item

    def total_text(self, shown: Sequence[Expense]) -> str:
        if self.system.locale == DEFAULT_LOCALE:
            return total(shown)
        return self.t("Total: {amount}",
                      amount=format_money(sum(e.amount for e in shown), self.system.locale))
