"""Delivery: restaurants by cuisine, menus with options, a cart, checkout with an address and
a tip, and orders whose status follows the phone's clock.

Persistent ``DeliveryData`` holds restaurants, dishes, the cart, and orders (their lines in a
table of their own). What an order shows (confirming, preparing, on the way, delivered)
follows from when it was placed and ``system.now``, so an agent may have to ``wait``; it can be
cancelled only while the restaurant is preparing it. When each order was placed is kept
untracked (``placed``, outside snapshots, like the clock): verifiers compare what was ordered
and its status, and the same order placed a minute later is the same order. Prices are cents.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial

from ...world.app import App, Route
from ...world.data import Store, Table, WatchedDict
from ...world.kit import BottomSheet, Chips, ChoiceDialog, ConfirmDialog, SearchList, ValueRow
from ...world.kit.localize import in_locale
from ...world.kit.searchbar import SearchAppBar, SearchField
from ...world.locale import DEFAULT_LOCALE, format_date, format_money
from ...world.widgets import (
    Button,
    Icon,
    ListItem,
    Node,
    Row,
    Screen,
    Tab,
    TabBar,
    Text,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

CUISINES = ("Thai", "Italian", "Mexican", "Indian", "Japanese", "Burgers")
SORTS = ("Recommended", "Fastest delivery", "Rating", "Delivery fee")
TIPS = ("No tip", "10%", "15%", "20%")
ADDRESSES = ("Home", "Work")
SERVICE_FEE = 199  # cents on every order
#: Minutes after placing: confirming until CONFIRM, preparing until ON_THE_WAY.
CONFIRM, ON_THE_WAY = 2, 15
TABS = ("Home", "Orders", "Cart")


def money(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Restaurant:
    id: int
    name: str
    cuisine: str
    rating: float
    eta: int  # minutes from placing to the door
    fee: int  # delivery fee, cents
    favorite: bool = False


@dataclass(frozen=True)
class Dish:
    id: int
    restaurant_id: int
    name: str
    price: int
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class CartLine:
    id: int
    dish_id: int
    option: str = ""
    qty: int = 1


@dataclass(frozen=True)
class FoodOrder:
    """An order; ``status`` is Placed or Cancelled (what it shows follows the clock)."""

    id: int
    restaurant_id: int
    ref: str  # the order number shown
    address: str
    tip_percent: int
    total: int
    status: str = "Placed"


@dataclass(frozen=True)
class FoodLine:
    id: int
    order_id: int
    dish_id: int
    option: str = ""
    qty: int = 1


@dataclass
class DeliveryData(Store):
    restaurants: Table[Restaurant] = field(default_factory=lambda: Table(kind=Restaurant))
    dishes: Table[Dish] = field(default_factory=lambda: Table(kind=Dish))
    cart: Table[CartLine] = field(default_factory=lambda: Table(kind=CartLine))
    orders: Table[FoodOrder] = field(default_factory=lambda: Table(kind=FoodOrder))
    lines: Table[FoodLine] = field(default_factory=lambda: Table(kind=FoodLine))
    #: When each order was placed (order id -> ISO date and time): untracked (a reset puts
    #: back the times written since, not a copy of them all).
    placed: dict[int, str] = field(default_factory=WatchedDict)

    untracked = ("placed",)


@dataclass
class DeliveryUi:
    tab: str = "Home"
    query: str = ""
    cuisine: str = ""
    sort: str = "Recommended"
    option: str = ""
    qty: int = 1
    tip: str = "15%"
    address: str = "Home"
    dialog: str = ""  # sort, address, line, cancel, new_cart
    dialog_arg: int = 0


# --- updates -------------------------------------------------------------------------------
def placed_at(data: DeliveryData, order: FoodOrder) -> datetime:
    return datetime.fromisoformat(data.placed.get(order.id, "2000-01-01T00:00:00"))


def line_order(line: FoodLine) -> int:
    return line.order_id


def same_place(line: FoodLine) -> int:
    """An order's lines in the table's order (all tie)."""
    return 0


def lines_of(data: DeliveryData, order_id: int) -> Sequence[FoodLine]:
    """An order's lines, in the table's order (a grouping kept on write)."""
    return data.lines.grouping("by_order", line_order, same_place).view(order_id)


def order_placed(data: DeliveryData, order: FoodOrder) -> tuple[datetime, int]:
    return placed_at(data, order), order.id


def newest_orders(data: DeliveryData) -> Sequence[FoodOrder]:
    """The orders, the last placed first (an index kept on write: the list builds only the
    rows on screen). An order's time in ``placed`` is written before the order."""
    return data.orders.index("placed", partial(order_placed, data)).view(data.orders,
                                                                        reverse=True)


