"""The device's own screens, each a small object the device composes: the launcher (home
pages and a searchable app drawer), the notification shade, recents, and the long-press
menu. Each keeps its transient state and builds its part of a ``Frame``; handlers call back
into the device through its public methods.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from operator import attrgetter
from typing import TYPE_CHECKING

from . import theme as T
from .a11y import share
from .app import Route
from .layout import Frame, place_column
from .locale import Catalogue, format_date, system_strings
from .widgets import (
    Button,
    Handler,
    Icon,
    ListItem,
    ListView,
    MenuItem,
    Node,
    Row,
    Screen,
    Text,
    TextField,
    Toggle,
)

if TYPE_CHECKING:
    from .data import Listing
    from .device import Device
    from .manifest import AppManifest
    from .system import Notification, SystemState

LAUNCHER_PACKAGE = "com.google.android.apps.nexuslauncher"
SYSTEMUI_PACKAGE = "com.android.systemui"
#: The drawer's scroll key (the device keeps scroll offsets by ``(owner, route)``).
DRAWER = ("", Route("drawer"))
COLS = 4
CELL_H = 300
#: Home page geometry: the first page has the clock above its grid.
FIRST_TOP = T.STATUS_H + 120 + 520
PAGE_TOP = T.STATUS_H + 60
DOCK_H = 250  # page indicator and the drawer button, above the navigation bar
GRID_BOTTOM = T.SCREEN_H - T.NAV_H - DOCK_H
FIRST_ROWS = (GRID_BOTTOM - FIRST_TOP) // CELL_H
PAGE_ROWS = (GRID_BOTTOM - PAGE_TOP) // CELL_H
MENU_W = 620
MENU_ITEM_H = 150
#: Notifications the shade builds rows for: more than fill the screen at the shortest row.
SHADE_ROWS = T.SCREEN_H // T.HEIGHTS["list_item:single"] + 1
QUICK_TOGGLES = (("Wi-Fi", "global", "wifi_on", "qs_wifi"),
                 ("Bluetooth", "global", "bluetooth_on", "qs_bt"),
                 ("Airplane mode", "global", "airplane_mode_on", "qs_airplane"))


def icon_node(m: AppManifest, on_click: Handler, node_id: str = "",
              locale: str = "en-US") -> Node:
    """A launcher cell: the app's Material icon on its adaptive-icon shape, its label (in
    the phone's ``locale``) below."""
    label = m.label_in(locale)
    return Node("app_icon", text=label, glyph=m.icon, color=m.color, style=m.icon_shape,
                desc=label, id=node_id, on_click=on_click)


def launcher_icon(device: Device, m: AppManifest, where: str) -> Node:
    """``m``'s cell on the home screen (``where`` "home") or in the drawer ("drawer"), with
    the id ``<where>_<name>``: made once per device and locale (``a11y.share``)."""
    icons = device.__dict__.setdefault("_icons", {})
    locale = device.system.locale
    key = (where, m.name, locale)
    cached = icons.get(key)
    if cached is None or cached[0] is not m:
        node = share(icon_node(m, partial(device.open_app, m.name), f"{where}_{m.name.lower()}",
                               locale))
        cached = icons[key] = (m, node)
    return cached[1]


def strings(device: Device) -> Catalogue:
    """The system UI's strings in the phone's locale."""
    return system_strings(device.system.locale)


