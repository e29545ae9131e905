"""The Ride app's manifest: ride-hailing modelled on Uber."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Ride",
    label="Uber",
    package="com.ubercab",
    labels={"zh-CN": "优步"},
    icon="directions_car", icon_shape="rounded",
    color=(20, 20, 20),
    description="Ride-hailing: a destination from search or saved places, ride options with "
                "prices and ETAs, promo codes, scheduling, a live trip that advances with "
                "the clock, cancelling (with a fee after a while), trip history and ratings.",
    order=86,
    locales=("zh-CN",),
    look=AppLook(
        models="Uber 4.5",
        title="",
        dark="light",
        light=make_palette((0, 0, 0), row_dividers=False),
        actions=(),
        navigation="bottom_bar",
        nav_items=("Home", "Services", "Activity", "Account"),
        row_leading="icon",
        simplifies=(
            "no map behind the ride request",
            "a scheduled pickup is an exact time: no pickup window or reservation fee "
            "(Uber Reserve's)",
        ),
    ),
)
