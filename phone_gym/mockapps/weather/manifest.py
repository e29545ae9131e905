"""The Weather app's manifest."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Weather",
    package="com.google.android.apps.weather",
    labels={"zh-CN": "天气"},
    icon="wb_sunny",
    color=(66, 133, 244),
    description="Saved cities with current conditions, hourly and 10-day forecasts, "
                "severe weather alerts and °C/°F units.",
    order=96,
    locales=("zh-CN",),
    look=AppLook(
        models="Google Weather (Pixel) 2024",
        title="",
        dark="system",
        light=make_palette((26, 115, 232), bg=(232, 240, 254)),
        dark_palette=make_palette((138, 180, 248), dark=True, bg=(23, 32, 48)),
        actions=("add", "more_vert"),
        simplifies=("conditions are text rows, not a sky with large temperature",),
    ),
)
