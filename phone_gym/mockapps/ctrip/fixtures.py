"""Public fixtures of 携程旅行 (Ctrip): cities with landmarks, hotels with rooms, trains
with seat classes, orders, and the oracle steps other tasks reuse."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import date, timedelta
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.vocab import pick
from .app import SEATS, CtripApp, Hotel, Order, Train

HOTELS = "apps.Ctrip.hotels"
TRAINS = "apps.Ctrip.trains"
ORDERS = "apps.Ctrip.orders"
CITIES: dict[str, tuple[str, str]] = {
    "杭州": ("西湖", "杭州东站"),
    "上海": ("外滩", "人民广场"),
    "北京": ("故宫", "三里屯"),
    "成都": ("春熙路", "宽窄巷子"),
    "西安": ("钟楼", "大雁塔"),
}
BRANDS = ("全季酒店", "亚朵酒店", "汉庭酒店", "如家酒店", "桔子水晶酒店", "维也纳酒店",
          "丽枫酒店", "美居酒店", "开元名都大酒店", "香格里拉大酒店", "锦江之星", "智选假日酒店")
ROOMS = ("大床房", "双床房", "豪华大床房", "行政套房")
STREETS = ("中山路", "解放路", "人民路", "文化路", "南京路", "建国路")
STATIONS = ("北京南", "上海虹桥", "杭州东", "南京南", "广州南", "深圳北", "成都东", "西安北")
TRAVELLERS = ("李娜", "张伟", "王芳", "刘洋", "陈静", "赵磊", "孙梅", "周涛")


def ctrip_app(state: Any) -> CtripApp:
    app = state.app("Ctrip")
    assert isinstance(app, CtripApp)
    return app


def hotel_names(rng: np.random.Generator, k: int) -> list[str]:
    """``k`` different hotel names."""
    return [str(b) for b in pick(rng, BRANDS, k)]


def add_hotel(state: Any, name: str, city: str, star: int, rooms: Sequence[tuple[str, int]],
              distances: Mapping[str, int], rng: np.random.Generator) -> Hotel:
    """A hotel with ``rooms`` (name, cents per night) and metres to each landmark."""
    address = f"{city}{pick(rng, STREETS)}{int(rng.integers(1, 400))}号"
    return ctrip_app(state).data.hotels.new(
        name=name, city=city, star=star, address=address, distances=tuple(distances.items()),
        rooms=tuple(rooms))


def rooms_from(price: int, rng: np.random.Generator) -> list[tuple[str, int]]:
    """Rooms whose cheapest (大床房) costs ``price``: dearer ones above it."""
    out = [(ROOMS[0], price)]
    step = price
    for room in ROOMS[1:int(rng.integers(2, 5))]:
        step += int(rng.integers(3, 20)) * 1000
        out.append((room, step))
    return out


def seed_hotels(state: Any, rng: np.random.Generator, city: str,
                specs: Sequence[tuple[int, int, int]], landmark: str) -> list[Hotel]:
    """Hotels of ``city`` from ``(lowest price, star, metres to landmark)`` specs, written
    in a shuffled order with different names; the other landmark's distance is random.
    Returns them in the specs' order."""
    names = hotel_names(rng, len(specs))
    other = next(m for m in CITIES[city] if m != landmark)
    made: dict[int, Hotel] = {}
    for i in rng.permutation(len(specs)):
        price, star, metres = specs[int(i)]
        far = {landmark: metres, other: int(rng.integers(5, 120)) * 100}
        if CITIES[city][0] != landmark:
            far = {other: far[other], landmark: metres}
        made[int(i)] = add_hotel(state, names[int(i)], city, star, rooms_from(price, rng), far,
                                 rng)
    return [made[i] for i in range(len(specs))]


def add_train(state: Any, number: str, origin: str, dest: str, day: str, depart: str,
              minutes: int, seats: Sequence[tuple[str, int, int]]) -> Train:
    h, m = divmod(int(depart[:2]) * 60 + int(depart[3:]) + minutes, 60)
    return ctrip_app(state).data.trains.new(
        number=number, origin=origin, dest=dest, day=day, depart=depart,
        arrive=f"{h % 24:02d}:{m:02d}", seats=tuple(seats))


