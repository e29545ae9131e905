"""高德地图 (Amap): a city map with places, as in the Amap app.

The bottom bar has 首页 (a search box, id ``search``, over the city map with a pin for each
place; with a query, the matching places as rows ``place_<id>``: the name, then the
distance and address), 附近 (every place by distance, rows ``near_<id>``) and 我的 (收藏夹:
the saved places, rows ``saved_<id>``). A place's card shows its name, kind and 评分
(``place_rating``), 地址 (``place_address``) and 距您 (``place_distance``), with 收藏 (id
``save``, a toggle) and 路线 (id ``route``). The route screen plans from 我的位置 to the
place: mode chips 驾车, 公交, 步行, 骑行 (ids ``mode_<i>``) and the plan's time and
distance (``route_summary``), the route drawn on the map.

Places are the app's own ``Store`` (``apps.Amap.places``; ``x``, ``y`` are metres east and
north of you). A route follows the street grid (its length is the Manhattan distance) and
takes a fixed speed per mode, as the Maps app's do (``mockapps/maps/app.py``). The map is
the package's synthetic city (``world.maps``), drawn as Maps and OsmAnd draw theirs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import BottomNav, Chip
from ...world.kit.mapview import MapCanvas, MapState, Pin
from ...world.maps import Label, MapView
from ...world.widgets import (
    Button,
    ListItem,
    ListView,
    Node,
    Row,
    Screen,
    Text,
    TextField,
    TopBar,
)
from .manifest import MANIFEST

TABS = ("首页", "附近", "我的")
TAB_ICONS = ("map", "my_location", "person")
#: Route modes and (metres a minute, minutes added: parking, waiting for the bus).
MODES: dict[str, tuple[int, int]] = {"驾车": (400, 2), "公交": (300, 6), "步行": (80, 0),
                                     "骑行": (250, 0)}
YOU = "我的位置"
#: The city: a synthetic one (``world.maps``) whose origin is your location.
CITY = MapView(seed=23, lat0=39.9087, lon0=116.3975, zoom=15)
MAP_H = 1300
CARD_MAP_H = 600


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Place:
    """A place ``x`` metres east and ``y`` north of you; ``saved``: in 收藏夹."""

    id: int
    name: str
    kind: str
    address: str
    x: int
    y: int
    rating: float
    saved: bool = False


@dataclass
class AmapData(Store):
    places: Table[Place] = field(default_factory=lambda: Table(kind=Place))


@dataclass
class AmapUi:
    """Transient state: the tab, the search, the route's mode and the maps' views."""

    tab: str = "首页"
    query: str = ""
    mode: str = "驾车"
    map: MapState = field(default_factory=lambda: MapState(CITY))


# --- updates -------------------------------------------------------------------------------
def route_metres(p: Place) -> int:
    """The length of the route from you to ``p`` along the street grid."""
    return abs(p.x) + abs(p.y)


def route_minutes(metres: int, mode: str) -> int:
    """Minutes a route of ``metres`` takes by ``mode`` (one of ``MODES``)."""
    if mode not in MODES:
        raise ValueError(f"mode {mode!r} is not one of {', '.join(MODES)}")
    speed, extra = MODES[mode]
    return max(1, math.ceil(metres / speed) + extra)


def distance_text(metres: int) -> str:
    """"850米" under a kilometre, "1.2公里" above, as Amap writes them."""
    return f"{metres}米" if metres < 1000 else f"{metres / 1000:.1f}公里"


def minutes_text(minutes: int) -> str:
    """"25分钟", "1小时5分钟"."""
    if minutes < 60:
        return f"{minutes}分钟"
    h, m = divmod(minutes, 60)
    return f"{h}小时{m}分钟" if m else f"{h}小时"


def search(data: AmapData, query: str) -> list[Place]:
    """Places whose name, kind or address holds ``query``, nearest first."""
    q = query.strip()
    if not q:
        return []
    return sorted((p for p in data.places if q in p.name or q == p.kind or q in p.address),
                  key=lambda p: (route_metres(p), p.id))


def toggle_saved(data: AmapData, place_id: int) -> None:
    p = data.places.get(place_id)
    if p is not None:
        data.places.update(place_id, saved=not p.saved)


def latlon(p: Place) -> tuple[float, float]:
    return CITY.latlon(p.x, -p.y)


def route_line(p: Place) -> list[tuple[float, float]]:
    """From you east (or west) to the place's column, then north (or south) to it."""
    return [CITY.latlon(0, 0), CITY.latlon(p.x, 0), latlon(p)]


