"""Expense: an expense tracker (modelled on Pro Expense, the tracker AndroidWorld uses).

Expenses live in the app's own database (a ``Table`` of frozen ``Expense`` records, snapshot
path ``apps.Expense.expenses``; amounts in cents). Screens: the expense list (newest date
first, with the total; a long press starts selecting several expenses, which a top bar action
deletes after a confirmation), an expense's page (edit, delete with a confirmation) and the
editor (``kit.FormEditor``: name, amount, note, date, and the category picked among chips).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import (
    ActionIcon,
    Chips,
    ConfirmDialog,
    Detail,
    DetailPage,
    FormEditor,
    FormField,
    FormState,
)
from ...world.widgets import Fab, Icon, ListItem, Node, Screen, Text, TopBar, VirtualList
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


@dataclass
class ExpenseUi:
    """Transient state: the selected expenses (selection mode while any is selected), the
    expenses whose deletion awaits confirmation, and the editor's form."""

    selected: frozenset[int] = frozenset()
    deleting: tuple[int, ...] = ()
    form: FormState = field(default_factory=FormState)
    opened: int = 0  # editors opened: each new-expense editor is a route of its own


# --- values and updates --------------------------------------------------------------------
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


def add_expense(data: ExpenseData, name: str, amount: int, **values: object) -> Expense:
    return data.expenses.new(name=name, amount=amount, **values)


def save_expense(data: ExpenseData, values: Mapping[str, str], expense_id: int | None,
                 today: str) -> int:
    """Store the editor's (valid) ``values`` as a new expense or into one; its id."""
    row = {"name": values.get("name", "").strip(),
           "amount": parse_amount(values.get("amount", "")) or 0,
           "category": values.get("category", "") or "Others",
           "note": values.get("note", "").strip(),
           "date": parse_day(values.get("date", "")) or today}
    expense = data.expenses.get(expense_id) if expense_id is not None else None
    if expense is None:
        return data.expenses.new(**row).id
    if any(getattr(expense, k) != v for k, v in row.items()):
        data.expenses.update(expense.id, **row)
    return expense.id


def delete_expenses(data: ExpenseData, ids: Sequence[int]) -> int:
    """Delete the expenses ``ids`` that exist; how many were deleted."""
    gone = 0
    for expense_id in ids:
        if data.expenses.get(expense_id) is not None:
            data.expenses.remove(expense_id)
            gone += 1
    return gone


def list_order(e: Expense) -> tuple[int, int]:
    """Newest date first, then newest entry first."""
    day = parse_day(e.date)
    return (-date.fromisoformat(day).toordinal() if day else 0, -e.id)


def check_values(values: Mapping[str, str]) -> dict[str, str]:
    """The editor's own checks: a positive amount and an ISO date."""
    errors: dict[str, str] = {}
    if values.get("amount", "").strip() and parse_amount(values["amount"]) is None:
        errors["amount"] = "Enter an amount above zero"
    if parse_day(values.get("date", "")) is None:
        errors["date"] = "Use a date like 2023-10-15"
    return errors


