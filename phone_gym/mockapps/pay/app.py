"""Pay: a mobile wallet modelled on Alipay.

The money lives in the system ``wallet`` store (``system.wallet``: a balance in cents of
yuan and its ``Transaction`` records, negative amounts for payments), shared with other
wallets on the phone (a chat super-app's); the payment PIN is the shared ``secure`` setting
``wallet_pin`` (``kit.wallet_pin``). Every payment shows the kit's ``PaySheet`` (amount,
payee, PIN) and goes through ``kit.pay``.

Screens: home (the balance and the services: Scan, Transfer, Red packet, Bills), paying a
merchant by its payment code (the code names the merchant before paying), transferring to
a contact (a searchable contact list, then amount and note), a red packet to a contact
(amount and greeting), and the bills (the transaction history: search, a transaction's
page).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from ...world.app import App, Route
from ...world.data import Store
from ...world.kit import BottomNav, DetailPage, PaySheet, PayState, SearchList, pay, yuan
from ...world.kit.localize import in_locale
from ...world.system import Contact, Transaction
from ...world.widgets import Button, Icon, ListItem, Node, Screen, Text, TextField, TopBar
from .manifest import MANIFEST

#: Merchants' payment codes (what a shop's QR code holds) and their names.
MERCHANTS: dict[str, str] = {
    "28 0417 5531": "Luckin Coffee", "28 0419 7702": "FamilyMart", "28 1133 0248": "Hema Fresh",
    "28 2290 6114": "Haidilao Hot Pot", "28 3071 8856": "Mixue Ice Cream",
    "28 4402 1937": "Xiaomi Store", "28 5518 2260": "Wanda Cinema",
    "28 6624 9083": "Lawson", "28 7735 4419": "Walmart", "28 8846 3372": "Didi Bike",
}


def same_code(a: str, b: str) -> bool:
    return "".join(a.split()) == "".join(b.split())


def merchant_of(code: str) -> str | None:
    return next((name for c, name in MERCHANTS.items() if same_code(c, code)), None)


def parse_amount(text: str) -> int | None:
    """Cents from ``12``, ``12.5``, ``¥1,234.56``; None unless a positive amount."""
    try:
        value = float(text.strip().lstrip("¥").replace(",", ""))
    except ValueError:
        return None
    cents = round(value * 100)
    return cents if 0 < cents < 10**9 else None


@dataclass
class PayData(Store):
    """The app's own preferences (the money is in the system wallet)."""

    hide_balance: bool = False


@dataclass
class PayUi:
    """Transient state: the forms, the contact search, the history search and the payment
    sheet while it shows."""

    code: str = ""
    amount: str = ""
    note: str = ""
    error: str = ""
    query: str = ""
    history_query: str = ""
    paying: PayState | None = None
    opened: int = 0


