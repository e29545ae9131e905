"""The Shop app's manifest: an online marketplace modelled on the eBay app."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Shop",
    label="Shopping",
    package="com.ebay.mobile",
    labels={"zh-CN": "购物"},
    icon="shopping_cart", icon_shape="rounded",
    color=(229, 50, 56),
    description="Online shopping: categories, search with filters and sorting, product pages "
                "with sizes and colors, a cart, checkout with saved addresses and cards, "
                "orders (track, cancel, return), a wishlist and reviews.",
    order=82,
    locales=("zh-CN",),
    look=AppLook(
        models="eBay 6.1",
        title="",
        dark="system",
        light=make_palette((50, 102, 229), row_dividers=False),
        dark_palette=make_palette((112, 153, 255), dark=True, row_dividers=False),
        actions=("camera_alt", "shopping_cart"),
        navigation="bottom_bar",
        nav_items=("Home", "My eBay", "Search", "Inbox", "Selling"),
        row_leading="thumbnail",
        two_line=True,
        simplifies=("bottom bar: Home, Wishlist, Orders, Cart",),
    ),
)
