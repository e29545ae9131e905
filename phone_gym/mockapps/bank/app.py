"""Bank: a retail bank's app behind a PIN (modelled on the big banks' apps).

The app's data is its own (private database): ``accounts`` (checking, savings and a credit
card, balances in cents; a credit card's balance is what is owed), ``transactions`` (posted
activity, negative amounts for money out; a transaction can be disputed), ``payees``
(saved people and companies with an account number), ``bills`` (billers with a due date)
and ``payments``: one record per money movement the app made (a transfer between own
accounts, a payment to a payee, a bill payment; ``repeat`` other than ``Once`` is a
scheduled recurring payment, which moves no money yet).

Screens: the sign-in screen (a 4-digit PIN, each time the app starts), the home screen with
tabs (Accounts, Pay, Bills, Cards), an account's activity (search, a category chip and a
period chip), a transaction's page (report a problem: a confirmation), the movement form
(from, to or payee, amount, memo, repeat and start date) and its review screen (a summary
with a warning when it would overdraw, then Confirm), adding a payee, the scheduled
payments, and a card's page (lock, travel notice).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import partial

from ...world.app import App, Route
from ...world.data import Grouping, Store, Table
from ...world.kit import BottomNav, Chips, ConfirmDialog, Detail, DetailPage, SearchList
from ...world.kit.localize import in_locale
from ...world.kit.searchbar import Logo, SearchAppBar
from ...world.locale import DEFAULT_LOCALE, format_date, format_money
from ...world.widgets import (
    Button,
    Icon,
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

TABS = ("Accounts", "Pay", "Bills", "Cards")
#: The bottom bar's icons (a bank, a transfer, a bill, a card).
TAB_ICONS = ("account_balance", "swap_horiz", "receipt_long", "credit_card")
CATEGORIES = ("Groceries", "Dining", "Shopping", "Gas", "Utilities", "Travel",
              "Entertainment", "Income", "Transfer")
PERIODS = ("All", "This month", "Last 7 days")
REPEATS = ("Once", "Weekly", "Monthly")
DEFAULT_PIN = "2468"


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Account:
    """An account: ``kind`` checking, savings or credit; ``number`` its full number."""

    id: int
    name: str
    kind: str
    number: str
    balance: int = 0
    locked: bool = False
    travel_notice: str = ""
    paperless: bool = False


@dataclass(frozen=True)
class Txn:
    """A posted transaction of ``account`` (an ISO ``date``; ``amount`` < 0 for money out)."""

    id: int
    account: int
    date: str
    description: str
    amount: int
    category: str = "Shopping"
    disputed: bool = False


@dataclass(frozen=True)
class Payee:
    """A saved payee; favorites are listed first."""

    id: int
    name: str
    number: str
    favorite: bool = False


@dataclass(frozen=True)
class Bill:
    """A bill from ``biller`` of ``amount`` cents due on ``due``; ``paid`` once paid."""

    id: int
    biller: str
    amount: int
    due: str
    paid: bool = False


@dataclass(frozen=True)
class Payment:
    """A money movement: ``kind`` transfer (to ``to_account``), payment (to ``payee``, its
    account ``payee_number``) or bill (``bill``); ``repeat`` Once (made now) or Weekly /
    Monthly (scheduled from ``date``)."""

    id: int
    kind: str
    source: int
    amount: int
    date: str
    to_account: int = 0
    payee: str = ""
    payee_number: str = ""
    bill: int = 0
    memo: str = ""
    repeat: str = "Once"


@dataclass
class BankData(Store):
    """What the app stores (``apps.Bank.<table>``)."""

    accounts: Table[Account] = field(default_factory=lambda: Table(kind=Account))
    transactions: Table[Txn] = field(default_factory=lambda: Table(kind=Txn))
    payees: Table[Payee] = field(default_factory=lambda: Table(kind=Payee))
    bills: Table[Bill] = field(default_factory=lambda: Table(kind=Bill))
    payments: Table[Payment] = field(default_factory=lambda: Table(kind=Payment))
    pin: str = DEFAULT_PIN


@dataclass
class MoveForm:
    """The movement form: ``kind`` transfer, payment or bill."""

    kind: str = "transfer"
    source: int = 0
    to_account: int = 0
    payee: int = 0
    bill: int = 0
    amount: str = ""
    memo: str = ""
    repeat: str = "Once"
    start: str = ""
    error: str = ""


@dataclass
class BankUi:
    """Transient state: signed in or not, the tab, the activity filters, the forms and the
    open dialog."""

    signed_in: bool = False
    pin: str = ""
    pin_error: str = ""
    tab: str = "Accounts"
    query: str = ""
    category: str = ""
    period: str = "All"
    form: MoveForm = field(default_factory=MoveForm)
    payee_name: str = ""
    payee_number: str = ""
    payee_error: str = ""
    travel: str = ""
    disputing: int | None = None
    deleting_payee: int | None = None
    show_number: bool = False


# --- values and updates --------------------------------------------------------------------
def money(cents: int) -> str:
    """``$1,234.50`` (``-$5.00`` for money out)."""
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def parse_amount(text: str) -> int | None:
    """Cents from ``12``, ``12.5``, ``$1,234.56``; None unless a positive amount."""
    try:
        value = float(text.strip().lstrip("$").replace(",", ""))
    except ValueError:
        return None
    cents = round(value * 100)
    return cents if 0 < cents < 10**10 else None


def parse_day(text: str) -> str | None:
    try:
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        return None


def masked(number: str) -> str:
    return f"••••{number[-4:]}"


def txn_account(t: Txn) -> int:
    return t.account


def txn_order(t: Txn) -> tuple[str, int]:
    return (t.date, t.id)


def in_period(txn: Txn, period: str, today: date) -> bool:
    day = date.fromisoformat(txn.date)
    if period == "This month":
        return (day.year, day.month) == (today.year, today.month) and day <= today
    if period == "Last 7 days":
        return today - timedelta(days=6) <= day <= today
    return True


def make_movement(data: BankData, form: MoveForm, today: str) -> Payment | None:
    """Carry out the (checked) form: record the payment and, when it is made now, move the
    money (a transfer into a credit card pays it down; a paid bill is marked paid)."""
    amount = parse_amount(form.amount)
    source = data.accounts.get(form.source)
    if amount is None or source is None:
        return None
    values: dict[str, object] = {"kind": form.kind, "source": source.id, "amount": amount,
                                 "memo": form.memo.strip(), "repeat": form.repeat,
                                 "date": today if form.repeat == "Once" else form.start}
    if form.kind == "transfer":
        target = data.accounts.get(form.to_account)
        if target is None or target.id == source.id:
            return None
        values["to_account"] = target.id
    elif form.kind == "payment":
        payee = data.payees.get(form.payee)
        if payee is None:
            return None
        values.update(payee=payee.name, payee_number=payee.number)
    else:
        bill = data.bills.get(form.bill)
        if bill is None:
            return None
        values.update(bill=bill.id, payee=bill.biller)
    payment = data.payments.new(**values)
    if form.repeat == "Once":
        data.accounts.update(source.id, balance=source.balance - amount)
        if form.kind == "transfer":
            target = data.accounts.get(form.to_account)
            assert target is not None
            delta = -amount if target.kind == "credit" else amount
            data.accounts.update(target.id, balance=target.balance + delta)
        if form.kind == "bill":
            data.bills.update(form.bill, paid=True)
    return payment


def check_form(data: BankData, form: MoveForm) -> str:
    """The form's error, or "" when it can be reviewed."""
    if data.accounts.get(form.source) is None:
        return "Choose an account to pay from"
    if form.kind == "transfer" and (data.accounts.get(form.to_account) is None
                                    or form.to_account == form.source):
        return "Choose another account to transfer to"
    if form.kind == "payment" and data.payees.get(form.payee) is None:
        return "Choose a payee"
    if parse_amount(form.amount) is None:
        return "Enter an amount above zero"
    if form.repeat != "Once" and parse_day(form.start) is None:
        return "Enter a start date like 2026-11-01"
    return ""


