"""Broccoli: a recipe app (modelled on Broccoli, the recipe app AndroidWorld uses).

Recipes live in the app's own database (a ``Table`` of frozen ``Recipe`` records, snapshot
path ``apps.Broccoli.recipes``). The screens are the kit's record app
(``kit.records.RecordApp``): the recipe list (alphabetical, searchable; a long press starts
selecting several recipes, which a top bar action deletes after a confirmation), a recipe's
page (favourite, edit, delete with a confirmation), the navigation drawer switching the list
between all recipes and the favourites, and the recipe editor (title, description, servings,
preparation time, ingredients, directions). This module declares what is Broccoli's own: the
record, the fields, the order, the row.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...world import pictures
from ...world.data import Store, Table
from ...world.kit.records import RecordApp, RecordField, RecordLook, RecordView
from .manifest import MANIFEST


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Recipe:
    """One recipe (a database row)."""

    id: int
    title: str
    description: str = ""
    servings: str = ""
    preparation_time: str = ""
    ingredients: str = ""
    directions: str = ""
    favorite: bool = False


#: The recipe's text fields, in the editor's order (the page shows all but the title).
FIELDS = (
    RecordField("title", "Title", required=True),
    RecordField("description", "Description"),
    RecordField("servings", "Servings"),
    RecordField("preparation_time", "Preparation time"),
    RecordField("ingredients", "Ingredients", "multiline"),
    RecordField("directions", "Directions", "multiline"),
)
TEXT_KEYS = tuple(f.key for f in FIELDS)


@dataclass
class BroccoliData(Store):
    """What the app stores (verifiers compare ``apps.Broccoli.recipes.<id>``)."""

    recipes: Table[Recipe] = field(default_factory=lambda: Table(kind=Recipe))


def add_recipe(data: BroccoliData, title: str, **values: object) -> Recipe:
    return data.recipes.new(title=title, **values)


# --- the look ------------------------------------------------------------------------------
def list_order(recipe: Recipe) -> tuple[str, int]:
    """Alphabetical by title, then oldest first."""
    return (recipe.title.casefold(), recipe.id)


def searchable(recipe: Recipe) -> str:
    return f"{recipe.title}\n{recipe.description}\n{recipe.ingredients}"


def summary(recipe: Recipe) -> str:
    """The list row's second line: the description, or servings and time."""
    if recipe.description:
        return recipe.description
    return " · ".join(p for p in (recipe.servings, recipe.preparation_time) if p)


def photo(recipe: Recipe) -> str:
    """A recipe's photo: a dish drawn from its title (``pictures``)."""
    return pictures.encode("food", pictures.seed_of(recipe.title))


LOOK = RecordLook(noun="recipe", table="recipes", title="Recipes", fields=FIELDS,
                  order=list_order, search=searchable, glyph="🥦", subtitle=summary,
                  picture=photo, favorite="favorite",
                  # Broccoli's drawer: all recipes, and the favourites (its categories,
                  # seasonal calendar and settings are not modelled)
                  views=(RecordView("Recipes", "menu_book"),
                         RecordView("Favorites", "favorite", keep=lambda r: r.favorite)))


class BroccoliApp(RecordApp):
    manifest = MANIFEST
    look = LOOK

    data: BroccoliData

    def initial_data(self) -> BroccoliData:
        return BroccoliData()
