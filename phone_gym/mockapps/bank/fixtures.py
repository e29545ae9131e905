"""Public fixtures of Bank: seeding accounts, activity, payees and bills (what other apps'
tasks may reuse), and reading the app's state for oracles."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, timedelta
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue, localize_datum
from ...tasks.vocab import pick
from ...verifiers.state import DeviceState
from ...world.locale import DEFAULT_LOCALE
from .app import Account, BankApp, Bill, Payee, Txn

PREFIX = "apps.Bank"
ACCOUNTS = f"{PREFIX}.accounts"
TRANSACTIONS = f"{PREFIX}.transactions"
PAYEES = f"{PREFIX}.payees"
BILLS = f"{PREFIX}.bills"
PAYMENTS = f"{PREFIX}.payments"

#: The accounts every bank task starts with: (name, kind).
ACCOUNT_KINDS = (("Total Checking", "checking"), ("Savings", "savings"),
                 ("Vacation Fund", "savings"), ("Freedom Card", "credit"))
MERCHANTS: dict[str, tuple[str, ...]] = {
    "Groceries": ("Whole Foods", "Trader Joe's", "Safeway", "Kroger", "Aldi"),
    "Dining": ("Chipotle", "Blue Bottle Coffee", "Olive Garden", "Shake Shack"),
    "Shopping": ("Amazon", "Target", "Best Buy", "IKEA", "Home Depot"),
    "Gas": ("Shell", "Chevron", "BP"),
    "Entertainment": ("AMC Theatres", "Spotify", "Netflix"),
    "Travel": ("Delta Air Lines", "Marriott", "Uber"),
}
PAYEE_NAMES = ("Maria Lopez", "James Chen", "Olivia Brown", "Ethan Walker", "Sofia Rossi",
               "Noah Kim", "Ava Patel", "Liam Murphy", "Emma Schulz", "Lucas Silva")
BILLERS = ("City Power & Light", "Metro Water", "Comcast Xfinity", "Verizon Wireless",
           "State Farm Insurance", "Gas Company", "Planet Fitness", "Waste Management")
ELECTRICITY = "City Power & Light"
#: The seeded data in zh-CN (``strings/zh-CN.data.json``: accounts, merchants, payees and
#: billers as a Chinese bank shows them: 活期账户, 盒马鲜生, 王芳, 国家电网).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def datum(state: DeviceState, text: str) -> str:
    """The seeded name ``text`` in the phone's locale (itself in en-US, and where the
    catalogue has no entry: a name the task gave already localized)."""
    locale = getattr(state, "locale", DEFAULT_LOCALE)
    return text if locale == DEFAULT_LOCALE else localize_datum(text, DATA.get(locale, {}))


def names_of(name: str) -> set[str]:
    """``name`` and its forms in the other locales (what a lookup by name accepts)."""
    return {name, *(table[name] for table in DATA.values() if name in table)}


def bank_app(state: DeviceState) -> BankApp:
    app = state.app("Bank")  # type: ignore[attr-defined]
    assert isinstance(app, BankApp)
    return app


def digits(rng: np.random.Generator, n: int) -> str:
    return str(int(rng.integers(1, 10))) + "".join(str(int(d)) for d in rng.integers(0, 10,
                                                                                  n - 1))


def cents(rng: np.random.Generator, low: int, high: int) -> int:
    """An amount of ``low``..``high`` dollars with cents."""
    return int(rng.integers(low * 100, high * 100 + 1))


def seed_accounts(state: DeviceState, rng: np.random.Generator, *,
                  pin: str = "", balances: dict[str, int] | None = None) -> dict[str, Account]:
    """The four accounts (random balances unless given), and the app's PIN."""
    data = bank_app(state).data
    if pin:
        data.pin = pin
    given = balances or {}
    out = {}
    for name, kind in ACCOUNT_KINDS:
        balance = given.get(name, cents(rng, 300, 9000))
        number = digits(rng, 16 if kind == "credit" else 12)
        out[name] = data.accounts.new(name=datum(state, name), kind=kind, number=number,
                                      balance=balance)
    return out


def add_txn(state: DeviceState, account: int, day: date, description: str, amount: int,
            category: str) -> Txn:
    return bank_app(state).data.transactions.new(account=account, date=day.isoformat(),
                                                 description=datum(state, description),
                                                 amount=amount,
                                                 category=category)


def seed_activity(state: DeviceState, rng: np.random.Generator, account: int, today: date,
                  n: int, *, days: int = 40, categories: Sequence[str] = ()) -> list[Txn]:
    """``n`` purchases over the ``days`` days up to ``today`` (plus a paycheck)."""
    cats = list(categories or MERCHANTS)
    rows = [add_txn(state, account, today - timedelta(days=int(rng.integers(0, days))),
                    "Payroll ACME Corp", cents(rng, 1800, 2600), "Income")]
    for _ in range(n):
        category = str(pick(rng, cats))
        rows.append(add_txn(state, account, today - timedelta(days=int(rng.integers(0, days))),
                            str(pick(rng, MERCHANTS[category])), -cents(rng, 4, 180),
                            category))
    return rows


def add_payee(state: DeviceState, name: str, number: str) -> Payee:
    return bank_app(state).data.payees.new(name=datum(state, name), number=number)


def seed_payees(state: DeviceState, rng: np.random.Generator, k: int, *,
                avoid: Iterable[str] = ()) -> list[Payee]:
    names = [n for n in PAYEE_NAMES if n not in set(avoid)]
    return [add_payee(state, n, digits(rng, 10)) for n in pick(rng, names, k)]


def add_bill(state: DeviceState, biller: str, amount: int, due: date, *,
             paid: bool = False) -> Bill:
    return bank_app(state).data.bills.new(biller=datum(state, biller), amount=amount,
                                          due=due.isoformat(),
                                          paid=paid)


def account_id(state: DeviceState, name: str) -> int:
    names = names_of(name)
    found = next((a for a in bank_app(state).data.accounts if a.name in names), None)
    assert found is not None, name
    return int(found.id)


def account_key(initial: Any, name: str) -> str:
    """The snapshot key of the account named ``name``."""
    from ...verifiers import lookup
    for key, row in lookup(initial, ACCOUNTS).items():
        if row["name"] in names_of(name):
            return str(key)
    raise KeyError(name)


__all__ = ["ACCOUNTS", "ACCOUNT_KINDS", "BILLERS", "BILLS", "ELECTRICITY", "MERCHANTS",
           "PAYEES", "PAYEE_NAMES", "PAYMENTS", "TRANSACTIONS", "account_id", "account_key",
           "add_bill", "add_payee", "add_txn", "bank_app", "cents", "digits", "seed_accounts",
           "seed_activity", "seed_payees"]


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({
    "BankPayElectricityBill", "BankPaySavedPayee", "open_tab", "pay_bill", "sign_in"
})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