@dataclass
class Launcher:
    """Home pages of app icons (the first under the clock) and the app drawer: all apps by
    label, with a search field. Swipe up (``scroll`` down) or "All apps" opens the drawer;
    ``scroll`` left/right or the arrows turn home pages."""

    page: int = 0
    drawer: bool = False
    query: str = ""

    def reset(self) -> None:
        self.page, self.drawer, self.query = 0, False, ""

    @staticmethod
    def pages(n_apps: int) -> int:
        first = FIRST_ROWS * COLS
        rest = max(0, n_apps - first)
        return 1 + (rest + PAGE_ROWS * COLS - 1) // (PAGE_ROWS * COLS)

    @staticmethod
    def page_of(index: int) -> int:
        """The home page (0-based) where the ``index``-th app's icon sits."""
        first = FIRST_ROWS * COLS
        return 0 if index < first else 1 + (index - first) // (PAGE_ROWS * COLS)

    def turn(self, delta: int, n_apps: int) -> bool:
        page = max(0, min(self.pages(n_apps) - 1, self.page + delta))
        moved, self.page = page != self.page, page
        return moved

    def open_drawer(self) -> None:
        self.drawer, self.query = True, ""

    def close_drawer(self) -> None:
        self.drawer, self.query = False, ""

    def set_query(self, query: str) -> None:
        self.query = query

    # --- views -----------------------------------------------------------------------------
    def drawer_screen(self, device: Device) -> Screen:
        """The drawer as a screen: the device lays it out, scrolls it and types into it."""
        q = self.query.strip().casefold()
        locale, t = device.system.locale, strings(device).t
        manifests = device.manifests
        memo = device.__dict__.setdefault("_drawer_shown", {})  # the apps shown, per query
        known = memo.get((q, locale))
        if known is None or known[0] != manifests:
            if len(memo) > 64:
                memo.clear()
            known = memo[(q, locale)] = (manifests, sorted(
                (m for m in manifests if not m.mini_program  # inside hosts
                 and (not q or q in m.label_in(locale).casefold()
                      or q in m.label.casefold() or q in m.name.casefold())),
                key=lambda m: m.label_in(locale).casefold()))
        shown = known[1]
        rows = [Row([launcher_icon(device, m, "drawer") for m in shown[i:i + COLS]]
                    + [Node("spacer", height=CELL_H) for _ in range(COLS - len(shown[i:i + COLS]))],
                    id="drawer_row")
                for i in range(0, len(shown), COLS)]
        empty = [Text(t("No apps found"), style="caption", id="empty")] if not shown else []

        def back() -> bool:
            self.close_drawer()
            return True

        return Screen(
            content=[TextField(self.query, self.set_query, hint=t("Search apps"),
                               id="search_apps", label=t("Search apps")), *rows, *empty],
            on_back=back,
        )

    def build_home(self, device: Device, frame: Frame) -> None:
        s = device.system
        t = strings(device).t
        manifests = [m for m in device.manifests if not m.mini_program]
        n_pages = self.pages(len(manifests))
        self.page = min(self.page, n_pages - 1)
        first = FIRST_ROWS * COLS
        if self.page == 0:
            top = T.STATUS_H + 120
            frame.add(Text(s.now.strftime("%H:%M"), style="big", id="clock"),
                      (T.PAD, top, T.SCREEN_W - T.PAD, top + 280))
            day = (s.now.strftime("%A, %B %-d") if s.locale == "en-US"
                   else format_date(s.now.date(), s.locale, year=False, weekday=True))
            frame.add(Text(day, id="date"),
                      (T.PAD, top + 280, T.SCREEN_W - T.PAD, top + 380))
            shown, y0 = manifests[:first], FIRST_TOP
        else:
            start = first + (self.page - 1) * PAGE_ROWS * COLS
            shown, y0 = manifests[start:start + PAGE_ROWS * COLS], PAGE_TOP
        cell_w = T.SCREEN_W // COLS
        for i, m in enumerate(shown):
            r, c = divmod(i, COLS)
            frame.add(launcher_icon(device, m, "home"),
                      (c * cell_w, y0 + r * CELL_H, (c + 1) * cell_w, y0 + (r + 1) * CELL_H))
        dock = GRID_BOTTOM + 10
        if n_pages > 1:
            size = T.ICON_SIZE
            if self.page > 0:
                frame.add(Icon("<", t("Previous page"), lambda: self.turn(-1, len(manifests)),
                               id="previous_page"), (T.PAD, dock, T.PAD + size, dock + size))
            frame.add(Text(t("Page {page} of {pages}", page=self.page + 1, pages=n_pages),
                           style="caption",
                           id="page_indicator"),
                      (T.PAD + size, dock + 24, T.SCREEN_W - T.PAD - size, dock + size - 24))
            if self.page < n_pages - 1:
                frame.add(Icon(">", t("Next page"), lambda: self.turn(1, len(manifests)),
                               id="next_page"),
                          (T.SCREEN_W - T.PAD - size, dock, T.SCREEN_W - T.PAD, dock + size))
        frame.add(Button(t("All apps"), self.open_drawer, id="all_apps", style="secondary"),
                  (T.SCREEN_W // 2 - 200, dock + T.ICON_SIZE + 8, T.SCREEN_W // 2 + 200,
                   T.SCREEN_H - T.NAV_H - 12))


def no_text(n: Notification) -> bool:
    return not n.text


def shade_indexes(system: SystemState) -> tuple[Listing[Notification], Listing[Notification]]:
    """The shade's indexes of the notifications (by id; those without text, single-line
    rows), kept on write from the phone's reset (``Device.reset`` makes them)."""
    table = system.notifications
    return (table.index("shade", order=attrgetter("id")),
            table.index("shade_single", order=attrgetter("id"), keep=no_text))


