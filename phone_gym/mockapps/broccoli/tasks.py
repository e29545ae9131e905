"""Broccoli tasks: AndroidWorld's recipe tasks (adding recipes given in the instruction,
deleting named ones, ones whose directions mention an ingredient, and one of a duplicate
pair).

Unlike AndroidWorld, every delete task seeds recipes that must survive (deleting everything
fails), and the duplicate tasks find the duplicated recipe in the initial state rather than
in the params (a policy reading ``info`` learns nothing). ``enter_recipe`` is the oracle step
that later tasks (recipes read from a gallery image or a text file) reuse.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import MAX_SCROLLS, Driver
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
from ...tasks.task import Task, localize_data
from ...tasks.vocab import Draws, pick
from ...verifiers import Matcher, same_text
from .app import FIELDS, TEXT_KEYS
from .fixtures import (
    COLLECTION,
    DATA,
    DISHES,
    INGREDIENTS,
    broccoli_app,
    mentions,
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


def list_rows(ui: Driver) -> Generator[PhoneAction, None, list[tuple[str, str, str]]]:
    """From the top of the recipe list: scroll it to its end, reading every row; returns
    ``(row id, title, subtitle)`` in list order (``yield from``'s value)."""
    rows: dict[str, tuple[str, str, str]] = {}
    for _ in range(MAX_SCROLLS):
        for e in sorted(ui.find_all(kind="list_item"), key=lambda e: e.bounds[1]):
            if e.short_id.startswith("recipe_") and ui.usable(e):
                rows.setdefault(e.short_id, (e.short_id, e.text, e.hint))
        if not any(e.scrollable for e in ui.find_all(kind="list")):
            break  # every row is on screen
        before = [(e.text, e.bounds) for e in ui.elements()]
        yield PhoneAction("scroll", x=500, y=600, direction="down")
        if [(e.text, e.bounds) for e in ui.elements()] == before:
            break
    return list(rows.values())


def delete_titled(ui: Driver, titles: Sequence[str]) -> Iterator[PhoneAction]:
    """From the recipe list (alphabetical): delete the recipes titled ``titles`` (one row
    each), found by their titles: one through its page, several selected together."""
    ordered = sorted(titles, key=str.casefold)
    if len(ordered) == 1:
        ui.why(f"Opening “{ordered[0]}” to delete it")
        yield from ui.tap(ordered[0], kind="list_item")
        yield from ui.tap(id="delete")
    else:
        ui.why(f"Selecting the recipes to delete, starting with “{ordered[0]}”")
        yield from ui.long_press(ordered[0], kind="list_item")
        for title in ordered[1:]:
            ui.why(f"Also selecting “{title}”")
            yield from ui.tap(title, kind="list_item")
        ui.why(f"{len(ordered)} recipes selected: deleting them")
        yield from ui.tap(id="delete_selected")
    yield from ui.tap(id="button_delete")


def page_fields(ui: Driver) -> tuple[str, ...]:
    """A recipe page's fields as shown (title, text fields, favourite or not)."""
    values = [ui.must(id="heading").text]
    values += [e.text if (e := ui.find(id=k)) is not None else "" for k in TEXT_KEYS[1:]]
    fav = ui.find(id="favorite")
    return (*values, fav.content_desc if fav is not None else "")


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
        ui.why("Opening Broccoli to add the recipes the instruction lists")
        yield from ui.open_app("Broccoli")
        for recipe in p["recipes"]:
            # a recipe entered before a restart shows in the list: not entered again
            shown = [e for e in ui.find_all(recipe["title"], kind="list_item")
                     if e.hint == recipe.get("description", e.hint)]
            if shown:
                continue
            ui.why(f"Adding “{recipe['title']}”: filling its fields from the instruction")
            yield from enter_recipe(ui, recipe)
        ui.why("Every recipe of the instruction is in the list")
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
class BroccoliZh(Task):
    """A Broccoli template that runs in zh-CN too: the recipes it seeds in Chinese
    (``strings/zh-CN.data.json``), the titles the instruction quotes as “番茄罗勒汤”.
    Subclasses elsewhere run in en-US unless they declare their locales."""

    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    data = DATA

    locales_stay_home = True

    def localize_params(self, params: dict[str, Any], table: Mapping[str, str]
                        ) -> dict[str, Any]:
        p: dict[str, Any] = localize_data(params, table)
        if "titles" in p:
            p["names"] = "、".join(f"“{t}”" for t in p["titles"])
        return p


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
        ui.why(f"Opening Broccoli to delete {p['names']}")
        yield from ui.open_app("Broccoli")
        yield from delete_titled(ui, p["titles"])
        ui.why(f"{p['names']} deleted; the other recipes stay")
        yield from ui.finish()


class RecipeDeleteSingleRecipe(BroccoliZh, DeleteRecipes):
    template = 'Delete the recipe {names} from Broccoli.'
    instructions = {"zh-CN": "在Broccoli里删除菜谱{names}。"}
    complexity, max_steps = 1, 10


class RecipeDeleteSingleWithRecipeWithNoise(BroccoliZh, DeleteRecipes):
    template = 'In Broccoli, delete the recipe {names}.'
    instructions = {"zh-CN": "打开Broccoli，把菜谱{names}删掉。"}
    complexity, max_steps = 2, 20
    decoys = 29


class RecipeDeleteMultipleRecipes(BroccoliZh, DeleteRecipes):
    template = "Delete the recipes {names} from Broccoli."
    instructions = {"zh-CN": "在Broccoli里删除这几个菜谱：{names}。"}
    complexity, max_steps = 2, 24
    count = 3


class RecipeDeleteMultipleRecipesWithNoise(BroccoliZh, DeleteRecipes):
    template = "In Broccoli, delete these recipes: {names}."
    instructions = {"zh-CN": "打开Broccoli，把{names}这几个菜谱删掉。"}
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
        with Draws(rng) as draw:  # (the recipes' draws in one batch: the same numbers)
            targets = [sample_recipe(draw, title=t, must=ingredient) for t in titles[:count]]
            others = [sample_recipe(draw, title=t, avoid=[ingredient])
                      for t in titles[count:count + self.decoys]]
        write_recipes(state, [*targets, *others], rng)

    def target(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        ingredient = params["ingredient"]
        return {"directions": Matcher(lambda v: mentions(str(v), ingredient),
                                      f"directions naming {ingredient!r}")}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ingredient = p["ingredient"]
        ui.why(f"Searching Broccoli for {ingredient}: a recipe that uses it lists it")
        yield from ui.open_app("Broccoli")
        yield from ui.fill("search", ingredient)
        rows = yield from list_rows(ui)
        doomed: list[str] = []
        for row_id, title, _ in rows:
            ui.why(f"Opening “{title}” to read its directions")
            yield from ui.tap(id=row_id)
            directions = ui.must(id="directions").text
            if mentions(directions, ingredient):
                doomed.append(row_id)
                ui.why(f"“{title}”'s directions mention {ingredient}: it goes")
            else:
                ui.why(f"“{title}”'s directions do not mention {ingredient}: it stays")
            yield from ui.press("back")
        if len(doomed) == 1:
            yield from ui.tap(id=doomed[0])
            yield from ui.tap(id="delete")
        elif doomed:
            ui.why(f"Selecting the {len(doomed)} recipes whose directions mention "
                   f"{ingredient}")
            yield from ui.long_press(id=doomed[0])
            for row_id in doomed[1:]:
                yield from ui.tap(id=row_id)
            yield from ui.tap(id="delete_selected")
        if doomed:
            ui.why("Confirming the deletion")
            yield from ui.tap(id="button_delete")
        ui.why(f"No recipe left whose directions mention {ingredient}")
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
        ui.why("Reading Broccoli's recipe list for two rows with the same title and summary")
        yield from ui.open_app("Broccoli")
        rows = yield from list_rows(ui)
        groups: dict[tuple[str, str], list[str]] = {}
        for row_id, title, subtitle in rows:
            groups.setdefault((title, subtitle), []).append(row_id)
        for (title, _), ids in groups.items():
            if len(ids) < 2:
                continue
            opened: dict[tuple[str, ...], str] = {}
            for row_id in ids:
                ui.why(f"“{title}” is listed {len(ids)} times: opening each copy to compare "
                       "every field")
                yield from ui.tap(id=row_id)
                fields = page_fields(ui)
                if fields in opened:
                    ui.why(f"This “{title}” matches an earlier copy in every field: "
                           "deleting this one")
                    yield from ui.tap(id="delete")
                    yield from ui.tap(id="button_delete")
                    ui.why(f"One copy of “{title}” is left")
                    yield from ui.finish()
                    return
                opened[fields] = row_id
                yield from ui.press("back")
        ui.why("No recipe is listed twice with the same fields")
        yield from ui.finish()


class RecipeDeleteDuplicateRecipes(BroccoliZh, DeleteDuplicateRecipe):
    complexity, max_steps = 1, 10
    instructions = {"zh-CN": "Broccoli里有一个菜谱存了两遍，删掉多余的那一份，保留一份。"}


class RecipeDeleteDuplicateRecipes2(BroccoliZh, DeleteDuplicateRecipe):
    complexity, max_steps = 2, 24
    instructions = {"zh-CN": "Broccoli里有一个菜谱存了两遍，删掉多余的那一份，保留一份。"}
    decoys, variants = 10, 4  # AndroidWorld: 6 others and 4 of its title


class RecipeDeleteDuplicateRecipes3(BroccoliZh, DeleteDuplicateRecipe):
    complexity, max_steps = 3, 34
    instructions = {"zh-CN": "Broccoli里有一个菜谱存了两遍，删掉多余的那一份，保留一份。"}
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
