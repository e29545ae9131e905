"""Food Order: a mini-program inside Chat (WeChat) for ordering food delivery.

Restaurants (searchable), each with a menu; a dish with options (size, spice...) asks for
one when it is added; the cart shows on the restaurant's page; checkout lists the cart
(lines can be removed), the delivery address (one of the saved ones), the delivery fee and
the total, and pays through the host's wallet (``kit.PaySheet``). "My orders" lists past
orders; one can be ordered again ("Reorder": its items into the cart, same address).

Restaurants, dishes, saved addresses and orders are the mini-program's own ``Store``
(``apps.FoodOrder...``); an order's ``items`` are ``[dish, option, quantity]`` triples.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...world.app import App, Route, app_strings
from ...world.data import Store, Table
from ...world.kit import (
    ChoiceDialog,
    NavRow,
    PaySheet,
    PayState,
    SearchList,
    pay,
    with_capsule,
    yuan,
)
from ...world.kit.localize import in_locale
from ...world.locale import DEFAULT_LOCALE
from ...world.widgets import (
    Button,
    Icon,
    ListItem,
    ListView,
    Node,
    Row,
    Screen,
    Text,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

Item = tuple[str, str, int]  # dish name, option ("" when none), quantity


@dataclass(frozen=True)
class Restaurant:
    id: int
    name: str
    cuisine: str
    rating: int  # tenths
    fee: int  # delivery fee, cents


@dataclass(frozen=True)
class Dish:
    """A menu entry: ``price`` in cents; ``options``: the choices of ``option_name``."""

    id: int
    restaurant: int
    name: str
    price: int
    option_name: str = ""
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class Address:
    id: int
    label: str
    text: str


@dataclass(frozen=True)
class FoodOrder:
    id: int
    restaurant: int
    restaurant_name: str
    items: tuple[Item, ...]
    address: str
    total: int
    status: str = "paid"


@dataclass
class FoodData(Store):
    restaurants: Table[Restaurant] = field(default_factory=lambda: Table(kind=Restaurant))
    dishes: Table[Dish] = field(default_factory=lambda: Table(kind=Dish))
    addresses: Table[Address] = field(default_factory=lambda: Table(kind=Address))
    orders: Table[FoodOrder] = field(default_factory=lambda: Table(kind=FoodOrder))


def order_id(o: FoodOrder) -> int:
    return o.id


def newest_orders(data: FoodData) -> Sequence[FoodOrder]:
    """The orders, newest first (an index kept on write: the list builds only the rows on
    screen)."""
    return data.orders.index("by_id", order_id).view(data.orders, reverse=True)


@dataclass
class FoodUi:
    """Transient state: the search, the cart (of one restaurant), the dialogs."""

    query: str = ""
    restaurant: int | None = None
    cart: list[tuple[int, str, int]] = field(default_factory=list)  # dish id, option, qty
    choosing: int | None = None  # the dish whose option dialog shows
    address: int | None = None
    picking_address: bool = False
    paying: PayState | None = None


def add_to_cart(cart: list[tuple[int, str, int]], dish_id: int, option: str) -> None:
    for i, (d, o, q) in enumerate(cart):
        if (d, o) == (dish_id, option):
            cart[i] = (d, o, q + 1)
            return
    cart.append((dish_id, option, 1))


def normal_items(items: Any) -> list[tuple[str, str, int]]:
    """Order items as sorted ``(dish, option, qty)`` tuples (from records or snapshots)."""
    out = []
    for item in items or ():
        dish, option, qty = item
        out.append((str(dish).strip().lower(), str(option).strip().lower(), int(qty)))
    return sorted(out)


class FoodOrderApp(App):
    manifest = MANIFEST

    data: FoodData
    ui: FoodUi

    def initial_data(self) -> FoodData:
        return FoodData()

    def make_indexes(self) -> None:
        newest_orders(self.data)

    def initial_ui(self) -> FoodUi:
        return FoodUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def toast(self, text: str) -> None:
        """A toast; the kit's own (the capsule menu's "Link copied") in the locale's words."""
        if self.system.locale != DEFAULT_LOCALE:
            text = app_strings(type(self), self.system.locale).strings.get(text, text)
        super().toast(text)

    # --- handlers ------------------------------------------------------------------------
    def open_restaurant(self, rid: int) -> None:
        if self.ui.restaurant != rid:
            self.ui.cart = []
        self.ui.restaurant = rid
        self.go("restaurant", rid)

    def tap_dish(self, dish: Dish) -> None:
        if dish.options:
            self.ui.choosing = dish.id
        else:
            self.add(dish.id, "")

    def add(self, dish_id: int, option: str) -> None:
        self.ui.choosing = None
        add_to_cart(self.ui.cart, dish_id, option)
        dish = self.data.dishes.get(dish_id)
        if dish is not None:
            self.toast(self.t("Added {dish}", dish=dish.name))

    def remove_line(self, index: int) -> None:
        if 0 <= index < len(self.ui.cart):
            d, o, q = self.ui.cart[index]
            if q > 1:
                self.ui.cart[index] = (d, o, q - 1)
            else:
                self.ui.cart.pop(index)

    def cart_lines(self) -> list[tuple[Dish, str, int]]:
        out = []
        for d, o, q in self.ui.cart:
            dish = self.data.dishes.get(d)
            if dish is not None:
                out.append((dish, o, q))
        return out

    def subtotal(self) -> int:
        return sum(d.price * q for d, _, q in self.cart_lines())

    def fee(self) -> int:
        r = self.data.restaurants.get(self.ui.restaurant) if self.ui.restaurant else None
        return r.fee if r else 0

    def chosen_address(self) -> Address | None:
        if self.ui.address is not None:
            found = self.data.addresses.get(self.ui.address)
            if found is not None:
                return found
        return next(iter(sorted(self.data.addresses, key=lambda a: a.id)), None)

    def checkout(self) -> None:
        if not self.ui.cart:
            self.toast(self.t("Your cart is empty"))
            return
        self.ui.paying = None
        self.go("checkout")

    def ask_pay(self) -> None:
        r = self.data.restaurants.get(self.ui.restaurant) if self.ui.restaurant else None
        if r is None or not self.ui.cart or self.chosen_address() is None:
            return
        self.ui.paying = PayState(self.subtotal() + r.fee, r.name, self.t("Food order"))

    def set_pin(self, pin: str) -> None:
        if self.ui.paying is not None:
            self.ui.paying.pin = pin

    def confirm_pay(self) -> None:
        r = self.data.restaurants.get(self.ui.restaurant) if self.ui.restaurant else None
        address, state = self.chosen_address(), self.ui.paying
        if r is None or address is None or state is None or pay(self.system, state):
            return
        items = tuple((d.name, o, q) for d, o, q in self.cart_lines())
        self.data.orders.new(restaurant=r.id, restaurant_name=r.name, items=items,
                             address=address.text, total=state.amount, status="paid")
        self.ui.cart, self.ui.paying = [], None
        self.toast(self.t("Order placed"))
        self.stack = [Route("main"), Route("orders")]

    def reorder(self, order_id: int) -> None:
        o = self.data.orders.get(order_id)
        if o is None:
            return
        by_name = {d.name: d for d in self.data.dishes if d.restaurant == o.restaurant}
        self.ui.restaurant, self.ui.cart = o.restaurant, []
        for name, option, qty in o.items:
            if name in by_name:
                self.ui.cart.append((by_name[name].id, option, qty))
        self.ui.address = next((a.id for a in self.data.addresses if a.text == o.address),
                               None)
        self.checkout()

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name == "restaurant":
            screen = self.restaurant_screen(route.arg)
        elif route.name == "checkout":
            screen = self.checkout_screen()
        elif route.name == "orders":
            screen = self.orders_screen()
        elif route.name == "order":
            screen = self.order_screen(route.arg)
        else:
            screen = self.home_screen()
        screen = with_capsule(self, screen)
        return in_locale(self, screen)

    def home_screen(self) -> Screen:
        q = self.ui.query.strip().lower()
        shown = sorted((r for r in self.data.restaurants
                        if not q or q in r.name.lower() or q in r.cuisine.lower()),
                       key=lambda r: r.id)

        def row(i: int) -> Node:
            r = shown[i]
            return ListItem(r.name, self.t("{cuisine} · {rating} ★ · delivery {fee}",
                                           cuisine=r.cuisine, rating=f"{r.rating / 10:.1f}",
                                           fee=yuan(r.fee)),
                            id=f"restaurant_{r.id}", glyph=r.name[:1],
                            on_click=lambda: self.open_restaurant(r.id))
        return Screen(top_bar=TopBar("Food Order"), content=[
            NavRow("My orders", lambda: self.go("orders"), id="my_orders"),
            *SearchList(self.ui.query, lambda v: self.set_ui(query=v), len(shown), row,
                        id="restaurant_list", hint="Search restaurants or dishes",
                        empty_text="No restaurants"),
        ])

    def restaurant_screen(self, rid: int) -> Screen:
        r = self.data.restaurants.get(rid)
        if r is None:
            return Screen(top_bar=TopBar("Restaurant", on_back=self.back), content=[])
        dishes = sorted((d for d in self.data.dishes if d.restaurant == rid), key=lambda d: d.id)
        colon = self.t(": ")
        rows = [ListItem(d.name, yuan(d.price) + (f" · {d.option_name}{colon}"
                                                  f"{'/'.join(d.options)}" if d.options else ""),
                         id=f"dish_{d.id}", on_click=lambda d=d: self.tap_dish(d))  # type: ignore[misc]
                for d in dishes]
        count = sum(q for _, _, q in self.ui.cart)
        dialog = None
        dish = self.data.dishes.get(self.ui.choosing) if self.ui.choosing else None
        if dish is not None:
            dialog = ChoiceDialog(f"{dish.name}{colon}{dish.option_name}", list(dish.options), "",
                                  lambda o: self.add(dish.id, o),
                                  lambda: self.set_ui(choosing=None))
        return Screen(
            top_bar=TopBar(r.name, on_back=self.back),
            content=[Text(f"{r.cuisine} · {r.rating / 10:.1f} ★", style="caption",
                          id="restaurant_info"),
                     ListView(rows, id="menu", empty_text="No dishes"),
                     Text(self.t("Cart: {count} items · {total}", count=count,
                                 total=yuan(self.subtotal())), id="cart_summary"),
                     Button("Checkout", self.checkout, id="checkout", enabled=count > 0)],
            dialog=dialog, on_dismiss=lambda: self.set_ui(choosing=None))

    def checkout_screen(self) -> Screen:
        lines = self.cart_lines()
        colon = self.t(": ")
        rows = [ListItem(f"{q} × {d.name}", (f"{o} · " if o else "") + yuan(d.price * q),
                         id=f"line_{i}",
                         trailing=Icon("−", self.t("Remove one {dish}", dish=d.name),
                                       lambda i=i: self.remove_line(i),  # type: ignore[misc]
                                       id=f"remove_{i}"))
                for i, (d, o, q) in enumerate(lines)]
        address = self.chosen_address()
        addresses = sorted(self.data.addresses, key=lambda a: a.id)
        dialog = None
        if self.ui.paying is not None:
            dialog = PaySheet(self.ui.paying, on_pin=self.set_pin, on_pay=self.confirm_pay,
                              on_cancel=lambda: self.set_ui(paying=None))
        elif self.ui.picking_address and addresses:
            labels = [f"{a.label}{colon}{a.text}" for a in addresses]

            def pick(label: str) -> None:
                self.ui.address = addresses[labels.index(label)].id
                self.ui.picking_address = False
            dialog = ChoiceDialog("Deliver to", labels,
                                  f"{address.label}{colon}{address.text}" if address else "",
                                  pick,
                                  lambda: self.set_ui(picking_address=False))

        def dismiss() -> None:
            self.ui.paying, self.ui.picking_address = None, False
        total = self.subtotal() + self.fee()
        return Screen(
            top_bar=TopBar("Checkout", on_back=self.back),
            content=[ListView(rows, id="cart", empty_text="Your cart is empty"),
                     ListItem("Deliver to", f"{address.label}{colon}{address.text}" if address
                              else "Add an address", id="address",
                              on_click=lambda: self.set_ui(picking_address=True)),
                     Row([Text(self.t("Delivery {fee}", fee=yuan(self.fee())), id="fee"),
                          Text(self.t("Total {total}", total=yuan(total)), id="total")]),
                     Button(self.t("Pay {total}", total=yuan(total)), self.ask_pay,
                            id="place_order",
                            enabled=bool(lines) and address is not None)],
            dialog=dialog, on_dismiss=dismiss)

    def orders_screen(self) -> Screen:
        orders = newest_orders(self.data)

        def row(i: int) -> Node:
            o = orders[i]
            what = self.t(", ").join(f"{q} × {n}" for n, _, q in o.items)
            return ListItem(o.restaurant_name, f"{what} · {yuan(o.total)}", id=f"order_{o.id}",
                            on_click=lambda: self.go("order", o.id))
        return Screen(top_bar=TopBar("My orders", on_back=self.back),
                      content=[VirtualList(len(orders), row, id="order_list",
                                           empty_text="No orders yet")])

    def order_screen(self, order_id: int) -> Screen:
        o = self.data.orders.get(order_id)
        if o is None:
            return Screen(top_bar=TopBar("Order", on_back=self.back), content=[])
        items = [Text(f"{q} × {n}" + (self.t(" ({option})", option=opt) if opt else ""),
                      id=f"item_{i}")
                 for i, (n, opt, q) in enumerate(o.items)]
        return Screen(top_bar=TopBar(o.restaurant_name, on_back=self.back), content=[
            *items,
            Text(self.t("Deliver to {address}", address=o.address), id="order_address"),
            Text(self.t("Total {total} · {status}", total=yuan(o.total),
                        status=self.t(o.status)), id="order_total"),
            Button("Reorder", lambda: self.reorder(order_id), id="reorder"),
        ])