# --- the app -------------------------------------------------------------------------------
class ExpenseApp(App):
    manifest = MANIFEST

    data: ExpenseData
    ui: ExpenseUi

    def initial_data(self) -> ExpenseData:
        return ExpenseData()

    def initial_ui(self) -> ExpenseUi:
        return ExpenseUi()

    def make_indexes(self) -> None:
        self.shown()

    def shown(self) -> Sequence[Expense]:
        """The expenses the list shows, in order."""
        expenses = self.data.expenses
        return expenses.index("list_order", list_order).view(expenses)

    def today(self) -> str:
        return self.system.now.date().isoformat()

    # handlers
    def open_expense(self, expense_id: int) -> None:
        if self.ui.selected:
            self.toggle_selected(expense_id)
        elif self.data.expenses.get(expense_id) is not None:
            self.go("expense", expense_id)

    def open_editor(self, expense_id: int | None) -> None:
        e = self.data.expenses.get(expense_id) if expense_id is not None else None
        if e is None:
            values = {"name": "", "amount": "", "note": "", "date": self.today(),
                      "category": "Others"}
        else:
            values = {"name": e.name, "amount": f"{e.amount / 100:.2f}", "note": e.note,
                      "date": e.date, "category": e.category}
        self.ui.form = FormState.of(values)
        self.ui.opened += 1
        # a new expense's editor opens at its top (the phone keeps a scroll per route)
        self.go("edit", expense_id if expense_id is not None else ("new", self.ui.opened))

    def editing(self) -> int | None:
        """The id of the expense the editor shows (None: a new expense)."""
        arg = self.route.arg
        return arg if isinstance(arg, int) else None

    def save(self, values: Mapping[str, str]) -> None:
        values = {**values, "category": self.ui.form.get("category")}
        save_expense(self.data, values, self.editing(), self.today())
        self.toast("Expense saved")
        self.back()

    def pick_category(self, category: str) -> None:
        self.ui.form.values["category"] = category

    def toggle_selected(self, expense_id: int) -> None:
        selected = set(self.ui.selected)
        selected.symmetric_difference_update({expense_id})
        self.ui.selected = frozenset(selected)

    def clear_selection(self) -> bool:
        self.ui.selected = frozenset()
        return True

    def ask_delete(self, ids: Sequence[int]) -> None:
        """Show (or, with no ids, hide) the delete confirmation."""
        self.ui.deleting = tuple(ids)

    def confirm_delete(self) -> None:
        gone = delete_expenses(self.data, self.ui.deleting)
        self.ui.deleting, self.ui.selected = (), frozenset()
        if self.route.name == "expense":
            self.back()
        self.toast("Expense deleted" if gone == 1 else f"{gone} expenses deleted")

    # views
    def view(self, route: Route) -> Screen:
        if route.name == "expense":
            expense = self.data.expenses.get(route.arg)
            if expense is not None:
                return self.expense_page(expense)
        if route.name == "edit":
            return self.editor(self.editing())
        return self.expense_list()

    def delete_dialog(self) -> Node | None:
        n = len(self.ui.deleting)
        if not n:
            return None
        title = "Delete expense?" if n == 1 else f"Delete {n} expenses?"
        return ConfirmDialog(title, "This cannot be undone.", confirm="Delete",
                             destructive=True, on_confirm=self.confirm_delete,
                             on_cancel=lambda: self.ask_delete(()))

    def expense_item(self, e: Expense) -> Node:
        selecting = bool(self.ui.selected)
        glyph = ("☑" if e.id in self.ui.selected else "☐") if selecting else e.category[:1]
        item = ListItem(e.name or "Untitled", id=f"expense_{e.id}", glyph=glyph,
                        parts=[(f"amount_{e.id}", money(e.amount)),
                               (f"category_{e.id}", e.category),
                               (f"date_{e.id}", short_date(e.date))],
                        on_click=lambda: self.open_expense(e.id),
                        on_long_click=lambda: self.toggle_selected(e.id))
        item.checked = e.id in self.ui.selected
        return item

    def expense_list(self) -> Screen:
        ui = self.ui
        shown = self.shown()
        total = sum(e.amount for e in shown)
        content: list[Node] = [
            Text(f"Total: {money(total)}", style="title", id="total"),
            VirtualList(len(shown), lambda i: self.expense_item(shown[i]), id="expenses",
                        empty_text="No expenses yet"),
        ]
        if ui.selected:
            ids = sorted(ui.selected)
            bar = TopBar(f"{len(ids)} selected", on_back=self.clear_selection, actions=[
                Icon("🗑", "Delete selected", lambda: self.ask_delete(ids),
                     id="delete_selected")])
            return Screen(top_bar=bar, content=content, dialog=self.delete_dialog(),
                          on_dismiss=lambda: self.ask_delete(()), on_back=self.clear_selection)
        return Screen(top_bar=TopBar("Pro Expense"), content=content,
                      fab=Fab("+", "Add expense", lambda: self.open_editor(None),
                              id="new_expense"),
                      dialog=self.delete_dialog(), on_dismiss=lambda: self.ask_delete(()))

    def expense_page(self, e: Expense) -> Screen:
        fields = [Detail("Amount", money(e.amount), id="amount"),
                  Detail("Category", e.category, id="category"),
                  Detail("Note", e.note, id="note"),
                  Detail("Date", short_date(e.date), id="date")]
        actions = [ActionIcon("edit", lambda: self.open_editor(e.id)),
                   ActionIcon("delete", lambda: self.ask_delete((e.id,)))]
        return DetailPage(e.name or "Untitled", fields, heading=e.name, on_back=self.back,
                          actions=actions, dialog=self.delete_dialog(),
                          on_dismiss=lambda: self.ask_delete(()))

    def editor(self, expense_id: int | None) -> Screen:
        form = self.ui.form
        fields = [FormField("name", "Name", required=True),
                  FormField("amount", "Amount", "number", required=True),
                  FormField("note", "Note"),
                  FormField("date", "Date", hint="YYYY-MM-DD")]
        footer = [Text("Category", style="caption", id="category_label"),
                  Chips(CATEGORIES, {form.get("category")}, self.pick_category,
                        id="categories")]
        return FormEditor("New expense" if expense_id is None else "Edit expense", fields,
                          form, on_save=self.save, on_close=self.back, validate=check_values,
                          footer=footer)
