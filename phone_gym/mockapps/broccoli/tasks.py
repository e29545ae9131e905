"""Broccoli tasks: AndroidWorld's recipe tasks (adding recipes given in the instruction,
deleting named ones, ones whose directions mention an ingredient, and one of a duplicate
pair).

Unlike AndroidWorld, every delete task seeds recipes that must survive (deleting everything
fails), and the duplicate tasks find the duplicated recipe in the initial state rather than
in the params (a policy reading ``info`` learns nothing). ``enter_recipe`` is the oracle step
that later tasks (recipes read from a gallery image or a text file) reuse.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver
from ...tasks.families import (
    CreateRecords,
    DeleteOneDuplicate,
    DeleteRecord,
    as_blocks,
    as_csv,
    delete_listed,
    in_list_order,
    listing,
    one_of,
    quoted,
)
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import Matcher, same_text
from .app import FIELDS, TEXT_KEYS
from .fixtures import (
    COLLECTION,
    DISHES,
    INGREDIENTS,
    broccoli_app,
    mentions,
    recipe_ids,
    sample_recipe,
    sample_recipes,
    write_recipe,
    write_recipes,
)

LABELS = {f.key: f.label for f in FIELDS}


# --- oracle steps ------------------------------------------------------------------------------
def enter_recipe(ui: Driver, recipe: Mapping[str, Any]) -> Iterator[PhoneAction]:
    """From Broccoli's recipe list: open the editor, fill in ``recipe``'s text fields and
    save (back on the list)."""
    yield from ui.tap(id="new_recipe")
    for key in TEXT_KEYS:
        if recipe.get(key):
            yield from ui.fill(key, str(recipe[key]))
    yield from ui.tap(id="save")


def delete_recipe_ids(ui: Driver, ids: Sequence[int]) -> Iterator[PhoneAction]:
    """From the recipe list: delete the recipes ``ids`` in the order the list shows them
    (``families.delete_listed``)."""
    yield from delete_listed(ui, "recipe", in_list_order(broccoli_app(ui.state).shown(), ids))


def recipe_fields(recipe: Mapping[str, Any]) -> dict[str, Any]:
    """The where-clause of a recipe to enter: its text fields, compared as text, and not
    marked as a favourite (the task does not ask for that)."""
    return {**{k: same_text(str(recipe[k])) for k in TEXT_KEYS}, "favorite": False}


# --- adding recipes ----------------------------------------------------------------------------
class AddRecipes(CreateRecords):
    """Enter ``count`` recipes given in the instruction (as CSV or as labelled blocks)
    into Broccoli, which holds 10 other recipes."""

    apps, collection = ("Broccoli",), COLLECTION
    start = AW_START
    count: ClassVar[int] = 1
    noise: ClassVar[int] = 10

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        recipes = sample_recipes(rng, self.count)
        fmt, text = listing(rng, recipes, TEXT_KEYS, LABELS)
        return {"recipes": recipes, "format": fmt, "listing": text}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        titles = [r["title"] for r in params["recipes"]]
        write_recipes(state, sample_recipes(rng, self.noise, avoid_titles=titles))

    def records(self, params: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        return [recipe_fields(r) for r in params["recipes"]]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Broccoli")
        for recipe in p["recipes"]:
            # plan from state: a recipe entered before a restart is not entered again
            where = {k: recipe[k] for k in TEXT_KEYS}
            if not recipe_ids(ui.state, where):
                yield from enter_recipe(ui, recipe)
        yield from ui.finish()


class RecipeAddSingleRecipe(AddRecipes):
    template = "Add this recipe to Broccoli:\n{listing}"
    complexity, max_steps = 2, 24


class RecipeAddMultipleRecipes(AddRecipes):
    tags = frozenset({"long_horizon"})
    template = "Add these three recipes to Broccoli:\n{listing}"
    complexity, max_steps = 5, 60
    count = 3


# --- deleting recipes --------------------------------------------------------------------------
class DeleteRecipes(DeleteRecord):
    """Delete the recipes titled ``titles`` among ``decoys`` others (AndroidWorld seeds
    none in the plain variants, so deleting every recipe passed there: here it fails)."""

    apps, collection = ("Broccoli",), COLLECTION
    start = AW_START
    count: ClassVar[int] = 1
    decoys: ClassVar[int] = 3

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        titles = [str(t) for t in pick(rng, DISHES, self.count)]
        return {"titles": titles, "names": quoted(titles)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        targets = [sample_recipe(rng, title=t) for t in params["titles"]]
        others = sample_recipes(rng, self.decoys, avoid_titles=params["titles"])
        write_recipes(state, [*targets, *others], rng)

    def target(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": one_of(params["titles"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Broccoli")
        ids = [i for t in p["titles"] for i in recipe_ids(ui.state, {"title": t})]
        yield from delete_recipe_ids(ui, ids)
        yield from ui.finish()


class RecipeDeleteSingleRecipe(DeleteRecipes):
    template = 'Delete the recipe {names} from Broccoli.'
    complexity, max_steps = 1, 10


class RecipeDeleteSingleWithRecipeWithNoise(DeleteRecipes):
    template = 'In Broccoli, delete the recipe {names}.'
    complexity, max_steps = 2, 20
    decoys = 29


class RecipeDeleteMultipleRecipes(DeleteRecipes):
    template = "Delete the recipes {names} from Broccoli."
    complexity, max_steps = 2, 24
    count = 3


class RecipeDeleteMultipleRecipesWithNoise(DeleteRecipes):
    template = "In Broccoli, delete these recipes: {names}."
    complexity, max_steps = 3, 34
    count, decoys = 3, 29


class RecipeDeleteMultipleRecipesWithConstraint(DeleteRecord):
    """Delete every recipe whose directions name ``ingredient`` (1 to 3 of them, among 29
    that do not); which ones they are is left for the agent to find (not in the params)."""

    template = "Delete every recipe in Broccoli whose directions mention {ingredient}."
    apps, collection = ("Broccoli",), COLLECTION
    start = AW_START
    complexity, max_steps = 4, 40
    decoys = 29

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"ingredient": str(pick(rng, INGREDIENTS))}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        ingredient = params["ingredient"]
        titles = pick(rng, DISHES, self.decoys + 3)
        count = int(rng.integers(1, 4))
        targets = [sample_recipe(rng, title=t, must=ingredient) for t in titles[:count]]
        others = [sample_recipe(rng, title=t, avoid=[ingredient])
                  for t in titles[count:count + self.decoys]]
        write_recipes(state, [*targets, *others], rng)

    def target(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        ingredient = params["ingredient"]
        return {"directions": Matcher(lambda v: mentions(str(v), ingredient),
                                      f"directions naming {ingredient!r}")}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Broccoli")
        ids = [r.id for r in broccoli_app(ui.state).data.recipes
               if mentions(r.directions, p["ingredient"])]
        yield from delete_recipe_ids(ui, ids)
        yield from ui.finish()


# --- duplicates --------------------------------------------------------------------------------
class DeleteDuplicateRecipe(DeleteOneDuplicate):
    """One recipe is in Broccoli twice: delete one copy. ``decoys`` other recipes, of which
    ``variants`` share the duplicate's title (and, with ``same_description``, its
    description) but differ in another field."""

    template = "Broccoli has a recipe saved twice. Delete the extra copy and keep one."
    apps, collection = ("Broccoli",), COLLECTION
    keys = (*TEXT_KEYS, "favorite")
    start = AW_START
    decoys: ClassVar[int] = 5
    variants: ClassVar[int] = 0
    same_description: ClassVar[bool] = False

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        twin = sample_recipe(rng)
        near: list[dict[str, str]] = []
        seen = {tuple(twin.values())}
        while len(near) < self.variants:  # each differs from the twin and from the others
            variant = sample_recipe(rng, title=twin["title"])
            if self.same_description:
                variant["description"] = twin["description"]
            if tuple(variant.values()) not in seen:
                seen.add(tuple(variant.values()))
                near.append(variant)
        others = sample_recipes(rng, self.decoys - self.variants, avoid_titles=[twin["title"]])
        write_recipes(state, [twin, dict(twin), *near, *others], rng)

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Broccoli")
        extra = self.extra_copy(broccoli_app(ui.state).data.recipes)
        if extra is not None:
            yield from delete_recipe_ids(ui, [extra])
        yield from ui.finish()


class RecipeDeleteDuplicateRecipes(DeleteDuplicateRecipe):
    complexity, max_steps = 1, 10


class RecipeDeleteDuplicateRecipes2(DeleteDuplicateRecipe):
    complexity, max_steps = 2, 24
    decoys, variants = 10, 4  # AndroidWorld: 6 others and 4 of its title


class RecipeDeleteDuplicateRecipes3(DeleteDuplicateRecipe):
    complexity, max_steps = 3, 34
    decoys, variants, same_description = 30, 6, True  # AndroidWorld: 6 of its title


TEMPLATES: list[Task] = [
    RecipeAddSingleRecipe(), RecipeAddMultipleRecipes(),
    RecipeDeleteSingleRecipe(), RecipeDeleteSingleWithRecipeWithNoise(),
    RecipeDeleteMultipleRecipes(), RecipeDeleteMultipleRecipesWithNoise(),
    RecipeDeleteMultipleRecipesWithConstraint(),
    RecipeDeleteDuplicateRecipes(), RecipeDeleteDuplicateRecipes2(),
    RecipeDeleteDuplicateRecipes3(),
]

__all__ = ["TEMPLATES", "as_blocks", "as_csv", "delete_recipe_ids", "enter_recipe", "one_of",
           "quoted", "recipe_fields", "write_recipe"]
