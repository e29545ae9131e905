"""The Delivery app's manifest: food delivery modelled on Uber Eats."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Delivery",
    label="Food Delivery",
    package="com.ubercab.eats",
    icon="delivery_dining", icon_shape="rounded",
    color=(6, 193, 103),
    description="Food delivery: restaurants by cuisine with rating, delivery time and fee, "
                "menus with options, a cart, checkout with address and tip, and orders whose "
                "status follows the clock (cancel while preparing, reorder).",
    order=84,
)
