"""Public fixtures of the 同程旅行 (Tongcheng) mini-program: hotels near landmarks, trains
with seat classes, orders, and the oracle steps other tasks reuse."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import date, timedelta
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.vocab import pick
from ..chat.fixtures import open_mini_program, pay_with_pin
from .app import SEATS, Hotel, Order, TongchengApp, Train

HOTELS = "apps.Tongcheng.hotels"
TRAINS = "apps.Tongcheng.trains"
ORDERS = "apps.Tongcheng.orders"
CITIES: dict[str, tuple[str, str]] = {
    "杭州": ("西湖", "灵隐寺"),
    "上海": ("外滩", "陆家嘴"),
    "北京": ("天安门", "王府井"),
    "南京": ("夫子庙", "新街口"),
    "厦门": ("鼓浪屿", "中山路步行街"),
}
BRANDS = ("城市便捷酒店", "麗枫酒店", "秋果酒店", "星程酒店", "凯里亚德酒店", "宜必思酒店",
          "希尔顿花园酒店", "桔子酒店", "锦江都城酒店", "假日酒店", "尚客优酒店", "漫心酒店")
STREETS = ("中山路", "解放路", "人民路", "北京路", "湖滨路", "建设路")
STATIONS = ("北京南", "上海虹桥", "杭州东", "南京南", "厦门北", "武汉", "长沙南", "合肥南")
TRAVELLERS = ("李娜", "张伟", "王芳", "刘洋", "陈静", "赵磊", "孙梅", "周涛")


def tongcheng_app(state: Any) -> TongchengApp:
    app = state.app("Tongcheng")
    assert isinstance(app, TongchengApp)
    return app


def hotel_names(rng: np.random.Generator, k: int) -> list[str]:
    return [str(b) for b in pick(rng, BRANDS, k)]


def add_hotel(state: Any, name: str, city: str, price: int, score: int,
              distances: Mapping[str, int], rng: np.random.Generator) -> Hotel:
    """A hotel (``price`` cents a night, ``score`` tenths, metres to each landmark)."""
    address = f"{city}{pick(rng, STREETS)}{int(rng.integers(1, 400))}号"
    return tongcheng_app(state).data.hotels.new(
        name=name, city=city, price=price, score=score, address=address,
        distances=tuple(distances.items()))


def seed_hotels(state: Any, rng: np.random.Generator, city: str,
                specs: Sequence[tuple[int, int, int]], landmark: str) -> list[Hotel]:
    """Hotels of ``city`` from ``(price, score, metres to landmark)`` specs, written in a
    shuffled order with different names. Returns them in the specs' order."""
    names = hotel_names(rng, len(specs))
    other = next(m for m in CITIES[city] if m != landmark)
    made: dict[int, Hotel] = {}
    for i in rng.permutation(len(specs)):
        price, score, metres = specs[int(i)]
        far = {landmark: metres, other: int(rng.integers(5, 120)) * 100}
        if CITIES[city][0] != landmark:
            far = {other: far[other], landmark: metres}
        made[int(i)] = add_hotel(state, names[int(i)], city, price, score, far, rng)
    return [made[i] for i in range(len(specs))]


