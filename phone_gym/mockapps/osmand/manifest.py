"""The OsmAnd app's manifest: an offline map."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="OsmAnd",
    package="net.osmand",
    labels={"zh-CN": "OsmAnd"},
    icon="navigation",
    color=(255, 136, 0),
    deep_links=("geo:",),
    description="An offline map of Liechtenstein: search, favourites, markers and tracks.",
    order=74,
    locales=("zh-CN",),
    look=AppLook(
        models="OsmAnd 4.x",
        title="",
        dark="system",
        light=make_palette((255, 136, 0), bg=(242, 239, 233)),
        dark_palette=make_palette((255, 152, 0), dark=True, bg=(33, 37, 41)),
        actions=("search",),
        navigation="drawer",
        simplifies=(
            "the map is a synthetic city, not OpenStreetMap's Liechtenstein",
            "the main menu holds Search, My favourites, Map markers, Tracks and Plan a route "
            "only (no Directions, Configure map, Download maps or Settings), and the map has "
            "no Directions button",
        ),
    ),
)
