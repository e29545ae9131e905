"""Public fixtures of 大众点评 (Dazhong Dianping): shops (cuisine, address, 评分, 人均,
distance), 团购 deals and reviews, the vocabulary they are drawn from, and the oracle steps
other tasks reuse."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.vocab import pick
from ..chat.fixtures import pay_with_pin
from .app import ME, DianpingApp, Shop

SHOPS = "apps.Dianping.shops"
DEALS = "apps.Dianping.deals"
REVIEWS = "apps.Dianping.reviews"
VOUCHERS = "apps.Dianping.vouchers"
#: Cuisines and the shops of each (every name distinct).
CUISINES: dict[str, tuple[str, ...]] = {
    "川菜": ("巴蜀人家", "川味小馆", "辣府", "蜀香园", "锦里川菜馆"),
    "粤菜": ("陶陶居", "点都德", "粤味轩", "港丽餐厅", "广御轩"),
    "火锅": ("小龙坎火锅", "谭鸭血火锅", "巴奴毛肚火锅", "蜀大侠火锅", "楠火锅"),
    "日料": ("元气寿司", "禾绿回转寿司", "竹若寿司", "板前寿司", "将太无二"),
    "西餐": ("王品牛排", "豪客来", "新元素", "蓝蛙", "西堤牛排"),
}
ROADS = ("南京西路", "淮海中路", "天钥桥路", "长寿路", "四川北路", "世纪大道", "虹桥路",
         "五角场政通路")
DEAL_TITLES = ("双人套餐", "四人套餐", "100元代金券", "工作日午市套餐", "单人精选套餐")
REVIEW_TEXTS = ("味道不错，服务也很热情", "排队有点久，但是值得", "环境很好，适合聚会",
                "分量足，性价比高", "上菜速度快", "口味偏重，下次还会来")
#: What the owner writes (never among the seeded reviews).
MY_REVIEWS = ("招牌菜必点，下次还来", "服务员很贴心，环境安静", "价格实惠，味道正宗",
              "等位半小时，菜品一般", "适合朋友小聚，推荐")
USERS = ("吃货小王", "美食家老李", "周末觅食", "爱吃辣的猫", "探店达人")


def dianping_app(state: Any) -> DianpingApp:
    app = state.app("Dianping")
    assert isinstance(app, DianpingApp)
    return app


def sample_shops(rng: np.random.Generator, cuisines: Sequence[str], per: int = 4,
                 leave_out: Sequence[str] = ()) -> list[dict[str, Any]]:
    """``per`` shops of each cuisine as plain data (``write_shops`` writes them, ids in
    order): ratings, 人均 and distances all distinct, names not in ``leave_out``."""
    k = per * len(cuisines)
    ratings = [int(r) for r in rng.choice(np.arange(36, 50), k, replace=False)]
    prices = [int(p) for p in rng.choice(np.arange(30, 320), k, replace=False)]
    distances = [int(d) * 10 for d in rng.choice(np.arange(15, 800), k, replace=False)]
    roads = pick(rng, ROADS, len(ROADS))
    shops: list[dict[str, Any]] = []
    for c in cuisines:
        for name in pick(rng, [n for n in CUISINES[c] if n not in leave_out], per):
            i = len(shops)
            shops.append({"name": str(name), "cuisine": c, "rating": ratings[i],
                          "price": prices[i], "distance": distances[i],
                          "address": f"上海市{roads[i % len(roads)]}{int(rng.integers(1, 999))}号"})
    return shops


def sample_deals(rng: np.random.Generator, shop: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Two 团购 of ``shop`` (prices in cents, near its 人均)."""
    out = []
    for title in pick(rng, DEAL_TITLES, 2):
        people = 4 if "四人" in title else 2 if "双人" in title else 1
        price = (shop["price"] * people * int(rng.integers(70, 90)) // 100) * 100
        out.append({"title": str(title), "price": price,
                    "original": price + int(rng.integers(10, 60)) * 100})
    return out


def write_shops(state: Any, shops: Sequence[Mapping[str, Any]],
                rng: np.random.Generator | None = None) -> list[Shop]:
    """The shops (ids in order), each with its ``deals`` (when given) and, with ``rng``, a
    review by another user."""
    data = dianping_app(state).data
    made = []
    for s in shops:
        shop = data.shops.new(name=s["name"], cuisine=s["cuisine"], address=s["address"],
                              rating=s["rating"], price=s["price"], distance=s["distance"],
                              faved=s.get("faved", False))
        for d in s.get("deals", ()):
            data.deals.new(shop=shop.id, title=d["title"], price=d["price"],
                           original=d["original"])
        if rng is not None:
            data.reviews.new(shop=shop.id, author=pick(rng, USERS),
                             stars=int(rng.integers(3, 6)), text=pick(rng, REVIEW_TEXTS))
        made.append(shop)
    return made


TAB_IDS = {"首页": "tab_home", "收藏": "tab_star", "我的": "tab_person"}


def to_tab(ui: Driver, tab: str) -> Iterator[PhoneAction]:
    """Launch 大众点评 and go back to its bottom bar, then open ``tab``."""
    yield from ui.open_app("Dianping")
    for _ in range(6):
        if ui.find(id=TAB_IDS[tab]) is not None and ui.find(id="dialog") is None:
            break
        yield from ui.press("back")
        if ui.find(id="toolbar") is None:  # backed out of the app: launch it again
            yield PhoneAction("open_app", app="Dianping")
    yield from ui.tap(id=TAB_IDS[tab])


def search(ui: Driver, query: str, sort: str = "default",
           budget: int = 0) -> Iterator[PhoneAction]:
    """Search ``query`` on 首页 with the sort chip ``sort`` and the 人均 chip ``budget``."""
    yield from to_tab(ui, "首页")
    yield from ui.fill("search", query)
    yield from ui.press("back")
    yield from ui.tap(id=f"sort_{sort}")
    yield from ui.tap(id=f"budget_{budget}")


def shop_rows(ui: Driver) -> list[tuple[str, str, dict[str, float]]]:
    """The listed shops top to bottom: (row id, name, the second line read back)."""
    rows = sorted((e for e in ui.find_all(kind="list_item") if e.short_id.startswith("shop_")),
                  key=lambda e: e.bounds[1])
    return [(e.short_id, e.text, parse_line(e.hint)) for e in rows]


def parse_line(hint: str) -> dict[str, float]:
    """A shop row's second line read back: rating, 人均 (yuan), distance (m)."""
    m = re.match(r"([\d.]+)分 · 人均¥(\d+) · .+ · ([\d.]+)(k?m)$", hint)
    if m is None:
        raise OracleError(f"unreadable shop line {hint!r}")
    metres = float(m.group(3)) * (1000 if m.group(4) == "km" else 1)
    return {"rating": float(m.group(1)), "price": float(m.group(2)), "distance": metres}


def open_shop(ui: Driver, name: str) -> Iterator[PhoneAction]:
    """Search the shop ``name`` and open its page."""
    yield from search(ui, name)
    row = next((r for r in shop_rows(ui) if r[1] == name), None)
    if row is None:
        raise OracleError(f"no shop {name!r} listed")
    yield from ui.tap(id=row[0])


def deal_id(ui: Driver, title: str) -> str:
    """The row id of the shop page's 团购 titled ``title``."""
    for e in ui.find_all():
        if e.short_id.startswith("deal_") and e.text == title:
            return e.short_id
    raise OracleError(f"no deal {title!r}")


__all__ = ["CUISINES", "DEALS", "DEAL_TITLES", "ME", "MY_REVIEWS", "REVIEWS", "REVIEW_TEXTS",
           "SHOPS", "VOUCHERS", "deal_id", "dianping_app", "open_shop", "parse_line",
           "pay_with_pin", "sample_deals", "sample_shops", "search", "shop_rows", "to_tab",
           "write_shops"]
