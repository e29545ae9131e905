"""Public fixtures of Broccoli: recipe vocabulary, sampling recipes, and seeding them (what
other apps' tasks, e.g. recipes read from a gallery image or a text file, may reuse).

A recipe is sampled as AndroidWorld builds its recipes: a base dish, one of a few
descriptions, servings, a preparation time, an ingredient list and directions ending with a
tip. The words are phone-gym's own. Directions name two ingredients of ``INGREDIENTS`` (none
of which is a word inside another), so "recipes whose directions mention X" is decidable.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ...tasks.families import as_blocks as as_blocks
from ...tasks.families import as_csv as as_csv
from ...tasks.families import one_of as one_of
from ...tasks.families import quoted as quoted
from ...tasks.task import data_catalogue, localize_datum
from ...tasks.vocab import Draws, pick
from ...verifiers.state import DeviceState
from ...world.locale import DEFAULT_LOCALE
from .app import TEXT_KEYS, BroccoliApp, Recipe, add_recipe

COLLECTION = "apps.Broccoli.recipes"

DISHES = (
    "Tomato Basil Soup", "Chicken Curry", "Veggie Stir Fry", "Mushroom Risotto",
    "Beef Tacos", "Greek Salad", "Pancakes", "Lentil Stew", "Shrimp Pasta", "Banana Bread",
    "Fish Tacos", "Caesar Salad", "Pumpkin Soup", "Pad Thai", "Margherita Pizza",
    "Chili con Carne", "Falafel Wrap", "Egg Fried Rice", "Apple Crumble", "Quiche Lorraine",
    "Minestrone", "Shakshuka", "Beef Stroganoff", "Caprese Sandwich", "Burrito Bowl",
    "Chicken Noodle Soup", "Vegetable Lasagna", "Salmon Teriyaki", "Hummus Plate",
    "French Toast", "Paella", "Ratatouille", "Carrot Cake", "Gazpacho", "Poke Bowl",
    "Spinach Omelette", "Tofu Scramble", "Potato Gratin", "Fruit Smoothie",
)
DESCRIPTIONS = (
    "A quick weeknight favourite.", "Comfort food for cold days.",
    "Light, fresh and healthy.", "Great for sharing with friends.",
    "A family recipe worth keeping.",
)
SERVINGS = ("1 serving", "2 servings", "3 servings", "4 servings", "6 servings")
PREP_TIMES = ("10 mins", "20 mins", "30 mins", "45 mins", "1 hr", "2 hrs", "3 hrs", "4 hrs")
INGREDIENTS = (
    "garlic", "onion", "tomato", "basil", "carrot", "potato", "spinach", "mushroom",
    "chicken", "beef", "tofu", "rice", "lentils", "chickpeas", "zucchini", "eggplant",
    "bell pepper", "ginger", "lemon", "honey", "cheddar", "feta", "parmesan", "yogurt",
    "butter", "oats", "almonds", "walnuts", "cinnamon", "cumin", "paprika", "shrimp",
    "salmon", "quinoa", "cabbage", "celery", "avocado", "coconut milk", "mozzarella", "leek",
)
QUANTITIES = ("1 cup", "2 cups", "1/2 cup", "1 tbsp", "2 tbsp", "1 tsp", "200 g", "100 g")
STEPS = ("Chop the {a} and cook it with the {b} for ten minutes.",
         "Mix the {a} with the {b} in a large bowl.",
         "Roast the {a}, then add the {b} and stir well.")
TIPS = ("Serve warm.", "Garnish with fresh herbs before serving.",
        "Keeps in the fridge for two days.")


#: The seeded data in zh-CN (``strings/zh-CN.data.json``: dishes, descriptions, servings,
#: times, ingredients, quantities, the directions' steps and tips: 番茄罗勒汤, 2人份, 大蒜).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}
_STEP = {step: re.compile(re.escape(step).replace(re.escape("{a}"), "(?P<a>.+?)")
                          .replace(re.escape("{b}"), "(?P<b>.+?)") + r" (?P<tip>.+)$")
         for step in STEPS}


def forms_of(titles: Iterable[str]) -> set[str]:
    """``titles`` and their forms in the other locales (what ``avoid_titles`` excludes)."""
    out = set(titles)
    return out | {table[t] for table in DATA.values() for t in out if t in table}


def recipe_in(recipe: Mapping[str, Any], locale: str) -> dict[str, Any]:
    """A recipe's fields (``sample_recipe``'s) as the phone in ``locale`` seeds them: each
    word through the data catalogue ("1 cup garlic" -> 大蒜 1杯, a step and its tip as one
    Chinese sentence); text it cannot read (already localized) is kept."""
    out = dict(recipe)
    table = DATA.get(locale, {})
    if locale == DEFAULT_LOCALE or not table:
        return out
    for key in ("title", "description", "servings", "preparation_time"):
        if isinstance(out.get(key), str):
            out[key] = localize_datum(out[key], table)
    parts = str(out.get("ingredients", "")).split(", ")
    shown: list[str] = []
    for part in parts:
        q = next((q for q in QUANTITIES if part.startswith(f"{q} ")), None)
        if q is None or part[len(q) + 1:] not in table:
            shown = []
            break
        shown.append(f"{table[part[len(q) + 1:]]} {table[q]}")
    if shown:
        out["ingredients"] = "，".join(shown)
    for step, pattern in _STEP.items():
        found = pattern.match(str(out.get("directions", "")))
        if found and {found["a"], found["b"], found["tip"]} <= table.keys():
            out["directions"] = (table[step].format(a=table[found["a"]], b=table[found["b"]])
                                 + table[found["tip"]])
            break
    return out


def mentions(text: str, ingredient: str) -> bool:
    """Whether ``text`` names ``ingredient`` as a word (any case)."""
    return re.search(rf"\b{re.escape(ingredient)}\b", text, re.IGNORECASE) is not None


def sample_recipe(rng: np.random.Generator | Draws, *, title: str | None = None,
                  avoid: Sequence[str] = (), must: str | None = None) -> dict[str, str]:
    """A recipe's text fields; its directions name two ingredients not in ``avoid`` (one of
    them ``must`` when given)."""
    if not isinstance(rng, Draws):
        with Draws(rng) as draws:
            return sample_recipe(draws, title=title, avoid=avoid, must=must)
    draw = rng
    a, b = draw.pick([i for i in INGREDIENTS if i not in avoid and i != must], 2)
    if must is not None:
        a, b = (must, b) if draw.random() < 0.5 else (a, must)
    qa, qb = draw.pick(QUANTITIES, 2)
    return {
        "title": title or str(draw.pick(DISHES)),
        "description": str(draw.pick(DESCRIPTIONS)),
        "servings": str(draw.pick(SERVINGS)),
        "preparation_time": str(draw.pick(PREP_TIMES)),
        "ingredients": f"{qa} {a}, {qb} {b}",
        "directions": f"{draw.pick(STEPS).format(a=a, b=b)} {draw.pick(TIPS)}",
    }


def sample_recipes(rng: np.random.Generator, k: int, *, avoid_titles: Iterable[str] = (),
                   avoid: Sequence[str] = ()) -> list[dict[str, str]]:
    """``k`` recipes with different titles, none in ``avoid_titles``."""
    avoided = set(avoid_titles)
    titles = pick(rng, [d for d in DISHES if not forms_of([d]) & avoided], k)
    return [sample_recipe(rng, title=t, avoid=avoid) for t in titles]


def noise_recipes(rng: np.random.Generator, k: int, *, avoid_titles: Iterable[str] = (),
                  prep_times: Sequence[str] = PREP_TIMES) -> list[dict[str, str]]:
    """``k`` different recipes whose titles may repeat (as AndroidWorld's noise rows: more
    rows than dishes), none titled in ``avoid_titles``, each taking one of ``prep_times``."""
    avoid = set(avoid_titles)
    titles = [d for d in DISHES if not forms_of([d]) & avoid]
    out: list[dict[str, str]] = []
    seen: set[tuple[str, ...]] = set()
    with Draws(rng) as draw:  # the recipes' draws fetched in bulk: the same numbers and state
        draw.reserve(8 * k)  # about 14 words a recipe, more for a repeat
        while len(out) < k:
            recipe = sample_recipe(draw, title=titles[draw.below(len(titles))])
            recipe["preparation_time"] = str(draw.pick(prep_times))
            key = tuple(recipe.values())  # (the same keys in the same order: equal dicts)
            if key not in seen:
                seen.add(key)
                out.append(recipe)
    return out


def broccoli_app(state: DeviceState) -> BroccoliApp:
    app = state.app("Broccoli")  # type: ignore[attr-defined]
    assert isinstance(app, BroccoliApp)
    return app


def write_recipe(state: DeviceState, recipe: Mapping[str, Any]) -> Recipe:
    """Add a recipe (its text fields, optionally ``favorite``) to Broccoli's database."""
    recipe = recipe_in(recipe, getattr(state, "locale", DEFAULT_LOCALE))
    values = {k: recipe[k] for k in (*TEXT_KEYS, "favorite") if k in recipe}
    title = values.pop("title")
    return add_recipe(broccoli_app(state).data, str(title), **values)


def write_recipes(state: DeviceState, recipes: Iterable[Mapping[str, Any]],
                  rng: np.random.Generator | None = None) -> None:
    """Add ``recipes`` (shuffled by ``rng`` when given), as ``write_recipe`` each, in one
    write of the table (``Table.extend``)."""
    rows = list(recipes)
    if rng is not None:
        rows = [rows[i] for i in rng.permutation(len(rows))]
    table = broccoli_app(state).data.recipes
    locale = getattr(state, "locale", DEFAULT_LOCALE)
    keys = (*TEXT_KEYS, "favorite")
    records = []
    for i, row in enumerate(rows, table.next_id):
        recipe = recipe_in(row, locale)
        values = {k: recipe[k] for k in keys if k in recipe}
        title = values.pop("title")
        records.append(Recipe(id=i, title=str(title), **values))
    table.extend(records)


def recipe_ids(state: DeviceState, where: Mapping[str, Any]) -> list[int]:
    """The ids of the recipes whose fields equal ``where`` (for oracles, to plan)."""
    return [r.id for r in broccoli_app(state).data.recipes
            if all(getattr(r, k) == v for k, v in where.items())]


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({"enter_recipe", "recipe_fields"})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
