"""Public fixtures of Expense: expense vocabulary, sampling expenses, and seeding them (what
other apps' tasks, e.g. expenses read from a gallery image or a text file, may reuse).

An expense is sampled as AndroidWorld samples its expenses: a name from its category's
list, an amount of $10 to $500, a note from a few phrases and a day of October 1-15 2023.
The words are phone-gym's own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from datetime import date, datetime, timedelta
from functools import cache
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.pickers import pick_date
from ...tasks.task import data_catalogue, localize_datum
from ...tasks.vocab import Draws, pick
from ...verifiers.state import DeviceState
from ...world.app import app_strings
from ...world.locale import DEFAULT_LOCALE
from .app import CATEGORIES, Expense, ExpenseApp, add_expense, money

COLLECTION = "apps.Expense.expenses"

NAMES: dict[str, tuple[str, ...]] = {
    "Others": ("Post office fees", "Key copies", "Dry cleaning", "Phone case", "Umbrella",
               "Passport photos"),
    "Income": ("Freelance refund", "Cashback correction", "Deposit return", "Lottery ticket",
               "Garage sale float", "Bank fee"),
    "Food": ("Groceries", "Pizza night", "Farmers market", "Bakery", "Sushi lunch",
             "Coffee beans"),
    "Housing": ("Rent share", "Plumber visit", "New curtains", "Light bulbs", "Paint",
                "Smoke detector"),
    "Social": ("Birthday gift", "Team dinner", "Wedding present", "Club fees",
               "Housewarming wine", "Farewell cake"),
    "Entertainment": ("Movie tickets", "Concert", "Streaming plan", "Board game",
                      "Museum entry", "Bowling"),
    "Transportation": ("Bus pass", "Taxi ride", "Fuel", "Train ticket", "Bike repair",
                       "Parking"),
    "Clothes": ("Running shoes", "Winter jacket", "Jeans", "Raincoat", "Wool socks",
                "Sun hat"),
    "Health Care": ("Pharmacy", "Dentist", "Eye exam", "Vitamins", "Physiotherapy",
                    "First aid kit"),
    "Education": ("Online course", "Textbooks", "Language class", "Exam fee",
                  "Coding workshop", "Notebooks"),
    "Donation": ("Food bank", "Animal shelter", "Charity run", "Library fund",
                 "Beach cleanup", "School fundraiser"),
}
NOTES = ("Paid by card", "Split with a friend", "Monthly expense", "Needed urgently",
         "Bought on sale", "Planned last week", "Paid in cash")
FIRST_DAY = date(2023, 10, 1)
#: The seeded data in zh-CN (``strings/zh-CN.data.json``: the names and notes, 买菜, 刷卡支付).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def datum(state: DeviceState, text: str) -> str:
    """A seeded name or note in the phone's locale (itself in en-US, and where the catalogue
    has no entry: a text the task gave already localized)."""
    locale = getattr(state, "locale", DEFAULT_LOCALE)
    return text if locale == DEFAULT_LOCALE else localize_datum(text, DATA.get(locale, {}))


def forms_of(names: Iterable[str]) -> set[str]:
    """``names`` and their forms in the other locales (what ``avoid_names`` excludes)."""
    out = set(names)
    return out | {table[n] for table in DATA.values() for n in out if n in table}


def sample_expense(rng: np.random.Generator, *, name: str | None = None,
                   category: str | None = None) -> dict[str, Any]:
    """An expense's fields (``amount`` in cents, whole dollars or with cents)."""
    category = category or str(pick(rng, CATEGORIES))
    dollars = int(rng.integers(10, 501))
    cents = int(pick(rng, (0, 0, 25, 50, 99, int(rng.integers(1, 100)))))
    amount = min(dollars * 100 + cents, 50000)
    return {"name": name or str(pick(rng, NAMES[category])), "amount": amount,
            "category": category, "note": str(pick(rng, NOTES)),
            "date": (FIRST_DAY + timedelta(days=int(rng.integers(15)))).isoformat()}


def all_names() -> list[tuple[str, str]]:
    """Every (name, category) pair."""
    return [(n, c) for c, names in NAMES.items() for n in names]


def sample_expenses(rng: np.random.Generator, k: int, *,
                    avoid_names: Iterable[str] = ()) -> list[dict[str, Any]]:
    """``k`` expenses with different names, none in ``avoid_names``."""
    avoid = set(avoid_names)
    pairs = pick(rng, [p for p in all_names() if not forms_of([p[0]]) & avoid], k)
    return [sample_expense(rng, name=n, category=c) for n, c in pairs]


