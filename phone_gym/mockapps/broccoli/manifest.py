"""The Broccoli app's manifest: a recipe app modelled on Broccoli (AndroidWorld's recipe app)."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Broccoli",
    package="com.flauschcode.broccoli",
    icon="B",
    color=(76, 155, 60),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Broccoli App", "Broccoli Recipe App", "Recipe App"),
    description="Recipes: a searchable list, recipe pages, an editor, favourites and "
                "deleting one recipe or a selection.",
    order=62,
)
