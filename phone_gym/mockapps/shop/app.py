"""Shop: an online marketplace (home with categories, search with filters and sorting,
product pages with variants, a cart, checkout, orders, a wishlist and reviews).

Persistent ``ShopData`` holds the catalog, the cart, the wishlist, orders (with their lines
in a table of their own), reviews, the saved cards and addresses, and whether the user has
joined the paid "Shop Plus" membership. Transient ``ShopUi`` holds the search, the filters,
the variant being picked, the checkout's choices and which dialog is open. Prices are cents.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cache, partial
from pathlib import Path

from ...world import pictures
from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import (
    BottomSheet,
    Chips,
    ChoiceDialog,
    ConfirmDialog,
    Image,
    SearchList,
    ValueRow,
    slug,
)
from ...world.kit.localize import in_locale
from ...world.kit.searchbar import SearchAppBar, SearchEntry
from ...world.locale import DEFAULT_LOCALE, format_date, format_money
from ...world.widgets import (
    Button,
    Dialog,
    DialogButton,
    Icon,
    ListItem,
    Node,
    Row,
    Screen,
    Tab,
    TabBar,
    Text,
    TextField,
    Toggle,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

CATEGORIES = ("Shoes", "T-shirts", "Headphones", "Backpacks", "Watches", "Kitchen")
SORTS = ("Best match", "Price: low to high", "Price: high to low", "Rating", "Newest")
RATINGS = ("Any rating", "3+ stars", "4+ stars", "4.5+ stars")
RATING_MIN = {"Any rating": 0.0, "3+ stars": 3.0, "4+ stars": 4.0, "4.5+ stars": 4.5}
RETURN_REASONS = ("Wrong size", "Arrived damaged", "Not as described", "Changed my mind")
SHIPPING = 599  # cents, unless every item ships free or the user has Shop Plus
PLUS_OFFER = "Join Shop Plus: free shipping on everything for $9.99/month."
TABS = ("Home", "Wishlist", "Orders", "Cart")
#: Words the data holds that the screens show in the locale (categories, order statuses).
WORDS = frozenset({*CATEGORIES, "Processing", "Shipped", "Delivered", "Cancelled",
                   "Return requested"})
#: Height of the item photo on the product page (logical pixels).
PHOTO_H = 640


def money(cents: int) -> str:
    """``$12.50``."""
    return f"${cents // 100}.{cents % 100:02d}"


@cache
def seeded_english(locale: str) -> dict[str, str]:
    """The English of the data the fixtures seed in ``locale`` (``strings/<locale>.data.json``
    read backwards: 网面训练鞋 -> Court Trainer); {} in en-US."""
    path = Path(__file__).parent / "strings" / f"{locale}.data.json"
    if locale == DEFAULT_LOCALE or not path.exists():
        return {}
    return {v: k for k, v in json.loads(path.read_text(encoding="utf-8")).items()}


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Product:
    id: int
    name: str
    category: str
    brand: str
    price: int
    rating: float
    added: int = 0  # days since listed (Newest sorts by it)
    free_shipping: bool = False
    sizes: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()


@dataclass(frozen=True)
class CartLine:
    id: int
    product_id: int
    size: str = ""
    color: str = ""
    qty: int = 1


@dataclass(frozen=True)
class WishItem:
    id: int
    product_id: int


@dataclass(frozen=True)
class Order:
    """An order; ``status``: Processing, Shipped, Delivered, Cancelled or Return requested."""

    id: int
    number: str
    total: int
    card_id: int
    address_id: int
    placed: str  # ISO date
    arrives: str  # ISO date
    status: str = "Processing"
    return_reason: str = ""


@dataclass(frozen=True)
class OrderLine:
    id: int
    order_id: int
    product_id: int
    size: str = ""
    color: str = ""
    qty: int = 1
    price: int = 0


@dataclass(frozen=True)
class Review:
    id: int
    product_id: int
    stars: int
    text: str


@dataclass(frozen=True)
class PayCard:
    id: int
    label: str  # "Visa •••• 4242"
    default: bool = False


@dataclass(frozen=True)
class Address:
    id: int
    label: str  # Home, Work
    line: str
    default: bool = False


@dataclass
class ShopData(Store):
    products: Table[Product] = field(default_factory=lambda: Table(kind=Product))
    cart: Table[CartLine] = field(default_factory=lambda: Table(kind=CartLine))
    wishlist: Table[WishItem] = field(default_factory=lambda: Table(kind=WishItem))
    orders: Table[Order] = field(default_factory=lambda: Table(kind=Order))
    order_lines: Table[OrderLine] = field(default_factory=lambda: Table(kind=OrderLine))
    reviews: Table[Review] = field(default_factory=lambda: Table(kind=Review))
    cards: Table[PayCard] = field(default_factory=lambda: Table(kind=PayCard))
    addresses: Table[Address] = field(default_factory=lambda: Table(kind=Address))
    plus: bool = False  # a member of the paid Shop Plus
    promo: bool = False  # the Shop Plus offer pops up at checkout


def order_placed(o: Order) -> tuple[str, int]:
    """The orders' order: by the day placed, then id (the list shows the newest first)."""
    return (o.placed, o.id)


