"""Expense tasks: AndroidWorld's Pro Expense tasks (adding expenses given in the instruction,
deleting named ones, and one of a duplicate pair).

Unlike AndroidWorld, the plain delete tasks seed expenses that must survive (deleting
everything fails), and the duplicate tasks find the duplicated expense in the initial state
rather than in the params. ``enter_expense`` is the oracle step that later tasks (expenses
read from a gallery image or a text file) reuse.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver
from ...tasks.families import (
    CreateRecords,
    DeleteOneDuplicate,
    DeleteRecord,
    delete_listed,
    delete_selected,
    in_list_order,
    listing,
    one_of,
    parse_listing,
    quoted,
    records_shown,
    select_shown,
)
from ...tasks.task import Task, localize_data
from ...tasks.vocab import pick
from ...verifiers import same_text
from .fixtures import (
    COLLECTION,
    DATA,
    all_names,
    amount_text,
    expense_app,
    sample_expense,
    sample_expenses,
    write_expenses,
)

KEYS = ("name", "amount", "category", "note")
LABELS = {"name": "Name", "amount": "Amount", "category": "Category", "note": "Note"}


# --- oracle steps ------------------------------------------------------------------------------
def enter_expense(ui: Driver, expense: Mapping[str, Any]) -> Iterator[PhoneAction]:
    """From the expense list: open the editor, pick ``expense``'s category, fill in its
    name, amount (cents) and note, and save (back on the list)."""
    yield from ui.tap(id="new_expense")
    if expense.get("category") and expense["category"] != "Others":
        yield from ui.tap(str(expense["category"]), kind="chip")
    yield from ui.fill("name", str(expense["name"]))
    yield from ui.fill("amount", f"{int(expense['amount']) / 100:.2f}")
    if expense.get("note"):
        yield from ui.fill("note", str(expense["note"]))
    yield from ui.tap(id="save")


def cents_of(text: str) -> int:
    """Cents from an amount as written (``$1,234.50``)."""
    return round(float(text.strip().lstrip("$").replace(",", "")) * 100)


def delete_expense_ids(ui: Driver, ids: Sequence[int]) -> Iterator[PhoneAction]:
    """From the expense list: delete the expenses ``ids`` in the order the list shows them
    (``families.delete_listed``)."""
    yield from delete_listed(ui, "expense", in_list_order(expense_app(ui.state).shown(), ids))


def listing_row(expense: Mapping[str, Any]) -> dict[str, str]:
    """An expense as the instruction writes it."""
    return {"name": expense["name"], "amount": amount_text(int(expense["amount"])),
            "category": expense["category"], "note": expense["note"]}


# --- adding expenses ---------------------------------------------------------------------------
class AddExpenses(CreateRecords):
    """Enter ``count`` expenses given in the instruction (as CSV or as labelled blocks)
    into the tracker, which holds 10 other expenses. The day is not checked (AndroidWorld
    does not give it either)."""

    apps, collection = ("Expense",), COLLECTION
    start = AW_START
    count: ClassVar[int] = 1
    noise: ClassVar[int] = 10

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        expenses = sample_expenses(rng, self.count)
        fmt, text = listing(rng, [listing_row(e) for e in expenses], KEYS, LABELS)
        return {"expenses": expenses, "format": fmt, "listing": text}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        names = [e["name"] for e in params["expenses"]]
        write_expenses(state, sample_expenses(rng, self.noise, avoid_names=names))

    def records(self, params: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        return [{"name": same_text(e["name"]), "amount": e["amount"],
                 "category": e["category"], "note": same_text(e["note"])}
                for e in params["expenses"]]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why("Opening Pro Expense to enter the expenses the task lists")
        yield from ui.open_app("Expense")
        listed = parse_listing(p["listing"], LABELS)
        for i, row in enumerate(listed, 1):
            ui.why(f"The task lists {len(listed)} expense(s); entering #{i}, {row['name']}: "
                   f"{row['amount']}, {row['category']}")
            yield from enter_expense(ui, {**row, "amount": cents_of(row["amount"])})
        ui.why("Every listed expense is entered")
        yield from ui.finish()


class ExpenseAddSingle(AddExpenses):
    template = "Add this expense to Pro Expense:\n{listing}"
    complexity, max_steps = 1, 12


class ExpenseAddMultiple(AddExpenses):
    tags = frozenset({"long_horizon"})
    template = "Add these three expenses to Pro Expense:\n{listing}"
    complexity, max_steps = 5, 60
    count = 3


class ExpenseZh(Task):
    """An Expense template that runs in zh-CN too: the names and notes it seeds in Chinese
    (``strings/zh-CN.data.json``), the names the instruction quotes as “修自行车”. Subclasses
    elsewhere run in en-US unless they declare their locales."""

    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    data = DATA

    locales_stay_home = True

    def localize_params(self, params: dict[str, Any], table: Mapping[str, str]
                        ) -> dict[str, Any]:
        p: dict[str, Any] = localize_data(params, table)
        if "names" in p:
            p["listed"] = "、".join(f"“{n}”" for n in p["names"])
        return p


# --- deleting expenses -------------------------------------------------------------------------
class DeleteExpenses(DeleteRecord):
    """Delete the expenses named ``names`` among ``decoys`` others (AndroidWorld seeds
    none in the plain variants, so deleting every expense passed there: here it fails)."""

    apps, collection = ("Expense",), COLLECTION
    start = AW_START
    count: ClassVar[int] = 1
    decoys: ClassVar[int] = 3

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        pairs = pick(rng, all_names(), self.count)
        return {"names": [n for n, _ in pairs], "categories": [c for _, c in pairs],
                "listed": quoted([n for n, _ in pairs])}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        targets = [sample_expense(rng, name=n, category=c)
                   for n, c in zip(params["names"], params["categories"], strict=True)]
        others = sample_expenses(rng, self.decoys, avoid_names=params["names"])
        write_expenses(state, [*targets, *others], rng)

    def target(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": one_of(params["names"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        names = set(p["names"])
        ui.why(f"Opening Pro Expense to delete {p['listed']}")
        yield from ui.open_app("Expense")
        ui.why(f"Looking down the expense list for {p['listed']}")
        ids = yield from select_shown(ui, "expense", lambda _, row: row.get("name") in names,
                                      len(names))
        ui.why(f"Found {len(ids)} of the {len(names)} expenses named: deleting "
               + ("it" if len(ids) == 1 else "the selection"))
        yield from delete_selected(ui, "expense", ids)
        ui.why("The named expenses are deleted; the others stay")
        yield from ui.finish()


class ExpenseDeleteSingle(ExpenseZh, DeleteExpenses):
    template = "Delete the expense {listed} from Pro Expense."
    instructions = {"zh-CN": "在记账里删除支出{listed}。"}
    complexity, max_steps = 1, 10


class ExpenseDeleteMultiple(ExpenseZh, DeleteExpenses):
    template = "Delete the expenses {listed} from Pro Expense."
    instructions = {"zh-CN": "在记账里删除这几笔支出：{listed}。"}
    complexity, max_steps = 2, 20
    count = 3


class ExpenseDeleteMultiple2(ExpenseZh, DeleteExpenses):
    template = "In Pro Expense, delete these expenses: {listed}."
    instructions = {"zh-CN": "打开记账，把{listed}这几笔支出删掉。"}
    complexity, max_steps = 3, 34
    count, decoys = 3, 50


# --- duplicates --------------------------------------------------------------------------------
class DeleteDuplicateExpense(DeleteOneDuplicate):
    """One expense is in the tracker twice: delete one copy. ``decoys`` other expenses, and
    ``variants`` near duplicates (same name, another amount and day) that must stay."""

    template = "An expense was entered twice in Pro Expense. Delete the extra copy."
    apps, collection = ("Expense",), COLLECTION
    keys = ("name", "amount", "category", "note", "date")
    start = AW_START
    decoys: ClassVar[int] = 5
    variants: ClassVar[int] = 0

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        twin = sample_expense(rng)
        near = []
        for extra in pick(rng, range(50, 1000), self.variants):  # distinct amounts
            variant = sample_expense(rng, name=twin["name"], category=twin["category"])
            variant["amount"] = twin["amount"] + int(extra)
            near.append(variant)
        others = sample_expenses(rng, self.decoys, avoid_names=[twin["name"]])
        write_expenses(state, [twin, dict(twin), *near, *others], rng)

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why("Opening Pro Expense to look for an expense listed twice")
        yield from ui.open_app("Expense")
        seen: dict[tuple[str, ...], int] = {}  # a row's look: the id of its first row

        def second(record: int, row: Mapping[str, str]) -> bool:
            """Whether ``row`` repeats another seen higher up the list (name, amount,
            category and day)."""
            sig = tuple(row.get(k, "") for k in ("name", "amount", "category", "date"))
            return seen.setdefault(sig, record) != record

        ui.why("Reading the list's rows (name, amount, category, day) for two alike")
        twin = yield from select_shown(ui, "expense", second, 1)
        if twin:
            row = records_shown(ui, "expense").get(twin[0], {})
            ui.why(f"\"{row.get('name', '')}\", {row.get('amount', '')} on "
                   f"{row.get('date', '')}, is listed twice: deleting this copy")
        yield from delete_selected(ui, "expense", twin)
        ui.why("One copy is left; every other entry stays")
        yield from ui.finish()


class ExpenseDeleteDuplicates(ExpenseZh, DeleteDuplicateExpense):
    complexity, max_steps = 1, 12
    instructions = {"zh-CN": "记账里有一笔支出记了两次，把多出来的那一笔删掉。"}


class ExpenseDeleteDuplicates2(ExpenseZh, DeleteDuplicateExpense):
    template = ("Pro Expense lists one expense twice by mistake. Remove the duplicate, "
                "keeping every other entry.")
    instructions = {"zh-CN": "记账里误把一笔支出记了两遍。删掉重复的那一笔，其他记录都保留。"}
    complexity, max_steps = 2, 18
    decoys, variants = 37, 3


TEMPLATES: list[Task] = [
    ExpenseAddSingle(), ExpenseAddMultiple(), ExpenseDeleteSingle(), ExpenseDeleteMultiple(),
    ExpenseDeleteMultiple2(), ExpenseDeleteDuplicates(), ExpenseDeleteDuplicates2(),
]

__all__ = ["TEMPLATES", "delete_expense_ids", "enter_expense"]