# --- the app -------------------------------------------------------------------------------
class AmapApp(App):
    manifest = MANIFEST

    data: AmapData
    ui: AmapUi

    def initial_data(self) -> AmapData:
        return AmapData()

    def initial_ui(self) -> AmapUi:
        return AmapUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def open_place(self, place_id: int) -> None:
        self.go("place", place_id)

    def open_route(self, place_id: int) -> None:
        self.ui.mode = "驾车"
        self.go("route", place_id)

    def toggle(self, place_id: int) -> None:
        toggle_saved(self.data, place_id)
        p = self.data.places.get(place_id)
        self.toast(self.t("已收藏") if p is not None and p.saved else self.t("已取消收藏"))

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        p = self.data.places.get(route.arg) if route.name in ("place", "route") else None
        if p is not None and route.name == "place":
            return self.card(p)
        if p is not None and route.name == "route":
            return self.route_screen(p)
        return self.home()

    def row(self, p: Place, prefix: str, second: str) -> Node:
        """A place's row: its name over its distance (id ``dist_<id>``) and ``second``."""
        return ListItem(p.name, id=f"{prefix}_{p.id}", glyph="location_on",
                        parts=((f"dist_{p.id}", distance_text(route_metres(p))),
                               (f"info_{p.id}", second)),
                        on_click=partial(self.open_place, p.id))

    def pins(self) -> list[Pin]:
        return [Pin(p.name, *latlon(p), on_click=partial(self.open_place, p.id),
                    id=f"pin_{p.id}") for p in self.data.places]

    def home(self) -> Screen:
        tab = self.ui.tab if self.ui.tab in TABS else TABS[0]
        content: list[Node]
        if tab == "附近":
            near = sorted(self.data.places, key=lambda p: (route_metres(p), p.id))
            content = [Text(self.t("附近的地点"), style="title", id="near_label"),
                       ListView([self.row(p, "near", p.kind)
                                 for p in near], id="near", empty_text=self.t("附近没有地点"))]
        elif tab == "我的":
            saved = [p for p in self.data.places if p.saved]
            content = [Text(self.t("收藏夹（{n}）", n=len(saved)), style="title",
                            id="saved_label"),
                       ListView([self.row(p, "saved", p.address) for p in saved], id="saved",
                                empty_text=self.t("还没有收藏的地点"))]
        else:
            found = search(self.data, self.ui.query)
            box = TextField(self.ui.query, lambda v: self.set_ui(query=v),
                            hint=self.t("搜索地点、公交站、地铁站"), id="search",
                            label=self.t("搜索"))
            if self.ui.query.strip():
                content = [box, ListView(
                    [self.row(p, "place", p.address)
                     for p in found], id="results", empty_text=self.t("没有找到相关地点"))]
            else:
                content = [box, MapCanvas(self.ui.map, self.system.now, height=MAP_H,
                                          labels=[Label(self.t(YOU), CITY.lat0, CITY.lon0)],
                                          pins=self.pins(), id="map", desc=self.t("地图"))]
        return Screen(top_bar=TopBar(self.t("高德地图")), content=content,
                      bottom=BottomNav([self.t(t) for t in TABS], TAB_ICONS, self.t(tab),
                                       self.pick_tab,
                                       style=self.manifest.look.nav_style))

    def pick_tab(self, label: str) -> None:
        self.ui.tab = next((t for t in TABS if self.t(t) == label), TABS[0])

    def card(self, p: Place) -> Screen:
        view = MapState(CITY.fitted([latlon(p), (CITY.lat0, CITY.lon0)], 1080, CARD_MAP_H,
                                    margin=160))
        return Screen(
            top_bar=TopBar(p.name, on_back=self.back),
            content=[MapCanvas(view, self.system.now, height=CARD_MAP_H,
                               labels=[Label(self.t(YOU), CITY.lat0, CITY.lon0)],
                               pins=[Pin(p.name, *latlon(p), id="place_pin")],
                               id="place_map", desc=self.t("地图")),
                     Text(p.name, style="title", id="place_name"),
                     Text(self.t("{kind} · 评分 {rating}", kind=p.kind, rating=f"{p.rating:.1f}"),
                          id="place_rating"),
                     Text(self.t("地址：{address}", address=p.address), id="place_address",
                          copyable=True),
                     Text(self.t("距您 {d}", d=distance_text(route_metres(p))),
                          id="place_distance")],
            dock=Row([Button(self.t("已收藏") if p.saved else self.t("收藏"),
                             partial(self.toggle, p.id), id="save"),
                      Button(self.t("路线"), partial(self.open_route, p.id), id="route")],
                     id="place_bar"))

    def route_screen(self, p: Place) -> Screen:
        metres = route_metres(p)
        mode = self.ui.mode if self.ui.mode in MODES else "驾车"
        view = MapState(CITY.fitted([latlon(p), (CITY.lat0, CITY.lon0)], 1080, MAP_H // 2,
                                    margin=160))
        return Screen(
            top_bar=TopBar(self.t("路线"), on_back=self.back),
            content=[Text(self.t("{a} → {b}", a=self.t(YOU), b=p.name), id="route_ends"),
                     Row([Chip(self.t(m), m == mode, partial(self.set_ui, mode=m),
                               id=f"mode_{i}") for i, m in enumerate(MODES)], id="modes"),
                     Text(self.t("{mode} {time} · {d}", mode=self.t(mode),
                                 time=minutes_text(route_minutes(metres, mode)),
                                 d=distance_text(metres)), style="title", id="route_summary"),
                     MapCanvas(view, self.system.now, height=MAP_H // 2,
                               labels=[Label(self.t(YOU), CITY.lat0, CITY.lon0)],
                               pins=[Pin(p.name, *latlon(p), id="route_end")],
                               route=route_line(p), id="route_map", desc=self.t("路线地图"))])