def line_order(line: OrderLine) -> int:
    return line.order_id


def same_place(line: OrderLine) -> int:
    """An order's lines in the table's order (all tie)."""
    return 0


def newest_orders(data: ShopData) -> Sequence[Order]:
    """The orders, newest first (an index kept on write)."""
    return data.orders.index("placed", order_placed).view(data.orders, reverse=True)


def lines_of(data: ShopData, order_id: int) -> Sequence[OrderLine]:
    """An order's lines, in the table's order (a grouping kept on write)."""
    return data.order_lines.grouping("by_order", line_order, same_place).view(order_id)


@dataclass
class ShopUi:
    tab: str = "Home"
    query: str = ""
    category: str = ""
    sort: str = "Best match"
    min_price: str = ""
    max_price: str = ""
    rating: str = "Any rating"
    brands: tuple[str, ...] = ()
    free_only: bool = False
    size: str = ""
    color: str = ""
    qty: int = 1
    dialog: str = ""  # sort, line, cancel, reason, address, card, plus
    dialog_arg: int = 0
    buy_now: tuple[int, str, str, int] | None = None  # product, size, color, qty
    card_id: int = 0
    address_id: int = 0
    promo_done: bool = False
    stars: int = 0
    review: str = ""
    reason: str = ""


# --- updates -------------------------------------------------------------------------------
def price_of(text: str) -> int | None:
    """Cents from a typed price (``12``, ``12.5``, ``$12.50``), or None."""
    try:
        return round(float(text.strip().lstrip("$")) * 100)
    except ValueError:
        return None


def filtered(data: ShopData, ui: ShopUi) -> list[Product]:
    """The products the search screen lists: query, category, filters, then sort."""
    q = ui.query.strip().lower()
    lo, hi = price_of(ui.min_price), price_of(ui.max_price)
    least = RATING_MIN.get(ui.rating, 0.0)
    out = [p for p in data.products
           if (not q or q in p.name.lower() or q in p.brand.lower())
           and (not ui.category or p.category == ui.category)
           and (lo is None or p.price >= lo) and (hi is None or p.price <= hi)
           and p.rating >= least and (not ui.brands or p.brand in ui.brands)
           and (not ui.free_only or p.free_shipping)]
    keys = {"Price: low to high": lambda p: (p.price, p.id),
            "Price: high to low": lambda p: (-p.price, p.id),
            "Rating": lambda p: (-p.rating, p.id), "Newest": lambda p: (p.added, p.id)}
    return sorted(out, key=keys.get(ui.sort, lambda p: (p.id,)))


def add_to_cart(data: ShopData, product_id: int, size: str, color: str, qty: int) -> None:
    """Add ``qty`` of a variant (merged with the same variant already in the cart)."""
    same = data.cart.first(product_id=product_id, size=size, color=color)
    if same is not None:
        data.cart.update(same.id, qty=same.qty + qty)
    else:
        data.cart.new(product_id=product_id, size=size, color=color, qty=qty)


def shipping(data: ShopData, products: list[Product]) -> int:
    if data.plus or all(p.free_shipping for p in products):
        return 0
    return SHIPPING


def default_id(table: Table[PayCard] | Table[Address]) -> int:
    found = [r.id for r in table if r.default] or [r.id for r in table]
    return found[0] if found else 0


