"""The Broccoli recipe app driven through phone actions: the list and its search, a recipe's
page, the editor, favourites, deleting one recipe or a selection; and its tasks' checks."""

from __future__ import annotations

import numpy as np
import pytest
from driving import act, fill, long_press, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.broccoli.app import BroccoliApp, Recipe, add_recipe
from phone_gym.mockapps.broccoli.fixtures import mentions, sample_recipe
from phone_gym.mockapps.broccoli.tasks import (
    RecipeDeleteDuplicateRecipes2,
    RecipeDeleteMultipleRecipesWithConstraint,
    as_blocks,
    as_csv,
)
from phone_gym.tasks.families import duplicate_fields
from phone_gym.tasks.task import Episode
from phone_gym.testing import check_app
from phone_gym.world import Device


def broccoli(device: Device) -> BroccoliApp:
    app = device.apps["Broccoli"]
    assert isinstance(app, BroccoliApp)
    return app


def recipes(device: Device) -> list[Recipe]:
    return list(broccoli(device).data.recipes)


@pytest.fixture
def device() -> Device:
    """A phone with Broccoli holding three recipes (ids 1..3), opened on its list."""
    dev = Device([BroccoliApp])
    data = broccoli(dev).data
    add_recipe(data, "Pancakes", description="Sunday breakfast", servings="2 servings",
               directions="Whisk the oats with the honey.")
    add_recipe(data, "Lentil Stew", description="Hearty", preparation_time="1 hr")
    add_recipe(data, "Apple Crumble", description="Dessert")
    dev.invalidate()
    act(dev, PhoneAction("open_app", app="Broccoli"))
    return dev


def test_list_is_alphabetical(device: Device) -> None:
    items = [p.node for p in device.frame().items if p.node.kind == "list_item"]
    assert [n.text for n in items] == ["Apple Crumble", "Lentil Stew", "Pancakes"]
    assert [n.id for n in items] == ["recipe_3", "recipe_2", "recipe_1"]
    assert items[2].hint == "Sunday breakfast"


def test_search_filters_the_list(device: Device) -> None:
    fill(device, "search", "stew")
    assert shown(device, "Lentil Stew") and not shown(device, "Pancakes")
    fill(device, "search", "nothing like it")
    assert shown(device, 'No results for "nothing like it"')


def test_recipe_page_shows_the_fields_and_favourites(device: Device) -> None:
    tap(device, "Pancakes", kind="list_item")
    assert shown(device, "Whisk the oats with the honey.", id="directions")
    assert shown(device, "2 servings", id="servings")
    tap(device, id="favorite")
    assert broccoli(device).data.recipes.get(1).favorite  # type: ignore[union-attr]
    press(device, "back")
    assert shown(device, "Pancakes", kind="list_item")


def test_add_a_recipe_through_the_editor(device: Device) -> None:
    tap(device, id="new_recipe")
    fill(device, "title", "Gazpacho")
    fill(device, "servings", "4 servings")
    fill(device, "directions", "Blend the tomato and serve cold.")
    tap(device, id="save")
    added = recipes(device)[-1]
    assert (added.title, added.servings, added.directions) == (
        "Gazpacho", "4 servings", "Blend the tomato and serve cold.")
    assert shown(device, "Gazpacho", kind="list_item")


def test_a_second_new_recipe_opens_the_editor_at_its_top(device: Device) -> None:
    for title in ("Gazpacho", "Paella"):
        tap(device, id="new_recipe")
        fill(device, "title", title)
        fill(device, "directions", "Cook it.")
        tap(device, id="save")
    assert [r.title for r in recipes(device)][-2:] == ["Gazpacho", "Paella"]


def test_the_title_is_required_and_back_asks_to_discard(device: Device) -> None:
    tap(device, id="new_recipe")
    fill(device, "description", "no title")
    tap(device, id="save")
    assert shown(device, "Title is required")
    press(device, "back")  # the keyboard
    press(device, "back")
    assert shown(device, "Discard changes?")
    tap(device, id="button_discard")
    assert len(recipes(device)) == 3


def test_edit_a_recipe(device: Device) -> None:
    tap(device, "Lentil Stew", kind="list_item")
    tap(device, id="edit")
    fill(device, "preparation_time", "2 hrs")
    tap(device, id="save")
    assert broccoli(device).data.recipes.get(2).preparation_time == "2 hrs"  # type: ignore
    assert len(recipes(device)) == 3


def test_delete_from_the_page_asks_first(device: Device) -> None:
    tap(device, "Pancakes", kind="list_item")
    tap(device, id="delete")
    tap(device, id="button_cancel")
    assert len(recipes(device)) == 3
    tap(device, id="delete")
    tap(device, id="button_delete")
    assert [r.title for r in recipes(device)] == ["Lentil Stew", "Apple Crumble"]
    assert shown(device, "Recipes")


