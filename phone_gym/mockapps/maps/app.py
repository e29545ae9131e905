"""Maps: a city of places around you, searched with filters (open now, rating, distance,
price) and sorted; a place page (hours, address, save to lists, directions); directions
between two places by mode with duration and distance, and navigation; saved lists; live
location sharing; and the location permission prompt on first open.

Everything is the app's own data (``MapsData``): the places of the city (seeded per
episode), the saved lists and what they hold, started trips, location shares, and the
answer to the location prompt (``location``: "" not asked yet, "allowed" or "denied").
Coordinates are metres east (``x``) and north (``y``) of where you are; routes follow the
street grid, so a route's length is ``|dx| + |dy|``. A ``geo:`` link (``VIEW``) searches its
``q=`` query (``geo:0,0?q=coffee``); one without a query shows the map.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from urllib.parse import parse_qs

from ...world import theme as T
from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import BottomNav, Chips, ChoiceDialog, Tabs
from ...world.kit.localize import in_locale
from ...world.kit.mapview import Control, MapCanvas, MapState, Pin
from ...world.locale import DEFAULT_LOCALE
from ...world.maps import Label, MapView
from ...world.widgets import (
    Button,
    Checkbox,
    Dialog,
    DialogButton,
    ListItem,
    Node,
    Screen,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

KINDS = ("Cafe", "Restaurant", "Shop", "Landmark", "Station")
MODES = ("Drive", "Transit", "Walk", "Bike")
#: The main screen's bottom bar (Google Maps' Explore, Go and Saved) and its icons.
NAV = ("Explore", "Go", "Saved")
NAV_ICONS = ("explore", "directions", "bookmark")
FILTERS = ("Open now", "Rated 4.5+", "Within 1 km", "Inexpensive")
SORTS = ("Relevance", "Rating", "Distance")
DEFAULT_LISTS = ("Favourites", "Want to go")
YOU = "Your location"
#: The city's map: a synthetic city (``world.maps``) whose origin is your location; a place's
#: ``x``, ``y`` are metres east and north of it.
CITY = MapView(seed=11, lat0=51.5072, lon0=-0.1276, zoom=15)
MAIN_MAP_H = 1500  # the main screen's map (the nearby list peeks below it)
ROUTE_MAP_H = 760  # the map over the directions and navigation screens


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Place:
    """A place of the city; ``opens``/``closes`` are "HH:MM" (same day), ``price`` 1..4."""

    id: int
    name: str
    kind: str
    address: str
    rating: float
    price: int
    opens: str
    closes: str
    x: int
    y: int


@dataclass(frozen=True)
class PlaceList:
    id: int
    name: str


@dataclass(frozen=True)
class Saved:
    """A place (by name) in a list (by name)."""

    id: int
    list: str
    place: str


@dataclass(frozen=True)
class Trip:
    """A started navigation: from a place name (or ``YOU``) to a place, by mode."""

    id: int
    origin: str
    destination: str
    mode: str


@dataclass(frozen=True)
class Share:
    """Live location shared with a phone number for ``minutes``."""

    id: int
    number: str
    minutes: int


@dataclass
class MapsData(Store):
    places: Table[Place] = field(default_factory=lambda: Table(kind=Place))
    lists: Table[PlaceList] = field(default_factory=lambda: Table(kind=PlaceList))
    saved: Table[Saved] = field(default_factory=lambda: Table(kind=Saved))
    trips: Table[Trip] = field(default_factory=lambda: Table(kind=Trip))
    shares: Table[Share] = field(default_factory=lambda: Table(kind=Share))
    location: str = ""  # "", "allowed", "once" (asked again next session) or "denied"
    location_grants: int = 0  # how often the prompt was answered with a grant


@dataclass
class MapsUi:
    """Transient state: the search (query, filters, sort, what a pick is for), the route
    being planned (origin, destination, mode), the dialog showing and a typed name."""

    query: str = ""
    filters: set[str] = field(default_factory=set)
    sort: str = "Relevance"
    picking: str = ""  # "", "origin" or "destination"
    origin: int | None = None  # None: your location
    destination: int | None = None
    mode: str = "Drive"
    dialog: str = ""
    text: str = ""
    minutes: int = 60
    asked: bool = False  # the prompt was answered "Only this time" in this session
    map: MapState = field(default_factory=lambda: MapState(CITY))
    route_map: MapState = field(default_factory=lambda: MapState(CITY))
    route_key: tuple[int | None, int | None, bool] | None = None  # what route_map was fit to


# --- pure helpers ----------------------------------------------------------------------------
def latlon(x: int, y: int) -> tuple[float, float]:
    """Where a place at ``x`` metres east and ``y`` north of you is on the city's map."""
    return CITY.latlon(x, -y)


