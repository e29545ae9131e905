"""Public fixtures of the Utility Bills mini-program: accounts, bills and monthly history."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

import numpy as np

from .app import PROVIDERS, Account, Bill, BillsApp, Payment, Usage

ACCOUNTS = "apps.Bills.accounts"
BILLS = "apps.Bills.bills"
USAGE = "apps.Bills.usage"
PAYMENTS = "apps.Bills.payments"
#: Typical monthly amounts (cents) and usage per kind.
AMOUNTS = {"Electricity": (8_000, 45_000), "Water": (3_000, 12_000), "Gas": (4_000, 20_000),
           "Broadband": (9_900, 19_900), "Mobile": (3_000, 15_000)}
USAGES = {"Electricity": (120, 600), "Water": (6, 30), "Gas": (10, 80),
          "Broadband": (80, 600), "Mobile": (5, 60)}


def bills_app(state: Any) -> BillsApp:
    app = state.app("Bills")
    assert isinstance(app, BillsApp)
    return app


def account_number(rng: np.random.Generator, kind: str) -> str:
    """A realistic number: an 11-digit mobile number, otherwise a 10-digit account."""
    if kind == "Mobile":
        return "1" + str(int(rng.integers(3, 9))) + "".join(
            str(int(d)) for d in rng.integers(0, 10, 9))
    return str(int(rng.integers(1, 10))) + "".join(str(int(d)) for d in rng.integers(0, 10, 9))


def add_account(state: Any, kind: str, number: str, holder: str = "", autopay: bool = False,
                limit: int = 0) -> Account:
    return bills_app(state).data.accounts.new(kind=kind, number=number, holder=holder,
                                              provider=PROVIDERS[kind], autopay=autopay,
                                              autopay_limit=limit)


def add_bill(state: Any, account: Account, month: str, amount: int, due: str,
             status: str = "unpaid") -> Bill:
    return bills_app(state).data.bills.new(account=account.id, month=month, amount=amount,
                                           due=due, status=status)


def add_payment(state: Any, account: Account, amount: int, day: str, bill: int = 0) -> Payment:
    """An e-receipt of an earlier payment."""
    return bills_app(state).data.payments.new(account=account.id, kind=account.kind,
                                              number=account.number, amount=amount, bill=bill,
                                              date=day)


def months_before(today: date, n: int) -> list[str]:
    """The ``n`` months before ``today``'s month, latest first ("YYYY-MM")."""
    out, y, m = [], today.year, today.month
    for _ in range(n):
        m -= 1
        if m == 0:
            y, m = y - 1, 12
        out.append(f"{y:04d}-{m:02d}")
    return out


def usage_amount(kind: str, use: int) -> int:
    """The month's amount (cents) for ``use`` units of ``kind``: grows with the usage."""
    lo, hi = USAGES[kind]
    alo, ahi = AMOUNTS[kind]
    return max(100, round(alo + (ahi - alo) * (use - lo) / max(1, hi - lo)) // 10 * 10)


def add_history(state: Any, account: Account, rng: np.random.Generator, today: date,
                n: int = 6, usages: list[int] | None = None) -> list[Usage]:
    """``n`` months of history (latest first); ``usages`` fixes the usage per month."""
    lo, hi = USAGES[account.kind]
    data = bills_app(state).data
    made = []
    for i, month in enumerate(months_before(today, n)):
        use = usages[i] if usages else int(rng.integers(lo, hi))
        made.append(data.usage.new(account=account.id, month=month, usage=use,
                                   amount=usage_amount(account.kind, use)))
    return made


def rows(initial: Mapping[str, Any], path: str) -> list[Mapping[str, Any]]:
    app, table = path.split(".")[1:]
    got = initial.get("apps", {}).get(app, {}).get(table, {})
    return [r for r in got.values() if isinstance(r, Mapping)]