def test_select_several_and_delete_them(device: Device) -> None:
    long_press(device, "Pancakes", kind="list_item")
    assert shown(device, "1 selected")
    tap(device, "Apple Crumble", kind="list_item")
    assert shown(device, "2 selected")
    tap(device, id="delete_selected")
    assert shown(device, "Delete 2 recipes?")
    tap(device, id="button_delete")
    assert [r.title for r in recipes(device)] == ["Lentil Stew"]


def test_back_leaves_selection_without_deleting(device: Device) -> None:
    long_press(device, "Pancakes", kind="list_item")
    press(device, "back")
    assert shown(device, "Recipes") and len(recipes(device)) == 3


def test_listings_and_ingredient_words() -> None:
    rows = [sample_recipe(np.random.default_rng(0))]
    text = as_csv(rows, ["title", "ingredients"], ["Title", "Ingredients"])
    assert text.startswith("Title,Ingredients\n") and '"' in text  # commas quoted
    assert as_blocks(rows, ["title"], {"title": "Title"}) == f"Title: {rows[0]['title']}"
    assert mentions("Roast the bell pepper.", "bell pepper")
    assert not mentions("Add the eggplant.", "egg")


def test_constraint_task_targets_only_recipes_naming_the_ingredient() -> None:
    task = RecipeDeleteMultipleRecipesWithConstraint()
    for seed in range(5):
        dev = Device([BroccoliApp])
        ep = Episode(task, dev, np.random.default_rng(seed))
        rows = recipes(dev)
        hits = [r for r in rows if mentions(r.directions, ep.params["ingredient"])]
        assert 1 <= len(hits) <= 3 and len(rows) == len(hits) + 29


def test_duplicate_task_has_one_pair_and_same_title_variants() -> None:
    dev = Device([BroccoliApp])
    ep = Episode(RecipeDeleteDuplicateRecipes2(), dev, np.random.default_rng(3))
    twin = duplicate_fields(ep.initial, "apps.Broccoli.recipes",
                            RecipeDeleteDuplicateRecipes2.keys)
    same_title = [r for r in recipes(dev) if r.title == twin["title"]]
    assert len(same_title) == 6  # the pair and AndroidWorld's 4 variants
    assert "twin" not in str(ep.params) and twin["title"] not in str(ep.params)


def test_check_app() -> None:
    report = check_app(BroccoliApp, 3000)
    assert report.steps == 3000


def test_the_drawer_switches_between_recipes_and_favorites(device: Device) -> None:
    assert shown(device, "Recipes", kind="top_bar")
    tap(device, "Lentil Stew", kind="list_item")
    tap(device, id="favorite")
    press(device, "back")
    tap(device, desc="Open navigation drawer")
    assert shown(device, "Broccoli", id="drawer_header")
    tap(device, id="nav_favorites")
    assert shown(device, "Favorites", kind="top_bar")
    assert [p.node.text for p in device.frame().items
            if p.node.kind == "list_item"] == ["Lentil Stew"]
    fill(device, "search", "pan")  # the search keeps to the favourites
    assert shown(device, 'No results for "pan"')
    fill(device, "search", "")
    tap(device, "Lentil Stew", kind="list_item")
    tap(device, id="favorite")  # no longer a favourite: it leaves the list
    press(device, "back")
    assert not shown(device, "Lentil Stew", kind="list_item")
    tap(device, desc="Open navigation drawer")
    tap(device, id="nav_recipes")
    assert len([p for p in device.frame().items if p.node.kind == "list_item"]) == 3


def test_the_favourites_view_follows_stars_edits_and_searches() -> None:
    """The drawer's Favorites lists what filtering every recipe lists (a listing kept on
    write, not a pass over the whole table per frame), through stars, renames, deletes and
    searches."""
    rng = np.random.default_rng(4)
    dev = Device([BroccoliApp])
    app = broccoli(dev)
    table = app.data.recipes
    for i in range(60):
        add_recipe(app.data, f"{['Soup', 'Stew', 'soup bowl'][i % 3]} {int(rng.integers(9))}",
                   favorite=bool(rng.random() < 0.4))
    for step in range(80):
        keys, op = table.keys(), rng.random()
        key = keys[int(rng.integers(len(keys)))]
        if op < 0.5:
            app.toggle_favorite(key)
        elif op < 0.7:
            table.update(key, title=f"Stew {int(rng.integers(9))}")
        elif op < 0.8:
            table.remove(key)
        else:
            add_recipe(app.data, "Soup 0", favorite=True)
        app.show_view(str(rng.choice(["Recipes", "Favorites"])))
        app.set_query(str(rng.choice(["", "soup", "STEW 3"])))
        q = app.ui.query.strip().casefold()
        want = sorted((r for r in table if (app.ui.view == "Recipes" or r.favorite)
                       and q in f"{r.title}\n{r.description}\n{r.ingredients}".casefold()),
                      key=lambda r: (r.title.casefold(), r.id))
        assert list(app.shown()) == want, step
