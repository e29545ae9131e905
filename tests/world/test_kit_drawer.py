"""The kit's navigation drawer and speed-dial FAB (``kit.drawer``) on a tiny app driven on a
``Device``: their elements and descriptions, opening and closing them every way a person
can, back closing them before it leaves the screen, their pixels, and bad arguments."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from driving import act, press, tap
from test_kit import check_accessible, colors, element, ids, region, render, start

from phone_gym.actions import PhoneAction
from phone_gym.world import App, Device, Route, Screen
from phone_gym.world import theme as T
from phone_gym.world.kit import (
    Destination,
    DialAction,
    NavigationDrawer,
    SpeedDial,
    SpeedDialFab,
    with_drawer,
    with_speed_dial,
)
from phone_gym.world.layout import dialog_width
from phone_gym.world.manifest import AppManifest
from phone_gym.world.widgets import Node, Text, TopBar

FOLDERS = ("Inbox", "Starred", "Sent")


@dataclass
class MailUi:
    folder: str = "Inbox"
    drawer: bool = False
    dial: bool = False
    log: list[str] = field(default_factory=list)


class DrawerApp(App):
    manifest = AppManifest("Inboxes", "com.example.inboxes")
    ui: MailUi

    def initial_ui(self) -> MailUi:
        return MailUi()

    def pick(self, folder: str) -> None:
        self.ui.folder = folder

    def set_drawer(self, open: bool) -> None:
        self.ui.drawer = open

    def set_dial(self, open: bool) -> None:
        self.ui.dial = open

    def view(self, route: Route) -> Screen:
        screen = Screen(
            top_bar=TopBar(self.ui.folder, on_menu=lambda: self.set_drawer(True)),
            content=[Text(f"Showing {self.ui.folder}", id="shown")],
            fab=SpeedDialFab("add", "Create", lambda: self.set_dial(True)))
        drawer = NavigationDrawer(
            [Destination(f, {"Inbox": "inbox", "Starred": "star", "Sent": "send"}[f],
                         lambda f=f: self.pick(f), badge="3" if f == "Inbox" else "")
             for f in FOLDERS[:1]] + ["Folders"]
            + [Destination(f, "star" if f == "Starred" else "send", lambda f=f: self.pick(f))
               for f in FOLDERS[1:]],
            selected=self.ui.folder, title="Inboxes", subtitle="me@example.com",
            on_close=lambda: self.set_drawer(False))
        dial = SpeedDial([DialAction("Compose", "edit", lambda: self.ui.log.append("compose")),
                          DialAction("New folder", "create_new_folder",
                                     lambda: self.ui.log.append("folder"))],
                         on_close=lambda: self.set_dial(False))
        if self.ui.drawer:
            return with_drawer(screen, drawer, lambda: self.set_drawer(False))
        if self.ui.dial:
            return with_speed_dial(screen, dial, lambda: self.set_dial(False))
        return screen


def ui_of(device: Device) -> MailUi:
    app = device.apps["Inboxes"]
    assert isinstance(app, DrawerApp)
    return app.ui


def drawer_open(device: Device) -> bool:
    return "navigation_drawer" in ids(device)


def drag(device: Device, x: int, y: int, x2: int, y2: int) -> None:
    act(device, PhoneAction("drag", x=x, y=y, x2=x2, y2=y2))


# --- the drawer ------------------------------------------------------------------------------


def test_the_drawer_toggle_is_described_as_android_describes_it() -> None:
    device = start(DrawerApp)
    toggle = element(device, "drawer_toggle")
    assert toggle.content_desc == "Open navigation drawer" and toggle.clickable
    assert toggle.bounds[0] < T.SCREEN_W // 4  # at the app bar's left, like the up arrow
    assert not drawer_open(device)


def test_the_open_drawer_shows_its_header_captions_and_destinations() -> None:
    device = start(DrawerApp)
    tap(device, desc="Open navigation drawer")
    shown = check_accessible(device)
    items = [e for e in shown if e.kind == "drawer_item"]
    assert [e.text for e in items] == list(FOLDERS)
    assert [e.short_id for e in items] == ["nav_inbox", "nav_starred", "nav_sent"]
    assert [e.selected for e in items] == [True, False, False]
    assert all(e.clickable and e.class_name.endswith("CheckedTextView") for e in items)
    assert element(device, "drawer_header").text == "Inboxes"
    assert element(device, "folders_header").text == "Folders"
    box = element(device, "navigation_drawer").bounds
    assert box[0] == 0 and box[2] == dialog_width(Node("drawer")) < T.SCREEN_W


@pytest.mark.parametrize("how", ["destination", "back", "scrim", "drag_left"])
def test_the_drawer_closes_every_way(how: str) -> None:
    device = start(DrawerApp)
    tap(device, desc="Open navigation drawer")
    assert drawer_open(device)
    if how == "destination":
        tap(device, id="nav_starred")
        assert ui_of(device).folder == "Starred"
    elif how == "back":
        press(device, "back")
    elif how == "scrim":  # right of the drawer, over the dimmed screen
        act(device, PhoneAction("click", x=960, y=500))
    else:
        drag(device, 700, 500, 100, 510)
    assert not drawer_open(device) and device.current_app is not None
    if how != "destination":
        assert ui_of(device).folder == "Inbox"  # closing chose nothing


def test_a_drag_from_the_left_edge_pulls_the_drawer_out() -> None:
    device = start(DrawerApp)
    drag(device, 500, 500, 900, 510)  # from the middle: not the edge
    assert not drawer_open(device)
    drag(device, 10, 500, 700, 520)
    assert drawer_open(device)


def test_back_closes_the_drawer_before_it_leaves_the_screen() -> None:
    device = start(DrawerApp)
    tap(device, desc="Open navigation drawer")
    press(device, "back")
    assert device.current_app is not None and not drawer_open(device)
    press(device, "back")
    assert device.current_app is None  # the second back leaves the app


def test_the_drawer_is_drawn_over_a_scrim_with_its_selection_highlighted() -> None:
    device = start(DrawerApp)
    closed = render(device)
    tap(device, desc="Open navigation drawer")
    image = render(device)
    right = (T.DRAWER_W + 20, 600, T.SCREEN_W, 900)  # the screen beside the drawer: dimmed
    assert region(image, right).mean() < region(closed, right).mean() - 40
    pal = device.frame().palette
    selected, other = element(device, "nav_inbox"), element(device, "nav_sent")
    assert colors(region(image, selected.bounds)) > 8  # an icon, a label and a badge
    assert (region(image, selected.bounds) == pal.selected).all(axis=2).mean() > 0.3
    assert (region(image, other.bounds) == pal.selected).all(axis=2).mean() < 0.01


# --- the speed dial ----------------------------------------------------------------------------


def test_the_speed_dial_opens_into_labelled_mini_fabs() -> None:
    device = start(DrawerApp)
    assert element(device, "fab").content_desc == "Create"
    assert "dial_compose" not in ids(device)
    tap(device, id="fab")
    shown = check_accessible(device)
    actions = [e for e in shown if e.kind == "speed_dial_item"]
    assert [e.text for e in actions] == ["New folder", "Compose"]  # the first one lowest
    assert all(e.content_desc == e.text and e.clickable for e in actions)
    close = element(device, "fab_close")
    assert close.content_desc == "Close" and "fab" not in ids(device)
    assert actions[1].bounds[3] <= close.bounds[1]  # stacked above the FAB
    assert not device.frame().scrim_before  # Joplin's dial dims nothing


@pytest.mark.parametrize("how", ["action", "close", "back", "outside"])
def test_the_speed_dial_closes_every_way(how: str) -> None:
    device = start(DrawerApp)
    tap(device, id="fab")
    if how == "action":
        tap(device, id="dial_compose")
        assert ui_of(device).log == ["compose"]
    elif how == "close":
        tap(device, id="fab_close")
    elif how == "back":
        press(device, "back")
    else:
        act(device, PhoneAction("click", x=200, y=300))
    assert "fab_close" not in ids(device) and "fab" in ids(device)
    assert device.current_app is not None
    if how != "action":
        assert ui_of(device).log == []


def test_the_open_speed_dial_is_drawn_with_its_mini_fabs() -> None:
    device = start(DrawerApp)
    tap(device, id="fab")
    image = render(device)
    item = element(device, "dial_compose")
    accent = device.frame().palette.primary
    assert (region(image, item.bounds) == accent).all(axis=2).mean() > 0.05  # its mini-FAB
    assert colors(region(image, item.bounds)) > 8  # the FAB, its icon, its label box


# --- bad arguments ------------------------------------------------------------------------------


def noop() -> None:
    return None


@pytest.mark.parametrize(("make", "message"), [
    (lambda: NavigationDrawer([], title="x", on_close=noop), "at least one Destination"),
    (lambda: NavigationDrawer([Destination("A", "inbox", noop)], selected="B", title="x",
                              on_close=noop), "accepted: '' or one of 'A'"),
    (lambda: NavigationDrawer([Destination("A", "inbx", noop)], title="x", on_close=noop),
     "not a Material icon name"),
    (lambda: NavigationDrawer([Destination("A", "inbox", noop)], title="x", header="big",
                              on_close=noop), "accepted: plain, colored"),
    (lambda: NavigationDrawer([Destination("A", "inbox", noop, id="a"),
                               Destination("B", "inbox", noop, id="a")], title="x",
                              on_close=noop), "accepted: unique ids"),
    (lambda: SpeedDial([], on_close=noop), "at least one DialAction"),
    (lambda: SpeedDial([DialAction(str(i), "add", noop) for i in range(7)], on_close=noop),
     "accepted: 1 to 6"),
    (lambda: SpeedDialFab("plus_one_thing", "Add", noop), "not a Material icon name"),
    (lambda: with_drawer(Screen(content=[]), Text("x"), noop), "accepted: a NavigationDrawer"),
    (lambda: with_speed_dial(Screen(content=[]), Text("x"), noop), "accepted: a SpeedDial"),
    (lambda: TopBar("x", on_back=noop, on_menu=noop), "at most one navigation button"),
    (lambda: dialog_width(Text("x")), "accepted: drawer, speed_dial"),
])
def test_bad_arguments_raise_errors_naming_what_is_accepted(make: object, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        make()  # type: ignore[operator]


def test_a_screen_showing_a_dialog_keeps_it_over_a_drawer() -> None:
    dialog = Node("dialog", text="Delete?")
    screen = Screen(content=[], dialog=dialog)
    drawer = NavigationDrawer([Destination("A", "inbox", noop)], title="x", on_close=noop)
    assert with_drawer(screen, drawer, noop).dialog is dialog
    assert with_drawer(Screen(content=[]), None, noop).dialog is None


def test_a_dense_drawer_has_material_2s_48_dp_rows() -> None:
    items: list[Destination | str] = [Destination(f"Folder {i}", "folder", lambda: None)
                                      for i in range(14)]
    rows = [NavigationDrawer(items, title="Files", on_close=lambda: None, dense=dense).children
            for dense in (False, True)]
    assert {n.height for n in rows[0][1:]} == {148}
    assert {n.height for n in rows[1][1:]} == {126}
    # 14 rows fit under the header only when dense (2178 px from the status to the nav bar)
    assert 180 + 14 * 148 > 2178 >= 180 + 14 * 126
