"""The Broccoli app's manifest: a recipe app modelled on Broccoli (AndroidWorld's recipe app)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Broccoli",
    package="com.flauschcode.broccoli",
    labels={"zh-CN": "Broccoli"},
    icon="eco",
    color=(76, 155, 60),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Broccoli App", "Broccoli Recipe App", "Recipe App"),
    description="Recipes: a searchable list, recipe pages, an editor, favourites and "
                "deleting one recipe or a selection.",
    order=62,
    locales=("zh-CN",),
    look=AppLook(
        models="Broccoli 2.x",
        title="Recipes",
        dark="system",
        light=make_palette((46, 125, 50), bar="colored"),
        dark_palette=make_palette((129, 199, 132), dark=True, bar=(33, 48, 34)),
        actions=("search",),
        navigation="drawer",
        row_leading="thumbnail",
        two_line=True,
        simplifies=("recipe cards show no photo",
                    "the drawer holds Recipes and Favorites only (no categories, seasonal "
                    "calendar or settings)"),
    ),
)
