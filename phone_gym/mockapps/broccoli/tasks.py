"""Broccoli tasks: AndroidWorld's recipe tasks (adding recipes given in the instruction,
deleting named ones, ones whose directions mention an ingredient, and one of a duplicate
pair).

Unlike AndroidWorld, every delete task seeds recipes that must survive (deleting everything
fails), and the duplicate tasks find the duplicated recipe in the initial state rather than
in the params (a policy reading ``info`` learns nothing). ``enter_recipe`` is the oracle step
that later tasks (recipes read from a gallery image or a text file) reuse.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver, Unrecoverable
from ...tasks.families import CreateRecords, DeleteOneDuplicate, DeleteRecord
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import (
    Matcher,
    same_text,
)
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

LABELS = {key: label for key, label, _ in FIELDS}
FORMATS = ("csv", "text")


def one_of(names: Sequence[str]) -> Matcher:
    """Exactly one of ``names``."""
    allowed = frozenset(names)
    return Matcher(lambda v: v in allowed, f"one of {sorted(allowed)!r}", values=allowed)


def quoted(names: Sequence[str]) -> str:
    """``"A"``, ``"A" and "B"``, ``"A", "B" and "C"``."""
    q = [f'"{n}"' for n in names]
    return q[0] if len(q) == 1 else f"{', '.join(q[:-1])} and {q[-1]}"


def as_csv(rows: Sequence[Mapping[str, Any]], keys: Sequence[str],
           header: Sequence[str]) -> str:
    """``rows`` as CSV text with a ``header`` line (fields quoted where they hold commas)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([row[k] for k in keys])
    return out.getvalue().rstrip("\n")


def as_blocks(rows: Sequence[Mapping[str, Any]], keys: Sequence[str],
              labels: Mapping[str, str]) -> str:
    """``rows`` as blocks of ``Label: value`` lines, separated by blank lines."""
    return "\n\n".join("\n".join(f"{labels[k]}: {row[k]}" for k in keys) for row in rows)


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
    """From the recipe list: delete the recipes ``ids``: one through its page, several by
    selecting them (long press, then taps, in list order) and deleting the selection."""
    if not ids:
        return
    if len(ids) == 1:
        yield from ui.tap(id=f"recipe_{ids[0]}")
        yield from ui.tap(id="delete")
    else:
        first, *rest = ids
        yield from ui.long_press(id=f"recipe_{first}")
        for recipe_id in rest:
            yield from ui.tap(id=f"recipe_{recipe_id}")
        yield from ui.tap(id="delete_selected")
    yield from ui.tap(id="button_delete")


def in_list_order(ui: Driver, ids: Sequence[int]) -> list[int]:
    """``ids`` in the order Broccoli's list shows them."""
    app = broccoli_app(ui.state)
    order = {r.id: i for i, r in enumerate(app.shown())}
    return sorted(ids, key=lambda i: order.get(i, 0))


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
        fmt = str(pick(rng, FORMATS))
        if fmt == "csv":
            listing = as_csv(recipes, TEXT_KEYS, [LABELS[k] for k in TEXT_KEYS])
        else:
            listing = as_blocks(recipes, TEXT_KEYS, LABELS)
        return {"recipes": recipes, "format": fmt, "listing": listing}

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
        yield from delete_recipe_ids(ui, in_list_order(ui, ids))
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
        yield from delete_recipe_ids(ui, in_list_order(ui, ids))
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
        recipes = list(broccoli_app(ui.state).data.recipes)
        groups: dict[tuple[Any, ...], list[int]] = {}
        for r in recipes:
            groups.setdefault(tuple(getattr(r, k) for k in self.keys), []).append(r.id)
        twins = [ids for ids in groups.values() if len(ids) > 1]
        if len(twins) > 1 or (twins and len(twins[0]) > 2):
            raise Unrecoverable("more than one extra copy: not the task's starting state")
        if twins:
            yield from delete_recipe_ids(ui, twins[0][-1:])
        yield from ui.finish()


class RecipeDeleteDuplicateRecipes(DeleteDuplicateRecipe):
    complexity, max_steps = 1, 10


class RecipeDeleteDuplicateRecipes2(DeleteDuplicateRecipe):
    complexity, max_steps = 2, 24
    decoys, variants = 10, 3


class RecipeDeleteDuplicateRecipes3(DeleteDuplicateRecipe):
    complexity, max_steps = 3, 34
    decoys, variants, same_description = 30, 4, True


TEMPLATES: list[Task] = [
    RecipeAddSingleRecipe(), RecipeAddMultipleRecipes(),
    RecipeDeleteSingleRecipe(), RecipeDeleteSingleWithRecipeWithNoise(),
    RecipeDeleteMultipleRecipes(), RecipeDeleteMultipleRecipesWithNoise(),
    RecipeDeleteMultipleRecipesWithConstraint(),
    RecipeDeleteDuplicateRecipes(), RecipeDeleteDuplicateRecipes2(),
    RecipeDeleteDuplicateRecipes3(),
]

__all__ = ["TEMPLATES", "CreateRecords", "DeleteOneDuplicate", "as_blocks", "enter_recipe",
           "as_csv", "delete_recipe_ids", "one_of", "quoted", "write_recipe"]