class PayApp(App):
    manifest = MANIFEST

    data: PayData
    ui: PayUi

    def initial_data(self) -> PayData:
        return PayData()

    def initial_ui(self) -> PayUi:
        return PayUi()

    # handlers
    def set_ui(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)
        self.ui.error = ""

    def start(self, route: str, arg: object = None) -> None:
        """Open a form with its fields empty."""
        self.ui.code = self.ui.amount = self.ui.note = self.ui.error = ""
        if route == "contacts":
            self.ui.query = ""
        self.ui.opened += 1
        self.go(route, arg)

    def toast(self, text: str) -> None:
        super().toast(self.t(text) if text == "Paid" else text)

    def merchant(self, code: str) -> str | None:
        """The merchant the code names, as the app's directory shows it in the locale
        (瑞幸咖啡 for Luckin Coffee)."""
        name = merchant_of(code)
        return self.t(name) if name is not None else None

    def ask_pay(self, payee: str, memo: str = "") -> None:
        amount = parse_amount(self.ui.amount)
        if amount is None:
            self.ui.error = self.t("Enter an amount above zero")
            return
        self.ui.paying = PayState(amount=amount, payee=payee, memo=memo)

    def set_pin(self, pin: str) -> None:
        if self.ui.paying is not None:
            self.ui.paying.pin = pin

    def confirm_pay(self) -> None:
        state = self.ui.paying
        if state is None or pay(self.system, state) is not None:
            return
        self.ui.paying = None
        del self.stack[1:]
        self.toast("Paid")

    def toggle_hidden(self) -> None:
        self.data.hide_balance = not self.data.hide_balance

    def cancel_pay(self) -> None:
        self.ui.paying = None

    # views
    def view(self, route: Route) -> Screen:
        screen = self.route_view(route)
        return in_locale(self, screen)

    def route_view(self, route: Route) -> Screen:
        if route.name == "scan":
            screen = self.scan_screen()
        elif route.name == "contacts":
            screen = self.contact_picker(route.arg)
        elif route.name in ("transfer", "red_packet") and self.system.contacts.get(
                route.arg) is not None:
            screen = self.transfer_screen(route.name, route.arg)
        elif route.name == "bills":
            screen = self.bills_screen()
        elif route.name == "txn" and self.system.wallet.transactions.get(route.arg):
            screen = self.txn_page(route.arg)
        else:
            screen = self.home()
        if self.ui.paying is not None and route.name not in ("main", "bills", "txn"):
            screen.dialog = PaySheet(self.ui.paying, on_pin=self.set_pin,
                                     on_pay=self.confirm_pay, on_cancel=self.cancel_pay,
                                     title="Alipay")
            screen.on_dismiss = self.cancel_pay
        return screen

    def home(self) -> Screen:
        hidden = self.data.hide_balance
        eye = Icon("○" if hidden else "●", "Show balance" if hidden else "Hide balance",
                   self.toggle_hidden, id="hide_balance")
        return Screen(top_bar=TopBar("Alipay", actions=[eye]), content=[
            Text("¥ ****" if hidden else yuan(self.system.wallet.balance), style="big",
                 id="balance"),
            Text("Balance", style="caption", id="balance_label"),
            Button("Scan", partial(self.start, "scan"), id="scan"),
            Button("Transfer", partial(self.start, "contacts", "transfer"), id="transfer",
                   style="secondary"),
            Button("Red packet", partial(self.start, "contacts", "red_packet"),
                   id="red_packet", style="secondary"),
            Button("Bills", partial(self.go, "bills"), id="bills", style="secondary"),
        ], bottom=BottomNav(("Home", "Bills"), ("home", "receipt_long"), "Home",
                            lambda t: self.go("bills") if t == "Bills" else None))

    def error_line(self) -> list[Node]:
        return [Text(self.ui.error, style="caption", id="error")] if self.ui.error else []

    def scan_screen(self) -> Screen:
        ui = self.ui
        merchant = self.merchant(ui.code)
        content: list[Node] = [
            Text("Enter the payment code under the shop's QR code", style="caption",
                 id="scan_hint"),
            TextField(ui.code, lambda v: self.set_ui(code=v), hint="Payment code", id="code",
                      label="Payment code"),
        ]
        if merchant is not None:
            content += [Text(self.t("Pay to {merchant}", merchant=merchant), style="title",
                             id="merchant"),
                        TextField(ui.amount, lambda v: self.set_ui(amount=v), hint="Amount",
                                  id="amount", label="Amount"),
                        Button("Pay", partial(self.ask_pay, merchant), id="pay")]
        elif "".join(ui.code.split()):
            content.append(Text("No merchant has this code", style="caption",
                                id="unknown_code"))
        return Screen(top_bar=TopBar("Pay a merchant", on_back=self.back),
                      content=content + self.error_line())

    def contacts(self) -> Sequence[Contact]:
        q = self.ui.query.strip().lower()
        rows = [c for c in self.system.contacts if not q or q in c.name.lower()]
        return sorted(rows, key=lambda c: c.name.lower())

    def contact_picker(self, purpose: object) -> Screen:
        shown = self.contacts()
        kind = "red_packet" if purpose == "red_packet" else "transfer"

        def row(i: int) -> Node:
            c = shown[i]
            return ListItem(c.name, c.phone, id=f"contact_{c.id}", glyph=c.name[:1],
                            on_click=partial(self.start, kind, c.id))

        title = "Send a red packet" if kind == "red_packet" else "Transfer to"
        return Screen(top_bar=TopBar(title, on_back=self.back), content=SearchList(
            self.ui.query, lambda v: self.set_ui(query=v), len(shown), row, id="contacts",
            hint="Search contacts", empty_text="No contacts"))

    def transfer_screen(self, kind: str, contact_id: int) -> Screen:
        contact = self.system.contacts.get(contact_id)
        assert contact is not None
        ui = self.ui
        red = kind == "red_packet"
        memo = self.t("Red packet: {greeting}", greeting=ui.note.strip() or self.t("Best wishes")) \
            if red else ui.note.strip()
        content: list[Node] = [
            Text(contact.name, style="title", id="recipient"),
            TextField(ui.amount, lambda v: self.set_ui(amount=v), hint="Amount", id="amount",
                      label="Amount"),
            TextField(ui.note, lambda v: self.set_ui(note=v),
                      hint="Best wishes" if red else "Add a note", id="note",
                      label="Greeting" if red else "Note"),
            Button("Send" if red else "Transfer", partial(self.ask_pay, contact.name, memo),
                   id="send"),
        ]
        return Screen(top_bar=TopBar("Red packet" if red else "Transfer", on_back=self.back),
                      content=content + self.error_line())

    def history(self) -> Sequence[Transaction]:
        q = self.ui.history_query.strip().lower()
        rows = [t for t in self.system.wallet.transactions
                if not q or q in t.counterparty.lower() or q in t.memo.lower()]
        return sorted(rows, key=lambda t: (t.date, t.id), reverse=True)

    def bills_screen(self) -> Screen:
        shown = self.history()

        def row(i: int) -> Node:
            t = shown[i]
            return ListItem(t.counterparty, id=f"txn_{t.id}",
                            parts=[(f"txn_amount_{t.id}", yuan(t.amount)),
                                   (f"txn_date_{t.id}", t.date)],
                            on_click=partial(self.go, "txn", t.id))

        return Screen(top_bar=TopBar("Bills", on_back=self.back), content=SearchList(
            self.ui.history_query, lambda v: self.set_ui(history_query=v), len(shown), row,
            id="history", hint="Search bills", empty_text="No transactions yet"))

    def txn_page(self, txn_id: int) -> Screen:
        t = self.system.wallet.transactions.get(txn_id)
        assert t is not None
        return DetailPage(t.counterparty, [("Amount", yuan(t.amount)), ("Date", t.date),
                                           ("Note", t.memo or "None")], on_back=self.back)
