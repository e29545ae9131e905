"""The Ride app's manifest: ride-hailing modelled on Uber."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Ride",
    label="Uber",
    package="com.ubercab",
    icon="directions_car", icon_shape="rounded",
    color=(20, 20, 20),
    description="Ride-hailing: a destination from search or saved places, ride options with "
                "prices and ETAs, promo codes, scheduling, a live trip that advances with "
                "the clock, cancelling (with a fee after a while), trip history and ratings.",
    order=86,
)
