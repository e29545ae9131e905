"""Broccoli: a recipe app (modelled on Broccoli, the recipe app AndroidWorld uses).

Recipes live in the app's own database (a ``Table`` of frozen ``Recipe`` records, snapshot
path ``apps.Broccoli.recipes``). Screens: the recipe list (alphabetical, searchable; a long
press starts selecting several recipes, which a top bar action deletes after a
confirmation), a recipe's page (favourite, edit, delete with a confirmation) and the recipe
editor (``kit.FormEditor``: title, description, servings, preparation time, ingredients,
directions).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import (
    ActionIcon,
    ConfirmDialog,
    Detail,
    DetailPage,
    FormEditor,
    FormField,
    FormState,
    SearchList,
)
from ...world.widgets import Fab, Icon, ListItem, Node, Screen, TopBar
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


#: The recipe's text fields, in the editor's order: (key, label, kind).
FIELDS: tuple[tuple[str, str, str], ...] = (
    ("title", "Title", "text"),
    ("description", "Description", "text"),
    ("servings", "Servings", "text"),
    ("preparation_time", "Preparation time", "text"),
    ("ingredients", "Ingredients", "multiline"),
    ("directions", "Directions", "multiline"),
)
TEXT_KEYS = tuple(key for key, _, _ in FIELDS)


@dataclass
class BroccoliData(Store):
    """What the app stores (verifiers compare ``apps.Broccoli.recipes.<id>``)."""

    recipes: Table[Recipe] = field(default_factory=lambda: Table(kind=Recipe))


@dataclass
class BroccoliUi:
    """Transient state: the search query, the selected recipes (selection mode while any is
    selected), the recipes whose deletion awaits confirmation, and the editor's form."""

    query: str = ""
    selected: frozenset[int] = frozenset()
    deleting: tuple[int, ...] = ()
    form: FormState = field(default_factory=FormState)
    opened: int = 0  # editors opened: each new-recipe editor is a route of its own


# --- updates -------------------------------------------------------------------------------
def add_recipe(data: BroccoliData, title: str, **values: object) -> Recipe:
    return data.recipes.new(title=title, **values)


def save_recipe(data: BroccoliData, values: Mapping[str, str], recipe_id: int | None) -> int:
    """Store the editor's ``values`` as a new recipe (``recipe_id`` None) or into one; the
    recipe's id."""
    clean = {k: values.get(k, "").strip() for k in TEXT_KEYS}
    if recipe_id is None or data.recipes.get(recipe_id) is None:
        return data.recipes.new(**clean).id
    recipe = data.recipes.get(recipe_id)
    if recipe is not None and any(getattr(recipe, k) != v for k, v in clean.items()):
        data.recipes.update(recipe_id, **clean)
    return recipe_id


def delete_recipes(data: BroccoliData, ids: Sequence[int]) -> int:
    """Delete the recipes ``ids`` that exist; how many were deleted."""
    gone = 0
    for recipe_id in ids:
        if data.recipes.get(recipe_id) is not None:
            data.recipes.remove(recipe_id)
            gone += 1
    return gone


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


