"""Cost per step as a store's data grows: prints one JSON line.

One scenario per store (``--stores``; all by default: the system's contacts, messages,
calls, events, files, notifications; the apps' notes, expenses, tracks, bank transactions,
recipes (Broccoli), songs (Retro Music's library: files in /sdcard/Music), orders (Shop),
the order histories of Delivery, Food Order, 美团, 拼多多 and 淘宝 (``orders-<app>``), photos
(Gallery: pictures in shared storage)),
each a few lines: seed N records through the task's ``prefill`` (N in 16, 500, 5,000,
50,000 by default), then a scripted walk of the store's main screens (open the app, scroll
its list down twice and up twice, open the first row on screen; some write one record).
``PhoneWorld-v0`` steps with 540 x 1200 screenshots and runs the verifier after every step.
CPU time (``time.process_time``), sizes interleaved within each repeat, after one warm-up
run per store and size (its rows' tiles drawn once, as in a long run). Figures, by store:

- ``step_ms``: CPU ms per ``env.step`` (setup excluded), by N: the median of ``--repeats``
- ``ratio``: step ms at the largest N over the smallest (target: at most 2)
- ``reset_ms``, ``reset_ratio``: CPU ms per ``env.reset`` after the env's first, by N
  (target: at most 2): each puts back what the last episode changed
- ``first_reset_ms``: the env's first reset, which writes the N records (``Task.prefill``),
  once per env

Usage: ``python benchmarks/growth.py [--steps N] [--sizes 16 500 5000 50000]
[--stores contacts messages ...]``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from collections.abc import Callable, Iterator, Mapping
from datetime import timedelta
from typing import Any

import numpy as np

from phone_gym.actions import PhoneAction
from phone_gym.envs import PhoneWorldEnv
from phone_gym.mockapps import Driver, OracleError
from phone_gym.mockapps.bank.fixtures import add_txn, seed_accounts
from phone_gym.mockapps.broccoli.fixtures import write_recipe
from phone_gym.mockapps.chat.fixtures import open_mini_program
from phone_gym.mockapps.contacts.tasks import ContactsEditPhone
from phone_gym.mockapps.delivery.fixtures import delivery_app, seed_restaurants
from phone_gym.mockapps.expense.fixtures import write_expense
from phone_gym.mockapps.foodorder.fixtures import MENUS as FOOD_MENUS
from phone_gym.mockapps.foodorder.fixtures import food_app, seed_food
from phone_gym.mockapps.meituan.fixtures import MENUS as MEITUAN_MENUS
from phone_gym.mockapps.meituan.fixtures import meituan_app, sample_shops, write_shops
from phone_gym.mockapps.music.fixtures import seed_songs
from phone_gym.mockapps.notes.fixtures import write_note
from phone_gym.mockapps.opentracks.fixtures import write_activity
from phone_gym.mockapps.pinduoduo.fixtures import pdd_app
from phone_gym.mockapps.pinduoduo.fixtures import sample_products as sample_products_pdd
from phone_gym.mockapps.pinduoduo.fixtures import write_products as write_products_pdd
from phone_gym.mockapps.shop.fixtures import add_order, seed_account, seed_catalog, shop_app
from phone_gym.mockapps.taobao.fixtures import CATALOGUE as TAOBAO_CATALOGUE
from phone_gym.mockapps.taobao.fixtures import sample_products as sample_products_taobao
from phone_gym.mockapps.taobao.fixtures import taobao_app
from phone_gym.mockapps.taobao.fixtures import write_products as write_products_taobao
from phone_gym.tasks.task import Task
from phone_gym.tasks.vocab import FIRST_NAMES, LAST_NAMES


def person(i: int) -> tuple[str, str]:
    """The ``i``-th made-up contact: a unique name and number."""
    return (f"{FIRST_NAMES[i % 30]} {LAST_NAMES[i // 30 % 30]} {i:05d}",
            f"+1 415-{i // 10000 % 1000:03d}-{i % 10000:04d}")


class GrowingRoster(ContactsEditPhone):
    """``ContactsEditPhone`` with ``size`` contacts (names made unique with a number)."""

    id = "GrowthEditPhone"
    template = 'Change the phone number of the contact "{name}" to "{new_phone}".'
    max_steps = 40

    def __init__(self, size: int) -> None:
        self.size = size

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        t = int(rng.integers(self.size))  # the roster is made in setup: params stay small
        name, phone = person(t)
        return {"cid": t + 1, "name": name, "phone": phone, "new_phone": "+1 212-555-0199"}

    def prefill(self, state: Any) -> None:  # the same roster for every params and seed
        for i in range(self.size):
            state.add_contact(*person(i))

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        """Nothing beyond the roster (``prefill``)."""

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Contacts")
        yield from scrolls()
        yield from ui.tap(id="search", kind="text_field")
        yield PhoneAction("type", text=p["name"])
        yield from ui.tap(p["name"], kind="list_item")
        yield from ui.tap(id="edit")
        yield from ui.fill("phone", p["new_phone"])
        yield from ui.tap(id="save")
        yield from ui.finish()


def scrolls() -> Iterator[PhoneAction]:
    """Down twice and up twice (at every N both scrolls move: the same screens' work)."""
    for direction in ("down", "down", "up", "up"):
        yield PhoneAction("scroll", x=500, y=600, direction=direction)


def first_row(ui: Driver, press: str = "click") -> Iterator[PhoneAction]:
    """Click (or long-press) the list's first row on screen: the same row at every N
    (``Driver.tap(kind="list_item")`` takes the topmost match, the last row, which is clipped
    in a long list and scrolled to)."""
    rows = [e for e in ui.find_all(kind="list_item") if not e.clipped]
    if not rows:
        raise OracleError("no list row on screen")
    x, y = rows[-1].center_norm
    yield PhoneAction(press, x=x, y=y)


Seed = Callable[[Any, int], None]
Walk = Callable[[Driver], Iterator[PhoneAction]]


class Grown(Task):
    """A store's scenario: ``seed(state, size)`` writes the records (the task's
    ``prefill``), ``walk(ui)`` visits the screens (then the episode is finished)."""

    id = "GrowthWalk"
    template = "Walk through the app."
    max_steps = 40

    def __init__(self, size: int, seed: Seed, walk: Walk) -> None:
        self.size, self.seed, self.walk = size, seed, walk

    def prefill(self, state: Any) -> None:
        self.seed(state, self.size)

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.walk(ui)
        yield from ui.finish()


def ago(state: Any, minutes: int) -> str:
    return (state.now() - timedelta(minutes=minutes)).isoformat(timespec="seconds")


# --- the system's stores --------------------------------------------------------------------
def seed_messages(state: Any, n: int) -> None:
    """``n`` messages in ``n // 5`` threads (five each, the newest last), and at least 16
    (a screenful of threads at every N, as the other stores' lists)."""
    threads = min(n, max(16, n // 5))
    for i in range(n):
        _, number = person(i * threads // n)
        state.add_message(number, f"Message {i} about the plan", "inbox" if i % 2 else "sent",
                          ago(state, n - i), True)


def walk_messages(ui: Driver) -> Iterator[PhoneAction]:
    yield from ui.open_app("SMS Messenger")
    yield from scrolls()
    yield from first_row(ui)
    yield from ui.fill("composer", "On my way")
    yield from ui.tap(id="send")
    yield PhoneAction("press", button="back")


def seed_calls(state: Any, n: int) -> None:
    for i in range(n):
        _, number = person(i)
        state.add_call(number, ("incoming", "outgoing", "missed")[i % 3], ago(state, n - i), 60)


def walk_calls(ui: Driver) -> Iterator[PhoneAction]:
    yield from ui.open_app("Phone")
    yield from ui.tap("Recents")
    yield from scrolls()
    yield from first_row(ui)
    yield from ui.tap(id="end_call")


def seed_events(state: Any, n: int) -> None:
    """``n`` events, a few a day around today."""
    for i in range(n):
        start = state.now() + timedelta(hours=5 * (i - n // 2))
        state.add_event(f"Meeting {i}", start.isoformat(timespec="minutes"),
                        (start + timedelta(hours=1)).isoformat(timespec="minutes"))


def walk_events(ui: Driver) -> Iterator[PhoneAction]:
    yield from ui.open_app("Simple Calendar")
    yield from scrolls()
    yield from first_row(ui)
    yield PhoneAction("press", button="back")


def seed_files(state: Any, n: int) -> None:
    """``n`` files, most of them in the Download folder (the first 16: a screenful there at
    every N)."""
    spread_files(state, n, ("Download", "Download", "Documents", "Pictures", "DCIM"),
                 "note-{i:05d}.txt", "Note {i}")


def spread_files(state: Any, n: int, folders: tuple[str, ...], name: str, body: str) -> None:
    """``n`` files in shared storage: the first 16 in ``folders[0]`` (a screenful there at
    every N), file ``i`` of the others in ``folders[i % len(folders)]``; ``name`` and
    ``body`` are formats of ``i``."""
    for i in range(n):
        folder = folders[0] if i < 16 else folders[i % len(folders)]
        state.write_file(f"/sdcard/{folder}/{name.format(i=i)}", body.format(i=i).encode())


def walk_files(ui: Driver) -> Iterator[PhoneAction]:
    yield from ui.open_app("Files")
    yield from ui.tap("Download", kind="list_item")
    yield from scrolls()
    yield from first_row(ui, "long_press")
    yield from ui.tap("Rename", kind="menu_item")
    yield from ui.fill("rename_field", "renamed.txt")
    yield from ui.tap(id="button_ok")
    yield PhoneAction("press", button="back")


def seed_notifications(state: Any, n: int) -> None:
    for i in range(n):
        state.post_notification(f"Update {i}", f"Something happened ({i})")


def walk_notifications(ui: Driver) -> Iterator[PhoneAction]:
    yield from ui.open_app("Contacts")
    yield PhoneAction("drag", x=500, y=5, x2=500, y2=800)
    yield from scrolls()
    yield PhoneAction("press", button="back")


# --- apps' own data (written by ``prefill`` too: put back at each reset) ---------------------
def seed_notes(state: Any, n: int) -> None:
    for i in range(n):
        write_note(state, f"Note {i:05d}", f"Line {i} of the plan\nand a second line")


def walk_notes(ui: Driver) -> Iterator[PhoneAction]:
    yield from ui.open_app("Notes")
    yield from scrolls()
    yield from first_row(ui)
    yield from ui.fill("title", "Renamed note")
    yield PhoneAction("press", button="back")


def seed_expenses(state: Any, n: int) -> None:
    categories = ("Food", "Housing", "Social", "Entertainment", "Others")
    for i in range(n):
        day = (state.now() - timedelta(hours=7 * (n - i))).date().isoformat()
        write_expense(state, {"name": f"Expense {i:05d}", "amount": 100 + i % 9000,
                              "category": categories[i % 5], "date": day})


def walk_expenses(ui: Driver) -> Iterator[PhoneAction]:
    yield from ui.open_app("Expense")
    yield from scrolls()
    yield from first_row(ui)
    yield PhoneAction("press", button="back")


def seed_tracks(state: Any, n: int) -> None:
    for i in range(n):
        start = state.now() - timedelta(hours=9 * (n - i))
        write_activity(state, name=f"Track {i:05d}", category=("Running", "Cycling")[i % 2],
                       start=start.isoformat(timespec="minutes"), duration_min=30 + i % 60,
                       distance_m=1000 + i % 20000)


def walk_tracks(ui: Driver) -> Iterator[PhoneAction]:
    yield from ui.open_app("OpenTracks")
    yield from scrolls()
    yield from first_row(ui)
    yield PhoneAction("press", button="back")


def seed_bank(state: Any, n: int) -> None:
    """Four accounts (PIN 2580), ``n`` transactions of the checking account, a few a day."""
    accounts = seed_accounts(state, np.random.default_rng(0), pin="2580")
    first = min(accounts.values(), key=lambda a: a.id).id
    for i in range(n):
        day = (state.now() - timedelta(hours=5 * (n - i))).date()
        add_txn(state, first, day, f"Purchase {i:05d}", -(100 + i % 9000), "Shopping")


def walk_bank(ui: Driver) -> Iterator[PhoneAction]:
    yield from ui.open_app("Bank")
    yield from ui.fill("pin", "2580")
    yield from ui.tap(id="sign_in")
    yield from first_row(ui)
    yield from scrolls()
    yield PhoneAction("press", button="back")


def seed_recipes(state: Any, n: int) -> None:
    """``n`` recipes (Broccoli's database): the first 16 and every seventh a favourite (a
    screenful of favourites at every N)."""
    for i in range(n):
        write_recipe(state, {"title": f"Recipe {i:05d}", "description": f"Dish number {i}",
                             "servings": "2 servings", "preparation_time": "30 mins",
                             "ingredients": "1 cup rice, 2 tbsp butter",
                             "directions": "Mix the rice with the butter in a large bowl.",
                             "favorite": i < 16 or i % 7 == 0})


def walk_recipes(ui: Driver) -> Iterator[PhoneAction]:
    yield from ui.open_app("Broccoli")
    yield from scrolls()
    yield from first_row(ui)
    yield from ui.tap(id="favorite")
    yield PhoneAction("press", button="back")
    yield from ui.tap(id="drawer_toggle")
    yield from ui.tap(id="nav_favorites")
    yield from scrolls()


def seed_songs_n(state: Any, n: int) -> None:
    """``n`` songs: files in ``/sdcard/Music`` (Retro Music's library, the files store)."""
    seed_songs(state, [(f"Song {i:05d}", f"Artist {i % 97}", 180 + i % 120)
                       for i in range(n)])


def walk_songs(ui: Driver) -> Iterator[PhoneAction]:
    yield from ui.open_app("Music")
    yield from ui.tap(id="tab_songs", kind="tab")
    yield from scrolls()
    yield from first_row(ui, "long_press")
    yield from ui.tap(id="action_add_to_queue")
    yield from ui.tap(id="tab_queue", kind="tab")
    yield from ui.tap(id="tab_home", kind="tab")


def seed_orders(state: Any, n: int) -> None:
    """Shop's account, a small catalogue and ``n`` past orders of one product each, a few a
    day."""
    rng = np.random.default_rng(0)
    seed_account(state, rng)
    seed_catalog(state, rng, per_category=1)
    products = list(shop_app(state).data.products)
    statuses = ("Delivered", "Delivered", "Shipped", "Processing", "Cancelled")
    for i in range(n):
        add_order(state, products[i % len(products)], status=statuses[i % 5],
                  days_ago=(n - i) // 4, number=f"{i:05d}")


def walk_orders(ui: Driver) -> Iterator[PhoneAction]:
    yield from ui.open_app("Shop")
    yield from ui.tap(id="tab_orders", kind="tab")
    yield from scrolls()
    yield from first_row(ui)
    yield from ui.tap(id="buy_again")
    yield PhoneAction("press", button="back")
    yield from ui.tap(id="tab_home", kind="tab")


# --- the other apps' order histories (a few shops, ``n`` past orders, one a line) ---------------
def seed_delivery(state: Any, n: int) -> None:
    """Delivery: a restaurant of each cuisine and ``n`` past orders of one dish, placed a few
    an hour (the last one the newest)."""
    seed_restaurants(state, np.random.default_rng(0))
    data = delivery_app(state).data
    dishes = list(data.dishes)
    for i in range(n):
        dish = dishes[i % len(dishes)]
        data.placed[data.orders.next_id] = ago(state, 20 * (n - i) + 90)
        order = data.orders.new(restaurant_id=dish.restaurant_id, ref=f"{4101 + i}",
                                address="Home", tip_percent=15, total=dish.price + 299)
        data.lines.new(order_id=order.id, dish_id=dish.id)


def walk_delivery(ui: Driver) -> Iterator[PhoneAction]:
    yield from ui.open_app("Delivery")
    yield from ui.tap(id="tab_orders")
    yield from scrolls()
    yield from first_row(ui)
    yield from ui.tap(id="reorder")  # the cart filled with its dishes, then checkout
    yield PhoneAction("press", button="back")


def seed_foodorder(state: Any, n: int) -> None:
    """Food Order (a WeChat mini-program): its restaurants and ``n`` past orders."""
    made = seed_food(state, np.random.default_rng(0), list(FOOD_MENUS))
    data = food_app(state).data
    rows = [(r, d) for r in made.values() for d in data.dishes if d.restaurant == r.id]
    for i in range(n):
        r, d = rows[i % len(rows)]
        data.orders.new(restaurant=r.id, restaurant_name=r.name, items=((d.name, "", 1),),
                        address="Home", total=d.price + r.fee, status="paid")


def walk_foodorder(ui: Driver) -> Iterator[PhoneAction]:
    yield from open_mini_program(ui, "FoodOrder")
    yield from ui.tap(id="my_orders")
    yield from scrolls()
    yield from first_row(ui)
    yield from ui.tap(id="reorder")
    yield PhoneAction("press", button="back")


def seed_meituan(state: Any, n: int) -> None:
    """美团: a few shops and ``n`` past orders of one dish."""
    shops = write_shops(state, sample_shops(np.random.default_rng(0), list(MEITUAN_MENUS), 1))
    data = meituan_app(state).data
    rows = [(s, d) for s in shops.values() for d in data.dishes if d.shop == s.id]
    for i in range(n):
        shop, d = rows[i % len(rows)]
        data.orders.new(shop=shop.id, shop_name=shop.name, items=((d.name, 1),),
                        address="家", total=d.price + shop.fee, eta="12:00", status="已送达")


def walk_meituan(ui: Driver) -> Iterator[PhoneAction]:
    yield from ui.open_app("Meituan")
    yield from ui.tap("订单")
    yield from scrolls()
    yield from first_row(ui)
    yield from ui.tap(id="reorder")
    yield PhoneAction("press", button="back")


def seed_pinduoduo(state: Any, n: int) -> None:
    """拼多多 (a WeChat mini-program): a few products and ``n`` past solo orders."""
    write_products_pdd(state, sample_products_pdd(np.random.default_rng(0), 8))
    data = pdd_app(state).data
    products = list(data.products)
    for i in range(n):
        p = products[i % len(products)]
        data.orders.new(product=p.id, product_name=p.name, kind="单独购买", price=p.solo_price)


def walk_pinduoduo(ui: Driver) -> Iterator[PhoneAction]:
    yield from open_mini_program(ui, "Pinduoduo")
    yield from ui.tap("订单")
    yield from scrolls()
    yield from first_row(ui)
    yield PhoneAction("press", button="back")
    yield from ui.tap("首页")


def seed_taobao(state: Any, n: int) -> None:
    """淘宝: its products and ``n`` past orders of one."""
    rng = np.random.default_rng(0)
    made = write_products_taobao(state, sample_products_taobao(rng, list(TAOBAO_CATALOGUE)))
    data = taobao_app(state).data
    products = list(made.values())
    for i in range(n):
        p = products[i % len(products)]
        data.orders.new(product=p.id, title=p.title, sku=p.skus[0], qty=1, total=p.price,
                        shop=p.shop, status="已签收")


def walk_taobao(ui: Driver) -> Iterator[PhoneAction]:
    """(淘宝's orders open no page: the list, then a product bought again from home.)"""
    yield from ui.open_app("Taobao")
    yield from ui.tap("我的淘宝")
    yield from ui.tap(id="my_orders")
    yield from scrolls()
    yield PhoneAction("press", button="back")
    yield from ui.tap("首页")


def seed_photos(state: Any, n: int) -> None:
    """``n`` photos (Gallery: pictures in shared storage): most in the camera's folder (the
    first 16: a screenful there at every N), the others in Screenshots and Download."""
    spread_files(state, n, ("DCIM/Camera", "DCIM/Camera", "DCIM/Camera",
                            "Pictures/Screenshots", "Download"),
                 "IMG_{i:05d}.jpg", "Photo {i}\nat the beach")


def walk_photos(ui: Driver) -> Iterator[PhoneAction]:
    """The albums, the camera's album scrolled, a photo opened, another copied."""
    yield from ui.open_app("Gallery")
    yield from ui.tap("Camera", kind="thumb")
    yield from scrolls()
    yield from ui.tap("IMG_00001.jpg", kind="thumb")
    yield PhoneAction("press", button="back")
    yield from ui.long_press("IMG_00000.jpg")
    yield from ui.tap("Copy to", kind="list_item")
    yield from ui.tap("Pictures", kind="radio")
    yield PhoneAction("press", button="back")


SCENARIOS: dict[str, tuple[str, Seed, Walk]] = {
    "messages": ("SMS Messenger", seed_messages, walk_messages),
    "calls": ("Phone", seed_calls, walk_calls),
    "events": ("Simple Calendar", seed_events, walk_events),
    "files": ("Files", seed_files, walk_files),
    "notifications": ("Contacts", seed_notifications, walk_notifications),
    "notes": ("Notes", seed_notes, walk_notes),
    "expenses": ("Expense", seed_expenses, walk_expenses),
    "tracks": ("OpenTracks", seed_tracks, walk_tracks),
    "bank": ("Bank", seed_bank, walk_bank),
    "recipes": ("Broccoli", seed_recipes, walk_recipes),
    "songs": ("Music", seed_songs_n, walk_songs),
    "orders": ("Shop", seed_orders, walk_orders),
    "orders-delivery": ("Delivery", seed_delivery, walk_delivery),
    "orders-foodorder": ("FoodOrder", seed_foodorder, walk_foodorder),
    "orders-meituan": ("Meituan", seed_meituan, walk_meituan),
    "orders-pinduoduo": ("Pinduoduo", seed_pinduoduo, walk_pinduoduo),
    "orders-taobao": ("Taobao", seed_taobao, walk_taobao),
    "photos": ("Gallery", seed_photos, walk_photos),
}
STORES = ("contacts", *SCENARIOS)


def task_for(store: str, size: int) -> Task:
    if store == "contacts":
        return GrowingRoster(size)
    app, seed, walk = SCENARIOS[store]
    name = store.title().replace(' ', '').replace('-', '')
    kind = type(f"Grown{name}", (Grown,), {"apps": (app,)})
    return kind(size, seed, walk)


def measure(store: str, size: int, steps: int, seed: int = 0) -> tuple[float, float, float]:
    """(CPU ms per step, CPU ms per reset, CPU ms of the env's first reset, which writes
    the records: ``Task.prefill``) of ``store``'s scenario with ``size`` records."""
    env = PhoneWorldEnv(task=task_for(store, size))
    start = time.process_time()
    env.reset(seed=seed + 10_000)
    first = time.process_time() - start
    resets: list[float] = []
    stepped, spent = 0, 0.0
    episode = 0
    while stepped < steps:
        start = time.process_time()
        env.reset(seed=seed + episode)
        resets.append(time.process_time() - start)
        episode += 1
        done = False
        while not done and stepped < steps:
            action = env.oracle_action()
            start = time.process_time()
            _, _, terminated, truncated, _ = env.step(action)
            spent += time.process_time() - start
            stepped += 1
            done = terminated or truncated
    env.close()
    return spent / stepped * 1e3, statistics.median(resets) * 1e3, first * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=60, help="steps measured per size")
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 500, 5000, 50000])
    parser.add_argument("--repeats", type=int, default=3, help="runs per size (median)")
    parser.add_argument("--stores", nargs="+", default=list(STORES), metavar="STORE",
                        help=f"stores to measure, of: {', '.join(STORES)}")
    args = parser.parse_args()
    if args.steps < 1 or args.repeats < 1 or any(s < 2 for s in args.sizes):
        parser.error("--steps and --repeats must be >= 1 and every size >= 2")
    unknown = sorted(set(args.stores) - set(STORES))
    if unknown:
        parser.error(f"unknown stores {unknown}: accepted are {', '.join(STORES)}")
    for store in args.stores:  # warm the tile cache with each size's rows (the same for
        for size in args.sizes:  # every N: a first sight of rows costs their drawing)
            measure(store, size, 20)
    runs: dict[tuple[str, int], list[tuple[float, float, float]]] = {}
    for _ in range(args.repeats):  # stores and sizes interleaved: machine drift hits all
        for store in args.stores:
            for size in args.sizes:
                runs.setdefault((store, size), []).append(measure(store, size, args.steps))
    low, high = min(args.sizes), max(args.sizes)
    stores: dict[str, Any] = {}
    for store in args.stores:
        ms = {n: statistics.median(r[0] for r in runs[store, n]) for n in args.sizes}
        resets = {n: statistics.median(r[1] for r in runs[store, n]) for n in args.sizes}
        firsts = {n: statistics.median(r[2] for r in runs[store, n]) for n in args.sizes}
        stores[store] = {
            "step_ms": {str(k): round(v, 3) for k, v in ms.items()},
            "ratio": round(ms[high] / ms[low], 2),
            "reset_ms": {str(k): round(v, 2) for k, v in resets.items()},
            "reset_ratio": round(resets[high] / resets[low], 2),
            "first_reset_ms": {str(k): round(v, 1) for k, v in firsts.items()},
        }
    figures = {
        "stores": stores, "steps": args.steps, "repeats": args.repeats,
        "clock": "process_time", "obs_size": "540x1200", "loadavg": os.getloadavg()[0],
        "python": platform.python_version(),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
