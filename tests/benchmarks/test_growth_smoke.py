"""The growth benchmark runs and prints its figures (no speed thresholds here: the target,
50,000 records at most twice the cost of 16, lives in the benchmark and docs/performance.md),
and its recipes, songs and orders walks do what they say."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from phone_gym.envs import PhoneWorldEnv
from phone_gym.mockapps.broccoli.app import BroccoliApp
from phone_gym.mockapps.music.app import MusicApp
from phone_gym.mockapps.shop.app import ShopApp

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "growth.py"


@pytest.mark.slow  # runs the benchmark script: the full tier runs it
def test_growth_prints_one_json_line_of_figures() -> None:
    args = [sys.executable, str(BENCHMARK), "--steps", "30", "--repeats", "1"]
    args += ["--sizes", "16", "300", "--stores", "contacts", "messages"]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, proc.stdout
    figures = json.loads(lines[0])
    assert set(figures["stores"]) == {"contacts", "messages"} and figures["steps"] == 30
    for store in figures["stores"].values():
        assert set(store["step_ms"]) == {"16", "300"} == set(store["reset_ms"])
        assert all(v > 0 for v in store["step_ms"].values())
        assert store["ratio"] > 0 and store["reset_ratio"] > 0


def load_growth() -> Any:
    spec = importlib.util.spec_from_file_location("growth_benchmark", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def walked(store: str, size: int) -> tuple[PhoneWorldEnv, list[str]]:
    """An env of ``store``'s scenario with ``size`` records, after one episode of its walk
    (the kinds of its actions)."""
    growth = load_growth()
    env = PhoneWorldEnv(task=growth.task_for(store, size))
    env.reset(seed=0)
    kinds: list[str] = []
    done = False
    while not done:
        action = env.oracle_action()
        kinds.append(action.type)
        _, _, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
        assert not truncated, kinds
    return env, kinds


@pytest.mark.parametrize("size", [3, 40])
def test_the_recipes_walk_stars_a_recipe_and_lists_the_favourites(size: int) -> None:
    env, kinds = walked("recipes", size)
    assert kinds[-1] == "finish" and kinds.count("scroll") == 8
    app = env.device.apps["Broccoli"]
    assert isinstance(app, BroccoliApp)
    recipes = app.data.recipes
    assert len(recipes) == size
    assert recipes[1].favorite is False  # "Recipe 00000" was a favourite: starred off
    assert [r.id for r in app.shown()] == [r.id for r in recipes if r.favorite]
    assert app.ui.view == "Favorites"


def test_the_songs_walk_queues_the_first_song_of_its_library() -> None:
    env, kinds = walked("songs", 40)
    assert kinds[-1] == "finish" and "long_press" in kinds
    app = env.device.apps["Music"]
    assert isinstance(app, MusicApp)
    assert len(app.songs()) == 40 and app.data.queue == ("Song 00000",)
    assert app.ui.tab == "Home"


def test_the_orders_walk_opens_the_newest_order_and_buys_it_again() -> None:
    env, kinds = walked("orders", 40)
    assert kinds[-1] == "finish"
    app = env.device.apps["Shop"]
    assert isinstance(app, ShopApp)
    data = app.data
    assert len(data.orders) == 40
    newest = max(data.orders, key=lambda o: (o.placed, o.id))
    assert newest.number == "00039"
    line = next(iter(data.order_lines.where(order_id=newest.id)))
    assert [(c.product_id, c.qty) for c in data.cart] == [(line.product_id, line.qty)]


def test_the_delivery_walk_reorders_the_last_placed_order() -> None:
    env, kinds = walked("orders-delivery", 40)
    assert kinds[-1] == "finish" and kinds.count("scroll") == 4
    data = env.device.apps["Delivery"].data
    assert len(data.orders) == 40
    last = max(data.orders, key=lambda o: (data.placed[o.id], o.id))
    line = data.lines.where(order_id=last.id)[0]
    assert last.ref == "4140" and [c.dish_id for c in data.cart] == [line.dish_id]


@pytest.mark.parametrize(("store", "name"), [("orders-foodorder", "FoodOrder"),
                                             ("orders-meituan", "Meituan")])
def test_the_food_walks_reorder_the_newest_order(store: str, name: str) -> None:
    """Food Order (a WeChat mini-program) and 美团: the newest order's dish in the cart."""
    env, kinds = walked(store, 40)
    assert kinds[-1] == "finish" and kinds.count("scroll") >= 4
    app = env.device.apps[name]
    newest = app.data.orders[40]
    dish = app.data.dishes.first(name=newest.items[0][0],
                                 **({"restaurant": newest.restaurant} if name == "FoodOrder"
                                    else {"shop": newest.shop}))
    cart = app.ui.cart
    assert dish is not None and len(app.data.orders) == 40
    assert ([d for d, _, _ in cart] if name == "FoodOrder" else list(cart)) == [dish.id]


@pytest.mark.parametrize(("store", "name"), [("orders-pinduoduo", "Pinduoduo"),
                                             ("orders-taobao", "Taobao")])
def test_the_shopping_walks_list_the_orders_and_go_home(store: str, name: str) -> None:
    """拼多多 (a WeChat mini-program: its 订单 tab, the newest order's page) and 淘宝 (我的订单):
    the order list scrolled, then the home tab."""
    env, kinds = walked(store, 40)
    assert kinds[-1] == "finish" and kinds.count("scroll") >= 4
    app = env.device.apps[name]
    assert len(app.data.orders) == 40 and app.ui.tab == "首页"


def test_the_photos_walk_opens_a_photo_and_copies_another() -> None:
    env, kinds = walked("photos", 40)
    assert kinds[-1] == "finish" and kinds.count("scroll") == 4 and "long_press" in kinds
    files = env.device.system.files
    copied, original = (files.get(f"/sdcard/{folder}/IMG_00000.jpg")
                        for folder in ("Pictures", "DCIM/Camera"))
    assert copied is not None and original is not None and copied.content == original.content
    assert len([p for p in files.keys() if p.endswith(".jpg")]) == 41