# --- the app -------------------------------------------------------------------------------
class BankApp(App):
    manifest = MANIFEST

    data: BankData
    ui: BankUi

    def initial_data(self) -> BankData:
        return BankData()

    def initial_ui(self) -> BankUi:
        return BankUi()

    def today(self) -> date:
        return self.system.now.date()

    def deposit_accounts(self) -> list[Account]:
        return [a for a in self.data.accounts if a.kind != "credit"]

    # handlers
    def money(self, cents: int) -> str:
        """An amount as the locale writes it: "$1,234.50" / "¥1,234.50"."""
        return money(cents) if self.system.locale == DEFAULT_LOCALE \
            else format_money(cents, self.system.locale)

    def day(self, iso: str) -> str:
        """An ISO day as the locale writes it ("2026-10-15" / 2026年10月15日)."""
        day = parse_day(iso) if self.system.locale != DEFAULT_LOCALE else None
        return format_date(date.fromisoformat(day), self.system.locale) if day else iso

    def category(self, name: str) -> str:
        """A transaction's category as the screen names it ("Dining" / 餐饮)."""
        return self.t(name) if name in CATEGORIES else name

    def toast(self, text: str) -> None:
        """A toast in the locale's words."""
        super().toast(self.t(text))

    def set_ui(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def set_form(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.ui.form, key, value)
        self.ui.form.error = ""

    def sign_in(self) -> None:
        if self.ui.pin.strip() == self.data.pin:
            self.ui.signed_in, self.ui.pin, self.ui.pin_error = True, "", ""
        else:
            self.ui.pin, self.ui.pin_error = "", "Incorrect PIN. Try again."

    def start_move(self, kind: str, *, payee: int = 0, bill: int = 0) -> None:
        deposits = self.deposit_accounts()
        source = deposits[0].id if deposits else 0
        amount = ""
        if kind == "bill":
            found = self.data.bills.get(bill)
            amount = f"{found.amount / 100:.2f}" if found else ""
        self.ui.form = MoveForm(kind=kind, source=source, payee=payee, bill=bill,
                                amount=amount, start=(self.today() + timedelta(days=1))
                                .isoformat())
        self.go("move", kind)

    def review(self) -> None:
        error = check_form(self.data, self.ui.form)
        self.ui.form.error = error
        if not error:
            self.go("review")

    def confirm(self) -> None:
        if check_form(self.data, self.ui.form):
            return
        payment = make_movement(self.data, self.ui.form, self.today().isoformat())
        if payment is None:
            return
        self.ui.form = MoveForm()
        del self.stack[1:]  # back to the home screen
        self.toast("Scheduled" if payment.repeat != "Once" else "Payment sent")

    def save_payee(self) -> None:
        name, number = self.ui.payee_name.strip(), self.ui.payee_number.strip()
        if not name or not (number.isdigit() and 4 <= len(number) <= 17):
            self.ui.payee_error = "Enter a name and an account number (digits)"
            return
        self.data.payees.new(name=name, number=number)
        self.ui.payee_name = self.ui.payee_number = self.ui.payee_error = ""
        self.toast("Payee added")
        self.back()

    def dispute(self, txn_id: int) -> None:
        if self.data.transactions.get(txn_id) is not None:
            self.data.transactions.update(txn_id, disputed=True)
            self.toast("We're looking into it")
        self.ui.disputing = None

    def toggle_lock(self, account_id: int) -> None:
        account = self.data.accounts.get(account_id)
        if account is not None:
            self.data.accounts.update(account_id, locked=not account.locked)

    def save_travel(self, account_id: int) -> None:
        if self.data.accounts.get(account_id) is not None and self.ui.travel.strip():
            self.data.accounts.update(account_id, travel_notice=self.ui.travel.strip())
            self.toast("Travel notice saved")
            self.back()

    # views
    def view(self, route: Route) -> Screen:
        screen = self.screen(route)
        return in_locale(self, screen)

    def screen(self, route: Route) -> Screen:
        if not self.ui.signed_in:
            return self.sign_in_screen()
        if route.name == "account" and self.data.accounts.get(route.arg) is not None:
            return self.account_page(route.arg)
        if route.name == "txn" and self.data.transactions.get(route.arg) is not None:
            return self.txn_page(route.arg)
        if route.name == "move":
            return self.move_screen()
        if route.name == "review" and not check_form(self.data, self.ui.form):
            return self.review_screen()
        if route.name == "add_payee":
            return self.payee_screen()
        if route.name == "scheduled":
            return self.scheduled_screen()
        if route.name == "card" and self.data.accounts.get(route.arg) is not None:
            return self.card_page(route.arg)
        if route.name == "travel" and self.data.accounts.get(route.arg) is not None:
            return self.travel_screen(route.arg)
        return self.home()

    def sign_in_screen(self) -> Screen:
        content: list[Node] = [
            Text("Welcome back", style="title", id="welcome"),
            TextField(self.ui.pin, lambda v: self.set_ui(pin=v), hint="4-digit PIN", id="pin",
                      label="PIN", on_submit=self.sign_in),
            Button("Sign in", self.sign_in, id="sign_in"),
        ]
        if self.ui.pin_error:
            content.append(Text(self.ui.pin_error, style="caption", id="pin_error"))
        return Screen(top_bar=SearchAppBar(Logo("Bank")), content=content)  # the brand, centred

    def home(self) -> Screen:
        tab = self.ui.tab
        content: list[Node] = []
        if tab == "Pay":
            content += [
                Button("Transfer between accounts", lambda: self.start_move("transfer"),
                           id="transfer"),
                Button("Pay someone", lambda: self.start_move("payment"), id="pay",
                       style="secondary"),
                Button("Add a payee", lambda: self.go("add_payee"), id="add_payee",
                       style="secondary"),
                Button("Scheduled payments", lambda: self.go("scheduled"), id="scheduled",
                       style="secondary"),
                Text("Payees", style="caption", id="payees_label"),
            ]
            payees = sorted(self.data.payees, key=lambda p: (not p.favorite, p.name.lower()))
            content.append(VirtualList(
                len(payees), lambda i: self.payee_item(payees[i]), id="payees",
                empty_text="No payees yet"))
        elif tab == "Bills":
            bills = sorted(self.data.bills, key=lambda b: (b.paid, b.due, b.id))
            content.append(VirtualList(len(bills), lambda i: self.bill_item(bills[i]),
                                       id="bills", empty_text="No bills"))
        elif tab == "Cards":
            cards = [a for a in self.data.accounts if a.kind == "credit"]
            for a in cards:
                content += [ListItem(a.name, masked(a.number), id=f"card_{a.id}", glyph="■",
                                     on_click=partial(self.go, "card", a.id)),
                            Toggle(self.t("Lock {name}", name=a.name), a.locked,
                                   partial(self.toggle_lock, a.id), id=f"lock_{a.id}")]
        else:
            accounts = list(self.data.accounts)
            content.append(VirtualList(
                len(accounts), lambda i: self.account_item(accounts[i]), id="accounts",
                empty_text="No accounts"))
        dialog = None
        payee = self.data.payees.get(self.ui.deleting_payee)
        if tab == "Pay" and payee is not None:
            dialog = ConfirmDialog("Delete payee?",
                                   self.t("{name} will be removed from your payees.",
                                          name=payee.name), confirm="Delete", destructive=True,
                                   on_confirm=partial(self.delete_payee, payee.id),
                                   on_cancel=lambda: self.set_ui(deleting_payee=None))
        return Screen(top_bar=TopBar(MANIFEST.look.title), content=content, dialog=dialog,
                      bottom=BottomNav(TABS, TAB_ICONS, tab, lambda t: self.set_ui(tab=t)),
                      on_dismiss=lambda: self.set_ui(deleting_payee=None))

    def delete_payee(self, payee_id: int) -> None:
        if self.data.payees.get(payee_id) is not None:
            self.data.payees.remove(payee_id)
            self.toast("Payee deleted")
        self.ui.deleting_payee = None

    def toggle_paperless(self, account_id: int) -> None:
        account = self.data.accounts.get(account_id)
        if account is not None:
            self.data.accounts.update(account_id, paperless=not account.paperless)

    def account_item(self, a: Account) -> Node:
        label = "Balance owed" if a.kind == "credit" else "Available"
        glyph = a.kind[:1].upper() if self.system.locale == DEFAULT_LOCALE else a.name[:1]
        return ListItem(a.name, id=f"account_{a.id}", glyph=glyph,
                        parts=[(f"number_{a.id}", masked(a.number)),
                               (f"balance_{a.id}", f"{self.t(label)} {self.money(a.balance)}")],
                        on_click=lambda: self.go("account", a.id))

    def payee_item(self, p: Payee) -> Node:
        return ListItem(p.name, self.t("Account {number}", number=masked(p.number)),
                        id=f"payee_{p.id}",
                        glyph=p.name[:1],
                        on_click=lambda: self.start_move("payment", payee=p.id),
                        menu=[("Pay", lambda: self.start_move("payment", payee=p.id)),
                              ("Delete payee", lambda: self.set_ui(deleting_payee=p.id))])

    def bill_item(self, b: Bill) -> Node:
        status = self.t("Paid") if b.paid else self.t("Due {day}", day=self.day(b.due))
        return ListItem(b.biller, id=f"bill_{b.id}", glyph="📄",
                        parts=[(f"bill_amount_{b.id}", self.money(b.amount)),
                               (f"bill_status_{b.id}", status)],
                        on_click=None if b.paid else (lambda: self.start_move("bill",
                                                                              bill=b.id)))

    def make_indexes(self) -> None:
        self.by_account()

    def by_account(self) -> Grouping[Txn]:
        """The transactions of each account by date, kept on write."""
        return self.data.transactions.grouping("by_account", txn_account, txn_order)

    def shown_txns(self, account_id: int) -> Sequence[Txn]:
        """The account's transactions, newest first, those the search, category and period
        keep (all of them read in place when none is set)."""
        ui, today = self.ui, self.today()
        q = ui.query.strip().lower()
        every = self.by_account().view(account_id, reverse=True)
        if not q and not ui.category and ui.period == "All":
            return every
        return [t for t in every if (not q or q in t.description.lower())
                and (not ui.category or t.category == ui.category)
                and in_period(t, ui.period, today)]

    def txn_item(self, t: Txn) -> Node:
        return ListItem(t.description, id=f"txn_{t.id}",
                        parts=[(f"txn_amount_{t.id}", self.money(t.amount)),
                               (f"txn_date_{t.id}", self.day(t.date)),
                               (f"txn_category_{t.id}", self.category(t.category))],
                        on_click=lambda: self.go("txn", t.id))

    def account_page(self, account_id: int) -> Screen:
        a = self.data.accounts.get(account_id)
        assert a is not None
        shown = self.shown_txns(account_id)

        def pick_category(label: str) -> None:
            self.ui.category = "" if self.ui.category == label else label

        content: list[Node] = [
            Text(self.money(a.balance), style="big", id="balance"),
            Text("Balance owed" if a.kind == "credit" else "Available balance",
                 style="caption", id="balance_label"),
            Toggle("Paperless statements", a.paperless, partial(self.toggle_paperless, a.id),
                   id="paperless"),
            Chips(PERIODS, {self.ui.period}, lambda p: self.set_ui(period=p), id="periods"),
            Chips(CATEGORIES, {self.ui.category}, pick_category, id="categories"),
            *SearchList(self.ui.query, lambda v: self.set_ui(query=v), len(shown),
                        lambda i: self.txn_item(shown[i]), id="transactions",
                        hint="Search transactions", empty_text="No transactions"),
        ]
        return Screen(top_bar=TopBar(a.name, on_back=self.back), content=content)

    def txn_page(self, txn_id: int) -> Screen:
        t = self.data.transactions.get(txn_id)
        assert t is not None
        dialog = None
        if self.ui.disputing == t.id:
            dialog = ConfirmDialog("Report a problem?",
                                   self.t("We will review {what} ({amount}) and contact you.",
                                          what=t.description, amount=self.money(t.amount)),
                                   confirm="Report",
                                   on_confirm=lambda: self.dispute(t.id),
                                   on_cancel=lambda: self.set_ui(disputing=None))
        body: list[Node] = [Text("Under review" if t.disputed else "", style="caption",
                                 id="dispute_status")] if t.disputed else [
            Button("Report a problem", lambda: self.set_ui(disputing=t.id), id="report",
                   style="secondary")]
        return DetailPage(t.description, [Detail("Amount", self.money(t.amount), id="amount"),
                                          Detail("Date", self.day(t.date), id="date"),
                                          Detail("Category", self.category(t.category),
                                                 id="category")],
                          on_back=self.back, body=body, dialog=dialog,
                          on_dismiss=lambda: self.set_ui(disputing=None))

    def account_chips(self, accounts: Sequence[Account], selected: int, key: str,
                      chip_id: str) -> Node:
        names = {a.name: a.id for a in accounts}
        chosen = {a.name for a in accounts if a.id == selected}
        return Chips(list(names), chosen, lambda n: self.set_form(**{key: names[n]}),
                     id=chip_id)

    def move_screen(self) -> Screen:
        form, data = self.ui.form, self.data
        deposits = self.deposit_accounts()
        title = {"transfer": "Transfer", "payment": "Pay someone", "bill": "Pay bill"}.get(
            form.kind, "Transfer")
        content: list[Node] = []
        if form.kind == "bill":
            bill = data.bills.get(form.bill)
            if bill is not None:
                content.append(Text(self.t("{biller}, due {day}", biller=bill.biller,
                                           day=self.day(bill.due)), id="bill_info"))
        content.append(TextField(form.amount, lambda v: self.set_form(amount=v),
                                 hint="Amount", id="amount", label="Amount"))
        if form.kind != "bill":
            content.append(TextField(form.memo, lambda v: self.set_form(memo=v),
                                     hint="Memo (optional)", id="memo", label="Memo"))
        if form.kind == "payment":
            content += [Text("Repeat", style="caption", id="repeat_label"),
                        Chips(REPEATS, {form.repeat}, lambda r: self.set_form(repeat=r),
                              id="repeat")]
            if form.repeat != "Once":
                content.append(TextField(form.start, lambda v: self.set_form(start=v),
                                         hint="YYYY-MM-DD", id="start", label="Start date"))
        content += [Text("From", style="caption", id="from_label"),
                    self.account_chips(deposits, form.source, "source", "from")]
        if form.kind == "transfer":
            content.append(Text("To", style="caption", id="to_label"))
            content += [ListItem(a.name, masked(a.number), id=f"to_{a.id}",
                                 glyph="●" if a.id == form.to_account else "○",
                                 on_click=partial(self.set_form, to_account=a.id))
                        for a in data.accounts if a.id != form.source]
        elif form.kind == "payment":
            payees = sorted(data.payees, key=lambda p: p.name.lower())
            content.append(Text("Payee", style="caption", id="payee_label"))
            content += [ListItem(p.name, self.t("Account {number}", number=masked(p.number)),
                                 id=f"pick_payee_{p.id}",
                                 glyph="●" if p.id == form.payee else "○",
                                 on_click=partial(self.set_form, payee=p.id))
                        for p in payees]
        if form.error:
            content.append(Text(form.error, style="caption", id="form_error"))
        content.append(Button("Review", self.review, id="review"))
        actions: list[Node] = []
        payee = data.payees.get(form.payee) if form.kind == "payment" else None
        if payee is not None:
            actions.append(Icon("★" if payee.favorite else "☆",
                                "Remove from favorites" if payee.favorite else "Add to favorites",
                                partial(self.toggle_favorite, payee.id), id="favorite"))
        return Screen(top_bar=TopBar(title, on_back=self.back, actions=actions), content=content)

    def toggle_favorite(self, payee_id: int) -> None:
        payee = self.data.payees.get(payee_id)
        if payee is not None:
            self.data.payees.update(payee_id, favorite=not payee.favorite)

    def review_screen(self) -> Screen:
        form, data = self.ui.form, self.data
        source = data.accounts.get(form.source)
        amount = parse_amount(form.amount) or 0
        assert source is not None
        if form.kind == "transfer":
            target = data.accounts.get(form.to_account)
            to = target.name if target else ""
        elif form.kind == "payment":
            payee = data.payees.get(form.payee)
            to = f"{payee.name} ({masked(payee.number)})" if payee else ""
        else:
            bill = data.bills.get(form.bill)
            to = bill.biller if bill else ""
        rows = [Detail("From", f"{source.name} {masked(source.number)}", id="review_from"),
                Detail("To", to, id="review_to"),
                Detail("Amount", self.money(amount), id="review_amount")]
        if form.memo.strip() and form.kind != "bill":
            rows.append(Detail("Memo", form.memo.strip(), id="review_memo"))
        if form.repeat != "Once":
            rows.append(Detail("Repeats", self.t("{repeat} from {day}", repeat=self.t(form.repeat),
                                                 day=self.day(form.start)),
                               id="review_repeat"))
        body: list[Node] = []
        if form.repeat == "Once" and amount > source.balance:
            body.append(Text(self.t("Warning: this will overdraw {name} (available {amount}).",
                                    name=source.name, amount=self.money(source.balance)),
                             id="overdraw"))
        body.append(Button("Confirm", self.confirm, id="confirm"))
        return DetailPage("Review", rows, on_back=self.back, body=body)

    def payee_screen(self) -> Screen:
        ui = self.ui
        content: list[Node] = [
            TextField(ui.payee_name, lambda v: self.set_ui(payee_name=v), hint="Name",
                      id="payee_name", label="Payee name"),
            TextField(ui.payee_number, lambda v: self.set_ui(payee_number=v),
                      hint="Account number", id="payee_number", label="Account number"),
            Button("Save payee", self.save_payee, id="save_payee"),
        ]
        if ui.payee_error:
            content.append(Text(ui.payee_error, style="caption", id="payee_error"))
        return Screen(top_bar=TopBar("Add a payee", on_back=self.back), content=content)

    def scheduled_screen(self) -> Screen:
        rows = [p for p in self.data.payments if p.repeat != "Once"]
        content = [VirtualList(len(rows), lambda i: ListItem(
            rows[i].payee, f"{self.money(rows[i].amount)} · "
            + self.t("{repeat} from {day}", repeat=self.t(rows[i].repeat),
                     day=self.day(rows[i].date)),
            id=f"scheduled_{rows[i].id}"), id="scheduled_list",
            empty_text="No scheduled payments")]
        return Screen(top_bar=TopBar("Scheduled payments", on_back=self.back),
                      content=content)

    def card_page(self, account_id: int) -> Screen:
        a = self.data.accounts.get(account_id)
        assert a is not None
        number = a.number if self.ui.show_number else masked(a.number)
        body: list[Node] = [
            Toggle("Lock card", a.locked, lambda: self.toggle_lock(a.id), id="lock"),
            Button("Travel notice", lambda: self.go_travel(a.id), id="travel",
                   style="secondary"),
            Button("Hide card number" if self.ui.show_number else "Show card number",
                   lambda: self.set_ui(show_number=not self.ui.show_number), id="show_number",
                   style="secondary"),
        ]
        return DetailPage(a.name, [Detail("Card number", number, id="card_number"),
                                   Detail("Balance owed", self.money(a.balance), id="owed"),
                                   Detail("Travel notice", a.travel_notice or "None",
                                          id="travel_notice")],
                          on_back=self.back, body=body)

    def go_travel(self, account_id: int) -> None:
        self.ui.travel = ""
        self.go("travel", account_id)

    def travel_screen(self, account_id: int) -> Screen:
        return Screen(top_bar=TopBar("Travel notice", on_back=self.back), content=[
            TextField(self.ui.travel, lambda v: self.set_ui(travel=v),
                      hint="Where are you going?", id="destination", label="Destination"),
            Button("Save", lambda: self.save_travel(account_id), id="save_travel"),
        ])
