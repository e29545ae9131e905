"""OsmAnd: an offline map of Liechtenstein's towns, with search (by name, or by a
``lat, lon`` string), a place page ("Add to favourites", "Marker"), the lists of
favourites, markers and saved tracks, and a track planner (add waypoints in order, undo,
save under a name). The map's "Menu" button (bottom left, as OsmAnd's) opens its main menu, a
navigation drawer: Search, My favourites, Map markers, Tracks and Plan a route.

The map itself is a picture (its pixels are not in the accessibility tree). Favourites,
markers and tracks are the app's own data (``OsmAndData``: verifiers read
``apps.OsmAnd.favorites`` and so on); coordinates are stored as floats rounded to 5
decimals, a track's points as ``"lat,lon;lat,lon;..."``. A ``geo:`` link (``VIEW``) opens
the place page of its point (``geo:47.14,9.52``), or the search for its ``q=`` query.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial
from urllib.parse import parse_qs

from ...world import theme as T
from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import ConfirmDialog, Destination, NavigationDrawer, with_drawer
from ...world.kit.localize import in_locale
from ...world.kit.mapview import Control, MapCanvas, MapState, Pin
from ...world.maps import Label, MapView
from ...world.widgets import (
    Button,
    Dialog,
    DialogButton,
    Icon,
    ListItem,
    Node,
    Screen,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

#: The towns of the offline map: name -> (lat, lon).
TOWNS: dict[str, tuple[float, float]] = {
    "Balzers": (47.06659, 9.50251),
    "Eschen": (47.21071, 9.52223),
    "Gamprin": (47.22038, 9.50935),
    "Mauren": (47.21805, 9.54420),
    "Nendeln": (47.19846, 9.54300),
    "Planken": (47.18516, 9.54437),
    "Ruggell": (47.23799, 9.52540),
    "Schaan": (47.16498, 9.50867),
    "Schaanwald": (47.21450, 9.56230),
    "Schellenberg": (47.23123, 9.54678),
    "Triesen": (47.10752, 9.52815),
    "Triesenberg": (47.11815, 9.54197),
    "Vaduz": (47.14151, 9.52154),
}
#: The offline map: a synthetic city around Vaduz (``world.maps``), first shown at zoom 13.
HOME = MapView(seed=4, lat0=47.14151, lon0=9.52154, zoom=13)
MAP_H = T.SCREEN_H - T.STATUS_H - T.NAV_H - 40  # the map fills the screen, no top bar
#: The main menu's entries beside Search: label, Material icon, route (also the entry's id).
MENU = (("My favourites", "star", "favorites"), ("Map markers", "flag", "markers"),
        ("Tracks", "timeline", "tracks"), ("Plan a route", "route", "plan"))
_COORDS = re.compile(r"^\s*(-?\d{1,2}(?:\.\d+)?)\s*[, ]\s*(-?\d{1,3}(?:\.\d+)?)\s*$")


@dataclass(frozen=True)
class Place:
    """A point on the map (a favourite, a marker)."""

    id: int
    name: str
    lat: float
    lon: float


@dataclass(frozen=True)
class Track:
    id: int
    name: str
    points: str = ""


@dataclass
class OsmAndData(Store):
    favorites: Table[Place] = field(default_factory=lambda: Table(kind=Place))
    markers: Table[Place] = field(default_factory=lambda: Table(kind=Place))
    tracks: Table[Track] = field(default_factory=lambda: Table(kind=Track))


@dataclass
class OsmAndUi:
    """Transient state: the search query (and whether it picks a track point), the track
    being planned, the dialog showing, and the name being typed."""

    query: str = ""
    for_track: bool = False
    points: list[tuple[str, float, float]] = field(default_factory=list)
    dialog: str = ""
    name: str = ""
    target: int = 0
    map: MapState = field(default_factory=lambda: MapState(HOME))
    menu: bool = False  # the main menu (a drawer) is open


def coords_text(lat: float, lon: float) -> str:
    return f"{lat:.5f}, {lon:.5f}"


def parse_coords(text: str) -> tuple[float, float] | None:
    found = _COORDS.match(text)
    if found is None:
        return None
    lat, lon = float(found.group(1)), float(found.group(2))
    return (lat, lon) if -90 <= lat <= 90 and -180 <= lon <= 180 else None


def search(query: str) -> list[tuple[str, float, float]]:
    """Places matching ``query``: towns whose name contains it, or the point it names."""
    q = query.strip()
    if not q:
        return []
    point = parse_coords(q)
    if point is not None:
        return [(coords_text(*point), *point)]
    return [(n, *ll) for n, ll in TOWNS.items() if q.casefold() in n.casefold()]


def encode_points(points: list[tuple[str, float, float]]) -> str:
    return ";".join(f"{lat:.5f},{lon:.5f}" for _, lat, lon in points)


def decode_points(text: str) -> list[tuple[float, float]]:
    out = []
    for part in text.split(";"):
        try:
            lat, lon = (float(v) for v in part.split(","))
        except ValueError:
            continue
        out.append((lat, lon))
    return out


class OsmAndApp(App):
    manifest = MANIFEST

    data: OsmAndData
    ui: OsmAndUi

    def initial_data(self) -> OsmAndData:
        return OsmAndData()

    def initial_ui(self) -> OsmAndUi:
        return OsmAndUi()

    # --- updates --------------------------------------------------------------------------
    def set_query(self, text: str) -> None:
        self.ui.query = text

    def open_search(self, for_track: bool = False) -> None:
        self.ui.query, self.ui.for_track = "", for_track
        self.go("search")

    def open_link(self, uri: str) -> None:
        """``geo:LAT,LON[?q=QUERY]``: the search for the query, else the point's page."""
        self.stack = [Route("main")]
        point, _, query = uri.partition(":")[2].partition("?")
        q = parse_qs(query).get("q", [""])[0].strip()
        coords = parse_coords(point.partition(";")[0])
        if q:
            self.open_search()
            self.ui.query = q
        elif coords is not None and coords != (0.0, 0.0):
            self.go("place", (coords_text(*coords), *coords))

    def pick(self, place: tuple[str, float, float]) -> None:
        """A search result picked: the map pans to it, and it becomes a point of the route
        being planned or opens its place page."""
        self.ui.map.view = self.ui.map.view.centred(place[1], place[2])
        if self.ui.for_track:
            self.ui.points.append(place)  # the map shows the whole route so far
            self.ui.map.view = self.ui.map.view.fitted(
                [(lat, lon) for _, lat, lon in self.ui.points], T.SCREEN_W, 560)
            self.back()
        else:
            self.go("place", place)

    def add_marker(self, place: tuple[str, float, float]) -> None:
        name, lat, lon = place
        self.data.markers.new(name=name, lat=round(lat, 5), lon=round(lon, 5))
        self.toast(self.t("Marker added"))

    def ask(self, dialog: str, name: str = "", target: int = 0) -> None:
        self.ui.dialog, self.ui.name, self.ui.target = dialog, name, target

    def close_dialog(self) -> None:
        self.ui.dialog, self.ui.name, self.ui.target = "", "", 0

    def set_name(self, text: str) -> None:
        self.ui.name = text

    def save_favorite(self, place: tuple[str, float, float]) -> None:
        name = self.ui.name.strip() or place[0]
        self.data.favorites.new(name=name, lat=round(place[1], 5), lon=round(place[2], 5))
        self.close_dialog()
        self.toast(self.t("Added to favourites"))

    def undo_point(self) -> None:
        if self.ui.points:
            self.ui.points.pop()

    def save_track(self) -> None:
        name = self.ui.name.strip()
        if not name:
            self.toast(self.t("Enter a name"))
            return
        self.data.tracks.new(name=name, points=encode_points(self.ui.points))
        self.ui.points = []
        self.close_dialog()
        self.toast(self.t("Track saved"))
        self.back()

    def delete(self, table: str, key: int) -> None:
        getattr(self.data, table).remove(key)
        self.close_dialog()

    # --- views ----------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        screen = self.screen_for(route)
        return in_locale(self, screen)

    def screen_for(self, route: Route) -> Screen:
        if route.name in ("search", "place", "plan", "favorites", "markers", "tracks"):
            return getattr(self, f"{route.name}_screen")(route.arg)
        return self.map_screen()

    def set_menu(self, open: bool) -> None:
        self.ui.menu = open

    def main_menu(self) -> Node:
        """OsmAnd's main menu (its drawer): the screens this model has, with the ids and
        labels they had as buttons on the map."""
        items: list[Destination | str] = [
            Destination("Search", "search", self.open_search, id="menu_search")]
        items += [Destination(label, icon, partial(self.go, key), id=key)
                  for label, icon, key in MENU]
        return NavigationDrawer(items, title="OsmAnd", subtitle="Liechtenstein", dense=True,
                                on_close=lambda: self.set_menu(False))

    def map_screen(self) -> Screen:
        """The map with OsmAnd's floating controls (as on its main screen): search and the
        compass at the top, zoom on the right, the menu button (the drawer's toggle, id
        ``drawer_toggle``; described "Menu", as OsmAnd's) at the bottom left and
        my-location at the bottom right; a pin on each town (a tap opens its place page)."""
        state = self.ui.map
        w, h = T.SCREEN_W, MAP_H
        s, g = 144, 36  # a button's side, the gap from the edge

        def reset_north() -> None:
            self.toast(self.t("Map oriented north"))

        def my_location() -> None:
            state.view = state.view.centred(*TOWNS["Vaduz"])

        controls = [
            Control("Search", self.open_search, (g, g, g + s, g + s), glyph="🔍", id="search",
                    style="square"),
            Control("Compass", reset_north, (w - g - s, g, w - g, g + s), glyph="➤",
                    id="compass"),
            Control("Zoom in", lambda: state.zoom(1), (w - g - s, h // 2 - s - 8, w - g,
                                                       h // 2 - 8), glyph="+", id="zoom_in",
                    style="square"),
            Control("Zoom out", lambda: state.zoom(-1), (w - g - s, h // 2 + 8, w - g,
                                                         h // 2 + s + 8), glyph="−",
                    id="zoom_out", style="square"),
            Control("My location", my_location, (w - g - s, h - g - s, w - g, h - g),
                    glyph="◎", id="my_location"),
            Control("Menu", lambda: self.set_menu(True), (g, h - g - s, g + s, h - g),
                    glyph="menu", id="drawer_toggle", style="square"),
        ]
        pins = [Pin(n, lat, lon, partial(self.pick, (n, lat, lon)), id=f"pin_{n}")
                for n, (lat, lon) in sorted(TOWNS.items())]
        labels = [Label(n, lat, lon) for n, (lat, lon) in sorted(TOWNS.items())]
        screen = Screen(content=[MapCanvas(state, self.system.now, height=h, labels=labels,
                                           pins=pins, controls=controls, id="map")])
        return with_drawer(screen, self.main_menu() if self.ui.menu else None,
                           lambda: self.set_menu(False))

    def search_screen(self, _: object) -> Screen:
        found = search(self.ui.query)
        empty = "Type a place or coordinates" if not self.ui.query.strip() else "Nothing found"

        def row(i: int) -> Node:
            place = found[i]
            return ListItem(place[0], coords_text(place[1], place[2]), id=f"result_{i}",
                            glyph="📍", on_click=partial(self.pick, place))

        title = "Add a point" if self.ui.for_track else "Search"
        return Screen(top_bar=TopBar(title, on_back=self.back), content=[
            TextField(self.ui.query, self.set_query, id="search_field", label="Search",
                      hint="Place name or lat, lon"),
            VirtualList(len(found), row, id="results", empty_text=empty)])

    def place_screen(self, place: tuple[str, float, float]) -> Screen:
        name, lat, lon = place
        dialog = None
        if self.ui.dialog == "favorite":
            dialog = Dialog("Add to favourites", "", [
                DialogButton("Cancel", self.close_dialog),
                DialogButton("Save", partial(self.save_favorite, place))],
                body=[TextField(self.ui.name, self.set_name, id="favorite_name",
                                label="Name")])
        return Screen(
            top_bar=TopBar(name, on_back=self.back),
            content=[MapCanvas(self.ui.map, self.system.now, height=560,
                               pins=[Pin(name, lat, lon, id="pin_place")], id="place_map"),
                     Text(name, style="title", id="place_name"),
                     Text(coords_text(lat, lon), id="place_coords", copyable=True),
                     Button("Add to favourites", partial(self.ask, "favorite", name),
                            id="add_favorite"),
                     Button("Marker", partial(self.add_marker, place), id="add_marker",
                            style="secondary")],
            dialog=dialog, on_dismiss=self.close_dialog)

    def place_list(self, title: str, table: str) -> Screen:
        rows = list(getattr(self.data, table))

        def row(i: int) -> Node:
            p = rows[i]
            return ListItem(p.name, coords_text(p.lat, p.lon), id=f"{table}_{i}", glyph="★",
                            menu=[(self.t("Delete"), partial(self.ask, f"delete_{table}", p.name,
                                                     p.id))])

        return Screen(top_bar=TopBar(title, on_back=self.back),
                      content=[VirtualList(len(rows), row, id=f"{table}_list",
                                           empty_text=self.t(f"No {title.lower()}"))],
                      dialog=self.delete_dialog(table), on_dismiss=self.close_dialog)

    def delete_dialog(self, table: str) -> Node | None:
        if self.ui.dialog != f"delete_{table}":
            return None
        key = self.ui.target
        return ConfirmDialog(self.t("Delete {name}?", name=self.ui.name), "", confirm="Delete",
                             on_confirm=partial(self.delete, table, key),
                             on_cancel=self.close_dialog, destructive=True)

    def favorites_screen(self, _: object) -> Screen:
        return self.place_list("Favourites", "favorites")

    def markers_screen(self, _: object) -> Screen:
        return self.place_list("Markers", "markers")

    def tracks_screen(self, _: object) -> Screen:
        rows = list(self.data.tracks)

        def row(i: int) -> Node:
            t = rows[i]
            n = len(decode_points(t.points))
            return ListItem(t.name, self.t("{n} points", n=n), id=f"tracks_{i}", glyph="↗",
                            menu=[(self.t("Delete"),
                                   partial(self.ask, "delete_tracks", t.name, t.id))])

        return Screen(top_bar=TopBar("Tracks", on_back=self.back),
                      content=[VirtualList(len(rows), row, id="tracks_list",
                                           empty_text="No tracks")],
                      dialog=self.delete_dialog("tracks"), on_dismiss=self.close_dialog)

    def plan_screen(self, _: object) -> Screen:
        points = self.ui.points
        dialog = None
        if self.ui.dialog == "save_track":
            dialog = Dialog("Save as new track", "", [
                DialogButton("Cancel", self.close_dialog),
                DialogButton("Save", self.save_track)],
                body=[TextField(self.ui.name, self.set_name, id="track_name",
                                label="Track name")])
        rows = [ListItem(f"{i + 1}. {name}", coords_text(lat, lon), id=f"point_{i}",
                         glyph="•") for i, (name, lat, lon) in enumerate(points)]
        return Screen(
            top_bar=TopBar("Plan a route", on_back=self.back, actions=[
                Icon("↩", "Undo", self.undo_point, id="undo"),
                Icon("✓", "Save", lambda: self.ask("save_track") if points else
                     self.toast(self.t("Add points first")), id="save")]),
            content=[MapCanvas(self.ui.map, self.system.now, height=560,
                               pins=[Pin(f"{i + 1}. {name}", lat, lon, id=f"pin_point_{i}")
                                     for i, (name, lat, lon) in enumerate(points)],
                               route=[(lat, lon) for _, lat, lon in points], id="plan_map",
                               desc="Route map"),
                     Text(self.t("{n} points", n=len(points)), style="caption", id="point_count"),
                     *rows,
                     Button("Add point", partial(self.open_search, True), id="add_point")],
            dialog=dialog, on_dismiss=self.close_dialog)
