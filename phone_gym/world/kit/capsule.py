"""Mini-program blocks: the capsule bar every mini-program screen carries, and the host
wallet's payment sheet with its PIN confirmation.

A mini-program (an app whose manifest names a ``host``, see ``world.app``) wraps each
screen its view returns::

    def view(self, route: Route) -> Screen:
        return with_capsule(self, self.hotel_list())

``with_capsule`` adds "···" (id ``capsule_more``: a sheet with "Back to <host>", "Share",
"Settings" and "Cancel") and "⊙" (id ``capsule_close``: close, back to the host) to the
top bar. A payment keeps a ``PayState`` in the app's ``ui`` while the sheet shows::

    self.ui.paying = PayState(amount=12_800, payee="Harbor Hotel", memo="Order 3")
    ... dialog=PaySheet(self.ui.paying, on_pin=..., on_pay=self.confirm_pay,
                        on_cancel=...)
    def confirm_pay(self) -> None:
        error = pay(self.system, self.ui.paying)   # None: paid
        ...

Money is in cents of yuan (``yuan(12_800) == "¥128.00"``); the wallet is the system
``wallet`` store (balance and transactions); its PIN is the ``secure`` setting
``wallet_pin`` (``DEFAULT_PIN`` when unset).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..system import SystemState
from ..widgets import Dialog, DialogButton, Handler, Icon, Node, Screen, Text, TextField
from .dialogs import BottomSheet

#: Where the wallet PIN lives (a ``secure`` setting) and its value when unset.
PIN_SETTING = ("secure", "wallet_pin")
DEFAULT_PIN = "123456"


def yuan(cents: int) -> str:
    """``12800`` -> ``"¥128.00"``."""
    sign = "-" if cents < 0 else ""
    return f"{sign}¥{abs(cents) // 100}.{abs(cents) % 100:02d}"


def wallet_pin(system: SystemState) -> str:
    """The wallet's payment PIN."""
    return system.settings.get(*PIN_SETTING) or DEFAULT_PIN


def host_label(app: Any) -> str:
    """The label of a mini-program's host app ("WeChat"), or its name."""
    name = app.manifest.host
    finder = getattr(app.host, "app", None)
    host = finder(name) if callable(finder) and name else None
    return str(host.label) if host is not None else name


def with_capsule(app: Any, screen: Screen, *, on_share: Handler | None = None,
                 on_settings: Handler | None = None) -> Screen:
    """``screen`` with the capsule bar on its top bar and, while ``app.capsule`` is set,
    the capsule menu as its dialog."""
    def open_menu() -> None:
        app.capsule = True

    def close_menu() -> None:
        app.capsule = False

    def run(fn: Handler | None, fallback: str) -> Handler:
        def go() -> None:
            app.capsule = False
            if fn is not None:
                fn()
            else:
                app.toast(fallback)
        return go

    capsule = [Icon("···", "More", open_menu, id="capsule_more"),
               Icon("⊙", "Close", app.close_mini, id="capsule_close")]
    if screen.top_bar is not None:
        screen.top_bar.children.extend(capsule)
    if app.capsule and screen.dialog is None:
        screen.dialog = BottomSheet(app.label, [
            (f"Back to {host_label(app)}", app.back_to_host),
            ("Share", run(on_share, "Link copied")),
            ("Settings", run(on_settings, "No settings yet")),
            ("Cancel", close_menu),
        ], id="capsule_menu")
        screen.on_dismiss = close_menu
    return screen


@dataclass
class PayState:
    """A payment waiting for its PIN: ``amount`` in cents, to ``payee``."""

    amount: int
    payee: str
    memo: str = ""
    pin: str = ""
    error: str = ""


def PaySheet(state: PayState, *, on_pin: Any, on_pay: Handler, on_cancel: Handler,
             title: str = "WeChat Pay") -> Node:
    """The wallet's confirmation: amount, payee, a PIN field (id ``pay_pin``), an error
    line, and Cancel / Pay (ids ``button_cancel``, ``button_pay``)."""
    body: list[Node] = [Text(yuan(state.amount), style="big", id="pay_amount"),
                        Text(f"To {state.payee}", id="pay_payee")]
    if state.memo:
        body.append(Text(state.memo, style="caption", id="pay_memo"))
    body.append(TextField(state.pin, on_pin, hint="6-digit PIN", id="pay_pin",
                          label="Payment PIN"))
    if state.error:
        body.append(Text(state.error, style="caption", id="pay_error"))
    return Dialog(title, "", [DialogButton("Cancel", on_cancel, id="button_cancel"),
                              DialogButton("Pay", on_pay, id="button_pay")], body=body)


def pay(system: SystemState, state: PayState) -> str | None:
    """Take ``state.amount`` from the wallet for ``state.payee`` if the PIN is right and the
    balance covers it (a transaction is recorded); return why not, or None when paid."""
    if state.pin.strip() != wallet_pin(system):
        state.error = "Incorrect PIN"
        return state.error
    wallet = system.wallet
    if state.amount <= 0:
        state.error = "Nothing to pay"
        return state.error
    if wallet.balance < state.amount:
        state.error = "Insufficient balance"
        return state.error
    wallet.balance -= state.amount
    wallet.transactions.new(amount=-state.amount, counterparty=state.payee,
                            date=system.now.date().isoformat(), memo=state.memo)
    state.error = ""
    return None


__all__ = ["DEFAULT_PIN", "PIN_SETTING", "PaySheet", "PayState", "host_label", "pay",
           "wallet_pin", "with_capsule", "yuan"]
