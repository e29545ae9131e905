"""Utility Bills: a mini-program inside Chat (WeChat).

Three tabs: "Accounts" (electricity, water, gas, broadband and mobile accounts with their
numbers; "Add account" by type and number), "Bills" (every outstanding bill with its due day,
overdue ones marked) and "Receipts" (an e-receipt per payment). An account's page lists its
outstanding bills (each paid through the host's wallet, ``kit.PaySheet`` and the WeChat Pay
PIN, for the bill's amount or a custom amount), its monthly history (usage and amount per
month) and its auto-pay setting (on/off and a limit per bill); a mobile account is topped up
with an amount.

Accounts, bills, usage history and payments are the mini-program's own ``Store``
(``apps.Bills.accounts``, ``.bills``, ``.usage``, ``.payments``): verifiers read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ...world.app import App, Route, app_strings
from ...world.data import Store, Table
from ...world.kit import (
    Chips,
    NavRow,
    PaySheet,
    PayState,
    Tabs,
    pay,
    with_capsule,
    yuan,
)
from ...world.kit.localize import in_locale
from ...world.locale import DEFAULT_LOCALE, format_date
from ...world.widgets import (
    Button,
    ListItem,
    Node,
    Screen,
    Text,
    TextField,
    Toggle,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

KINDS = ("Electricity", "Water", "Gas", "Broadband", "Mobile")
UNITS = {"Electricity": "kWh", "Water": "m³", "Gas": "m³", "Broadband": "GB", "Mobile": "GB"}
PROVIDERS = {"Electricity": "State Grid", "Water": "City Water Co.", "Gas": "Towngas",
             "Broadband": "China Telecom", "Mobile": "China Mobile"}
TABS = ("Accounts", "Bills", "Receipts")


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Account:
    """A utility account: ``kind`` one of KINDS, ``number`` the account (or phone) number;
    auto-pay pays bills up to ``autopay_limit`` cents."""

    id: int
    kind: str
    number: str
    holder: str = ""
    provider: str = ""
    autopay: bool = False
    autopay_limit: int = 0


@dataclass(frozen=True)
class Bill:
    """A monthly bill of an account: ``month`` "YYYY-MM", ``due`` an ISO day, ``amount`` in
    cents; ``status`` unpaid or paid."""

    id: int
    account: int
    month: str
    amount: int
    due: str
    status: str = "unpaid"


@dataclass(frozen=True)
class Usage:
    """One month of an account's history: ``usage`` in the kind's unit, ``amount`` cents."""

    id: int
    account: int
    month: str
    usage: int
    amount: int


@dataclass(frozen=True)
class Payment:
    """An e-receipt: ``bill`` the bill paid (0 for a top-up or a custom payment)."""

    id: int
    account: int
    kind: str
    number: str
    amount: int
    bill: int
    date: str


@dataclass
class BillsData(Store):
    accounts: Table[Account] = field(default_factory=lambda: Table(kind=Account))
    bills: Table[Bill] = field(default_factory=lambda: Table(kind=Bill))
    usage: Table[Usage] = field(default_factory=lambda: Table(kind=Usage))
    payments: Table[Payment] = field(default_factory=lambda: Table(kind=Payment))


@dataclass
class BillsUi:
    """Transient state: the tab, the add-account form, the amounts typed, the payment."""

    tab: str = "Accounts"
    new_kind: str = "Electricity"
    new_number: str = ""
    amount: str = ""
    limit: str = ""
    autopay: bool = False
    paying: PayState | None = None
    pay_for: tuple[int, int] | None = None  # (account id, bill id or 0)


# --- pure helpers ---------------------------------------------------------------------------
def cents(text: str) -> int | None:
    """``"12.5"`` or ``"¥12.50"`` -> 1250; None when not an amount."""
    try:
        value = round(float(text.strip().lstrip("¥").replace(",", "")) * 100)
    except ValueError:
        return None
    return value if value > 0 else None


def outstanding(data: BillsData, account: int | None = None) -> list[Bill]:
    """Unpaid bills (of one account, or all), earliest due first."""
    return sorted((b for b in data.bills if b.status == "unpaid"
                   and (account is None or b.account == account)),
                  key=lambda b: (b.due, b.id))


def receipt_number(day: str, payment_id: int) -> str:
    """The receipt number an e-receipt shows."""
    return f"EB{day.replace('-', '')}{payment_id:04d}"


def title(a: Account) -> str:
    return f"{a.kind} · {a.number}"


# --- the app -------------------------------------------------------------------------------
class BillsApp(App):
    manifest = MANIFEST

    data: BillsData
    ui: BillsUi

    def initial_data(self) -> BillsData:
        return BillsData()

    def initial_ui(self) -> BillsUi:
        return BillsUi()

    def toast(self, text: str) -> None:
        """A toast in the locale's words (the capsule menu's "Link copied" included)."""
        if self.system.locale != DEFAULT_LOCALE:
            text = app_strings(type(self), self.system.locale).t(text)
        super().toast(text)

    def kind(self, kind: str) -> str:
        """An account kind as the screen names it: "Electricity" / 电费."""
        return self.t(kind) if kind in KINDS else kind

    def provider(self, a: Account) -> str:
        """The account's provider as the screen names it (国家电网 in zh-CN)."""
        return self.t(a.provider) if a.provider in PROVIDERS.values() else a.provider

    def day(self, iso: str, *, year: bool = True) -> str:
        """An ISO day as the locale writes it: "2026-10-15" / 2026年10月15日 (10月15日
        without the ``year``)."""
        if self.system.locale == DEFAULT_LOCALE:
            return iso
        try:
            return format_date(date.fromisoformat(iso), self.system.locale, year=year)
        except ValueError:
            return iso

    def month(self, month: str) -> str:
        """A "YYYY-MM" month as the locale writes it: "2026-09" / 2026年9月."""
        if self.system.locale == DEFAULT_LOCALE or len(month) != 7:
            return month
        return f"{int(month[:4])}年{int(month[5:])}月"

    def title(self, a: Account) -> str:
        return f"{self.kind(a.kind)} · {a.number}"

    def late(self, b: Bill) -> str:
        return self.t(" · OVERDUE") if b.due < self.today() else ""

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def today(self) -> str:
        return self.system.now.date().isoformat()

    def open_account(self, account_id: int) -> None:
        self.ui.amount, self.ui.paying = "", None
        self.go("account", account_id)

    def open_autopay(self, account_id: int) -> None:
        a = self.data.accounts.get(account_id)
        if a is None:
            return
        self.ui.autopay = a.autopay
        self.ui.limit = f"{a.autopay_limit // 100}" if a.autopay_limit else ""
        self.go("autopay", account_id)

    def save_autopay(self, account_id: int) -> None:
        limit = cents(self.ui.limit) if self.ui.autopay else 0
        if self.ui.autopay and limit is None:
            self.toast("Enter a limit per bill")
            return
        self.data.accounts.update(account_id, autopay=self.ui.autopay,
                                  autopay_limit=limit or 0)
        self.toast("Auto-pay saved")
        self.back()

    def add_account(self) -> None:
        number = self.ui.new_number.strip()
        if not (number.isdigit() and 6 <= len(number) <= 16):
            self.toast("Enter a valid account number")
            return
        if any(a.kind == self.ui.new_kind and a.number == number for a in self.data.accounts):
            self.toast("This account is already added")
            return
        self.data.accounts.new(kind=self.ui.new_kind, number=number,
                               provider=PROVIDERS[self.ui.new_kind])  # shown in the locale
        self.ui.new_number = ""
        self.toast("Account added")
        self.back()

    def ask_pay(self, account_id: int, bill_id: int = 0) -> None:
        a = self.data.accounts.get(account_id)
        if a is None:
            return
        bill = self.data.bills.get(bill_id) if bill_id else None
        amount = bill.amount if bill is not None else cents(self.ui.amount)
        if amount is None:
            self.toast("Enter an amount")
            return
        memo = self.t("{month} bill", month=self.month(bill.month)) if bill is not None else (
            self.t("Top-up") if a.kind == "Mobile" else self.t("Custom amount"))
        payee = self.provider(a) if a.provider else self.kind(a.kind)
        self.ui.paying = PayState(amount, f"{payee} {a.number}", memo)
        self.ui.pay_for = (account_id, bill_id)

    def set_pin(self, pin: str) -> None:
        if self.ui.paying is not None:
            self.ui.paying.pin = pin

    def cancel_pay(self) -> None:
        self.ui.paying, self.ui.pay_for = None, None

    def confirm_pay(self) -> None:
        state, target = self.ui.paying, self.ui.pay_for
        if state is None or target is None or pay(self.system, state) is not None:
            return
        a = self.data.accounts.get(target[0])
        if a is None:
            return
        bill = self.data.bills.get(target[1]) if target[1] else None
        if bill is not None:
            self.data.bills.update(bill.id, status="paid")
        self.data.payments.new(account=a.id, kind=a.kind, number=a.number,
                               amount=state.amount, bill=bill.id if bill else 0,
                               date=self.today())
        self.ui.paying, self.ui.pay_for, self.ui.amount = None, None, ""
        self.toast("Payment successful, e-receipt saved")

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name == "account":
            screen = self.account_screen(route.arg)
        elif route.name == "history":
            screen = self.history_screen(route.arg)
        elif route.name == "autopay":
            screen = self.autopay_screen(route.arg)
        elif route.name == "add":
            screen = self.add_screen()
        elif route.name == "receipt":
            screen = self.receipt_screen(route.arg)
        else:
            screen = self.main_screen()
        if self.ui.paying is not None and screen.dialog is None:
            screen.dialog = PaySheet(self.ui.paying, on_pin=self.set_pin,
                                     on_pay=self.confirm_pay, on_cancel=self.cancel_pay)
            screen.on_dismiss = self.cancel_pay
        screen = with_capsule(self, screen)
        return in_locale(self, screen)

    def bill_row(self, b: Bill) -> Node:
        a = self.data.accounts.get(b.account)
        kind = self.kind(a.kind) if a else self.t("Bill")
        return ListItem(f"{kind} {self.month(b.month)} · {yuan(b.amount)}",
                        f"{a.number if a else ''} · "
                        + self.t("due {day}", day=self.day(b.due)) + self.late(b),
                        id=f"bill_{b.id}",
                        on_click=lambda: self.open_account(b.account))

    def main_screen(self) -> Screen:
        tab = self.ui.tab
        content: list[Node] = [Tabs(TABS, tab, lambda t: self.set_ui(tab=t), id="tabs")]
        if tab == "Bills":
            bills = outstanding(self.data)
            total = sum(b.amount for b in bills)
            content += [Text(self.t("{n} unpaid · {total}", n=len(bills), total=yuan(total)),
                             id="bills_total"),
                        VirtualList(len(bills), lambda i: self.bill_row(bills[i]),
                                    id="bill_list", empty_text="No bills to pay")]
        elif tab == "Receipts":
            pays = sorted(self.data.payments, key=lambda p: -p.id)
            content.append(VirtualList(
                len(pays), lambda i: ListItem(
                    f"{self.kind(pays[i].kind)} · {yuan(pays[i].amount)}",
                    f"{pays[i].number} · {self.day(pays[i].date)}", id=f"receipt_{pays[i].id}",
                    on_click=lambda: self.go("receipt", pays[i].id)),
                id="receipt_list", empty_text="No receipts yet"))
        else:
            accounts = sorted(self.data.accounts, key=lambda a: (KINDS.index(a.kind)
                                                                 if a.kind in KINDS else 9, a.id))

            def row(i: int) -> Node:
                a = accounts[i]
                due = sum(b.amount for b in outstanding(self.data, a.id))
                return ListItem(self.title(a), f"{self.provider(a)} · "
                                + (self.t("due {amount}", amount=yuan(due)) if due else
                                   self.t("nothing due")), id=f"account_{a.id}",
                                on_click=lambda: self.open_account(a.id))
            content += [VirtualList(len(accounts), row, id="account_list",
                                    empty_text="No accounts yet"),
                        Button("Add account", lambda: self.go("add"), id="add_account")]
        return Screen(top_bar=TopBar("Utility Bills"), content=content)

    def account_screen(self, account_id: int) -> Screen:
        a = self.data.accounts.get(account_id)
        if a is None:
            return Screen(top_bar=TopBar("Account", on_back=self.back), content=[])
        rows: list[Node] = [Text(self.title(a), style="title", id="account_title"),
                            Text(self.provider(a) + (f" · {a.holder}" if a.holder else ""),
                                 id="account_provider"),
                            Text(self.t("Account number {number}", number=a.number),
                                 id="account_number",
                                 copyable=True)]
        bills = outstanding(self.data, a.id)
        if not bills:
            rows.append(Text("No outstanding bills", id="no_bills"))
        for b in bills:
            rows += [Text(self.t("{month} bill {amount} · due {day}", month=self.month(b.month),
                                 amount=yuan(b.amount), day=self.day(b.due, year=False))
                          + self.late(b),
                          id=f"due_{b.id}"),
                     Button(self.t("Pay {amount}", amount=yuan(b.amount)),
                            lambda b=b: self.ask_pay(a.id, b.id),  # type: ignore[misc]
                            id=f"pay_bill_{b.id}")]
        label = "Top-up amount (¥)" if a.kind == "Mobile" else "Custom amount (¥)"
        rows += [TextField(self.ui.amount, lambda v: self.set_ui(amount=v), id="amount",
                           label=label, hint=label),
                 Button("Top up" if a.kind == "Mobile" else "Pay amount",
                        lambda: self.ask_pay(a.id), id="pay_amount_button", style="secondary"),
                 NavRow("Monthly history", lambda: self.go("history", a.id), id="history"),
                 NavRow("Auto-pay", lambda: self.open_autopay(a.id), id="autopay",
                        summary=self.t("On, up to {amount}", amount=yuan(a.autopay_limit))
                        if a.autopay else "Off")]
        return Screen(top_bar=TopBar(self.kind(a.kind), on_back=self.back), content=rows)

    def history_screen(self, account_id: int) -> Screen:
        a = self.data.accounts.get(account_id)
        months = sorted((u for u in self.data.usage if u.account == account_id),
                        key=lambda u: u.month, reverse=True)
        unit = self.t(UNITS[a.kind]) if a and a.kind in UNITS else ""
        return Screen(top_bar=TopBar("Monthly history", on_back=self.back), content=[
            VirtualList(len(months), lambda i: ListItem(
                self.month(months[i].month),
                f"{months[i].usage} {unit} · {yuan(months[i].amount)}",
                id=f"month_{i}"), id="month_list", empty_text="No history yet")])

    def autopay_screen(self, account_id: int) -> Screen:
        a = self.data.accounts.get(account_id)
        if a is None:
            return Screen(top_bar=TopBar("Auto-pay", on_back=self.back), content=[])
        rows: list[Node] = [
            Text(self.title(a), id="autopay_account"),
            Toggle("Pay new bills automatically", self.ui.autopay,
                   lambda: self.set_ui(autopay=not self.ui.autopay), id="autopay_switch"),
        ]
        if self.ui.autopay:
            rows.append(TextField(self.ui.limit, lambda v: self.set_ui(limit=v),
                                  id="autopay_limit", label="Limit per bill (¥)",
                                  hint="Limit per bill (¥)"))
        rows.append(Button("Save", lambda: self.save_autopay(account_id), id="save_autopay"))
        return Screen(top_bar=TopBar("Auto-pay", on_back=self.back), content=rows)

    def add_screen(self) -> Screen:
        return Screen(top_bar=TopBar("Add account", on_back=self.back), content=[
            Chips(KINDS, [self.ui.new_kind], lambda k: self.set_ui(new_kind=k), id="kinds"),
            TextField(self.ui.new_number, lambda v: self.set_ui(new_number=v),
                      id="new_number", label="Account number", hint="Account number"),
            Button("Add", self.add_account, id="add")])

    def receipt_screen(self, payment_id: int) -> Screen:
        p = self.data.payments.get(payment_id)
        rows: list[Node] = [] if p is None else [
            Text("E-receipt", style="title", id="receipt_title"),
            Text(f"{self.kind(p.kind)} · {p.number}", id="receipt_account"),
            Text(self.t("Paid {amount} on {day}", amount=yuan(p.amount), day=self.day(p.date)),
                 id="receipt_amount"),
            Text(self.t("Receipt no. {number}", number=receipt_number(p.date, p.id)),
                 id="receipt_no",
                 copyable=True)]
        return Screen(top_bar=TopBar("E-receipt", on_back=self.back), content=rows)
