"""The Shop app's manifest: an online marketplace modelled on the eBay app."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Shop",
    label="Shopping",
    package="com.ebay.mobile",
    icon="shopping_cart", icon_shape="rounded",
    color=(229, 50, 56),
    description="Online shopping: categories, search with filters and sorting, product pages "
                "with sizes and colors, a cart, checkout with saved addresses and cards, "
                "orders (track, cancel, return), a wishlist and reviews.",
    order=82,
)