# --- the app -------------------------------------------------------------------------------
class BroccoliApp(App):
    manifest = MANIFEST

    data: BroccoliData
    ui: BroccoliUi

    def initial_data(self) -> BroccoliData:
        return BroccoliData()

    def initial_ui(self) -> BroccoliUi:
        return BroccoliUi()

    def make_indexes(self) -> None:
        self.shown()

    def shown(self) -> Sequence[Recipe]:
        """The recipes the list shows, in order, those matching the search."""
        recipes = self.data.recipes
        return recipes.index("list_order", list_order, searchable).view(recipes, self.ui.query)

    # navigation and handlers
    def set_query(self, query: str) -> None:
        self.ui.query = query

    def open_recipe(self, recipe_id: int) -> None:
        if self.ui.selected:
            self.toggle_selected(recipe_id)
        elif self.data.recipes.get(recipe_id) is not None:
            self.go("recipe", recipe_id)

    def open_editor(self, recipe_id: int | None) -> None:
        recipe = self.data.recipes.get(recipe_id) if recipe_id is not None else None
        values = {k: getattr(recipe, k) if recipe else "" for k in TEXT_KEYS}
        self.ui.form = FormState.of(values)
        self.ui.opened += 1
        # a new recipe's editor opens at its top (the phone keeps a scroll per route)
        self.go("edit", recipe_id if recipe_id is not None else ("new", self.ui.opened))

    def editing(self) -> int | None:
        """The id of the recipe the editor shows (None: a new recipe)."""
        arg = self.route.arg
        return arg if isinstance(arg, int) else None

    def save(self, values: Mapping[str, str]) -> None:
        save_recipe(self.data, values, self.editing())
        self.toast("Recipe saved")
        self.back()

    def toggle_favorite(self, recipe_id: int) -> None:
        recipe = self.data.recipes.get(recipe_id)
        if recipe is not None:
            self.data.recipes.update(recipe_id, favorite=not recipe.favorite)

    def toggle_selected(self, recipe_id: int) -> None:
        selected = set(self.ui.selected)
        selected.symmetric_difference_update({recipe_id})
        self.ui.selected = frozenset(selected)

    def clear_selection(self) -> bool:
        self.ui.selected = frozenset()
        return True

    def ask_delete(self, ids: Sequence[int]) -> None:
        """Show (or, with no ids, hide) the delete confirmation."""
        self.ui.deleting = tuple(ids)

    def confirm_delete(self) -> None:
        gone = delete_recipes(self.data, self.ui.deleting)
        self.ui.deleting, self.ui.selected = (), frozenset()
        if self.route.name == "recipe":
            self.back()
        self.toast("Recipe deleted" if gone == 1 else f"{gone} recipes deleted")

    # views
    def view(self, route: Route) -> Screen:
        if route.name == "recipe":
            recipe = self.data.recipes.get(route.arg)
            if recipe is not None:
                return self.recipe_page(recipe)
        if route.name == "edit":
            return self.editor(self.editing())
        return self.recipe_list()

    def delete_dialog(self) -> Node | None:
        n = len(self.ui.deleting)
        if not n:
            return None
        title = "Delete recipe?" if n == 1 else f"Delete {n} recipes?"
        return ConfirmDialog(title, "This cannot be undone.", confirm="Delete",
                             destructive=True, on_confirm=self.confirm_delete,
                             on_cancel=lambda: self.ask_delete(()))

    def recipe_item(self, r: Recipe) -> Node:
        selecting = bool(self.ui.selected)
        glyph = ("☑" if r.id in self.ui.selected else "☐") if selecting else "🥦"
        item = ListItem(r.title or "Untitled", summary(r), id=f"recipe_{r.id}", glyph=glyph,
                        on_click=lambda: self.open_recipe(r.id),
                        on_long_click=lambda: self.toggle_selected(r.id))
        item.checked = r.id in self.ui.selected
        return item

    def recipe_list(self) -> Screen:
        ui = self.ui
        shown = self.shown()
        content = SearchList(ui.query, self.set_query, len(shown),
                             lambda i: self.recipe_item(shown[i]), id="recipes",
                             hint="Search recipes", empty_text="No recipes yet")
        if ui.selected:
            ids = sorted(ui.selected)
            bar = TopBar(f"{len(ids)} selected", on_back=self.clear_selection, actions=[
                Icon("🗑", "Delete selected", lambda: self.ask_delete(ids),
                     id="delete_selected")])
            return Screen(top_bar=bar, content=content, dialog=self.delete_dialog(),
                          on_dismiss=lambda: self.ask_delete(()), on_back=self.clear_selection)
        return Screen(top_bar=TopBar("Recipes"), content=content,
                      fab=Fab("+", "Add recipe", lambda: self.open_editor(None),
                              id="new_recipe"),
                      dialog=self.delete_dialog(), on_dismiss=lambda: self.ask_delete(()))

    def recipe_page(self, r: Recipe) -> Screen:
        fields = [Detail(label, getattr(r, key), id=key) for key, label, _ in FIELDS[1:]]
        actions = [
            ActionIcon("unfavorite" if r.favorite else "favorite",
                       lambda: self.toggle_favorite(r.id), id="favorite",
                       selected=r.favorite),
            ActionIcon("edit", lambda: self.open_editor(r.id)),
            ActionIcon("delete", lambda: self.ask_delete((r.id,))),
        ]
        return DetailPage(r.title or "Untitled", fields, heading=r.title, on_back=self.back,
                          actions=actions, dialog=self.delete_dialog(),
                          on_dismiss=lambda: self.ask_delete(()))

    def editor(self, recipe_id: int | None) -> Screen:
        fields = [FormField(key, label, kind, required=key == "title")
                  for key, label, kind in FIELDS]
        return FormEditor("New recipe" if recipe_id is None else "Edit recipe", fields,
                          self.ui.form, on_save=self.save, on_close=self.back)
