"""kit.searchbar: app bars without a title (a search bar, a search entry, a logo, a place)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from driving import fill, open_app, shown, tap

from phone_gym.world import App, Device, Route, Screen
from phone_gym.world import theme as T
from phone_gym.world.a11y import ui_elements
from phone_gym.world.kit import Logo, Place, SearchAppBar, SearchEntry, SearchField
from phone_gym.world.manifest import AppManifest
from phone_gym.world.render import Renderer
from phone_gym.world.widgets import Icon, Text, TextField


@dataclass
class FindUi:
    query: str = ""
    searching: bool = False


class FindApp(App):
    manifest = AppManifest("Find", "com.example.find")
    ui: FindUi

    def initial_ui(self) -> FindUi:
        return FindUi()

    def set_query(self, query: str) -> None:
        self.ui.query = query

    def open_search(self) -> None:
        self.ui.searching = True

    def view(self, route: Route) -> Screen:
        fill = (SearchEntry("Search for anything", self.open_search) if self.ui.searching
                else SearchField(self.ui.query, self.set_query, hint="Search people"))
        names = [n for n in ("Ada", "Alan", "Grace") if self.ui.query.lower() in n.lower()]
        return Screen(top_bar=SearchAppBar(fill, actions=[Icon("more_vert", "More")]),
                      content=[Text(", ".join(names) or "nobody", id="names")])


def start() -> Device:
    device = Device([FindApp])
    open_app(device, "Find")
    return device


def element(device: Device, rid: str):  # type: ignore[no-untyped-def]
    return next(e for e in ui_elements(device.frame()) if e.short_id == rid)


def test_the_search_field_is_the_app_bar_and_filters_as_typed() -> None:
    device = start()
    bar = device.screen().top_bar
    assert bar is not None and bar.text == ""  # no title
    search = element(device, "search")
    assert search.hint == "Search people" and search.text == ""
    _, y0, x1, y1 = search.bounds
    assert T.STATUS_H <= y0 and y1 <= T.STATUS_H + T.TOP_BAR_H  # inside the app bar
    assert x1 <= T.SCREEN_W - T.ICON_SIZE  # left of the action icon
    fill(device, "search", "gr")
    assert element(device, "names").text == "Grace"
    assert element(device, "search").text == "gr"


def test_a_search_entry_opens_the_search() -> None:
    device = start()
    device.apps["Find"].ui.searching = True  # type: ignore[attr-defined]
    device.invalidate()
    assert shown(device, "Search for anything")
    tap(device, id="search_entry")
    assert device.apps["Find"].ui.searching is True  # type: ignore[attr-defined]


def test_the_bars_are_drawn_with_the_palette_and_differ() -> None:
    device = start()
    renderer = Renderer()
    before = renderer.render(device.frame())
    bar = before[T.STATUS_H + 30:T.STATUS_H + T.TOP_BAR_H - 30]
    assert len(np.unique(bar.reshape(-1, bar.shape[-1]), axis=0)) > 4  # a pill, glyph, hint
    fill(device, "search", "ada")
    after = renderer.render(device.frame())
    assert not np.array_equal(before, after)


def test_bad_fills_are_refused() -> None:
    with pytest.raises(ValueError, match="accepted: SearchField, SearchEntry, Logo or Place"):
        SearchAppBar(TextField("", lambda v: None, id="plain"))
    with pytest.raises(ValueError, match="Logo: text is required"):
        Logo("")
    assert SearchAppBar(Logo("X")).children[-1].desc == "X"
    assert SearchAppBar(Place("Paris")).children[-1].text == "Paris"