def noise_expenses(rng: np.random.Generator, k: int, *,
                   avoid_names: Iterable[str] = ()) -> list[dict[str, Any]]:
    """``k`` different expenses whose names may repeat (as AndroidWorld's noise rows: more
    rows than names), none named in ``avoid_names``. Each is ``sample_expense``'s six draws
    after the name's, fetched in bulk (``vocab.Draws``: the same numbers and generator
    state)."""
    avoid = set(avoid_names)
    pairs = [(n, c) for n, c, forms in _name_forms() if not forms & avoid]
    out: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    notes, days, n_pairs, n_notes = NOTES, _DAYS, len(pairs), len(NOTES)
    with Draws(rng) as draw:
        below = draw.below
        draw.reserve(6 * k)  # six words an expense, more for a repeat
        while len(out) < k:
            name, category = pairs[below(n_pairs)]
            dollars = 10 + below(491)  # sample_expense's draws, in its order
            odd = 1 + below(99)
            cents = (0, 0, 25, 50, 99, odd)[below(6)]
            key = (name, min(dollars * 100 + cents, 50000), category, notes[below(n_notes)],
                   days[below(15)])
            if key not in seen:
                seen.add(key)
                out.append(dict(zip(_EXPENSE_KEYS, key, strict=True)))
    return out


#: ``sample_expense``'s keys, in its order; the days ``sample_expense`` may draw, ISO.
_EXPENSE_KEYS = ("name", "amount", "category", "note", "date")
_DAYS = tuple((FIRST_DAY + timedelta(days=d)).isoformat() for d in range(15))


@cache
def _name_forms() -> tuple[tuple[str, str, frozenset[str]], ...]:
    """Every (name, category) pair with the name's forms (``forms_of``), made once."""
    return tuple((n, c, frozenset(forms_of([n]))) for n, c in all_names())


def amount_text(cents: int) -> str:
    """How an instruction writes an amount: ``$123.45`` (``$120`` for whole dollars)."""
    text = money(cents)
    return text[:-3] if text.endswith(".00") else text


def expense_app(state: DeviceState) -> ExpenseApp:
    app = state.app("Expense")  # type: ignore[attr-defined]
    assert isinstance(app, ExpenseApp)
    return app


def write_expense(state: DeviceState, expense: Mapping[str, Any]) -> Expense:
    """Add an expense (its fields as ``sample_expense`` gives them) to the app's database."""
    values = {k: expense[k] for k in ("category", "note", "date") if k in expense}
    if "note" in values:
        values["note"] = datum(state, str(values["note"]))
    return add_expense(expense_app(state).data, datum(state, str(expense["name"])),
                       int(expense["amount"]), **values)


def write_expenses(state: DeviceState, expenses: Iterable[Mapping[str, Any]],
                   rng: np.random.Generator | None = None) -> None:
    """Add ``expenses`` (shuffled by ``rng`` when given), as ``write_expense`` each, in one
    write of the table (``Table.extend``)."""
    rows = list(expenses)
    if rng is not None:
        rows = [rows[i] for i in rng.permutation(len(rows))]
    table = expense_app(state).data.expenses
    local = getattr(state, "locale", DEFAULT_LOCALE) != DEFAULT_LOCALE
    records = []
    for i, expense in enumerate(rows, table.next_id):
        if local or not ("category" in expense and "note" in expense and "date" in expense):
            values = {k: expense[k] for k in ("category", "note", "date") if k in expense}
            if "note" in values:
                values["note"] = datum(state, str(values["note"]))
            records.append(Expense(id=i, name=datum(state, str(expense["name"])),
                                   amount=int(expense["amount"]), **values))
        else:  # (en-US, every field given: ``datum`` gives each text as it is)
            records.append(Expense(i, str(expense["name"]), int(expense["amount"]),
                                   expense["category"], str(expense["note"]),
                                   expense["date"]))
    table.extend(records)


def expense_ids(state: DeviceState, where: Mapping[str, Any]) -> list[int]:
    """The ids of the expenses whose fields equal ``where`` (for oracles, to plan)."""
    return [e.id for e in expense_app(state).data.expenses
            if all(getattr(e, k) == v for k, v in where.items())]


def category_label(category: str, locale: str) -> str:
    """The chip label the expense editor shows for ``category`` (a key of ``CATEGORIES``)
    on a phone in ``locale``: ``Food`` is 餐饮 on a zh-CN phone."""
    if locale == DEFAULT_LOCALE:
        return category
    return app_strings(ExpenseApp, locale).t(category)


def shown_date(text: str) -> str:
    """An expense row's date as the list shows it (``Oct 10, 2026``, or ``2026年10月10日``
    on a zh-CN phone) in ISO form, ``2026-10-10``."""
    zh = re.fullmatch(r"(\d{4})年(\d{1,2})月(\d{1,2})日", text)
    if zh is not None:
        return date(int(zh[1]), int(zh[2]), int(zh[3])).isoformat()
    return datetime.strptime(text, "%b %d, %Y").date().isoformat()


def set_date(ui: Driver, day: str) -> Iterator[PhoneAction]:
    """Oracle steps in the expense editor: set its date (``YYYY-MM-DD``) through the date
    picker, unless it shows that day already."""
    yield from ui.reveal(id="date_value")
    if ui.must(id="date_value").text == day:
        return
    yield from ui.tap(id="date")
    yield from pick_date(ui, date.fromisoformat(day))


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({"KEYS", "LABELS", "enter_expense", "listing_row"})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