def sample_trains(rng: np.random.Generator, k: int) -> list[dict[str, Any]]:
    """``k`` trains of one route as plain data (``write_trains`` writes them): distinct
    numbers and departure times, seat classes with prices (二等座 cheapest) and tickets."""
    numbers = rng.choice(np.arange(1, 999), size=k, replace=False)
    hours = sorted(int(x) for x in rng.choice(np.arange(6, 21), size=k, replace=False))
    minutes = int(rng.integers(60, 330))
    out = []
    for n, hour in zip(numbers, hours, strict=True):
        base = int(rng.integers(150, 700)) * 100
        seats = [(SEATS[0], base, int(rng.integers(0, 60))),
                 (SEATS[1], base * 16 // 10, int(rng.integers(0, 20))),
                 (SEATS[2], base * 32 // 10, int(rng.integers(0, 6)))]
        depart = f"{hour:02d}:{int(rng.integers(0, 12)) * 5:02d}"
        out.append({"number": f"G{int(n)}", "depart": depart,
                    "minutes": minutes + int(rng.integers(-20, 21)), "seats": seats})
    return out


def write_trains(state: Any, origin: str, dest: str, day: str,
                 trains: Sequence[Mapping[str, Any]]) -> list[Train]:
    """The trains of ``sample_trains`` on ``day``, written in that order."""
    return [add_train(state, t["number"], origin, dest, day, t["depart"], t["minutes"],
                      [tuple(s) for s in t["seats"]]) for t in trains]


def add_order(state: Any, kind: str, ref: int, title: str, item: str, start: str, end: str,
              traveller: str, total: int, depart: str = "", route: str = "") -> Order:
    """An order already paid (``route``: a train's "A → B", a hotel's city)."""
    return ctrip_app(state).data.orders.new(kind=kind, ref=ref, title=title, item=item,
                                            start=start, end=end, traveller=traveller,
                                            total=total, depart=depart, route=route)


def stay(rng: np.random.Generator, today: date, nights: tuple[int, int] = (1, 3)
         ) -> tuple[str, str, int]:
    """A check-in day 3..40 days ahead and a check-out day after it: ISO days and nights."""
    start = today + timedelta(days=int(rng.integers(3, 41)))
    n = int(rng.integers(nights[0], nights[1] + 1))
    return start.isoformat(), (start + timedelta(days=n)).isoformat(), n


def zh_day(iso: str) -> str:
    """"10月23日" for an ISO day."""
    d = date.fromisoformat(iso)
    return f"{d.month}月{d.day}日"


def records(initial: Mapping[str, Any], table: str) -> list[Mapping[str, Any]]:
    rows = initial.get("apps", {}).get("Ctrip", {}).get(table, {})
    return [r for r in rows.values() if isinstance(r, Mapping)]


def distance(hotel: Mapping[str, Any], landmark: str) -> int | None:
    return dict((m, d) for m, d in hotel.get("distances", ())).get(landmark)


def lowest(hotel: Mapping[str, Any]) -> int:
    return min(p for _, p in hotel.get("rooms", ()))


def home(ui: Driver) -> Iterator[PhoneAction]:
    """Launch 携程旅行 on its 首页 tab."""
    yield from ui.open_app("Ctrip")
    while ui.find(id="entry_hotels") is None and ui.find(id="tab_home") is None:
        yield from ui.press("back")
    if ui.find(id="entry_hotels") is None:
        yield from ui.tap(id="tab_home")


def search_hotels(ui: Driver, city: str, checkin: str, nights: int
                  ) -> Iterator[PhoneAction]:
    """Search the hotels of ``city`` from ``checkin`` (ISO) for ``nights`` nights (the
    check-out day is counted from them, as an agent counts it from the instruction)."""
    checkout = (date.fromisoformat(checkin) + timedelta(days=nights)).isoformat()
    yield from home(ui)
    yield from ui.tap(id="entry_hotels")
    yield from ui.fill("city", city)
    yield from ui.fill("checkin", checkin)
    yield from ui.fill("checkout", checkout)
    yield from ui.press("back")
    yield from ui.tap(id="search_hotels")


def search_trains(ui: Driver, origin: str, dest: str, day: str) -> Iterator[PhoneAction]:
    yield from home(ui)
    yield from ui.tap(id="entry_trains")
    yield from ui.fill("from", origin)
    yield from ui.fill("to", dest)
    yield from ui.fill("day", day)
    yield from ui.press("back")
    yield from ui.tap(id="search_trains")


def trains_shown(ui: Driver) -> list[tuple[str, str, str]]:
    """The trains on the results screen: (element id, number, departure time)."""
    out = []
    for e in ui.find_all(kind="list_item"):
        if e.short_id.startswith("train_"):
            number, times = e.text.split(" · ", 1)
            out.append((e.short_id, number, times.split(" ")[0]))
    return out


def seat_row(ui: Driver, seat: str) -> str | None:
    """On a train's page: the id of ``seat``'s row when it has tickets left."""
    for e in ui.find_all(kind="list_item"):
        if e.short_id.startswith("seat_") and e.text.startswith(seat):
            left = ui.find(id=f"left_{e.short_id.removeprefix('seat_')}")
            return e.short_id if left is not None and left.text.startswith("余") else None
    return None


def book(ui: Driver, traveller: str, button: str) -> Iterator[PhoneAction]:
    """From a room's 预订 or a seat's row (``button``): fill the traveller, submit, pay."""
    yield from ui.tap(id=button)
    yield from ui.fill("traveller", traveller)
    yield from ui.press("back")
    yield from ui.tap(id="submit")
    if ui.find(id="button_pay") is None:
        raise OracleError("no payment confirmation")
    yield from ui.tap(id="button_pay")


__all__ = ["CITIES", "HOTELS", "ORDERS", "ROOMS", "SEATS", "STATIONS", "TRAINS", "TRAVELLERS",
           "add_hotel", "add_order", "book", "ctrip_app", "distance", "hotel_names", "home",
           "lowest", "records", "rooms_from", "sample_trains", "search_hotels",
           "search_trains", "seat_row", "seed_hotels", "stay", "trains_shown",
           "write_trains", "zh_day"]
