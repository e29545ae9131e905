"""The screen kit (``phone_gym.world.kit``), part 1: the helpers every kit test uses, the
new widget kinds, and the list blocks (searchable list, tabs, chips, settings list) and the
detail page, each built on a tiny app and driven on a ``Device``.

Every block is checked the same way: what ``ui_elements`` shows (text, descriptions, ids,
classes, flags), that every clickable element is described and on screen, that it works
through ``PhoneAction``s, and that it renders (non-blank, differing where state differs,
cached tiles identical to fresh ones). Forms, dialogs and pickers are in
``test_kit_forms.py``; cards, grids, chat and web pages in ``test_kit_media.py``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

import numpy as np
import pytest
from driving import act, fill, long_press, open_app, press, tap

from phone_gym.actions import PhoneAction
from phone_gym.world import App, Device, Route, Screen
from phone_gym.world import theme as T
from phone_gym.world.a11y import UIElement, to_xml, ui_elements
from phone_gym.world.kit import (
    ActionIcon,
    BottomSheet,
    Chips,
    ChoiceDialog,
    ConfirmDialog,
    Detail,
    DetailPage,
    NavRow,
    SearchList,
    Section,
    SettingsList,
    SwitchRow,
    Tabs,
    ValueRow,
    section_headers,
    slug,
)
from phone_gym.world.layout import Frame, chip_width, flow, measure, place_column
from phone_gym.world.manifest import AppManifest
from phone_gym.world.render import Renderer, TileCache, rect_to_px
from phone_gym.world.widgets import ANDROID_CLASS, ListItem, Node, Text, TopBar
from phone_gym.world.widgets_draw import DRAW

# --- helpers shared by the kit tests ----------------------------------------------------------


def start(app: type[App]) -> Device:
    """A device showing ``app``."""
    device = Device([app])
    open_app(device, app.manifest.name)
    return device


def elements(device: Device) -> list[UIElement]:
    return ui_elements(device.frame())


def element(device: Device, rid: str) -> UIElement:
    """The (topmost) element with resource id ``rid``."""
    found = [e for e in elements(device) if e.short_id == rid]
    assert found, f"no element {rid!r} among {sorted(ids(device))}"
    return found[-1]


def ids(device: Device) -> set[str]:
    return {e.short_id for e in elements(device) if e.resource_id}


def texts(device: Device) -> list[str]:
    return [e.text for e in elements(device) if e.text]


def check_accessible(device: Device) -> list[UIElement]:
    """Every element lies on the screen, every clickable one says what it is (text or a
    content description), and the uiautomator dump parses with the same classes."""
    shown = elements(device)
    for e in shown:
        x0, y0, x1, y1 = e.bounds
        assert 0 <= x0 < x1 <= T.SCREEN_W and 0 <= y0 < y1 <= T.SCREEN_H, e
        if e.clickable or e.long_clickable:
            assert e.text or e.content_desc, f"clickable element without a label: {e}"
    dump = ET.fromstring(to_xml(device.frame()).encode())
    classes = {n.get("class") for n in dump.iter("node")}
    assert {e.class_name for e in shown} <= classes
    return shown


def render(device: Device) -> np.ndarray:
    """The frame at 540 x 1200: not blank, and the same from cached tiles (twice over) as
    drawn afresh."""
    frame = device.frame()
    renderer = Renderer(540, 1200, cache=TileCache())
    image = renderer.render(frame)
    assert colors(image) > 8  # not blank
    assert np.array_equal(renderer.render(frame), image)  # from the cache
    fresh = Renderer(540, 1200, cache_tiles=False).render(frame)
    assert np.array_equal(fresh, image)
    return image


def region(image: np.ndarray, rect: tuple[int, int, int, int]) -> np.ndarray:
    """The pixels of a logical rect in a 540 x 1200 image."""
    x0, y0, x1, y1 = rect_to_px(rect, image.shape[1], image.shape[0])
    return image[y0:y1, x0:x1]


def colors(pixels: np.ndarray) -> int:
    """How many distinct colors ``pixels`` hold."""
    rgb = pixels.reshape(-1, 3).astype(np.uint32)
    return len(np.unique(rgb[:, 0] << 16 | rgb[:, 1] << 8 | rgb[:, 2]))


def scroll(device: Device, direction: str = "down") -> None:
    act(device, PhoneAction("scroll", x=500, y=600, direction=direction))


# --- the new widget kinds ---------------------------------------------------------------------

KIT_KINDS = ("radio", "chip", "chip_group", "card", "thumb", "bubble", "sheet")


@pytest.mark.parametrize("kind", KIT_KINDS)
def test_every_kit_kind_has_a_class_a_height_and_a_drawing(kind: str) -> None:
    assert ANDROID_CLASS[kind].startswith("android.")
    node = Node(kind, text="Label", desc="What", glyph="★", hint="09:41",
                children=[Node("chip", text="A")] if kind == "chip_group" else [])
    assert measure(node, 900) > 0
    assert kind in DRAW or kind == "chip_group"  # a chip group draws nothing itself


def test_chips_wrap_onto_lines_that_the_group_measures() -> None:
    group = Chips([f"Label {i}" for i in range(12)], {"Label 3"}, lambda label: None)
    spots = flow(group, 48, 1032)
    lines = {line for _, _, line in spots}
    assert len(lines) > 1
    assert all(48 <= x0 < x1 <= 1032 for x0, x1, _ in spots)
    assert measure(group, 984) == len(lines) * T.HEIGHTS["chip"]
    checked = group.children[3]
    assert chip_width(checked) == chip_width(group.children[2]) + T.CHIP_CHECK
    wide = Chips(["x" * 200], (), lambda label: None)  # never wider than the group
    assert flow(wide, 0, 500) == [(0, 500, 0)]


def test_text_styles_for_links_and_errors_have_their_own_sizes() -> None:
    link = Text("Read more", style="link")
    error = Text("Name is required", style="error")
    assert measure(link, 900) == T.HEIGHTS["text:link"]
    assert measure(error, 900) == T.HEIGHTS["text:error"]
    frame = Frame(package="com.example.kit")
    place_column(frame, [link, error, Text("Plain")], 48, 1032, 300, (0, 0, 1080, 2400))
    image = Renderer(1080, 2400, cache=TileCache()).render(frame)
    link_px, error_px = (region(image, p.rect) for p in frame.items[:2])
    assert (link_px == T.PRIMARY).all(axis=-1).any()  # blue (and underlined)
    assert (error_px == T.DANGER).all(axis=-1).any()  # red


def test_slug_makes_resource_id_parts() -> None:
    assert slug("Keep editing") == "keep_editing"
    assert slug("  Wi-Fi & more!") == "wi_fi_more"
    assert slug("!!!") == "item"


# --- searchable sectioned list ----------------------------------------------------------------

FIRST = ("Ann", "Bob", "Cara", "Dan", "Eve")
PEOPLE = sorted(f"{first} {i:02d}" for first in FIRST for i in range(60))


@dataclass
class PeopleUi:
    query: str = ""
    opened: str = ""


class PeopleApp(App):
    manifest = AppManifest("People", "com.example.people")
    ui: PeopleUi

    def initial_ui(self) -> PeopleUi:
        return PeopleUi()

    def set_query(self, query: str) -> None:
        self.ui.query = query

    def open(self, name: str) -> None:
        self.ui.opened = name

    def view(self, route: Route) -> Screen:
        q = self.ui.query.strip().lower()
        shown = [p for p in PEOPLE if q in p.lower()]
        return Screen(top_bar=TopBar("People"), content=SearchList(
            self.ui.query, self.set_query, len(shown),
            lambda i: ListItem(shown[i], "Friend", id=f"person_{slug(shown[i])}",
                               on_click=lambda: self.open(shown[i])),
            id="people", hint="Search people", headers=section_headers([p[0] for p in shown])))


def people_ui(device: Device) -> PeopleUi:
    app = device.apps["People"]
    assert isinstance(app, PeopleApp)
    return app.ui


def test_search_list_shows_a_field_sections_and_only_the_rows_on_screen() -> None:
    device = start(PeopleApp)
    shown = check_accessible(device)
    search = element(device, "search")
    assert search.editable and search.class_name == "android.widget.EditText"
    assert (search.content_desc, search.hint) == ("Search", "Search people")
    people = element(device, "people")
    assert people.scrollable and people.class_name.endswith("RecyclerView")
    assert element(device, "a_header").text == "A"
    rows = [e for e in shown if e.short_id.startswith("person_")]
    assert rows[0].text == "Ann 00" and rows[0].clickable and rows[0].hint == "Friend"
    assert 5 < len(rows) < 30  # 300 people, only those on screen (and a margin) exist
    assert "search_clear" not in ids(device)  # nothing to clear yet
    render(device)


def test_search_list_filters_clears_and_says_when_nothing_matches() -> None:
    device = start(PeopleApp)
    before = render(device)
    fill(device, "search", "eve 1")
    assert people_ui(device).query == "eve 1"
    assert not np.array_equal(render(device), before)  # with the keyboard
    press(device, "back")  # hide the keyboard
    rows = [e.text for e in elements(device) if e.short_id.startswith("person_")]
    assert rows == [f"Eve {i}" for i in range(10, 10 + len(rows))] and len(rows) >= 8
    assert element(device, "e_header").text == "E" and "a_header" not in ids(device)
    tap(device, id="search_clear")
    assert people_ui(device).query == ""
    fill(device, "search", "zed")
    empty = element(device, "empty")
    assert empty.text == 'No results for "zed"'
    check_accessible(device)
    render(device)


def test_search_list_rows_scroll_and_open() -> None:
    device = start(PeopleApp)
    first = [e.text for e in elements(device) if e.short_id.startswith("person_")]
    scroll(device)
    scroll(device)
    later = [e.text for e in elements(device) if e.short_id.startswith("person_")]
    assert later[0] > first[0] and "Ann 00" not in later
    check_accessible(device)
    tap(device, id=f"person_{slug(later[3])}")
    assert people_ui(device).opened == later[3]


def test_section_headers_mark_where_titles_change() -> None:
    assert section_headers(["A", "A", "B", "D", "D"]) == [(0, "A"), (2, "B"), (3, "D")]
    assert section_headers([]) == []
    assert section_headers(["", "", "X"]) == [(2, "X")]


# --- tabs and chips ---------------------------------------------------------------------------

TAGS = ("Work", "Family", "Friends", "Travel", "Books", "Music", "Sports", "Cooking")


@dataclass
class FilterUi:
    tab: str = "All"
    tags: set[str] = field(default_factory=set)


class FilterApp(App):
    manifest = AppManifest("Filter", "com.example.filter")
    ui: FilterUi

    def initial_ui(self) -> FilterUi:
        return FilterUi()

    def toggle(self, tag: str) -> None:
        self.ui.tags ^= {tag}

    def view(self, route: Route) -> Screen:
        return Screen(top_bar=TopBar("Filter"), content=[
            Tabs(["All", "Starred", "Shared"], self.ui.tab,
                 lambda tab: setattr(self.ui, "tab", tab)),
            Chips(TAGS, self.ui.tags, self.toggle, id="tags"),
            Text(f"{self.ui.tab}: {', '.join(sorted(self.ui.tags)) or 'no tags'}", id="summary"),
        ])


def filter_ui(device: Device) -> FilterUi:
    app = device.apps["Filter"]
    assert isinstance(app, FilterApp)
    return app.ui


def test_tabs_show_the_selected_one_and_switch() -> None:
    device = start(FilterApp)
    check_accessible(device)
    tabs = [element(device, f"tab_{t}") for t in ("all", "starred", "shared")]
    assert [t.text for t in tabs] == ["All", "Starred", "Shared"]
    assert [t.selected for t in tabs] == [True, False, False]
    assert all(t.clickable for t in tabs)
    assert tabs[0].bounds[2] <= tabs[1].bounds[0] and tabs[0].bounds[1] == tabs[1].bounds[1]
    before = render(device)
    tap(device, id="tab_starred")
    assert filter_ui(device).tab == "Starred"
    assert element(device, "tab_starred").selected and not element(device, "tab_all").selected
    after = render(device)
    tab_rect = element(device, "tab_all").bounds
    assert not np.array_equal(region(before, tab_rect), region(after, tab_rect))


def test_chips_are_checkable_pills_that_wrap_and_toggle() -> None:
    device = start(FilterApp)
    shown = check_accessible(device)
    chips = [e for e in shown if e.short_id.startswith("chip_")]
    assert [c.text for c in chips] == list(TAGS)
    assert all(c.class_name == "android.widget.CompoundButton" for c in chips)
    assert all(c.clickable and c.checkable and not c.checked for c in chips)
    assert len({c.bounds[1] for c in chips}) > 1  # more than one line
    group = element(device, "tags")
    assert all(group.bounds[0] <= c.bounds[0] and c.bounds[2] <= group.bounds[2] for c in chips)
    before = render(device)
    rect = element(device, "chip_work").bounds
    tap(device, id="chip_work")
    tap(device, id="chip_music")
    assert filter_ui(device).tags == {"Work", "Music"}
    assert element(device, "chip_work").checked and element(device, "chip_music").checked
    assert element(device, "summary").text == "All: Music, Work"
    after = render(device)
    assert not np.array_equal(region(before, rect), region(after, rect))  # filled when checked
    tap(device, id="chip_work")
    assert not element(device, "chip_work").checked


# --- settings list ----------------------------------------------------------------------------

THEMES = ("Light", "Dark", "System default")


@dataclass
class PrefsUi:
    wifi: bool = True
    sync: bool = False
    theme: str = "Light"
    picking: bool = False


class PrefsApp(App):
    manifest = AppManifest("Prefs", "com.example.prefs")
    ui: PrefsUi

    def initial_ui(self) -> PrefsUi:
        return PrefsUi()

    def flip(self, name: str) -> None:
        setattr(self.ui, name, not getattr(self.ui, name))

    def pick(self, theme: str) -> None:
        self.ui.theme, self.ui.picking = theme, False

    def view(self, route: Route) -> Screen:
        if route.name == "about":
            return Screen(top_bar=TopBar("About", on_back=self.back),
                          content=[Text("Version 1.0", id="version")])
        ui = self.ui
        dialog = None
        if ui.picking:
            dialog = ChoiceDialog("Theme", THEMES, ui.theme, self.pick,
                                  lambda: setattr(ui, "picking", False))
        return Screen(
            top_bar=TopBar("Preferences"),
            content=SettingsList([
                Section("Network", [
                    SwitchRow("Wi-Fi", ui.wifi, lambda: self.flip("wifi"), id="wifi",
                              summary="Connected" if ui.wifi else "Off"),
                    SwitchRow("Auto sync", ui.sync, lambda: self.flip("sync"), id="sync"),
                ]),
                Section("Display", [
                    ValueRow("Theme", ui.theme, lambda: setattr(ui, "picking", True),
                             id="theme"),
                    NavRow("About", lambda: self.go("about"), id="about", glyph="ℹ",
                           summary="Version, licenses"),
                ]),
            ], id="prefs"),
            dialog=dialog, on_dismiss=lambda: setattr(ui, "picking", False),
        )


def prefs_ui(device: Device) -> PrefsUi:
    app = device.apps["Prefs"]
    assert isinstance(app, PrefsApp)
    return app.ui


def test_settings_list_sections_and_rows() -> None:
    device = start(PrefsApp)
    check_accessible(device)
    assert element(device, "network_header").text == "Network"
    assert element(device, "display_header").text == "Display"
    assert {"prefs_network", "prefs_display"} <= ids(device)
    wifi, switch = element(device, "wifi"), element(device, "wifi_switch")
    assert (wifi.text, wifi.hint, wifi.clickable) == ("Wi-Fi", "Connected", True)
    assert switch.class_name == "android.widget.Switch" and switch.content_desc == "Wi-Fi"
    assert switch.checkable and switch.checked
    assert not element(device, "sync_switch").checked
    theme = element(device, "theme")
    assert (theme.text, theme.hint) == ("Theme", "Light")
    assert element(device, "about").hint == "Version, licenses"


def test_switch_rows_toggle_from_the_row_or_the_switch() -> None:
    device = start(PrefsApp)
    before = render(device)
    tap(device, id="wifi_switch")
    assert not prefs_ui(device).wifi and not element(device, "wifi_switch").checked
    assert element(device, "wifi").hint == "Off"
    rect = element(device, "wifi_switch").bounds
    assert not np.array_equal(region(before, rect), region(render(device), rect))
    tap(device, "Auto sync", kind="list_item")
    assert prefs_ui(device).sync and element(device, "sync_switch").checked


def test_value_rows_open_a_choice_dialog_of_radio_buttons() -> None:
    device = start(PrefsApp)
    plain = render(device)
    tap(device, id="theme")
    shown = check_accessible(device)
    radios = [e for e in shown if e.class_name == "android.widget.RadioButton"]
    assert [r.text for r in radios] == list(THEMES)
    assert [r.checked for r in radios] == [True, False, False]
    assert all(r.checkable and r.clickable for r in radios)
    assert element(device, "alertTitle").text == "Theme"
    assert element(device, "option_system_default").text == "System default"
    assert not np.array_equal(render(device), plain)  # the dialog and its scrim
    tap(device, id="option_dark")
    assert prefs_ui(device).theme == "Dark" and not prefs_ui(device).picking
    assert element(device, "theme").hint == "Dark"
    tap(device, id="theme")
    press(device, "back")  # back dismisses the dialog, not the screen
    assert not prefs_ui(device).picking and device.current_app is not None
    tap(device, id="theme")
    act(device, PhoneAction("click", x=500, y=60))  # outside the dialog
    assert not prefs_ui(device).picking and prefs_ui(device).theme == "Dark"


def test_navigation_rows_open_their_page() -> None:
    device = start(PrefsApp)
    tap(device, id="about")
    assert element(device, "version").text == "Version 1.0"
    press(device, "back")
    assert "wifi" in ids(device)


# --- detail page (with a confirm dialog and a share sheet) ------------------------------------


@dataclass
class ContactUi:
    deleting: bool = False
    sharing: bool = False
    starred: bool = False
    log: list[str] = field(default_factory=list)


class CardApp(App):
    manifest = AppManifest("Contact", "com.example.contact")
    ui: ContactUi

    def initial_ui(self) -> ContactUi:
        return ContactUi()

    def did(self, what: str) -> None:
        self.ui.log.append(what)
        self.ui.deleting = self.ui.sharing = False

    def view(self, route: Route) -> Screen:
        ui = self.ui
        dialog = None
        if ui.deleting:
            dialog = ConfirmDialog("Delete contact?", "Ann Lee will be deleted.",
                                   confirm="Delete", destructive=True,
                                   on_confirm=lambda: self.did("deleted"),
                                   on_cancel=lambda: setattr(ui, "deleting", False))
        elif ui.sharing:
            dialog = BottomSheet("Share contact", [("Messages", lambda: self.did("messages"),
                                                    "💬"),
                                                   ("Email", lambda: self.did("email"), "✉")])
        return DetailPage(
            "Contact",
            [("Phone", "555-0100"), Detail("Email", "ann@example.com", id="email"),
             Detail("Website", "example.com", on_click=lambda: self.did("web")),
             ("Notes", "")],
            heading="Ann Lee", subtitle="Friend", glyph="A", on_back=self.back,
            actions=[ActionIcon("edit", lambda: self.did("edit")),
                     ActionIcon("unfavorite" if ui.starred else "favorite",
                                lambda: setattr(ui, "starred", not ui.starred), id="favorite",
                                selected=ui.starred),
                     ActionIcon("share", lambda: setattr(ui, "sharing", True)),
                     ActionIcon("delete", lambda: setattr(ui, "deleting", True))],
            dialog=dialog, on_dismiss=lambda: self.did("dismissed"),
        )


def contact_ui(device: Device) -> ContactUi:
    app = device.apps["Contact"]
    assert isinstance(app, CardApp)
    return app.ui


def test_detail_page_shows_labelled_values_and_actions() -> None:
    device = start(CardApp)
    check_accessible(device)
    assert element(device, "toolbar").text == "Contact"
    heading = element(device, "heading")
    assert (heading.text, heading.hint) == ("Ann Lee", "Friend")
    assert element(device, "phone_label").text == "Phone"
    phone = element(device, "phone")
    assert phone.text == "555-0100" and phone.long_clickable and not phone.clickable
    assert element(device, "email").text == "ann@example.com"
    website = element(device, "website")
    assert website.clickable and website.hint == ""
    assert "notes" not in ids(device) and "Notes" not in texts(device)  # empty: left out
    actions = {e.short_id: e for e in elements(device) if e.class_name.endswith("ImageButton")}
    assert actions["edit"].content_desc == "Edit" and actions["delete"].content_desc == "Delete"
    assert actions["share"].content_desc == "Share"
    assert actions["favorite"].content_desc == "Add to favorites"
    assert actions["navigate_up"].content_desc == "Navigate up"
    before = render(device)
    tap(device, id="favorite")
    fav = element(device, "favorite")
    assert fav.selected and fav.content_desc == "Remove from favorites"
    assert not np.array_equal(region(before, fav.bounds), region(render(device), fav.bounds))
    tap(device, id="website")
    tap(device, id="edit")
    assert contact_ui(device).log == ["web", "edit"]


def test_detail_values_are_copied_by_long_press() -> None:
    device = start(CardApp)
    long_press(device, id="email")
    tap(device, "Copy", kind="menu_item")
    assert device.system.clipboard == "ann@example.com"


def test_confirm_dialog_confirms_cancels_and_dismisses() -> None:
    device = start(CardApp)
    tap(device, id="delete")
    check_accessible(device)
    assert element(device, "alertTitle").text == "Delete contact?"
    assert element(device, "message").text == "Ann Lee will be deleted."
    cancel, delete = element(device, "button_cancel"), element(device, "button_delete")
    assert cancel.class_name == delete.class_name == "android.widget.Button"
    assert cancel.bounds[2] <= delete.bounds[0]  # confirm on the right
    image = render(device)
    assert (region(image, delete.bounds) == T.DANGER).all(axis=-1).any()  # red: destructive
    assert not (region(image, cancel.bounds) == T.DANGER).all(axis=-1).any()
    tap(device, id="button_cancel")
    assert not contact_ui(device).deleting and contact_ui(device).log == []
    tap(device, id="delete")
    press(device, "back")
    assert contact_ui(device).log == ["dismissed"] and device.current_app is not None
    tap(device, id="delete")
    tap(device, id="button_delete")
    assert contact_ui(device).log == ["dismissed", "deleted"]
    assert "alertTitle" not in ids(device)


def test_confirm_dialog_styles() -> None:
    calm = ConfirmDialog("Archive?", "", on_confirm=lambda: None, on_cancel=lambda: None)
    danger = ConfirmDialog("Delete?", "", confirm="Delete", destructive=True,
                           on_confirm=lambda: None, on_cancel=lambda: None)
    buttons = [d.children[-1].children for d in (calm, danger)]
    assert [b.id for b in buttons[0]] == ["button_cancel", "button_ok"]
    assert [b.style for b in buttons[0]] == ["text", "text"]
    assert [b.style for b in buttons[1]] == ["text", "text_danger"]


def test_bottom_sheet_sits_at_the_bottom_and_dismisses() -> None:
    device = start(CardApp)
    plain = render(device)
    tap(device, id="share")
    shown = check_accessible(device)
    sheet = element(device, "sheet")
    assert sheet.class_name == "android.widget.FrameLayout"
    x0, y0, x1, y1 = sheet.bounds
    assert (x0, x1, y1) == (0, T.SCREEN_W, T.SCREEN_H - T.NAV_H) and y0 > T.SCREEN_H // 2
    assert element(device, "sheet_title").text == "Share contact"
    options = [e for e in shown if e.short_id.startswith("option_")]
    assert [o.text for o in options] == ["Messages", "Email"]
    assert all(o.clickable and y0 <= o.bounds[1] < o.bounds[3] <= y1 for o in options)
    image = render(device)
    assert not np.array_equal(image, plain)
    above = region(image, (0, 700, T.SCREEN_W, 900))
    assert (above.astype(int).sum(axis=-1) < region(plain, (0, 700, 1080, 900)).astype(int)
            .sum(axis=-1)).all()  # the scrim darkens what is behind the sheet
    assert colors(region(image, sheet.bounds)) > 8
    press(device, "back")
    assert contact_ui(device).log == ["dismissed"] and "sheet" not in ids(device)
    tap(device, id="share")
    act(device, PhoneAction("click", x=500, y=300))  # above the sheet: outside
    assert contact_ui(device).log == ["dismissed", "dismissed"]
    tap(device, id="share")
    tap(device, id="option_email")
    assert contact_ui(device).log[-1] == "email" and "sheet" not in ids(device)