def route_points(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[float, float]]:
    """The route from ``a`` to ``b`` along the streets (east-west, then north-south: the
    ``route_metres`` it measures), as map points."""
    return [latlon(*a), latlon(b[0], a[1]), latlon(*b)]


def minutes_of(hhmm: str) -> int:
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


def is_open(place: Place, now: datetime) -> bool:
    t = now.hour * 60 + now.minute
    return minutes_of(place.opens) <= t < minutes_of(place.closes)


def route_metres(a: tuple[int, int], b: tuple[int, int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def distance_from_you(place: Place) -> int:
    return route_metres((0, 0), (place.x, place.y))


def travel_minutes(metres: int, mode: str) -> int:
    """Minutes a route of ``metres`` takes by ``mode``."""
    if mode == "Walk":
        return max(1, math.ceil(metres / 80))
    if mode == "Bike":
        return max(1, math.ceil(metres / 250))
    if mode == "Transit":
        return math.ceil(metres / 300) + 6
    return math.ceil(metres / 400) + 2


def duration_text(minutes: int) -> str:
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} hr {minutes % 60} min" if minutes % 60 else f"{minutes // 60} hr"


def km_text(metres: int) -> str:
    return f"{metres / 1000:.1f} km"


def price_text(price: int) -> str:
    return "$" * price


def hours_text(place: Place, now: datetime) -> str:
    if is_open(place, now):
        return f"Open · Closes {place.closes}"
    return f"Closed · Opens {place.opens}"


def matches(place: Place, query: str) -> bool:
    q = query.strip().lower()
    if not q:
        return True
    kind = place.kind.lower()
    return q in place.name.lower() or q.rstrip("s") == kind or q == kind + "s" or \
        q in place.address.lower()


def search(places: list[Place], query: str, filters: set[str], sort: str, now: datetime,
           located: bool) -> list[Place]:
    """The places matching ``query`` and every filter, in ``sort`` order (ties by name)."""
    found = [p for p in places if matches(p, query)]
    if "Open now" in filters:
        found = [p for p in found if is_open(p, now)]
    if "Rated 4.5+" in filters:
        found = [p for p in found if p.rating >= 4.5]
    if "Inexpensive" in filters:
        found = [p for p in found if p.price <= 1]
    if "Within 1 km" in filters and located:
        found = [p for p in found if distance_from_you(p) <= 1000]
    if sort == "Rating":
        return sorted(found, key=lambda p: (-p.rating, p.name))
    if sort == "Distance" and located:
        return sorted(found, key=lambda p: (distance_from_you(p), p.name))
    return sorted(found, key=lambda p: (KINDS.index(p.kind) if p.kind in KINDS else 9, p.name))


# --- the app -------------------------------------------------------------------------------
class MapsApp(App):
    manifest = MANIFEST

    data: MapsData
    ui: MapsUi

    def initial_data(self) -> MapsData:
        data = MapsData()
        for name in DEFAULT_LISTS:
            data.lists.new(name=name)
        return data

    def initial_ui(self) -> MapsUi:
        return MapsUi()

    @property
    def located(self) -> bool:
        return self.data.location == "allowed" or (self.data.location == "once"
                                                   and self.ui.asked)

    @property
    def asking(self) -> bool:
        """Whether the location prompt shows (not answered, or answered for one session)."""
        return self.data.location == "" or (self.data.location == "once" and not self.ui.asked)

    def place(self, place_id: int | None) -> Place | None:
        return self.data.places.get(place_id) if place_id is not None else None

    # --- updates --------------------------------------------------------------------------
    def answer_prompt(self, choice: str) -> None:
        """The location prompt: "allowed", "once" (this session only: the prompt comes
        back next time) or "denied"."""
        self.ui.asked = choice == "once"
        self.data.location = choice
        if choice != "denied":  # the app has had the location: a later "deny" cannot undo it
            self.data.location_grants += 1

    def open_link(self, uri: str) -> None:
        """``geo:LAT,LNG[?q=QUERY]``: the search for the query, or the map."""
        self.stack = [Route("main")]
        query = parse_qs(uri.partition("?")[2]).get("q", [""])[0].strip()
        if query:
            self.open_search(query)

    def open_search(self, query: str = "", picking: str = "") -> None:
        self.ui.query, self.ui.picking = query, picking
        self.go("search")

    def set_query(self, text: str) -> None:
        self.ui.query = text

    def toggle_filter(self, name: str) -> None:
        if name == "Within 1 km" and not self.located:
            self.toast(self.t("Turn on location to use this filter"))
            return
        self.ui.filters ^= {name}

    def set_sort(self, sort: str) -> None:
        self.ui.sort = sort
        self.close_dialog()

    def pick(self, place_id: int) -> None:
        if self.ui.picking == "origin":
            self.ui.origin = place_id
            self.ui.picking = ""
            self.back()
        elif self.ui.picking == "destination":
            self.ui.destination = place_id
            self.ui.picking = ""
            self.back()
        else:
            place = self.place(place_id)
            if place is not None:  # the map pans to the place picked
                self.ui.map.view = self.ui.map.view.centred(*latlon(place.x, place.y))
            self.go("place", place_id)

    def ask(self, dialog: str, text: str = "") -> None:
        self.ui.dialog, self.ui.text = dialog, text

    def close_dialog(self) -> None:
        self.ui.dialog, self.ui.text = "", ""

    def set_text(self, text: str) -> None:
        self.ui.text = text

    def in_list(self, list_name: str, place_name: str) -> int | None:
        for s in self.data.saved:
            if s.list == list_name and s.place == place_name:
                return s.id
        return None

    def toggle_saved(self, list_name: str, place_name: str) -> None:
        key = self.in_list(list_name, place_name)
        if key is None:
            self.data.saved.new(list=list_name, place=place_name)
            self.toast(self.t("Saved to {name}", name=self.t_list(list_name)))
        else:
            self.data.saved.remove(key)
            self.toast(self.t("Removed from {name}", name=self.t_list(list_name)))

    def create_list(self) -> None:
        name = self.ui.text.strip()
        if not name:
            self.toast(self.t("Enter a name"))
            return
        if any(x.name.lower() == name.lower() for x in self.data.lists):
            self.toast(self.t("A list with this name exists"))
            return
        self.data.lists.new(name=name)
        self.ask("save" if self.route.name == "place" else "")
        self.toast(self.t("List created"))

    def directions_to(self, place_id: int) -> None:
        self.ui.origin, self.ui.destination = None, place_id
        self.go("directions")

    def start_to(self, place_id: int) -> None:
        """The place page's Start: navigate there from your location, by the chosen mode."""
        self.ui.origin, self.ui.destination = None, place_id
        self.start_navigation()

    def set_mode(self, mode: str) -> None:
        self.ui.mode = mode

    def endpoint_name(self, place_id: int | None) -> str:
        place = self.place(place_id)
        return place.name if place is not None else YOU

    def endpoint_xy(self, place_id: int | None) -> tuple[int, int] | None:
        place = self.place(place_id)
        if place is not None:
            return (place.x, place.y)
        return (0, 0) if self.located else None

    def start_navigation(self) -> None:
        dest = self.place(self.ui.destination)
        if dest is None or self.endpoint_xy(self.ui.origin) is None:
            self.toast(self.t("Choose a start and a destination"))
            return
        self.data.trips.new(origin=self.endpoint_name(self.ui.origin),
                            destination=dest.name, mode=self.ui.mode)
        self.go("navigating")

    def share_location(self) -> None:
        number = self.ui.text.strip()
        if sum(c.isdigit() for c in number) < 3:
            self.toast(self.t("Enter a phone number"))
            return
        self.data.shares.new(number=number, minutes=self.ui.minutes)
        self.close_dialog()
        self.toast(self.t("Sharing your location"))

    def stop_share(self, key: int) -> None:
        self.data.shares.remove(key)

    def set_minutes(self, label: str) -> None:
        self.ui.minutes = {"15 minutes": 15, "1 hour": 60, "Until you turn this off": 0}[label]
        self.ask("share", self.ui.text)

    # --- views ----------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        screen = self.screen_for(route)
        return in_locale(self, screen)

    def screen_for(self, route: Route) -> Screen:
        if route.name in ("search", "place", "directions", "navigating", "saved", "list",
                          "sharing"):
            return getattr(self, f"{route.name}_screen")(route.arg)
        return self.main_screen()

    def prompt(self) -> Node:
        return Dialog("Allow Maps to access this device's location?", "", [
            DialogButton("While using the app", partial(self.answer_prompt, "allowed"),
                         id="button_allow"),
            DialogButton("Only this time", partial(self.answer_prompt, "once"),
                         id="button_once"),
            DialogButton("Don't allow", partial(self.answer_prompt, "denied"),
                         id="button_deny")])

    def pins(self, places: list[Place]) -> list[Pin]:
        """A marker per place (its name the description; a tap opens its page)."""
        return [Pin(p.name, *latlon(p.x, p.y), partial(self.pick, p.id), id=f"pin_{p.id}")
                for p in places]

    def main_screen(self) -> Screen:
        """Google Maps' main screen: the map with the search bar and category chips floating
        at the top, the location-sharing avatar, the my-location and directions buttons at
        the bottom right and a pin per place; below it, the places nearby."""
        nearby = search(list(self.data.places), "", set(), "Distance" if self.located
                        else "Rating", self.system.now, self.located)[:6]
        state, w, h, g = self.ui.map, T.SCREEN_W, MAIN_MAP_H, 36

        def my_location() -> None:
            if self.located:
                state.view = state.view.centred(CITY.lat0, CITY.lon0)
            else:
                self.toast(self.t("Turn on location"))

        controls = [
            Control("Search here", self.open_search, (g, g, w - g - 150, g + 140),
                    text="Search here", id="search_bar"),
            Control("Location sharing", partial(self.go, "sharing"),
                    (w - g - 140, g, w - g, g + 140), glyph="👤", id="sharing"),
            Control("Directions", self.directions_from_main,
                    (w - g - 170, h - 2 * g - 340, w - g, h - 2 * g - 170), glyph="➦",
                    id="directions", style="square", color=T.PRIMARY),
            Control("My location", my_location, (w - g - 150, h - g - 150, w - g, h - g),
                    glyph="◎", id="my_location"),
            Control("Saved", partial(self.go, "saved"), (g, h - g - 130, g + 260, h - g),
                    text="Saved", id="saved"),
        ]
        cx = g
        for kind in KINDS[:4]:  # the category chips under the search bar (a tap searches)
            label = f"{kind}s"
            cw = 60 + 30 * (len(label) if self.system.locale == DEFAULT_LOCALE
                            else 2 * len(self.t(label)))  # a CJK character: two Latin ones
            controls.append(Control(label, partial(self.open_search, self.t(label)),
                                    (cx, g + 170, cx + cw, g + 270), text=label,
                                    id=f"category_{kind.lower()}"))
            cx += cw + 20
        places = list(self.data.places)
        you = [Label(self.t(YOU), CITY.lat0, CITY.lon0)] if self.located else []
        return Screen(
            content=[MapCanvas(state, self.system.now, height=h, labels=you,
                               pins=self.pins(places), controls=controls, id="map"),
                     Text("Nearby" if self.located else "Popular", style="caption",
                          id="nearby_title"),
                     VirtualList(len(nearby), lambda i: self.place_row(nearby[i]),
                                 id="nearby", empty_text="Nothing nearby")],
            bottom=BottomNav(NAV, NAV_ICONS, "Explore", self.navigate),
            dialog=self.prompt() if self.asking else None,
            on_dismiss=lambda: None)

    def route_canvas(self, dest: Place | None, *, id: str, desc: str) -> Node:
        """The map of the route being planned: its line and both ends' pins, fitted to it
        when its ends change (a drag pans it)."""
        ui = self.ui
        a, b = self.endpoint_xy(ui.origin), (dest.x, dest.y) if dest else None
        ends = [x for x in (a, b) if x is not None]
        key = (ui.origin, ui.destination, self.located)
        if ui.route_key != key:
            points = [latlon(*x) for x in ends] or [(CITY.lat0, CITY.lon0)]
            ui.route_map = MapState(CITY.fitted(points, T.SCREEN_W, ROUTE_MAP_H, margin=160))
            ui.route_key = key
        pins = [Pin(name, *latlon(*x), id=f"route_{end}", color=color)
                for end, name, x, color in (("start", self.endpoint_name(ui.origin), a,
                                             T.PRIMARY),
                                            ("end", dest.name if dest else "", b, None))
                if x is not None]
        route = route_points(a, b) if a is not None and b is not None else []
        return MapCanvas(ui.route_map, self.system.now, height=ROUTE_MAP_H, pins=pins,
                         route=route, id=id, desc=desc)

    def navigate(self, destination: str) -> None:
        """A tap on the bottom bar: Go opens directions, Saved the saved lists."""
        if destination == "Go":
            self.directions_from_main()
        elif destination == "Saved":
            self.go("saved")

    def directions_from_main(self) -> None:
        self.ui.origin, self.ui.destination = None, None
        self.go("directions")

    # --- the locale's forms (en-US: the module's functions, unchanged) ------------------
    def duration(self, minutes: int) -> str:
        """A trip's time: "1 hr 5 min" / "1小时5分钟"."""
        if self.system.locale != "zh-CN":
            return duration_text(minutes)
        h, m = divmod(minutes, 60)
        return (f"{h}小时" if h else "") + (f"{m}分钟" if m or not h else "")

    def km(self, metres: int) -> str:
        """A distance: "1.2 km" / "1.2公里"."""
        return km_text(metres) if self.system.locale != "zh-CN" else f"{metres / 1000:.1f}公里"

    def price(self, level: int) -> str:
        """A price level: "$$" / "¥¥" (Google Maps shows the local currency's sign)."""
        return price_text(level) if self.system.locale != "zh-CN" else "¥" * level

    def hours(self, p: Place) -> str:
        if is_open(p, self.system.now):
            return self.t("Open · Closes {time}", time=p.closes)
        return self.t("Closed · Opens {time}", time=p.opens)

    def t_list(self, name: str) -> str:
        """A saved list's name as shown: the default lists in the locale's words."""
        return self.t(name) if name in DEFAULT_LISTS else name

    def query_key(self, query: str) -> str:
        """A search for a kind of place in the locale's words (咖啡馆) as the kind's key."""
        if self.system.locale == DEFAULT_LOCALE:
            return query
        kinds = {self.t(w): w for k in KINDS for w in (k, f"{k}s")}
        return kinds.get(query.strip(), query)

    def t_you(self, name: str) -> str:
        return self.t(name) if name == YOU else name

    def place_row(self, p: Place) -> Node:
        parts = [("kind", self.t(p.kind)), ("rating", f"{p.rating:.1f}★"),
                 ("price", self.price(p.price)),
                 ("distance", self.km(distance_from_you(p)) if self.located else ""),
                 ("hours", self.t("Open" if is_open(p, self.system.now) else "Closed"))]
        return ListItem(p.name, id=f"place_{p.id}", glyph="📍", parts=parts,
                        on_click=partial(self.pick, p.id))

    def search_screen(self, _: object) -> Screen:
        ui = self.ui
        found = search(list(self.data.places), self.query_key(ui.query), ui.filters, ui.sort,
                       self.system.now, self.located)
        dialog = None
        if ui.dialog == "sort":
            dialog = ChoiceDialog("Sort by", SORTS, ui.sort, self.set_sort, self.close_dialog)
        title = {"origin": "Choose start", "destination": "Choose destination"}.get(
            ui.picking, "Search")
        return Screen(
            top_bar=TopBar(title, on_back=self.back),
            content=[TextField(ui.query, self.set_query, id="search_field", label="Search",
                               hint="Search here"),
                     Chips(FILTERS, ui.filters, self.toggle_filter, id="filters"),
                     Button(self.t("Sort: {sort}", sort=self.t(ui.sort)), partial(self.ask, "sort"),
                            id="sort",
                            style="secondary"),
                     VirtualList(len(found), lambda i: self.place_row(found[i]), id="results",
                                 empty_text="No results")],
            dialog=dialog, on_dismiss=self.close_dialog)

    def save_dialog(self, place: Place) -> Node:
        if self.ui.dialog == "new_list":
            return Dialog("New list", "", [DialogButton("Cancel", partial(self.ask, "save")),
                                           DialogButton("Create", self.create_list,
                                                        id="button_create")],
                          body=[TextField(self.ui.text, self.set_text, id="list_name",
                                          label="List name")])
        boxes = [Checkbox(x.name, self.in_list(x.name, place.name) is not None,
                          partial(self.toggle_saved, x.name, place.name), id=f"list_{x.id}")
                 for x in self.data.lists]
        return Dialog("Save to list", "", [
            DialogButton("New list", partial(self.ask, "new_list"), id="button_new_list"),
            DialogButton("Done", self.close_dialog, id="button_done")], body=boxes)

    def place_screen(self, place_id: int) -> Screen:
        p = self.place(place_id)
        if p is None:
            return Screen(top_bar=TopBar("Place", on_back=self.back),
                          content=[Text("This place is no longer available")])
        saved = [x.list for x in self.data.saved if x.place == p.name]
        info = [Text(p.name, style="title", id="place_name"),
                Text(f"{self.t(p.kind)} · {p.rating:.1f}★ · {self.price(p.price)}",
                     id="place_kind"),
                Text(self.hours(p), id="place_hours"),
                Text(self.t("Hours: {opens}–{closes}", opens=p.opens, closes=p.closes),
                     id="place_opening"),
                Text(p.address, id="place_address", copyable=True)]
        if self.located:
            info.append(Text(self.t("{distance} away", distance=self.km(distance_from_you(p))),
                             id="place_distance"))
        if saved:
            info.append(Text(self.t("Saved in {lists}", lists=self.t(", ").join(
                self.t_list(x) for x in saved)), style="caption", id="place_saved"))
        return Screen(
            top_bar=TopBar(p.name, on_back=self.back),
            content=[MapCanvas(self.ui.map, self.system.now, height=520,
                               pins=self.pins([p]), id="place_map"),
                     *info,
                     Button("Directions", partial(self.directions_to, p.id), id="directions"),
                     Button("Start", partial(self.start_to, p.id), id="start",
                            style="secondary"),
                     Button("Save", partial(self.ask, "save"), id="save", style="secondary")],
            dialog=self.save_dialog(p) if self.ui.dialog in ("save", "new_list") else None,
            on_dismiss=self.close_dialog)

    def directions_screen(self, _: object) -> Screen:
        ui = self.ui
        a = self.endpoint_xy(ui.origin)
        dest = self.place(ui.destination)
        content: list[Node] = [
            Button(self.t("From: {place}", place=self.t_you(self.endpoint_name(ui.origin))),
                   partial(self.open_search, "", "origin"), id="origin", style="secondary"),
            Button(self.t("To: {place}", place=dest.name if dest else
                          self.t("Choose destination")),
                   partial(self.open_search, "", "destination"), id="destination",
                   style="secondary"),
            Tabs(MODES, ui.mode, self.set_mode),
            self.route_canvas(dest, id="route_map", desc="Route map")]
        if dest is None:
            content.append(Text("Choose a destination", id="route_summary"))
        elif a is None:
            content.append(Text("Turn on location or choose a start", id="route_summary"))
        else:
            metres = route_metres(a, (dest.x, dest.y))
            content += [Text(f"{self.duration(travel_minutes(metres, ui.mode))} · "
                             f"{self.km(metres)}", style="title", id="route_summary"),
                        Button("Start", self.start_navigation, id="start")]
        return Screen(top_bar=TopBar("Directions", on_back=self.back), content=content)

    def navigating_screen(self, _: object) -> Screen:
        dest = self.place(self.ui.destination)
        return Screen(top_bar=TopBar("Navigation", on_back=self.back), content=[
            Text(self.t("{mode} to {place}", mode=self.t(self.ui.mode),
                        place=dest.name if dest else "?"), style="title",
                 id="nav_title"),
            self.route_canvas(dest, id="nav_map", desc="Route map"),
            Button("Exit navigation", self.back, id="exit_navigation", style="danger")])

    def saved_screen(self, _: object) -> Screen:
        lists = list(self.data.lists)

        def row(i: int) -> Node:
            x = lists[i]
            n = sum(s.list == x.name for s in self.data.saved)
            return ListItem(self.t_list(x.name), self.t("{n} places", n=n), id=f"list_{x.id}",
                            glyph="📌",
                            on_click=partial(self.go, "list", x.name))

        dialog = None
        if self.ui.dialog == "new_list":
            dialog = Dialog("New list", "", [DialogButton("Cancel", self.close_dialog),
                                             DialogButton("Create", self.create_list,
                                                          id="button_create")],
                            body=[TextField(self.ui.text, self.set_text, id="list_name",
                                            label="List name")])
        return Screen(top_bar=TopBar("Saved", on_back=self.back),
                      content=[Button("New list", partial(self.ask, "new_list"),
                                      id="new_list"),
                               VirtualList(len(lists), row, id="lists")],
                      dialog=dialog, on_dismiss=self.close_dialog)

    def list_screen(self, name: str) -> Screen:
        rows = [s for s in self.data.saved if s.list == name]

        def row(i: int) -> Node:
            s = rows[i]
            return ListItem(s.place, id=f"saved_{i}", glyph="📍",
                            menu=[(self.t("Remove"), partial(self.remove_saved, s.id))])

        return Screen(top_bar=TopBar(name, on_back=self.back),
                      content=[VirtualList(len(rows), row, id="saved_places",
                                           empty_text="No places saved")])

    def remove_saved(self, key: int) -> None:
        if self.data.saved.get(key) is not None:
            self.data.saved.remove(key)
            self.toast(self.t("Removed"))

    def sharing_screen(self, _: object) -> Screen:
        shares = list(self.data.shares)
        rows = [ListItem(s.number, self.t("until turned off") if not s.minutes else
                         self.duration(s.minutes), id=f"share_{s.id}", glyph="👤",
                         menu=[(self.t("Stop"), partial(self.stop_share, s.id))]) for s in shares]
        dialog = None
        if self.ui.dialog == "share":
            label = {15: "15 minutes", 60: "1 hour"}.get(self.ui.minutes,
                                                         "Until you turn this off")
            dialog = Dialog("Share your real-time location", "", [
                DialogButton("Cancel", self.close_dialog),
                DialogButton("Share", self.share_location, id="button_share")],
                body=[TextField(self.ui.text, self.set_text, id="share_number",
                                label="Phone number"),
                      Button(self.t("For: {duration}", duration=self.t(label)),
                             partial(self.ask, "duration", self.ui.text),
                             id="share_for", style="secondary")])
        elif self.ui.dialog == "duration":
            dialog = ChoiceDialog("Share for", ("15 minutes", "1 hour",
                                                "Until you turn this off"),
                                  "", self.set_minutes, partial(self.ask, "share"))
        return Screen(top_bar=TopBar("Location sharing", on_back=self.back),
                      content=[*rows, Button("New share", partial(self.ask, "share"),
                                             id="new_share")],
                      dialog=dialog, on_dismiss=self.close_dialog)