def sample_trains(rng: np.random.Generator, k: int) -> list[dict[str, Any]]:
    """``k`` trains of one route as plain data (``write_trains`` writes them): distinct
    numbers, departure times and 二等座 prices; every class has tickets."""
    numbers = rng.choice(np.arange(1, 999), size=k, replace=False)
    hours = sorted(int(x) for x in rng.choice(np.arange(6, 21), size=k, replace=False))
    bases = rng.choice(np.arange(150, 700), size=k, replace=False)
    minutes = int(rng.integers(60, 330))
    out = []
    for n, hour, base in zip(numbers, hours, bases, strict=True):
        price = int(base) * 100
        seats = [(SEATS[0], price, int(rng.integers(1, 60))),
                 (SEATS[1], price * 16 // 10, int(rng.integers(1, 20))),
                 (SEATS[2], price * 32 // 10, int(rng.integers(1, 6)))]
        depart = f"{hour:02d}:{int(rng.integers(0, 12)) * 5:02d}"
        out.append({"number": f"G{int(n)}", "depart": depart,
                    "minutes": minutes + int(rng.integers(-20, 21)), "seats": seats})
    return out


def write_trains(state: Any, origin: str, dest: str, day: str,
                 trains: Sequence[Mapping[str, Any]]) -> list[Train]:
    """The trains of ``sample_trains`` on ``day``, written in that order."""
    out = []
    for t in trains:
        h, m = divmod(int(t["depart"][:2]) * 60 + int(t["depart"][3:]) + t["minutes"], 60)
        out.append(tongcheng_app(state).data.trains.new(
            number=t["number"], origin=origin, dest=dest, day=day, depart=t["depart"],
            arrive=f"{h % 24:02d}:{m:02d}", seats=tuple(tuple(s) for s in t["seats"])))
    return out


def add_order(state: Any, kind: str, ref: int, title: str, item: str, start: str, end: str,
              traveller: str, total: int, depart: str = "") -> Order:
    """An order already paid."""
    return tongcheng_app(state).data.orders.new(kind=kind, ref=ref, title=title, item=item,
                                                start=start, end=end, traveller=traveller,
                                                total=total, depart=depart)


def records(initial: Mapping[str, Any], table: str) -> list[Mapping[str, Any]]:
    rows = initial.get("apps", {}).get("Tongcheng", {}).get(table, {})
    return [r for r in rows.values() if isinstance(r, Mapping)]


def distance(hotel: Mapping[str, Any], landmark: str) -> int | None:
    return dict((m, d) for m, d in hotel.get("distances", ())).get(landmark)


def open_tongcheng(ui: Driver) -> Iterator[PhoneAction]:
    """WeChat > Discover > Mini Programs > 同程旅行."""
    return open_mini_program(ui, "Tongcheng")


def search_hotels(ui: Driver, city: str, checkin: str, nights: int
                  ) -> Iterator[PhoneAction]:
    """Search the hotels of ``city`` from ``checkin`` (ISO) for ``nights`` nights (the
    check-out day is counted from them, as an agent counts it from the instruction)."""
    checkout = (date.fromisoformat(checkin) + timedelta(days=nights)).isoformat()
    yield from open_tongcheng(ui)
    yield from ui.tap(id="entry_hotels")
    yield from ui.fill("city", city)
    yield from ui.fill("checkin", checkin)
    yield from ui.fill("checkout", checkout)
    yield from ui.press("back")
    yield from ui.tap(id="search_hotels")


def search_trains(ui: Driver, origin: str, dest: str, day: str) -> Iterator[PhoneAction]:
    yield from open_tongcheng(ui)
    yield from ui.tap(id="entry_trains")
    yield from ui.fill("from", origin)
    yield from ui.fill("to", dest)
    yield from ui.fill("day", day)
    yield from ui.press("back")
    yield from ui.tap(id="search_trains")


def first_row(ui: Driver, prefix: str) -> str:
    """The id of the topmost list row whose id starts with ``prefix``."""
    rows = [e for e in ui.find_all(kind="list_item") if e.short_id.startswith(prefix)]
    if not rows:
        raise OracleError(f"no {prefix} row")
    return min(rows, key=lambda e: e.bounds[1]).short_id


def book_and_pay(ui: Driver, traveller: str, pin: str, button: str) -> Iterator[PhoneAction]:
    """From 预订 or a seat's row (``button``): the traveller, 提交订单, WeChat Pay's PIN."""
    yield from ui.tap(id=button)
    yield from ui.fill("traveller", traveller)
    yield from ui.press("back")
    yield from pay_with_pin(ui, pin, submit="submit")


__all__ = ["CITIES", "HOTELS", "ORDERS", "SEATS", "STATIONS", "TRAINS", "TRAVELLERS",
           "add_hotel", "add_order", "book_and_pay", "distance", "first_row", "hotel_names",
           "open_tongcheng", "records", "sample_trains", "search_hotels", "search_trains",
           "seed_hotels", "tongcheng_app", "write_trains"]
