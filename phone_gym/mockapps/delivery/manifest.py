"""The Delivery app's manifest: food delivery modelled on Uber Eats."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Delivery",
    label="Food Delivery",
    package="com.ubercab.eats",
    labels={"zh-CN": "外卖"},
    icon="delivery_dining", icon_shape="rounded",
    color=(6, 193, 103),
    description="Food delivery: restaurants by cuisine with rating, delivery time and fee, "
                "menus with options, a cart, checkout with address and tip, and orders whose "
                "status follows the clock (cancel while preparing, reorder).",
    order=84,
    locales=("zh-CN",),
    look=AppLook(
        models="Uber Eats 6.2",
        title="",
        dark="light",
        light=make_palette((6, 193, 103), row_dividers=False),
        navigation="bottom_bar",
        nav_items=("Home", "Grocery", "Browse", "Carts", "Account"),
        row_leading="thumbnail",
        two_line=True,
        simplifies=("restaurant photos are coloured tiles", "bottom bar: Home, Orders, Cart"),
    ),
)
