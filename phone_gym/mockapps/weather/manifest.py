"""The Weather app's manifest."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Weather",
    package="com.google.android.apps.weather",
    icon="wb_sunny",
    color=(66, 133, 244),
    description="Saved cities with current conditions, hourly and 10-day forecasts, "
                "severe weather alerts and °C/°F units.",
    order=96,
)
