"""OsmAnd tasks: AndroidWorld's ``OsmAndFavorite``, ``OsmAndMarker`` and ``OsmAndTrack``.
Places are checked by coordinates (within 0.001 degrees, as AndroidWorld does); each task
adds exactly one record (favourite, marker, track) and leaves the others alone."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver
from ...tasks.families import CreateRecord
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...world.app import app_strings
from ...world.locale import DEFAULT_LOCALE
from .app import TOWNS, OsmAndApp
from .fixtures import FAVORITES, MARKERS, TRACKS, near, passes_in_order, seed_places

#: Towns a task may name (AndroidWorld preloads 12).
PLACES = tuple(t for t in TOWNS if t != "Schaanwald")


def label(ui: Driver, key: str) -> str:
    """An OsmAnd button or menu item as the phone's locale shows it (添加到收藏夹 for Add to
    favourites)."""
    return app_strings(OsmAndApp, ui.locale).t(key)


class OsmAndZh(Task):
    """The zh-CN side of OsmAnd's templates: the towns keep OpenStreetMap's local names on a
    Chinese phone too, so only the instruction and the buttons the oracle taps change.
    Templates built on these elsewhere run in en-US unless they declare their locales."""

    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")

    locales_stay_home = True


class PlaceTask(OsmAndZh, CreateRecord):
    """A place given by name or as a ``lat, lon`` string (half each)."""

    apps = ("OsmAnd",)
    start = AW_START

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        town = pick(rng, PLACES)
        lat, lon = TOWNS[town]
        by_name = bool(rng.random() < 0.5)
        return {"town": town, "lat": lat, "lon": lon,
                "location": town if by_name else f"{lat:.4f}, {lon:.4f}"}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_places(state, rng, avoid=[params["town"]])

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"lat": near(p["lat"]), "lon": near(p["lon"])}

    def open_place(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("OsmAnd")
        yield from ui.tap(desc=label(ui, "Search"))
        yield from ui.fill("search_field", p["location"])
        yield from ui.tap(id="result_0")


class OsmAndFavorite(PlaceTask):
    collection = FAVORITES
    template = 'In OsmAnd, save "{location}" as a favourite place.'
    instructions = {"zh-CN": "在 OsmAnd 里把“{location}”添加到收藏夹。"}
    complexity, max_steps = 1, 13

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_place(ui, p)
        yield from ui.tap(label(ui, "Add to favourites"))
        yield from ui.tap(label(ui, "Save"))
        yield from ui.finish()


class OsmAndMarker(PlaceTask):
    collection = MARKERS
    template = 'In OsmAnd, put a map marker at "{location}".'
    instructions = {"zh-CN": "在 OsmAnd 里给“{location}”添加一个地图标记。"}
    complexity, max_steps = 2, 20

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_place(ui, p)
        yield from ui.tap(label(ui, "Marker"))
        yield from ui.finish()


class OsmAndTrack(OsmAndZh, CreateRecord):
    apps, collection = ("OsmAnd",), TRACKS
    template = ('In OsmAnd, plan a route through {route} in this order and save it as a '
                'track.')
    instructions = {"zh-CN": "在 OsmAnd 里规划一条依次途经 {route} 的路线，并保存为轨迹。"}
    complexity, max_steps = 5, 120
    start = AW_START

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        towns = pick(rng, PLACES, int(rng.integers(2, 5)))
        route = ", ".join(towns[:-1]) + " and " + towns[-1]
        return {"waypoints": towns, "route": route, "track_name": "-".join(towns)}

    def localize(self, params: Mapping[str, Any], locale: str) -> Mapping[str, Any]:
        if locale == DEFAULT_LOCALE:
            return params
        towns = list(params["waypoints"])  # Vaduz、Schaan 和 Balzers
        return {**params, "route": "、".join(towns[:-1]) + " 和 " + towns[-1]}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_places(state, rng, avoid=list(params["waypoints"]))

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"points": passes_in_order(list(p["waypoints"]))}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("OsmAnd")
        yield from ui.tap(desc=label(ui, "Menu"))  # the main menu
        yield from ui.tap(label(ui, "Plan a route"))
        for town in p["waypoints"]:
            yield from ui.tap(label(ui, "Add point"))
            yield from ui.fill("search_field", town)
            yield from ui.tap(town, kind="list_item")
        yield from ui.tap(desc=label(ui, "Save"))
        yield from ui.fill("track_name", p["track_name"])
        yield from ui.tap(label(ui, "Save"), kind="button")
        yield from ui.finish()


TEMPLATES = [OsmAndFavorite(), OsmAndMarker(), OsmAndTrack()]