# --- the app -------------------------------------------------------------------------------
class ShopApp(App):
    manifest = MANIFEST

    data: ShopData
    ui: ShopUi

    def initial_data(self) -> ShopData:
        return ShopData()

    def make_indexes(self) -> None:
        newest_orders(self.data)
        lines_of(self.data, 0)

    def initial_ui(self) -> ShopUi:
        return ShopUi()

    # small helpers
    def set(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def close_dialog(self) -> None:
        self.ui.dialog = ""

    def today(self) -> str:
        return self.system.now.date().isoformat()

    def product(self, product_id: int) -> Product | None:
        return self.data.products.get(product_id)

    # navigation
    def open_search(self, category: str = "") -> None:
        self.ui.category = category
        self.go("search")

    def open_product(self, product_id: int) -> None:
        p = self.product(product_id)
        if p is None:
            return
        self.set(size=p.sizes[0] if len(p.sizes) == 1 else "",
                 color=p.colors[0] if len(p.colors) == 1 else "", qty=1)
        self.go("product", product_id)

    def checkout_lines(self) -> list[tuple[Product, str, str, int]]:
        """What checkout would order: the "Buy now" item, else the cart."""
        if self.ui.buy_now is not None:
            pid, size, color, qty = self.ui.buy_now
            p = self.product(pid)
            return [(p, size, color, qty)] if p else []
        out = []
        for line in self.data.cart:
            p = self.product(line.product_id)
            if p is not None:
                out.append((p, line.size, line.color, line.qty))
        return out

    def open_checkout(self, buy_now: tuple[int, str, str, int] | None) -> None:
        self.set(buy_now=buy_now, card_id=default_id(self.data.cards),
                 address_id=default_id(self.data.addresses))
        if not self.checkout_lines():
            return
        if self.data.promo and not self.data.plus and not self.ui.promo_done:
            self.ui.dialog = "plus"
        self.go("checkout")

    def variant_ready(self, p: Product) -> bool:
        return (not p.sizes or self.ui.size in p.sizes) and (not p.colors
                                                             or self.ui.color in p.colors)

    def add_current(self, p: Product) -> None:
        if not self.variant_ready(p):
            self.toast("Pick a size and color first")
            return
        add_to_cart(self.data, p.id, self.ui.size, self.ui.color, self.ui.qty)
        self.toast("Added to cart")

    def buy_current(self, p: Product) -> None:
        if not self.variant_ready(p):
            self.toast("Pick a size and color first")
            return
        self.open_checkout((p.id, self.ui.size, self.ui.color, self.ui.qty))

    def toggle_wish(self, product_id: int) -> None:
        found = self.data.wishlist.first(product_id=product_id)
        if found is not None:
            self.data.wishlist.remove(found.id)
            self.toast("Removed from wishlist")
        else:
            self.data.wishlist.new(product_id=product_id)
            self.toast("Added to wishlist")

    def change_qty(self, line_id: int, delta: int) -> None:
        line = self.data.cart.get(line_id)
        if line is None:
            return
        if line.qty + delta <= 0:
            self.data.cart.remove(line_id)
        else:
            self.data.cart.update(line_id, qty=min(line.qty + delta, 10))

    def move_to_wishlist(self, line_id: int) -> None:
        line = self.data.cart.get(line_id)
        if line is None:
            return
        self.data.cart.remove(line_id)
        if self.data.wishlist.first(product_id=line.product_id) is None:
            self.data.wishlist.new(product_id=line.product_id)
        self.close_dialog()
        self.toast("Moved to wishlist")

    def remove_line(self, line_id: int) -> None:
        self.data.cart.remove(line_id)
        self.close_dialog()

    def place_order(self) -> None:
        lines = self.checkout_lines()
        if not lines or self.data.cards.get(self.ui.card_id) is None \
                or self.data.addresses.get(self.ui.address_id) is None:
            return
        subtotal = sum(p.price * qty for p, _, _, qty in lines)
        total = subtotal + shipping(self.data, [p for p, *_ in lines])
        now = self.system.now.date()
        number = f"{2300 + len(self.data.orders) + 1:05d}"
        order = self.data.orders.new(number=number, total=total, card_id=self.ui.card_id,
                                     address_id=self.ui.address_id, placed=now.isoformat(),
                                     arrives=(now + timedelta(days=4)).isoformat())
        for p, size, color, qty in lines:
            self.data.order_lines.new(order_id=order.id, product_id=p.id, size=size,
                                      color=color, qty=qty, price=p.price)
        if self.ui.buy_now is None:
            for line in list(self.data.cart):
                self.data.cart.remove(line.id)
        self.ui.buy_now = None
        self.stack = [Route("main")]
        self.ui.tab = "Orders"
        super().toast(self.t("Order {number} placed", number=number))

    def buy_again(self, order_id: int) -> None:
        """Put an order's items back into the cart."""
        for line in list(lines_of(self.data, order_id)):
            if self.product(line.product_id) is not None:
                add_to_cart(self.data, line.product_id, line.size, line.color, line.qty)
        self.toast("Added to cart")

    def cancel_order(self, order_id: int) -> None:
        order = self.data.orders.get(order_id)
        if order is not None and order.status == "Processing":
            self.data.orders.update(order_id, status="Cancelled")
            self.toast("Order cancelled")
        self.close_dialog()

    def submit_return(self, order_id: int) -> None:
        order = self.data.orders.get(order_id)
        if order is None or order.status != "Delivered" or not self.ui.reason:
            return
        self.data.orders.update(order_id, status="Return requested",
                                return_reason=self.ui.reason)
        self.back()
        self.toast("Return requested")

    def submit_review(self, product_id: int) -> None:
        if not (1 <= self.ui.stars <= 5) or not self.ui.review.strip():
            self.toast("Pick a star rating and write a few words")
            return
        self.data.reviews.new(product_id=product_id, stars=self.ui.stars,
                              text=self.ui.review.strip())
        self.set(stars=0, review="")
        self.back()
        self.toast("Thanks for your review")

    def open_cart(self) -> None:
        self.stack = [Route("main")]
        self.ui.tab = "Cart"

    # views
    def money(self, cents: int) -> str:
        """An amount as the locale writes it: "$12.50" / "¥12.50"."""
        return money(cents) if self.system.locale == DEFAULT_LOCALE \
            else format_money(cents, self.system.locale)

    def day(self, iso: str) -> str:
        """An ISO day as the locale writes it ("2026-10-15" / 2026年10月15日)."""
        if self.system.locale == DEFAULT_LOCALE:
            return iso
        try:
            return format_date(date.fromisoformat(iso), self.system.locale)
        except ValueError:
            return iso

    def picture(self, name: str) -> str:
        """A product's drawn picture: the one its English name draws (a zh-CN name, "Kestrel
        网面训练鞋", is read back through the data catalogue, so the same item looks alike)."""
        brand, _, noun = name.partition(" ")
        english = seeded_english(self.system.locale).get(noun)
        return pictures.product(f"{brand} {english}" if english else name)

    def word(self, text: str) -> str:
        """A fixed word the data holds (a category, an order's status) in the locale."""
        return self.t(text) if text in WORDS else text

    def toast(self, text: str) -> None:
        """A toast in the locale's words."""
        super().toast(self.t(text))

    def view(self, route: Route) -> Screen:
        screen = self.screen(route)
        return in_locale(self, screen)

    def screen(self, route: Route) -> Screen:
        if route.name == "search":
            return self.search_screen()
        if route.name == "filters":
            return self.filters_screen()
        if route.name == "product" and self.product(route.arg) is not None:
            return self.product_screen(route.arg)
        if route.name == "checkout":
            return self.checkout_screen()
        if route.name == "order" and self.data.orders.get(route.arg) is not None:
            return self.order_screen(route.arg)
        if route.name == "return" and self.data.orders.get(route.arg) is not None:
            return self.return_screen(route.arg)
        if route.name == "review" and self.product(route.arg) is not None:
            return self.review_screen(route.arg)
        return self.main_screen()

    def product_row(self, p: Product, id: str) -> Node:
        ship = self.t("Free shipping") if p.free_shipping \
            else self.t("+{amount} shipping", amount=self.money(SHIPPING))
        wished = self.data.wishlist.first(product_id=p.id) is not None
        heart = Icon("♥" if wished else "♡",
                     self.t("Remove {name} from wishlist", name=p.name) if wished
                     else self.t("Add {name} to wishlist", name=p.name),
                     lambda: self.toggle_wish(p.id), id=f"{id}_wish")
        return ListItem(p.name, f"{self.money(p.price)} · ★{p.rating:.1f} · {ship}", id=id,
                        on_click=lambda: self.open_product(p.id), trailing=heart,
                        picture=self.picture(p.name),
                        menu=[("Remove from wishlist" if wished else "Add to wishlist",
                               lambda: self.toggle_wish(p.id))])

    def tab_bar(self) -> Node:
        return TabBar([Tab(t, self.ui.tab == t, partial(self.set, tab=t), id=f"tab_{t.lower()}")
                       for t in TABS])

    def main_screen(self) -> Screen:
        tab = self.ui.tab
        content: list[Node]
        if tab == "Wishlist":
            items = [w for w in self.data.wishlist if self.product(w.product_id)]
            content = [VirtualList(len(items), lambda i: self.wish_row(items[i]), id="wishlist",
                                   empty_text="Your wishlist is empty")]
        elif tab == "Orders":
            orders = newest_orders(self.data)
            content = [VirtualList(len(orders), lambda i: self.order_row(orders[i]),
                                   id="orders", empty_text="No orders yet")]
        elif tab == "Cart":
            content = self.cart_content()
        else:
            content = [Text("Recommended for you", style="title", id="recommended_title"),
                       *[self.product_row(p, f"recommended_{p.id}")
                         for p in sorted(self.data.products, key=lambda p: -p.rating)[:3]],
                       Text("Shop by category", style="title", id="categories_title"),
                       *[ListItem(c, on_click=partial(self.open_search, c),
                                  id=f"category_{slug(c)}") for c in CATEGORIES]]
        dialog = None
        if tab == "Cart" and self.ui.dialog == "line":
            dialog = self.line_sheet(self.ui.dialog_arg)
        # Home: no title, the search box as the app bar (Amazon's)
        bar = (SearchAppBar(SearchEntry("Search for anything", self.open_search,
                                        id="search_entry"))
               if tab == "Home" else TopBar(tab))
        return Screen(top_bar=bar, content=content,
                      bottom=self.tab_bar(), dialog=dialog, on_dismiss=self.close_dialog)

    def wish_row(self, w: WishItem) -> Node:
        p = self.product(w.product_id)
        assert p is not None
        return ListItem(p.name, self.money(p.price), id=f"wish_{w.id}",
                        picture=self.picture(p.name),
                        on_click=lambda: self.open_product(p.id),
                        menu=[("Remove", lambda: self.data.wishlist.remove(w.id))])

    def order_row(self, o: Order) -> Node:
        lines = lines_of(self.data, o.id)
        names = ", ".join(p.name for line in lines if (p := self.product(line.product_id)))
        return ListItem(self.t("Order {number}", number=o.number),
                        f"{self.word(o.status)} · {names}", id=f"order_{o.id}",
                        on_click=lambda: self.go("order", o.id),
                        menu=[("Buy it again", lambda: self.buy_again(o.id))])

    def cart_content(self) -> list[Node]:
        lines = [line for line in self.data.cart if self.product(line.product_id)]

        def row(i: int) -> Node:
            line = lines[i]
            p = self.product(line.product_id)
            assert p is not None
            variant = " · ".join(x for x in (line.size, line.color) if x)
            sub = (f"{variant + ' · ' if variant else ''}" + self.t("Qty {n}", n=line.qty)
                   + f" · {self.money(p.price)}")
            return ListItem(p.name, sub, id=f"cart_{line.id}", picture=self.picture(p.name),
                            on_click=lambda: self.set(dialog="line", dialog_arg=line.id),
                            menu=[("Move to wishlist", lambda: self.move_to_wishlist(line.id)),
                                  ("Remove", lambda: self.remove_line(line.id))])

        subtotal = 0
        for x in lines:
            product = self.product(x.product_id)
            subtotal += product.price * x.qty if product else 0
        return [VirtualList(len(lines), row, id="cart", empty_text="Your cart is empty"),
                Text(self.t("Subtotal: {amount}", amount=self.money(subtotal)), id="subtotal"),
                Button("Checkout", lambda: self.open_checkout(None), id="checkout",
                       enabled=bool(lines))]

    def line_sheet(self, line_id: int) -> Node | None:
        line = self.data.cart.get(line_id)
        p = self.product(line.product_id) if line else None
        if line is None or p is None:
            return None
        return BottomSheet(p.name, [
            ("Increase quantity", lambda: self.change_qty(line_id, 1)),
            ("Decrease quantity", lambda: self.change_qty(line_id, -1)),
            ("Move to wishlist", lambda: self.move_to_wishlist(line_id)),
            ("Remove from cart", lambda: self.remove_line(line_id)),
        ], body=[Text(self.t("Qty {n}", n=line.qty), id="sheet_qty")])

    def search_screen(self) -> Screen:
        ui = self.ui
        shown = filtered(self.data, ui)
        active = sum([bool(ui.min_price), bool(ui.max_price), ui.rating != "Any rating",
                      bool(ui.brands), ui.free_only])
        title = self.word(ui.category) if ui.category else "Search"
        content = [
            *SearchList(ui.query, lambda v: self.set(query=v), len(shown),
                        lambda i: self.product_row(shown[i], f"product_{shown[i].id}"),
                        id="results", hint="Search for anything", empty_text="No items"),
        ]
        controls = Row([Button(self.t("Sort: {sort}", sort=self.t(ui.sort)),
                               lambda: self.set(dialog="sort"), id="sort", style="secondary"),
                        Button(self.t("Filters ({n})", n=active) if active else "Filters",
                               lambda: self.go("filters"), id="filters", style="secondary")],
                       id="controls")
        content.insert(1, controls)
        content.insert(2, Text(self.t("{n} results", n=len(shown)), style="caption",
                               id="result_count"))
        dialog = None
        if ui.dialog == "sort":
            dialog = ChoiceDialog("Sort by", SORTS, ui.sort,
                                  lambda s: self.set(sort=s, dialog=""), self.close_dialog)
        return Screen(top_bar=TopBar(title, on_back=self.back), content=content, dialog=dialog,
                      on_dismiss=self.close_dialog)

    def filters_screen(self) -> Screen:
        ui = self.ui
        brands = sorted({p.brand for p in self.data.products
                         if not ui.category or p.category == ui.category})

        def toggle_brand(b: str) -> None:
            ui.brands = tuple(x for x in ui.brands if x != b) if b in ui.brands \
                else (*ui.brands, b)

        def reset() -> None:
            self.set(min_price="", max_price="", rating="Any rating", brands=(),
                     free_only=False)

        count = len(filtered(self.data, ui))
        return Screen(
            top_bar=TopBar("Filters", on_back=self.back,
                           actions=[Icon("↺", "Reset filters", reset, id="reset")]),
            content=[
                Text("Price", style="title", id="price_title"),
                Row([TextField(ui.min_price, lambda v: self.set(min_price=v), hint="Min $",
                               id="min_price", label="Minimum price"),
                     TextField(ui.max_price, lambda v: self.set(max_price=v), hint="Max $",
                               id="max_price", label="Maximum price")], id="price_row"),
                Text("Customer rating", style="title", id="rating_title"),
                Chips(RATINGS, (ui.rating,), lambda r: self.set(rating=r), id="ratings"),
                Text("Brand", style="title", id="brand_title"),
                Chips(brands, ui.brands, toggle_brand, id="brands"),
                Toggle("Free shipping only", ui.free_only,
                       lambda: self.set(free_only=not ui.free_only), id="free_shipping"),
                Button(self.t("Show {n} results", n=count), self.back, id="apply"),
            ],
        )

    def product_screen(self, product_id: int) -> Screen:
        p = self.product(product_id)
        assert p is not None
        ui = self.ui
        wished = self.data.wishlist.first(product_id=p.id) is not None
        reviews = self.data.reviews.where(product_id=p.id)
        ship = self.t("Free shipping") if p.free_shipping \
            else self.t("Shipping {amount}", amount=self.money(SHIPPING))
        content: list[Node] = [
            # the item's photo, as eBay's listing opens with its gallery
            Image(self.t("Photo of {name}", name=p.name), id="item_photo", height=PHOTO_H,
                  picture=self.picture(p.name)),
            Text(p.name, style="title", id="name"),
            Text(self.money(p.price), style="big", id="price"),
            Text(f"★ {p.rating:.1f} · {p.brand} · {ship}", id="facts"),
        ]
        if p.sizes:
            content += [Text(self.t("Size: {size}", size=ui.size or self.t("select")),
                             id="size_label"),
                        Chips(p.sizes, (ui.size,), lambda s: self.set(size=s), id="sizes")]
        if p.colors:
            content += [Text(self.t("Color: {color}", color=ui.color or self.t("select")),
                             id="color_label"),
                        Chips(p.colors, (ui.color,), lambda c: self.set(color=c), id="colors")]
        content += [
            Row([Icon("−", "Decrease quantity", lambda: self.set(qty=max(1, ui.qty - 1)),
                      id="qty_down"),
                 Text(self.t("Qty {n}", n=ui.qty), id="qty"),
                 Icon("+", "Increase quantity", lambda: self.set(qty=min(10, ui.qty + 1)),
                      id="qty_up")], id="qty_row"),
            Button("Buy it now", lambda: self.buy_current(p), id="buy_now"),
            Button("Add to cart", lambda: self.add_current(p), id="add_to_cart",
                   style="secondary"),
            Button("Write a review", lambda: self.go("review", p.id), id="write_review",
                   style="secondary"),
            Text(self.t("Reviews ({n})", n=len(reviews)), style="title", id="reviews_title"),
            *[ListItem("★" * r.stars, r.text, id=f"review_{r.id}") for r in reviews[:5]],
        ]
        heart = Icon("♥" if wished else "♡",
                     "Remove from wishlist" if wished else "Add to wishlist",
                     lambda: self.toggle_wish(p.id), id="wish")
        cart = Icon("🛒", "Cart", self.open_cart, id="cart_icon")
        return Screen(top_bar=TopBar("Item", on_back=self.back, actions=[heart, cart]),
                      content=content)

    def checkout_screen(self) -> Screen:
        ui, data = self.ui, self.data
        lines = self.checkout_lines()
        if not lines:
            return Screen(top_bar=TopBar("Checkout", on_back=self.back),
                          content=[Text("Nothing to check out", id="empty")])
        card, address = data.cards.get(ui.card_id), data.addresses.get(ui.address_id)
        subtotal = sum(p.price * qty for p, _, _, qty in lines)
        ship = shipping(data, [p for p, *_ in lines])
        rows: list[Node] = []
        for i, (p, size, color, qty) in enumerate(lines):
            variant = " · ".join(x for x in (size, color) if x)
            rows.append(ListItem(p.name, f"{variant + ' · ' if variant else ''}"
                                 + self.t("Qty {n}", n=qty) + f" · {self.money(p.price * qty)}",
                                 id=f"line_{i}",
                                  picture=self.picture(p.name)))
        content = [
            ValueRow("Ship to", f"{address.label}: {address.line}" if address else "Add address",
                     lambda: self.set(dialog="address"), id="ship_to"),
            ValueRow("Pay with", card.label if card else "Add card",
                     lambda: self.set(dialog="card"), id="pay_with"),
            *rows,
            Text(self.t("Items: {amount}", amount=self.money(subtotal)), id="items_total"),
            Text(self.t("Shipping: {amount}",
                        amount=self.money(ship) if ship else self.t("Free")), id="shipping"),
            Text(self.t("Order total: {amount}", amount=self.money(subtotal + ship)),
                 style="title", id="order_total"),
            Button("Place order", self.place_order, id="place_order"),
        ]
        dialog: Node | None = None
        if ui.dialog == "plus":
            def join() -> None:
                data.plus = True
                self.set(dialog="", promo_done=True)

            dialog = Dialog("Shop Plus", PLUS_OFFER, [
                DialogButton("No thanks", lambda: self.set(dialog="", promo_done=True),
                             id="button_no_thanks"),
                DialogButton("Join now", join, id="button_join")])
        elif ui.dialog == "card":
            labels = {c.label: c.id for c in data.cards}
            dialog = ChoiceDialog("Pay with", list(labels), card.label if card else "",
                                  lambda s: self.set(card_id=labels[s], dialog=""),
                                  self.close_dialog)
        elif ui.dialog == "address":
            places = {f"{a.label}: {a.line}": a.id for a in data.addresses}
            dialog = ChoiceDialog("Ship to", list(places),
                                  f"{address.label}: {address.line}" if address else "",
                                  lambda s: self.set(address_id=places[s], dialog=""),
                                  self.close_dialog)
        return Screen(top_bar=TopBar("Checkout", on_back=self.back), content=content,
                      dialog=dialog,
                      on_dismiss=(lambda: self.set(dialog="", promo_done=True))
                      if ui.dialog == "plus" else self.close_dialog)

    def order_screen(self, order_id: int) -> Screen:
        o = self.data.orders.get(order_id)
        assert o is not None
        lines = lines_of(self.data, o.id)
        card = self.data.cards.get(o.card_id)
        content: list[Node] = [
            Text(self.t("Order {number}", number=o.number), style="title", id="order_number"),
            Text(self.t("Status: {status}", status=self.word(o.status)), id="status"),
            Text(self.t("Placed {day}", day=self.day(o.placed)), id="placed"),
        ]
        if o.status in ("Processing", "Shipped"):
            content.append(Text(self.t("Arrives by {day}", day=self.day(o.arrives)),
                                id="arrives"))
        elif o.status == "Delivered":
            content.append(Text(self.t("Delivered {day}", day=self.day(o.arrives)),
                                id="delivered"))
        for line in lines:
            p = self.product(line.product_id)
            variant = " · ".join(x for x in (line.size, line.color) if x)
            content.append(ListItem(p.name if p else "Item",
                                    f"{variant + ' · ' if variant else ''}"
                                    + self.t("Qty {n}", n=line.qty),
                                    id=f"item_{line.id}",
                                    picture=self.picture(p.name) if p else "",
                                    on_click=partial(self.open_product, line.product_id)
                                    if p else None))
        content += [Text(self.t("Total {amount} · {card}", amount=self.money(o.total),
                                card=card.label if card else self.t("card")),
                         id="total"),
                    Button("Cancel order", lambda: self.set(dialog="cancel"), id="cancel_order",
                           style="danger", enabled=o.status == "Processing"),
                    Button("Return an item", lambda: self.go("return", o.id), id="return",
                           style="secondary", enabled=o.status == "Delivered"),
                    Button("Buy it again", lambda: self.buy_again(o.id), id="buy_again",
                           style="secondary")]
        dialog = None
        if self.ui.dialog == "cancel":
            dialog = ConfirmDialog("Cancel this order?", "You will be refunded in full.",
                                   on_confirm=lambda: self.cancel_order(o.id),
                                   on_cancel=self.close_dialog, confirm="Cancel order",
                                   cancel="Keep order", destructive=True)
        return Screen(top_bar=TopBar("Order details", on_back=self.back), content=content,
                      dialog=dialog, on_dismiss=self.close_dialog)

    def return_screen(self, order_id: int) -> Screen:
        ui = self.ui
        return Screen(
            top_bar=TopBar("Return an item", on_back=self.back),
            content=[Text("Why are you returning it?", style="title", id="reason_title"),
                     Chips(RETURN_REASONS, (ui.reason,), lambda r: self.set(reason=r),
                           id="reasons"),
                     Button("Submit return", lambda: self.submit_return(order_id),
                            id="submit_return", enabled=bool(ui.reason))])

    def review_screen(self, product_id: int) -> Screen:
        ui = self.ui
        stars = Row([Icon("★" if n <= ui.stars else "☆",
                          self.t("{n} star", n=n) if n == 1 else self.t("{n} stars", n=n),
                          partial(self.set, stars=n), id=f"star_{n}") for n in range(1, 6)],
                    id="stars")
        return Screen(
            top_bar=TopBar("Write a review", on_back=self.back),
            content=[stars,
                     TextField(ui.review, lambda v: self.set(review=v), hint="Your review",
                               id="review_text", label="Review", multiline=True),
                     Button("Submit", lambda: self.submit_review(product_id),
                            id="submit_review")])
