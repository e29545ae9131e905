"""The Travel app's manifest: hotels, trains and flights, modelled on Trip.com."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Travel",
    label="Trip.com",
    package="ctrip.english",
    labels={"zh-CN": "Trip.com"},  # as on Chinese phones (携程旅行 is Ctrip)
    icon="flight", icon_shape="rounded",
    color=(40, 112, 236),
    description="Travel booking: hotels, trains and flights searched by city or route and "
                "dates, with filters, sorting, detail pages, saved travellers and seat "
                "classes; my bookings with changes and cancellation refunds.",
    order=88,
    locales=("zh-CN",),
    look=AppLook(
        models="Trip.com 8.x",
        title="",
        dark="light",
        light=make_palette((40, 123, 255), bg=(245, 247, 250)),
        navigation="bottom_bar",
        nav_items=("Home", "Trips", "Messages", "Account"),
        row_leading="thumbnail",
        two_line=True,
        simplifies=(
            "Hotels, Trains and Flights are top tabs on Home, not a home grid of products",
            "dates are picked one at a time in Android's Material date picker, not in "
            "Trip.com's full-screen range calendar (check-in and check-out on one sheet, with "
            "prices under the days)",
        ),
    ),
)