def stage(order: FoodOrder, eta: int, now: datetime, placed: datetime) -> str:
    """What an order placed at ``placed`` shows at ``now``."""
    if order.status == "Cancelled":
        return "Cancelled"
    minutes = (now - placed).total_seconds() / 60
    if minutes < CONFIRM:
        return "Confirming your order"
    if minutes < ON_THE_WAY:
        return "Preparing"
    if minutes < eta:
        return "On the way"
    return "Delivered"


def next_ref(data: DeliveryData) -> str:
    """The number of the next order."""
    return f"{4101 + len(data.orders)}"


def tip_percent(label: str) -> int:
    return int(label.rstrip("%")) if label.endswith("%") else 0


def order_total(subtotal: int, fee: int, tip: int) -> int:
    """Items, delivery fee, service fee and a tip of ``tip`` percent of the items."""
    return subtotal + fee + SERVICE_FEE + round(subtotal * tip / 100)


# --- the app -------------------------------------------------------------------------------
class DeliveryApp(App):
    manifest = MANIFEST

    data: DeliveryData
    ui: DeliveryUi

    def initial_data(self) -> DeliveryData:
        return DeliveryData()

    def make_indexes(self) -> None:
        newest_orders(self.data)
        lines_of(self.data, 0)

    def initial_ui(self) -> DeliveryUi:
        return DeliveryUi()

    @property
    def ticking(self) -> bool:
        return self.route.name == "order"

    def money(self, cents: int) -> str:
        """An amount as the locale writes it: "$12.50" / "¥12.50"."""
        return money(cents) if self.system.locale == DEFAULT_LOCALE \
            else format_money(cents, self.system.locale)

    def address(self, name: str) -> str:
        """A saved address's name as the screen writes it ("Home" / 家)."""
        if self.system.locale == DEFAULT_LOCALE or name not in ADDRESSES:
            return name
        return self.t(f"address:{name}")

    def toast(self, text: str) -> None:
        """A toast in the locale's words."""
        super().toast(self.t(text))

    def set(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def close_dialog(self) -> None:
        self.ui.dialog = ""

    def restaurant(self, rid: int) -> Restaurant | None:
        return self.data.restaurants.get(rid)

    def cart_restaurant(self) -> Restaurant | None:
        for line in self.data.cart:
            dish = self.data.dishes.get(line.dish_id)
            if dish is not None:
                return self.restaurant(dish.restaurant_id)
        return None

    def subtotal(self) -> int:
        total = 0
        for line in self.data.cart:
            dish = self.data.dishes.get(line.dish_id)
            total += dish.price * line.qty if dish else 0
        return total

    def shown_restaurants(self) -> list[Restaurant]:
        q = self.ui.query.strip().lower()
        out = [r for r in self.data.restaurants
               if (not self.ui.cuisine or r.cuisine == self.ui.cuisine)
               and (not q or q in r.name.lower() or q in r.cuisine.lower())]
        keys = {"Fastest delivery": lambda r: (r.eta, r.id), "Rating": lambda r: (-r.rating, r.id),
                "Delivery fee": lambda r: (r.fee, r.id)}
        return sorted(out, key=keys.get(self.ui.sort, lambda r: (r.id,)))

    # updates through the UI
    def open_dish(self, dish_id: int) -> None:
        dish = self.data.dishes.get(dish_id)
        if dish is not None:
            self.set(option=dish.options[0] if len(dish.options) == 1 else "", qty=1)
            self.go("dish", dish_id)

    def add_dish(self, dish: Dish, *, replace: bool = False) -> None:
        if dish.options and self.ui.option not in dish.options:
            self.toast("Choose an option first")
            return
        current = self.cart_restaurant()
        if current is not None and current.id != dish.restaurant_id:
            if not replace:
                self.set(dialog="new_cart", dialog_arg=dish.id)
                return
            for line in list(self.data.cart):
                self.data.cart.remove(line.id)
        same = self.data.cart.first(dish_id=dish.id, option=self.ui.option)
        if same is not None:
            self.data.cart.update(same.id, qty=same.qty + self.ui.qty)
        else:
            self.data.cart.new(dish_id=dish.id, option=self.ui.option, qty=self.ui.qty)
        self.close_dialog()
        self.back()
        self.toast("Added to cart")

    def change_qty(self, line_id: int, delta: int) -> None:
        line = self.data.cart.get(line_id)
        if line is None:
            return
        if line.qty + delta <= 0:
            self.data.cart.remove(line_id)
            self.close_dialog()
        else:
            self.data.cart.update(line_id, qty=min(20, line.qty + delta))

    def open_cart(self) -> None:
        self.stack = [Route("main")]
        self.ui.tab = "Cart"

    def place_order(self) -> None:
        r = self.cart_restaurant()
        if r is None:
            return
        tip = tip_percent(self.ui.tip)
        total = order_total(self.subtotal(), r.fee, tip)
        # the time first: the orders' index (``newest_orders``) reads it
        self.data.placed[self.data.orders.next_id] = self.system.now.isoformat(
            timespec="seconds")
        order = self.data.orders.new(restaurant_id=r.id, ref=next_ref(self.data),
                                     address=self.ui.address, tip_percent=tip, total=total)
        for line in list(self.data.cart):
            self.data.lines.new(order_id=order.id, dish_id=line.dish_id, option=line.option,
                                qty=line.qty)
            self.data.cart.remove(line.id)
        self.stack = [Route("main"), Route("order", order.id)]
        self.ui.tab = "Orders"
        self.toast("Order placed")

    def reorder(self, order_id: int) -> None:
        """Fill the cart with an order's items (emptying it first) and open checkout."""
        lines = [x for x in lines_of(self.data, order_id)
                 if self.data.dishes.get(x.dish_id) is not None]
        if not lines:
            return
        for line in list(self.data.cart):
            self.data.cart.remove(line.id)
        for x in lines:
            self.data.cart.new(dish_id=x.dish_id, option=x.option, qty=x.qty)
        self.go("checkout")

    def cancel(self, order_id: int) -> None:
        order = self.data.orders.get(order_id)
        r = self.restaurant(order.restaurant_id) if order else None
        if order is not None and r is not None and \
                stage(order, r.eta, self.system.now, placed_at(self.data, order)) == "Preparing":
            self.data.orders.update(order_id, status="Cancelled")
            self.toast("Order cancelled")
        self.close_dialog()

    # views
    def view(self, route: Route) -> Screen:
        screen = self.screen(route)
        return in_locale(self, screen)

    def screen(self, route: Route) -> Screen:
        if route.name == "restaurant" and self.restaurant(route.arg) is not None:
            return self.restaurant_screen(route.arg)
        if route.name == "dish" and self.data.dishes.get(route.arg) is not None:
            return self.dish_screen(route.arg)
        if route.name == "checkout":
            return self.checkout_screen()
        if route.name == "order" and self.data.orders.get(route.arg) is not None:
            return self.order_screen(route.arg)
        return self.main_screen()

    def restaurant_row(self, r: Restaurant) -> Node:
        fee = self.t("Free delivery") if r.fee == 0 \
            else self.t("{fee} delivery", fee=self.money(r.fee))
        heart = Icon("♥" if r.favorite else "♡",
                     self.t("Remove {name} from favorites", name=r.name) if r.favorite
                     else self.t("Save {name} to favorites", name=r.name),
                     lambda: self.data.restaurants.update(r.id, favorite=not r.favorite),
                     id=f"favorite_{r.id}")
        return ListItem(r.name, f"★{r.rating:.1f} · " + self.t("{n} min", n=r.eta)
                        + f" · {fee} · {self.t(r.cuisine)}",
                        id=f"restaurant_{r.id}", on_click=lambda: self.go("restaurant", r.id),
                        trailing=heart)

    def main_screen(self) -> Screen:
        ui = self.ui
        content: list[Node]
        if ui.tab == "Orders":
            orders = newest_orders(self.data)
            content = [VirtualList(len(orders), lambda i: self.order_row(orders[i]),
                                   id="orders", empty_text="No orders yet")]
        elif ui.tab == "Cart":
            content = self.cart_content()
        else:
            shown = self.shown_restaurants()
            content = [
                Chips(CUISINES, (ui.cuisine,),
                      lambda c: self.set(cuisine="" if ui.cuisine == c else c), id="cuisines"),
                Button(self.t("Sort: {sort}", sort=self.t(ui.sort)),
                       lambda: self.set(dialog="sort"), id="sort", style="secondary"),
                *SearchList(ui.query, lambda v: self.set(query=v), len(shown),
                            lambda i: self.restaurant_row(shown[i]), id="restaurants",
                            hint="Search restaurants or cuisines",
                            empty_text="No restaurants")[1:],  # its field is the app bar
            ]
        dialog: Node | None = None
        if ui.dialog == "sort" and ui.tab == "Home":
            dialog = ChoiceDialog("Sort by", SORTS, ui.sort,
                                  lambda s: self.set(sort=s, dialog=""), self.close_dialog)
        elif ui.dialog == "line" and ui.tab == "Cart":
            dialog = self.line_sheet(ui.dialog_arg)
        tabs = TabBar([Tab(t, ui.tab == t, partial(self.set, tab=t, dialog=""),
                           id=f"tab_{t.lower()}") for t in TABS])
        # Home: no title, a search bar as the app bar (Uber Eats')
        bar = (SearchAppBar(SearchField(ui.query, lambda v: self.set(query=v),
                                        hint="Search restaurants or cuisines"))
               if ui.tab == "Home" else TopBar(ui.tab))
        return Screen(top_bar=bar,
                      content=content, bottom=tabs, dialog=dialog, on_dismiss=self.close_dialog)

    def order_row(self, o: FoodOrder) -> Node:
        r = self.restaurant(o.restaurant_id)
        placed = placed_at(self.data, o)
        shown = stage(o, r.eta, self.system.now, placed) if r else o.status
        when = f"{placed:%b %d, %H:%M}" if self.system.locale == DEFAULT_LOCALE else \
            f"{format_date(placed.date(), self.system.locale, year=False)} {placed:%H:%M}"
        return ListItem(r.name if r else self.t("Restaurant"),
                        f"{self.t(shown)} · {when} · {self.money(o.total)}",
                        id=f"order_{o.id}", on_click=lambda: self.go("order", o.id))

    def cart_content(self) -> list[Node]:
        lines = [x for x in self.data.cart if self.data.dishes.get(x.dish_id)]
        r = self.cart_restaurant()

        def row(i: int) -> Node:
            line = lines[i]
            dish = self.data.dishes.get(line.dish_id)
            assert dish is not None
            opt = f"{line.option} · " if line.option else ""
            return ListItem(dish.name, opt + self.t("Qty {n}", n=line.qty)
                            + f" · {self.money(dish.price * line.qty)}",
                            id=f"cart_{line.id}",
                            on_click=lambda: self.set(dialog="line", dialog_arg=line.id),
                            menu=[("Remove", lambda: self.change_qty(line.id, -line.qty))])

        return [Text(r.name if r else "Your cart", style="title", id="cart_restaurant"),
                VirtualList(len(lines), row, id="cart", empty_text="Your cart is empty"),
                Text(self.t("Subtotal: {amount}", amount=self.money(self.subtotal())),
                     id="subtotal"),
                Button("Go to checkout", lambda: self.go("checkout"), id="checkout",
                       enabled=bool(lines))]

    def line_sheet(self, line_id: int) -> Node | None:
        line = self.data.cart.get(line_id)
        dish = self.data.dishes.get(line.dish_id) if line else None
        if line is None or dish is None:
            return None
        return BottomSheet(dish.name, [
            ("Add one more", lambda: self.change_qty(line_id, 1)),
            ("Remove one", lambda: self.change_qty(line_id, -1)),
            ("Remove from cart", lambda: self.change_qty(line_id, -line.qty)),
        ], body=[Text(self.t("Qty {n}", n=line.qty), id="sheet_qty")])

    def restaurant_screen(self, rid: int) -> Screen:
        r = self.restaurant(rid)
        assert r is not None
        dishes = self.data.dishes.where(restaurant_id=rid)
        fee = self.t("Free delivery") if r.fee == 0 \
            else self.t("{fee} delivery fee", fee=self.money(r.fee))
        return Screen(
            top_bar=TopBar(r.name, on_back=self.back,
                           actions=[Icon("🛒", "Cart", self.open_cart, id="cart_icon")]),
            content=[Text(f"★{r.rating:.1f} · " + self.t("{n} min", n=r.eta) + f" · {fee}",
                          id="facts"),
                     Text(self.t(r.cuisine), style="caption", id="cuisine"),
                     VirtualList(len(dishes), lambda i: self.dish_row(dishes[i]),
                                 id="menu")])

    def dish_row(self, dish: Dish) -> Node:
        """A menu row; its "+" adds one at once (a dish with options opens its page)."""
        def quick_add() -> None:
            if dish.options:
                self.open_dish(dish.id)
            else:
                self.set(option="", qty=1)
                self.go("dish", dish.id)
                self.add_dish(dish)

        plus = Icon("+", self.t("Add {name}", name=dish.name), quick_add, id=f"add_{dish.id}")
        return ListItem(dish.name, self.money(dish.price), id=f"dish_{dish.id}",
                        on_click=partial(self.open_dish, dish.id), trailing=plus)

    def dish_screen(self, dish_id: int) -> Screen:
        dish = self.data.dishes.get(dish_id)
        assert dish is not None
        ui = self.ui
        content: list[Node] = [Text(dish.name, style="title", id="dish_name"),
                               Text(self.money(dish.price), id="dish_price")]
        if dish.options:
            content += [Text("Choose one", style="caption", id="options_title"),
                        Chips(dish.options, (ui.option,), lambda o: self.set(option=o),
                              id="options")]
        content += [
            Row([Icon("−", "Decrease quantity", lambda: self.set(qty=max(1, ui.qty - 1)),
                      id="qty_down"),
                 Text(self.t("Qty {n}", n=ui.qty), id="qty"),
                 Icon("+", "Increase quantity", lambda: self.set(qty=min(20, ui.qty + 1)),
                      id="qty_up")], id="qty_row"),
            Button(self.t("Add {n} to cart · {amount}", n=ui.qty,
                          amount=self.money(dish.price * ui.qty)),
                   lambda: self.add_dish(dish), id="add_to_cart"),
        ]
        dialog = None
        if ui.dialog == "new_cart":
            dialog = ConfirmDialog("Start a new cart?",
                                   "Your cart holds items from another restaurant.",
                                   on_confirm=lambda: self.add_dish(dish, replace=True),
                                   on_cancel=self.close_dialog, confirm="New cart")
        return Screen(top_bar=TopBar("Add item", on_back=self.back), content=content,
                      dialog=dialog, on_dismiss=self.close_dialog)

    def checkout_screen(self) -> Screen:
        ui = self.ui
        r = self.cart_restaurant()
        if r is None:
            return Screen(top_bar=TopBar("Checkout", on_back=self.back),
                          content=[Text("Your cart is empty", id="empty")])
        sub = self.subtotal()
        tip = tip_percent(ui.tip)
        content = [
            Text(r.name, style="title", id="checkout_restaurant"),
            ValueRow("Deliver to", self.address(ui.address), lambda: self.set(dialog="address"),
                     id="deliver_to"),
            Text("Tip your courier", style="caption", id="tip_title"),
            Chips(TIPS, (ui.tip,), lambda t: self.set(tip=t), id="tips"),
            Text(self.t("Subtotal: {amount}", amount=self.money(sub)), id="checkout_subtotal"),
            Text(self.t("Delivery fee: {amount}", amount=self.money(r.fee)), id="delivery_fee"),
            Text(self.t("Service fee: {amount}", amount=self.money(SERVICE_FEE)),
                 id="service_fee"),
            Text(self.t("Tip: {amount}", amount=self.money(round(sub * tip / 100))),
                 id="tip_amount"),
            Text(self.t("Total: {amount}", amount=self.money(order_total(sub, r.fee, tip))),
                 style="title", id="total"),
            Button("Place order", self.place_order, id="place_order"),
        ]
        dialog = None
        if ui.dialog == "address":
            dialog = ChoiceDialog("Deliver to", ADDRESSES, ui.address,
                                  lambda a: self.set(address=a, dialog=""), self.close_dialog)
            choices = next(c for c in dialog.children if c.id == "choices")
            for radio in choices.children:  # "Home" is the address 家 here, not 首页
                radio.text = self.address(radio.text)
        return Screen(top_bar=TopBar("Checkout", on_back=self.back), content=content,
                      dialog=dialog, on_dismiss=self.close_dialog)

    def order_screen(self, order_id: int) -> Screen:
        o = self.data.orders.get(order_id)
        assert o is not None
        r = self.restaurant(o.restaurant_id)
        eta = r.eta if r else 30
        placed = placed_at(self.data, o)
        shown = stage(o, eta, self.system.now, placed)
        arrives = placed + timedelta(minutes=eta)
        content: list[Node] = [Text(r.name if r else self.t("Restaurant"), style="title",
                                    id="name"),
                               Text(self.t("Order #{ref}", ref=o.ref), id="ref"),
                               Text(self.t(shown), id="status")]
        if shown == "Confirming your order":
            content.append(Text("Waiting for the restaurant to accept… You can cancel once "
                                "it starts preparing your food.", style="caption",
                                id="loading"))
        if shown in ("Confirming your order", "Preparing", "On the way"):
            content.append(Text(self.t("Arrives at {time}", time=f"{arrives:%H:%M}"),
                                id="arrives"))
        for line in lines_of(self.data, o.id):
            dish = self.data.dishes.get(line.dish_id)
            opt = f"{line.option} · " if line.option else ""
            content.append(ListItem(dish.name if dish else self.t("Item"),
                                    opt + self.t("Qty {n}", n=line.qty),
                                    id=f"line_{line.id}"))
        content += [
            Text(self.t("Total {amount} · tip {tip}% · to {address}", amount=self.money(o.total),
                        tip=o.tip_percent, address=self.address(o.address)), id="total"),
            Button("Reorder", lambda: self.reorder(o.id), id="reorder", style="secondary"),
        ]
        if shown == "Preparing":
            content.append(Button("Cancel order", lambda: self.set(dialog="cancel"),
                                  id="cancel_order", style="danger"))
        dialog = None
        if self.ui.dialog == "cancel":
            dialog = ConfirmDialog("Cancel this order?", "The restaurant has started on it.",
                                   on_confirm=lambda: self.cancel(o.id),
                                   on_cancel=self.close_dialog, confirm="Cancel order",
                                   cancel="Keep order", destructive=True)
        return Screen(top_bar=TopBar("Your order", on_back=self.back), content=content,
                      dialog=dialog, on_dismiss=self.close_dialog)
