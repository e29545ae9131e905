"""Public fixtures of 高德地图 (Amap): places (a name, a kind, an address, where they are),
the vocabulary they are drawn from, and the oracle steps other tasks reuse."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.vocab import pick
from .app import MODES, AmapApp, Place, route_minutes

PLACES = "apps.Amap.places"
#: Places of a Chinese city: (name, kind, address).
PLACE_POOL: tuple[tuple[str, str, str], ...] = (
    ("国贸商城", "购物", "朝阳区建国门外大街1号"),
    ("三里屯太古里", "购物", "朝阳区三里屯路19号"),
    ("南锣鼓巷", "景点", "东城区南锣鼓巷"),
    ("景山公园", "景点", "西城区景山西街44号"),
    ("北京南站", "车站", "丰台区永外大街车站路12号"),
    ("西单大悦城", "购物", "西城区西单北大街131号"),
    ("海底捞火锅(王府井店)", "美食", "东城区王府井大街88号"),
    ("全聚德烤鸭店", "美食", "东城区前门大街30号"),
    ("朝阳公园", "景点", "朝阳区朝阳公园南路1号"),
    ("首都图书馆", "文化", "朝阳区东三环南路88号"),
    ("协和医院", "医院", "东城区帅府园1号"),
    ("喜茶(来福士店)", "美食", "东城区东直门南大街1号"),
    ("798艺术区", "文化", "朝阳区酒仙桥路4号"),
    ("奥林匹克公园", "景点", "朝阳区北辰东路15号"),
)
NAMES = tuple(name for name, _, _ in PLACE_POOL)


def amap_app(state: Any) -> AmapApp:
    app = state.app("Amap")
    assert isinstance(app, AmapApp)
    return app


def sample_places(rng: np.random.Generator, k: int) -> list[dict[str, Any]]:
    """``k`` places as plain data (``write_places`` writes them), each at a distinct
    route distance from you (between 400 m and 6 km)."""
    chosen = pick(rng, PLACE_POOL, k)
    out: list[dict[str, Any]] = []
    used: set[int] = set()
    for name, kind, address in chosen:
        while True:
            x = int(rng.integers(-300, 301)) * 10
            y = int(rng.integers(-300, 301)) * 10
            d = abs(x) + abs(y)
            if 400 <= d <= 6000 and all(abs(d - u) >= 100 for u in used):
                break
        used.add(d)
        out.append({"name": name, "kind": kind, "address": address, "x": x, "y": y,
                    "rating": round(float(rng.integers(35, 50)) / 10, 1)})
    return out


def write_places(state: Any, places: Sequence[Mapping[str, Any]]) -> dict[str, Place]:
    """The places ``places``, written in that order: by name."""
    data = amap_app(state).data
    return {p["name"]: data.places.new(name=p["name"], kind=p["kind"], address=p["address"],
                                       x=p["x"], y=p["y"], rating=p["rating"],
                                       saved=p.get("saved", False)) for p in places}


def metres_of(text: str) -> int:
    """Metres in a distance as Amap writes it ("850米", "1.2公里")."""
    found = re.search(r"([\d.]+)(公里|米)", text)
    if found is None:
        raise OracleError(f"no distance in {text!r}")
    value = float(found.group(1))
    return round(value * 1000) if found.group(2) == "公里" else round(value)


def minutes_of(text: str) -> int:
    """Minutes in a time as Amap writes it ("25分钟", "1小时5分钟")."""
    found = re.search(r"(?:(\d+)小时)?(?:(\d+)分钟)?", text.split(" · ")[0].split(" ")[-1])
    if found is None or not any(found.groups()):
        raise OracleError(f"no time in {text!r}")
    return int(found.group(1) or 0) * 60 + int(found.group(2) or 0)


def search_place(ui: Driver, name: str) -> Iterator[PhoneAction]:
    """Launch 高德地图 (or go back to its 首页), search ``name`` and open its card."""
    yield from ui.open_app("Amap")
    if ui.find(id="search") is None:
        yield from ui.tap("首页")
    yield from ui.fill("search", name)
    yield from ui.press("back")
    row = next((e for e in ui.find_all() if e.short_id.startswith("place_")
                and e.text.startswith(name)), None)
    if row is None:
        raise OracleError(f"{name} is not among the results")
    yield from ui.tap(id=row.short_id)


def route_time(ui: Driver, mode: str) -> Iterator[PhoneAction]:
    """On a place's card: open 路线 and pick ``mode`` (the summary then shows its time)."""
    if mode not in MODES:
        raise ValueError(f"mode {mode!r} is not one of {', '.join(MODES)}")
    yield from ui.tap(id="route")
    yield from ui.tap(mode, kind="chip")


__all__ = ["MODES", "NAMES", "PLACES", "PLACE_POOL", "amap_app", "metres_of", "minutes_of",
           "route_minutes", "route_time", "sample_places", "search_place", "write_places"]
