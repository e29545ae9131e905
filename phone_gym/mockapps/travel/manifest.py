"""The Travel app's manifest: hotels, trains and flights, modelled on Trip.com."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Travel",
    label="Trip.com",
    package="ctrip.english",
    icon="flight", icon_shape="rounded",
    color=(40, 112, 236),
    description="Travel booking: hotels, trains and flights searched by city or route and "
                "dates, with filters, sorting, detail pages, saved travellers and seat "
                "classes; my bookings with changes and cancellation refunds.",
    order=88,
)
