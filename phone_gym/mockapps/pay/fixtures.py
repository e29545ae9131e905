"""Public fixtures of Pay: seeding the shared wallet (balance, past transactions) and the
payment PIN (what other apps' tasks may reuse)."""

from __future__ import annotations

from datetime import date
from typing import Any

from ...verifiers.state import DeviceState
from ...world.kit.capsule import PIN_SETTING
from ...world.system import Transaction, Wallet
from .app import MERCHANTS as MERCHANTS
from .app import PayApp

BALANCE = "wallet.balance"
TRANSACTIONS = "wallet.transactions"


def pay_app(state: DeviceState) -> PayApp:
    app = state.app("Pay")  # type: ignore[attr-defined]
    assert isinstance(app, PayApp)
    return app


def wallet(state: DeviceState) -> Wallet:
    return pay_app(state).system.wallet


def set_wallet(state: DeviceState, balance: int, pin: str) -> None:
    """The wallet's balance (cents of yuan) and its payment PIN."""
    wallet(state).balance = balance
    state.put_setting(*PIN_SETTING, pin)


def add_transaction(state: DeviceState, amount: int, counterparty: str, day: date,
                    memo: str = "") -> Transaction:
    return wallet(state).transactions.new(amount=amount, counterparty=counterparty,
                                          date=day.isoformat(), memo=memo)


def last_to(state: Any, counterparty: str) -> Transaction | None:
    rows = [t for t in wallet(state).transactions if t.counterparty == counterparty]
    return max(rows, key=lambda t: (t.date, t.id)) if rows else None


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({"amount_text", "enter_pin", "paid_today", "yuan_cents"})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
