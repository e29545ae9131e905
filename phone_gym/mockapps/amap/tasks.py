"""高德地图 (Amap) tasks: a route's time by a mode, the nearer of two places, save a place,
a place's address, and saving a place that is not on the map. Chinese instructions."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.families import EditRecord, Infeasible, Lookup
from ...tasks.task import Task
from ...tasks.vocab import pick
from .app import MODES, route_metres, route_minutes
from .fixtures import (
    PLACES,
    metres_of,
    minutes_of,
    route_time,
    sample_places,
    search_place,
    write_places,
)

ZH = ("en-US", "zh-CN")


class AmapTask(Task):
    """Six places (plain data in ``places``, ids in that order), two of them saved; the task
    is about place ``index`` (``name``)."""

    apps: ClassVar[tuple[str, ...]] = ("Amap",)
    collection: ClassVar[str] = PLACES
    locales = ZH

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.instructions = {"zh-CN": cls.template}  # the instruction is Chinese in both

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        places = sample_places(rng, 6)
        index = int(rng.integers(len(places)))
        for i in pick(rng, [i for i in range(6) if i != index], 2):
            places[i]["saved"] = True
        return {"places": places, "index": index, "name": places[index]["name"],
                **self.more(rng)}

    def more(self, rng: np.random.Generator) -> dict[str, Any]:
        return {}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        write_places(state, params["places"])

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"id": p["index"] + 1}

    def metres(self, p: Mapping[str, Any], i: int) -> int:
        place = p["places"][i]
        return abs(place["x"]) + abs(place["y"])


class AmapRouteTime(AmapTask, Lookup):
    template = "用高德地图查一下，从我现在的位置{mode}去{name}大概要多少分钟？"
    complexity, max_steps = 2, 12
    answer_type = "duration"
    derivations = {"answer": "the route's time shown, written in minutes"}

    def more(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"mode": pick(rng, tuple(MODES))}

    def minutes(self, p: Mapping[str, Any], mode: str) -> int:
        return route_minutes(self.metres(p, p["index"]), mode)

    def expected(self, p: Mapping[str, Any]) -> Any:
        return self.minutes(p, p["mode"]) * 60  # seconds

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        want = self.expected(p)
        return sorted({self.minutes(p, m) * 60 for m in MODES} - {want}) + [want + 300]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from search_place(ui, p["name"])
        yield from route_time(ui, p["mode"])
        minutes = minutes_of(ui.must(id="route_summary").text)
        yield from ui.answer(f"{minutes}分钟" if ui.locale == "zh-CN" else f"{minutes} min")


class AmapNearerPlace(AmapTask, Lookup):
    template = "在高德地图上看看，{name}和{other}哪个离我更近？"
    complexity, max_steps = 2, 14
    answer_type = "name"
    derivations = {"answer": "the smaller of the two distances shown"}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        other = int(rng.choice([i for i in range(6) if i != p["index"]]))
        a, b = (p["index"], other) if rng.random() < 0.5 else (other, p["index"])
        return {**p, "first": a, "second": b, "name": p["places"][a]["name"],
                "other": p["places"][b]["name"]}

    def expected(self, p: Mapping[str, Any]) -> Any:
        a, b = p["first"], p["second"]
        return p["places"][a if self.metres(p, a) < self.metres(p, b) else b]["name"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        # the other of the two first, then the other places 附近 lists
        want = self.expected(p)
        others = [q["name"] for q in p["places"] if q["name"] not in (p["name"], p["other"])]
        return [n for n in (p["name"], p["other"]) if n != want] + others

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Amap")
        ui.why("附近列出每个地点和它的距离")
        yield from ui.tap("附近")
        far: dict[str, int] = {}
        for _ in range(4):
            names = {e.short_id.removeprefix("near_"): e.text for e in ui.elements()
                     if e.short_id.startswith("near_")}
            far |= {names[e.short_id.removeprefix("dist_")]: metres_of(e.text)
                    for e in ui.elements() if e.short_id.startswith("dist_")
                    and e.short_id.removeprefix("dist_") in names}
            if p["name"] in far and p["other"] in far:
                break
            yield PhoneAction("scroll", x=500, y=500, direction="down")
        missing = [n for n in (p["name"], p["other"]) if n not in far]
        if missing:
            raise OracleError(f"not listed: {missing}")
        nearer = min((p["name"], p["other"]), key=lambda n: far[n])
        ui.why(f"{nearer}更近")
        yield from ui.answer(nearer)


class AmapSavePlace(AmapTask, EditRecord):
    template = "在高德地图里搜“{name}”，把它收藏起来。"
    complexity, max_steps = 2, 10

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"saved": True}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from search_place(ui, p["name"])
        if ui.must(id="save").text == "收藏":
            yield from ui.tap(id="save")
        yield from ui.finish()


class AmapPlaceAddress(AmapTask, Lookup):
    template = "高德地图上“{name}”的地址是什么？"
    complexity, max_steps = 2, 10

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["places"][p["index"]]["address"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [q["address"] for q in p["places"] if q["name"] != p["name"]]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from search_place(ui, p["name"])
        yield from ui.answer(ui.must(id="place_address").text.removeprefix("地址："))


class AmapSavePlaceInfeasible(Infeasible, AmapSavePlace):
    """The place the task names is not on the map: the search finds nothing."""

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        write_places(state, [q for q in params["places"] if q["name"] != params["name"]])

    def look(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Amap")
        if ui.find(id="search") is None:
            yield from ui.tap("首页")
        yield from ui.fill("search", params["name"])
        yield from ui.press("back")
        ui.why(f"搜不到“{params['name']}”")


__all__ = ["AmapNearerPlace", "AmapPlaceAddress", "AmapRouteTime", "AmapSavePlace",
           "AmapSavePlaceInfeasible", "TEMPLATES", "route_metres"]

TEMPLATES: list[Task] = [
    AmapRouteTime(), AmapNearerPlace(), AmapSavePlace(), AmapPlaceAddress(),
    AmapSavePlaceInfeasible(),
]
