"""The order lists of Delivery, Food Order (a WeChat mini-program), 美团, 拼多多 and 淘宝 read
indexes kept on write: the growth benchmark's walk of each (its list, scrolls, an order's
page, a reorder) reads no whole order table and builds only the rows on screen, and the
list shows the orders newest first."""

from __future__ import annotations

import traceback

import pytest
from test_growth_smoke import load_growth

from phone_gym.envs import PhoneWorldEnv
from phone_gym.world.data import Table

#: The scenario of each app, and its tables of orders (and order lines).
APPS = {"orders-delivery": ("Delivery", ("orders", "lines")),
        "orders-foodorder": ("FoodOrder", ("orders",)),
        "orders-meituan": ("Meituan", ("orders",)),
        "orders-pinduoduo": ("Pinduoduo", ("orders",)),
        "orders-taobao": ("Taobao", ("orders",))}


@pytest.mark.parametrize("store", list(APPS))
def test_the_order_list_reads_no_whole_table(store: str, monkeypatch: pytest.MonkeyPatch,
                                             ) -> None:
    name, tables = APPS[store]
    env = PhoneWorldEnv(task=load_growth().task_for(store, 300))
    env.reset(seed=0)
    data = env.device.apps[name].data
    big = [getattr(data, t) for t in tables]
    scans: list[str] = []
    every = Table.__iter__

    def scan_all(self: Table) -> object:
        if any(self is t for t in big):
            scans.append("".join(traceback.format_stack(limit=4)[:-1]))
        return every(self)

    monkeypatch.setattr(Table, "__iter__", scan_all)
    built: list[int] = []
    done = False
    while not done:
        action = env.oracle_action()
        _, _, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
        items = env.device.frame().items
        built.append(sum(p.node.kind == "list_item" and p.node.id.startswith("order_")
                         for p in items))
    monkeypatch.undo()
    assert scans == [], scans[0]
    assert 0 < max(built) < 20  # a screenful of rows built, not 300