@dataclass
class Shade:
    """The notification shade: quick toggles and the notifications."""

    open: bool = False

    def build(self, device: Device, frame: Frame) -> None:
        s = device.system
        t = strings(device).t
        frame.package = SYSTEMUI_PACKAGE

        def toggler(ns: str, key: str) -> Callable[[], None]:
            def flip() -> None:
                on = s.get_setting(ns, key) != "1"
                if key == "airplane_mode_on":
                    s.set_airplane_mode(on)  # as the Settings app does: radios go off
                else:
                    s.put_setting(ns, key, "1" if on else "0")
            return flip

        def dismiss(notification_id: int) -> Handler:
            return lambda: s.notifications.remove(notification_id)

        quick = [Toggle(t(label), s.get_setting(ns, key) == "1", toggler(ns, key), id=qid)
                 for label, ns, key, qid in QUICK_TOGGLES]
        # the newest first, and only as many as can show: the list is as tall as all of them
        table = s.notifications
        by_id, single_only = shade_indexes(s)
        newest = by_id.view(table, reverse=True)
        notes = [ListItem(n.title, n.text, id=f"notification_{n.id}",
                          on_click=partial(device.open_notification, n.app),
                          menu=[(t("Dismiss"), dismiss(n.id))])
                 for n in newest[:SHADE_ROWS]]
        listed = ListView(notes, id="notifications", empty_text=t("No notifications"))
        if len(newest) > SHADE_ROWS:
            single = len(single_only.view(table))
            listed.height = (single * T.HEIGHTS["list_item:single"]
                             + (len(newest) - single) * T.HEIGHTS["list_item"])
        content = [Text(t("Quick settings"), style="title", id="qs_title"), *quick,
                   Text(t("Notifications"), style="title", id="notifications_title"), listed]
        box = (0, T.STATUS_H, T.SCREEN_W, T.SCREEN_H - T.NAV_H)
        place_column(frame, content, T.PAD, T.SCREEN_W - T.PAD, T.STATUS_H + 20, box)


@dataclass
class Recents:
    """The overview of recent apps (most recent first), with "Clear all"."""

    shown: bool = False
    apps: list[str] = field(default_factory=list)  # app names, most recent first

    def build(self, device: Device, frame: Frame) -> None:
        frame.package = LAUNCHER_PACKAGE
        locale, t = device.system.locale, strings(device).t
        items = []
        for name in self.apps:
            app = device.app(name)
            assert app is not None
            items.append(ListItem(app.manifest.label_in(locale), t("Tap to open"),
                                  glyph=app.glyph, color=app.color, id=f"task_{name.lower()}",
                                  on_click=partial(device.open_app, name)))
        content = [Text(t("Recent apps"), style="title", id="title"),
                   ListView(items, id="recents", empty_text=t("No recent items"))]
        if self.apps:
            content.append(Button(t("Clear all"), device.clear_recents, id="clear_all",
                                  style="secondary"))
        box = (0, T.STATUS_H, T.SCREEN_W, T.SCREEN_H - T.NAV_H)
        place_column(frame, content, T.PAD, T.SCREEN_W - T.PAD, T.STATUS_H + 40, box)


@dataclass
class Menu:
    """A long-press menu: its items, where it opened, and the node it belongs to (kind, id,
    text) so that it can be rebuilt after unpickling."""

    items: list[MenuItem] | None = None
    at: tuple[int, int] = (0, 0)
    source: tuple[str, str, str] | None = None

    def close(self) -> None:
        self.items, self.source = None, None

    def build(self, device: Device, frame: Frame) -> None:
        items: Sequence[MenuItem] = self.items or []
        x, y = self.at
        h = MENU_ITEM_H * len(items)
        x0 = max(T.PAD, min(x, T.SCREEN_W - T.PAD - MENU_W))
        y0 = max(T.STATUS_H, min(y, T.SCREEN_H - T.NAV_H - h))
        frame.modal_from = len(frame.items)
        idx = frame.add(Node("menu", id="menu"), (x0, y0, x0 + MENU_W, y0 + h), layer=2)
        for i, (label, handler) in enumerate(items):
            def run(handler: Handler = handler) -> None:
                device.close_menu()
                handler()
            frame.add(Node("menu_item", text=label, id="title", on_click=run),
                      (x0, y0 + i * MENU_ITEM_H, x0 + MENU_W, y0 + (i + 1) * MENU_ITEM_H),
                      parent=idx, layer=2)
