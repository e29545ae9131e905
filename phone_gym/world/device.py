"""The simulated phone: launcher, apps with back stacks, system bars, keyboard, dialogs,
long-press menus, toasts, notification shade and recents, driven by ``PhoneAction``s.

The device knows nothing of Gymnasium or tasks. ``step`` returns an error message for an
action it cannot carry out (nothing changes then) and None otherwise.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from ..actions import PhoneAction
from . import theme as T
from .a11y import share
from .app import App, AppHandle, Route, index_systems
from .data import Journal, mark_store, rewind_store
from .glyphs import typing_error
from .keyboard import keyboard_node
from .layout import (
    Frame,
    Placed,
    dialog_width,
    measure,
    place,
    place_bar,
    place_column,
    text_units,
)
from .locale import DEFAULT_LOCALE, check_locale, format_time, system_strings
from .manifest import NIGHT_MODE_ON, AppManifest, Intent, did_you_mean
from .system import DEFAULT_START, STORES, SystemState
from .system_ui import (
    DRAWER,
    LAUNCHER_PACKAGE,
    SYSTEMUI_PACKAGE,
    Launcher,
    Menu,
    Recents,
    Shade,
    shade_indexes,
)
from .theme import Palette
from .widgets import DRAWER_EDGE, MULTILINE_STYLES, MenuItem, Node, Screen, slider_value_at

#: At most this many app log lines wait for a reader (``Device.app_log``).
APP_LOG_LINES = 512


class AppLogLine(NamedTuple):
    """One line an app logged: when, which package, ``priority`` (one of ``VDIWEF``), tag."""

    time: datetime
    package: str
    priority: str
    tag: str
    message: str


#: The contacts provider: contacts are its data (``pm clear`` on it wipes them).
CONTACTS_PROVIDER = STORES["contacts"]
IME_PACKAGE = "com.google.android.inputmethod.latin"
TOAST_SECONDS = 3.0
STEP_SECONDS = 1.0
MAIN = "android.intent.action.MAIN"

__all__ = ["CONTACTS_PROVIDER", "IME_PACKAGE", "LAUNCHER_PACKAGE", "SYSTEMUI_PACKAGE", "Apps",
           "Device", "to_px"]


def to_px(x: int, y: int) -> tuple[int, int]:
    """Normalized [0, 1000] coordinates to logical pixels."""
    return min(T.SCREEN_W - 1, x * T.SCREEN_W // 1000), min(T.SCREEN_H - 1, y * T.SCREEN_H // 1000)


def app_maps(classes: Sequence[AppHandle]) -> tuple[dict[str, AppHandle], dict[str, str]]:
    """The handles by package, and the packages by app name."""
    return {c.package: c for c in classes}, {c.name: c.package for c in classes}


class Apps(Mapping[str, App]):
    """The installed apps, keyed by Android package; looking one up by its name (the
    manifest's ``name``) works too. An app is built on first use: a reset costs the same
    with 5 apps or 60, and an app nobody touched has a fresh install's data."""

    def __init__(self, classes: Sequence[AppHandle], make: Callable[[AppHandle], App],
                 maps: tuple[dict[str, AppHandle], dict[str, str]] | None = None) -> None:
        # ``maps``: ``app_maps(classes)`` made before (a phone's, shared by its resets: read
        # only)
        self._classes, self._by_name = maps if maps is not None else app_maps(classes)
        self._make = make
        self._made: dict[str, App] = {}

    def __getitem__(self, key: str) -> App:
        app = self._made.get(key)
        if app is not None:
            return app
        package = key if key in self._classes else self._by_name.get(key)
        if package is None:
            raise KeyError(key)
        app = self._made.get(package)
        if app is None:
            app = self._made[package] = self._make(self._classes[package])
        return app

    def __iter__(self) -> Iterator[str]:
        return iter(self._classes)

    def __len__(self) -> int:
        return len(self._classes)

    def made(self) -> dict[str, App]:
        """The apps built so far, by package."""
        return self._made

    def class_of(self, key: str) -> AppHandle | None:
        package = key if key in self._classes else self._by_name.get(key)
        return self._classes.get(package) if package is not None else None

    def __getstate__(self) -> dict[str, Any]:
        return {"classes": list(self._classes.values()), "made": self._made}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._classes = {c.package: c for c in state["classes"]}
        self._by_name = {c.name: c.package for c in state["classes"]}
        self._made = state["made"]
        self._make = _unbound


def _unbound(cls: AppHandle) -> App:
    raise RuntimeError("the device re-binds its apps after unpickling")


class Device:
    """A phone with ``apps`` installed. ``reset`` wipes all state (microseconds).

    Its data (``system`` and each app's ``data``) reports every change to ``journal``, so
    frames, screens and verdicts are recomputed when the data changed, whoever changed it.
    Code outside the world changes the phone through the public methods: ``step`` (an
    action), ``open_app``, ``force_stop``, ``clear_data``, ``start_intent``, ``press``,
    ``go_home``, and the stores of ``system``.
    """

    def __init__(self, apps: Sequence[type[App] | AppHandle],
                 start: datetime = DEFAULT_START, locale: str = DEFAULT_LOCALE) -> None:
        #: The phone's locale (``world.locale``): kept across factory resets.
        self.locale = check_locale(locale)
        for attr in ("name", "package"):
            values = [getattr(a, attr).lower() for a in apps]
            dupes = sorted({v for v in values if values.count(v) > 1})
            if dupes:
                raise ValueError(f"app {attr}s must be unique, got {dupes} more than once in "
                                 f"{[a.name for a in apps]}")
        #: The installed apps (``AppHandle``s: an app's code loads when it is first used).
        self.app_classes: list[AppHandle] = [AppHandle.of(a) for a in apps]
        self.journal = Journal()
        self._ui_version = 0
        #: The prefilled data kept between resets: (key, system, its mark, and the apps'
        #: data the prefill wrote with their marks, by package).
        self._base: tuple[Any, SystemState, dict[str, Any],
                          dict[str, tuple[Any, dict[str, Any]]]] | None = None
        self.reset(start)

    # --- state -----------------------------------------------------------------------
    def reset(self, start: datetime = DEFAULT_START,
              prefill: tuple[Any, Callable[[], None]] | None = None) -> None:
        """Factory-reset the phone: fresh system state and freshly installed apps.

        ``prefill``: ``(key, write)``, where ``write()`` fills the system's stores and apps'
        data the same way whenever ``key`` is the same (a task's ``prefill``). The first
        reset with a key runs it and marks the stores; the next ones with that key and
        ``start`` put back only the records the episode changed, so a reset costs what
        changed, not what the stores hold."""
        key = (prefill[0], start, self.locale) if prefill is not None else None
        base = getattr(self, "_base", None)  # (devices pickled before it: none)
        if base is not None and prefill is not None and base[0] == key:
            self.system = base[1]
            rewind_store(self.system, base[2])
            kept = base[3]
        else:
            kept = {}
            self.system = SystemState(now=start, locale=self.locale)
            self.system.attach(self.journal)
        # indexes on the shared stores, kept from the start (an app loaded later makes its
        # indexes on first use)
        index_systems(self.app_classes, self.system)
        shade_indexes(self.system)
        maps = getattr(self, "_app_maps", None)  # (devices pickled before it: none)
        if maps is None or len(maps[0]) != len(self.app_classes):
            maps = self._app_maps = app_maps(self.app_classes)
        self.apps = Apps(self.app_classes, self._install, maps)
        for package, (data, saved) in kept.items():  # the prefill's app data, put back
            rewind_store(data, saved)
            self.apps.made()[package] = self._install(self.apps.class_of(package), data)
        self.foreground: str | None = None  # the app's name
        self.launcher = Launcher()
        self.shade = Shade()
        self.overview = Recents()
        self.menu_ui = Menu()
        self.focus: str | None = None
        self.toast_text: str | None = None
        self.toast_until: datetime = start
        #: What apps logged (``App.log``), oldest first, until a log reader drains it (the
        #: virtual device's ``logd``); bounded so that a phone nobody reads stays small.
        self.app_log: deque[AppLogLine] = deque(maxlen=APP_LOG_LINES)
        self.scroll: dict[tuple[str, Route], int] = {}
        self.shift = False
        self.symbols = False
        self.select_all = False
        self._frame: Frame | None = None
        self._screen: Screen | None = None
        self._frame_version = self._screen_version = -1
        self._handled = False
        self._ui_only = False  # the action in progress changed only the device UI
        self.invalidate()
        if prefill is not None and (base is None or base[0] != key):
            prefill[1]()
            if self.foreground is not None or any(
                    app.stack != [Route("main")] for app in self.apps.made().values()):
                raise ValueError("a prefill writes data only (the system's stores: contacts, "
                                 "messages, files; apps' data): it opens no app")
            self._base = (key, self.system, mark_store(self.system),
                          {package: (app.data, mark_store(app.data))
                           for package, app in self.apps.made().items()})
            index_systems(self.app_classes, self.system)  # what the apps derive from it
            self.invalidate()

    @property
    def version(self) -> int:
        """Grows whenever the screen or the data may have changed (caches key on it)."""
        return self._ui_version + self.journal.version

    @property
    def manifests(self) -> list[AppManifest]:
        """The installed apps' manifests, in launcher order."""
        return [a.manifest for a in self.app_classes]

    # old attribute names of the system screens' state
    @property
    def recents(self) -> list[str]:
        return self.overview.apps

    @recents.setter
    def recents(self, value: list[str]) -> None:
        self.overview.apps = value

    @property
    def show_recents(self) -> bool:
        return self.overview.shown

    @show_recents.setter
    def show_recents(self, value: bool) -> None:
        self.overview.shown = value

    @property
    def shade_open(self) -> bool:
        return self.shade.open

    @shade_open.setter
    def shade_open(self, value: bool) -> None:
        self.shade.open = value

    @property
    def menu(self) -> list[MenuItem] | None:
        """The open long-press menu's items (None when no menu is shown). They are rebuilt
        with every frame from the node the menu belongs to (``menu_source``)."""
        if self.menu_ui.source is None:
            return None
        self.frame()
        return self.menu_ui.items

    @property
    def menu_at(self) -> tuple[int, int]:
        return self.menu_ui.at

    @menu_at.setter
    def menu_at(self, value: tuple[int, int]) -> None:
        self.menu_ui.at = value

    @property
    def menu_source(self) -> tuple[str, str, str] | None:
        return self.menu_ui.source

    @menu_source.setter
    def menu_source(self, value: tuple[str, str, str] | None) -> None:
        self.menu_ui.source = value

    def __getstate__(self) -> dict[str, Any]:
        """Pickle without cached views and menu handlers (closures). An open long-press
        menu is state only through its source node and position: its items are rebuilt
        from that node with every frame, in the original as in a copy."""
        state = self.__dict__.copy()
        state.pop("_keyboards", None)
        state.pop("_bars", None)
        state.pop("_icons", None)
        state.pop("_key_places", None)
        state.pop("_nav_places", None)
        state.pop("_marked_screen", None)
        state.pop("_drawer_shown", None)
        state.pop("_fresh_cache", None)
        state.update(_frame=None, _screen=None, _frame_version=-1, _screen_version=-1,
                     _base=None, menu_ui=Menu(None, self.menu_ui.at, self.menu_ui.source))
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.system.attach(self.journal)
        self.apps._make = self._install
        for cls in self.app_classes:
            if cls.loaded:
                cls.index_system(self.system)
        for app in self.apps.made().values():
            app.journal = self.journal
            app._attach()

    def _install(self, cls: AppHandle | None, data: Any = None) -> App:
        """The app of ``cls``, freshly installed, or holding ``data`` (a prefill's)."""
        assert cls is not None
        app = cls(self.system, self, self.journal)
        if data is not None:
            app.data = data
            app._attach()
        return app

    def close_menu(self) -> None:
        self.menu_ui.close()

    def _menu_items(self, frame: Frame) -> list[MenuItem]:
        """The items of the open menu, from its source node on ``frame`` (being built: the
        screen, shade or launcher, without the menu); none when that node is gone."""
        source = self.menu_ui.source
        if source is None:
            return []
        kind, node_id, _ = source
        node = self._find(node_id) if kind == "text_field" else None
        if node is None:
            for placed in frame.items:
                if (placed.node.kind, placed.node.id, placed.node.text) == source:
                    node = placed.node
                    break
        return self._menu_for(node) if node is not None else []

    def _drop_orphan_menu(self) -> None:
        """Close an open menu whose node left the screen (filtered away, deleted): its
        items would act on what is no longer shown."""
        if self.menu_ui.source is not None and self.menu is None:
            self.close_menu()
            self.invalidate()

    def app(self, name: str) -> App | None:
        """An installed app by name, label, package or alias, case-insensitively."""
        names = self.__dict__.get("_names")
        if names is None:
            table: dict[str, str] = {}
            for cls in self.app_classes:
                for n in cls.manifest.names():
                    table.setdefault(n.lower(), cls.package)
            names = self.__dict__["_names"] = table
        package = names.get(name.strip().lower())
        return self.apps[package] if package is not None else None

    def unknown_app(self, name: str) -> str:
        """The error message for an app name nothing answers to."""
        labels = [m.label for m in self.manifests]
        names = [n for m in self.manifests for n in (m.label, m.name)]
        return (f"unknown app {name!r}{did_you_mean(name, names)}; installed apps: "
                f"{', '.join(sorted(labels))}")

    def mini_program_error(self, app: App) -> str:
        """The error for ``open_app`` of a mini-program: it opens inside its host."""
        m = app.manifest
        host = self.app(m.host)
        where = host.label if host is not None else m.host
        entry = f", {m.entry}" if m.entry else ""
        return f"{m.label} is a mini-program in {where}: open {where}{entry}"

    def owner_of(self, store: str) -> App | None:
        """The app whose manifest owns the system store ``store``."""
        return next((self.apps[c.package] for c in self.app_classes
                     if store in c.manifest.owns), None)

    @property
    def current_app(self) -> App | None:
        if self.foreground is None or self.show_recents:
            return None
        return self.apps[self.foreground]

    @property
    def at_home(self) -> bool:
        """The launcher's home pages are showing (no app, drawer, shade or recents)."""
        return (self.foreground is None and not self.show_recents and not self.shade_open
                and not self.launcher.drawer)

    @property
    def keyboard_shown(self) -> bool:
        return self.focus is not None

    def snapshot(self) -> dict[str, Any]:
        """All persistent state as plain data: one key per system store (``contacts``,
        ``settings``, ``alarms``, ``files``, ...) and ``apps`` (each app's data by name).
        Tables come as snapshots that share what did not change."""
        made = self.apps.made()
        apps = dict(self._fresh_apps())  # (an app's key keeps its place when set again)
        for package, app in made.items():
            apps[self.apps._classes[package].name] = app.snapshot()
        return {"now": self.system.now.isoformat(), **self.system.snapshot(), "apps": apps}

    def _fresh_apps(self) -> dict[str, Any]:
        """Every installed app's fresh data (``AppHandle.fresh``) by name, in launcher
        order: made again only when another app's code has loaded since."""
        cached = getattr(self, "_fresh_cache", None)
        if (cached is None or cached[0] != AppHandle.loads
                or len(cached[1]) != len(self.app_classes)):
            cached = self._fresh_cache = (AppHandle.loads,
                                          {c.name: c.fresh() for c in self.app_classes})
        return cached[1]

    def foreground_package(self) -> str:
        """The package of the app on screen, or the launcher's (``dumpsys activity``'s
        resumed activity; not data: verifiers ignore it unless a criterion names it)."""
        app = self.current_app
        return app.package if app is not None else LAUNCHER_PACKAGE

    def screen_key(self) -> tuple[Any, ...]:
        """Identifies the screen shown (which app, which route, which overlay)."""
        app = self.current_app
        return (self.foreground if app else None, app.route if app else None,
                self.show_recents, self.shade_open, self.launcher.drawer, self.launcher.page)

    def scroll_key(self) -> tuple[str, Route] | None:
        """The key of the scrollable screen shown (an app's route, or the app drawer)."""
        app = self.current_app
        if app is not None:
            return (app.name, app.route)
        if self.foreground is None and self.launcher.drawer and not self.show_recents:
            return DRAWER
        return None

    # --- host services for apps ------------------------------------------------------
    def log(self, package: str, priority: str, tag: str, message: str) -> None:
        """An app's line for the system log (``App.log``), stamped with the phone's clock."""
        self.app_log.append(AppLogLine(self.system.now, package, priority, tag, message))

    def toast(self, text: str) -> None:
        self.toast_text = text
        self.toast_until = self.system.now + timedelta(seconds=TOAST_SECONDS)

    def go_home(self) -> None:
        self.foreground = None
        self.show_recents = False
        self.focus = None
        self.launcher.close_drawer()
        self.launcher.page = 0
        self.scroll.pop(DRAWER, None)
        self.invalidate()

    # --- actions ---------------------------------------------------------------------
    def step(self, action: PhoneAction, *, px: tuple[int, int] | None = None,
             px2: tuple[int, int] | None = None) -> str | None:
        """Carry out ``action``; return an error message (and change nothing) or None.

        ``px``/``px2`` give the touch points in screen pixels instead of the action's
        [0, 1000] coordinates (the virtual adb device's ``input tap 540 1200`` uses them).
        """
        kind = action.type
        pointer = kind in ("click", "double_click", "long_press", "scroll", "drag")
        point = px if px is not None or not pointer else to_px(*action.point)
        self._drop_orphan_menu()  # its node may have gone between steps (a store write)
        before = self.screen_key()
        looks = self._looks()
        self._handled = False
        self._ui_only = False
        minute = self._minute()
        selected, self.select_all = self.select_all, False
        error: str | None = None
        if kind == "type" and (action.x is not None or action.enter):
            self.select_all = selected  # nothing was typed
            error = ("a type with a point or enter is a click, the typing and Enter: split it "
                     "first (phone_gym.envs.marks.typing_parts)")
        elif kind == "type":
            error = self._type(action.text or "", replace=selected, clear=bool(action.clear))
        elif kind in ("open_app", "close_app"):
            app = self.app(action.app or "")
            if app is None:
                error = self.unknown_app(action.app or "")
            elif kind == "open_app" and app.manifest.mini_program:
                error = self.mini_program_error(app)
            elif kind == "open_app":
                self.open_app(app.name)
            else:
                self._close(app)
        if error is not None:
            return error
        if kind == "press":
            self.press(action.button or "")
        elif kind == "wait":
            self.system.advance(float(action.seconds or 0.0))
        elif point is None:
            pass
        elif kind == "click":
            self.select_all = selected
            self._click(*point)
        elif kind == "double_click":
            self._click(*point)
            if self._handled:
                self.invalidate()
            self._click(*point)
        elif kind == "long_press":
            self._long_press(*point)
        elif kind == "scroll":
            self._scroll(*point, action.direction or "down")
        elif kind == "drag":
            if px2 is None:
                assert action.x2 is not None and action.y2 is not None
                px2 = to_px(action.x2, action.y2)
            self._drag(*point, *px2)
        self.system.advance(STEP_SECONDS)
        if self.toast_text is not None and self.system.now >= self.toast_until:
            self.toast_text = None
        moved = self.screen_key() != before
        if moved:
            self.focus = None
            self.close_menu()
            if not self.launcher.drawer:
                self.scroll.pop(DRAWER, None)  # the drawer opens at its top again
        quiet = kind in ("click", "double_click", "long_press", "scroll", "drag", "wait")
        if quiet and not self._handled and self._looks() == looks:
            return None  # nothing was hit and nothing moved: the frame still holds
        # an action that only focused a field, scrolled or dropped the focus ran no app
        # code: the app's view still holds (a ticking one changes with time, and a view
        # may show the minute)
        keep = (self._ui_only and not moved and self._minute() == minute
                and (app := self.current_app) is not None and not app.ticking)
        self._invalidate(keep_screen=keep)
        if self.focus is not None and self._find(self.focus) is None:
            self.focus = None
            self._invalidate(keep_screen=keep)
        self._drop_orphan_menu()
        return None

    def _looks(self) -> tuple[Any, ...]:
        """Device state a quiet action might still change (handlers excepted)."""
        app = self.current_app
        now: Any = self.system.now
        if app is None or not app.ticking:  # what the status bar and launcher show
            now = (now.hour, now.minute, now.weekday(), now.month, now.day)
        return (self.screen_key(), self.focus, self.menu_source, self.select_all, self.shift,
                self.symbols, tuple(self.scroll.items()), self.toast_text, now)

    def invalidate(self) -> None:
        """Mark the frame stale (the device does this itself after every action; data
        changes are noticed through the journal)."""
        self._ui_version += 1

    def _invalidate(self, *, keep_screen: bool) -> None:
        """``invalidate``; with ``keep_screen``, the app's view made before stays current
        (what changed is the device's own UI: the focus, the scroll offset). A view whose
        nodes the layout marked (``select_all``) is made again."""
        fresh = (keep_screen and self._screen is not None and self._screen_version == self.version
                 and self._screen is not self.__dict__.get("_marked_screen"))
        self._ui_version += 1
        if fresh:
            self._screen_version = self.version

    def _minute(self) -> tuple[int, int, int, int]:
        now = self.system.now
        return (now.minute, now.hour, now.day, now.month)

    # --- public edits ---------------------------------------------------------------------
    def open_app(self, name: str) -> None:
        """Bring an app (by name, label, package or alias) to the foreground, resuming its
        back stack. Raises ``ValueError`` for an unknown app."""
        app = self.app(name)
        if app is None:
            raise ValueError(self.unknown_app(name))
        self.shade_open = False
        self.show_recents = False
        self.close_menu()
        self.launcher.close_drawer()
        if self.foreground != app.name:
            self.focus = None
        self.foreground = app.name
        if app.name in self.recents:
            self.recents.remove(app.name)
        self.recents.insert(0, app.name)
        self.invalidate()

    open = open_app  # the old name

    def force_stop(self, name: str) -> bool:
        """``am force-stop``: the app's transient UI and scroll positions go (and it leaves
        the screen and recents), its data stays. False when no such app is installed."""
        app = self.app(name)
        if app is None:
            return False
        before = self.screen_key()
        self._close(app)
        moved = self.screen_key() != before
        if moved:
            self.focus = None
            self.close_menu()
        self.invalidate()
        return True

    def _close(self, app: App) -> None:
        self._stop(app.name)
        if app.name in self.recents:
            self.recents.remove(app.name)
        if self.foreground == app.name:
            self.go_home()

    def clear_data(self, package: str) -> bool:
        """``pm clear``: stop the app and give it a fresh install's data, and empty the
        system stores it owns; for a provider package (the contacts provider), empty its
        stores. False when the package is unknown."""
        cls = self.apps.class_of(package)
        if cls is not None and cls.package == package:
            app = self.apps[package]
            self.force_stop(package)
            app.clear_data()
            for store in app.manifest.owns:
                self._empty(store)
            return True
        stores = [s for s, owner in STORES.items() if owner == package]
        if not stores or package in ("android", SYSTEMUI_PACKAGE):
            return False
        for store in stores:
            self._empty(store)
        return True

    def _empty(self, store: str) -> None:
        table = getattr(self.system, store, None)
        if table is not None and hasattr(table, "clear"):
            table.clear()

    def start_intent(self, intent: Intent) -> App:
        """Deliver an intent as ``am start`` does: to the app of ``intent.package`` or the
        first app whose manifest answers the action (or opens the deep link in
        ``intent.data``); it is shown unless its ``handle_intent`` says otherwise. Raises
        ``LookupError`` when no app handles it."""
        classes = [c for c in self.app_classes
                   if intent.package is None or c.package == intent.package]
        if intent.data and intent.action in (MAIN, "android.intent.action.VIEW"):
            linked = [c for c in classes if c.manifest.links(intent.data)]
            if linked:
                target = self.apps[linked[0].package]
                target.open_link(intent.data)
                self.open_app(target.name)
                return target
        handlers = [c for c in classes if c.manifest.answers(intent.action)]
        if not handlers and intent.action == MAIN and intent.package is not None and classes:
            handlers = classes
        if not handlers:
            raise LookupError(f"no app handles {intent.action}"
                              + (f" in {intent.package}" if intent.package else ""))
        app = self.apps[handlers[0].package]
        if app.handle_intent(intent):
            self.open_app(app.name)
        self.invalidate()
        return app

    def set_shade(self, open: bool) -> None:
        """Pull the notification shade down (or push it up), as ``cmd statusbar`` does."""
        before = self.screen_key()
        self.shade_open = open
        if open:
            self.focus = None
        if self.screen_key() != before:
            self.close_menu()
        self.invalidate()

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` of phone time pass at once (toasts expire)."""
        self.system.advance(seconds)
        if self.toast_text is not None and self.system.now >= self.toast_until:
            self.toast_text = None
        self.invalidate()

    def open_notification(self, app_name: str) -> None:
        app = self.app(app_name)
        if app is not None:
            self.open_app(app.name)

    def clear_recents(self) -> None:
        for name in self.recents:
            self._stop(name)
        self.recents = []
        self.go_home()

    def _stop(self, name: str) -> None:
        """Force-stop an app: its transient UI and scroll positions go, its data stays."""
        self.apps[name].stop()
        self.scroll = {key: y for key, y in self.scroll.items() if key[0] != name}

    def press(self, button: str) -> None:
        """A system key: back, home, enter or recents."""
        self._ui_only = False
        if button == "home":
            self.close_menu()
            self.shade_open = False
            self.go_home()
        elif button == "recents":
            self.close_menu()
            self.shade_open = False
            self.focus = None
            self.show_recents = not self.show_recents
        elif button == "enter":
            self._enter()
        elif button == "back":
            self._back()
        self._invalidate(keep_screen=self._ui_only)  # (back that only dropped the focus)

    def _back(self) -> None:
        if self.menu is not None:
            self.close_menu()
        elif self.shade_open:
            self.shade_open = False
        elif self.focus is not None:
            self.focus = None
            self._ui_only = True
        elif self.show_recents:
            self.show_recents = False
        elif (app := self.current_app) is not None:
            screen = self.screen()
            if screen.dialog is not None:
                if screen.on_dismiss is not None:
                    screen.on_dismiss()
            elif screen.on_back is None or not screen.on_back():
                app.back()
        elif self.launcher.drawer:
            self.launcher.close_drawer()

    def _enter(self) -> None:
        node = self._find(self.focus) if self.focus else None
        if node is None:
            return
        if node.on_submit is not None:
            node.on_submit()
        elif node.style in MULTILINE_STYLES and node.on_change is not None:
            node.on_change(node.text + "\n")
        else:
            self.focus = None

    def _type(self, text: str, *, replace: bool = False, clear: bool = False) -> str | None:
        """Type ``text`` into the focused field (over its selection with ``replace``; ``clear``
        empties it first, as AndroidWorld's ``clear_text`` does with Ctrl+A and Delete); text
        no font draws is refused as a real phone's is (``glyphs.typing_error``)."""
        error = typing_error(text)
        node = self._find(self.focus) if self.focus else None
        if node is None or node.on_change is None:
            self.select_all = replace
            return error or "no text field has focus: click a text field before typing"
        if error is not None:
            self.select_all = replace
            return error
        node.on_change(text if replace or clear else node.text + text)
        return None

    def _key(self, label: str) -> None:
        """A soft-keyboard key was tapped."""
        node = self._find(self.focus) if self.focus else None
        if label == "⇧":
            self.shift = not self.shift
        elif label in ("?123", "ABC"):
            self.symbols = not self.symbols
        elif label == "↵":
            self._enter()
        elif node is not None and node.on_change is not None:
            replace, self.select_all = self.select_all, False
            if label == "⌫":
                node.on_change("" if replace else node.text[:-1])
            else:
                char = " " if label == "space" else label
                if self.shift:
                    char, self.shift = char.upper(), False
                node.on_change(char if replace else node.text + char)

    def _click(self, x: int, y: int) -> None:
        frame = self.frame()
        placed = frame.hit(x, y, "click")
        if placed is None or placed.node.kind != "key":
            self.select_all = False  # only keys type over a selection
        if frame.modal_from is not None and not frame.in_modal(x, y) and y < self._overlay_top():
            self._handled = True
            self._ui_only = False
            if self.menu is not None:
                self.close_menu()
            elif (screen := self.screen()).on_dismiss is not None:
                screen.on_dismiss()
            return
        if self.menu is not None and (placed is None or placed.node.kind != "menu_item"):
            self.close_menu()
        if placed is None:
            return
        self._handled = True
        self._ui_only = False  # (a double click's second click may hit a handler)
        node = placed.node
        if node.kind == "text_field":
            self.focus = node.id
            self._ui_only = True  # no app code runs
            self._invalidate(keep_screen=True)
            self._reveal_focus()
        elif node.kind == "slider":
            self._slide(placed, x)
        elif node.on_click is not None:
            node.on_click()
        elif node.on_stroke is not None:  # a tap on a surface that takes strokes: a dot
            self._stroke(placed, x, y, x, y)

    def _slide(self, placed: Placed, x: int) -> None:
        """Set a slider to the value under ``x`` (its thumb jumps there)."""
        node = placed.node
        if node.on_slide is not None:
            node.on_slide(slider_value_at(node, placed.full[0], placed.full[2], x))

    def _stroke(self, placed: Placed, x: int, y: int, x2: int, y2: int) -> None:
        """A drag that starts on a canvas draws on it: its ends in 0..1000 of the canvas's
        box (an end outside it is held at the edge)."""
        fx0, fy0, fx1, fy1 = placed.full
        w, h = max(1, fx1 - fx0), max(1, fy1 - fy0)

        def local(px: int, py: int) -> tuple[int, int]:
            return (min(1000, max(0, (px - fx0) * 1000 // w)),
                    min(1000, max(0, (py - fy0) * 1000 // h)))

        assert placed.node.on_stroke is not None
        placed.node.on_stroke(*local(x, y), *local(x2, y2))

    def _long_press(self, x: int, y: int) -> None:
        frame = self.frame()
        if frame.modal_from is not None and not frame.in_modal(x, y):
            return
        placed = frame.hit(x, y, "long_click")
        if placed is None:
            return
        self._handled = True
        node = placed.node
        if node.on_long_click is not None:
            node.on_long_click()
            return
        if node.kind == "text_field":
            self.focus = node.id
        if self._menu_for(node):  # the items are made with the next frame
            self.menu_at = (x, y)
            self.menu_source = (node.kind, node.id, node.text)
            self.invalidate()

    def _menu_for(self, node: Node) -> list[MenuItem]:
        """The long-press menu of a node: its own items, plus clipboard actions."""
        items: list[MenuItem] = list(node.menu or [])
        t = system_strings(self.system.locale).t
        if node.kind == "text_field":
            if self.system.clipboard and node.on_change is not None:
                change, clip_text = node.on_change, self.system.clipboard
                items.append((t("Paste"), lambda: change(node.text + clip_text)))
            if node.text:
                items.append((t("Copy"), lambda: self._copy(node.text)))
                items.append((t("Select all"), self._select_all))
        elif node.copyable:
            items.append((t("Copy"), lambda: self._copy(node.text)))
        return items

    def _select_all(self) -> None:
        self.select_all = True

    def _copy(self, text: str) -> None:
        self.system.clipboard = text
        self.toast(system_strings(self.system.locale).t("Copied to clipboard"))

    def _scroll_target(self, x: int, y: int) -> tuple[str, Route] | None:
        key = self.scroll_key()
        frame = self.frame()
        if key is None or self.shade_open or frame.modal_from is not None:
            return None
        if frame.hit(x, y, "scroll") is None:
            return None
        return key

    def _scroll_by(self, key: tuple[str, Route], delta: int) -> None:
        frame = self.frame()
        vp = frame.viewport
        limit = max(0, frame.content_height - (vp[3] - vp[1]))
        current = min(limit, self.scroll.get(key, 0))  # as shown: the limit may have shrunk
        self.scroll[key] = max(0, min(limit, current + delta))

    def _scroll(self, x: int, y: int, direction: str) -> None:
        if self.at_home and self.menu is None:
            self._home_gesture(direction)
            return
        key = self._scroll_target(x, y)
        if key is None or direction in ("left", "right"):
            return
        vp = self.frame().viewport
        page = int((vp[3] - vp[1]) * 0.6)
        self._scroll_by(key, page if direction == "down" else -page)
        self._ui_only = True

    def _home_gesture(self, direction: str) -> None:
        """On the home pages: left/right turn pages, a swipe up (``scroll`` down) opens the
        app drawer (the shade opens only from the status bar)."""
        if direction in ("left", "right"):
            self._handled = self.launcher.turn(1 if direction == "right" else -1,
                                               len(self.app_classes))
        elif direction == "down":
            self._handled = True
            self.launcher.open_drawer()

    def _drag(self, x: int, y: int, x2: int, y2: int) -> None:
        if y < T.STATUS_H + 40 and y2 - y > 200 and self.menu is None:
            self.shade_open = True
            self.focus = None
            return
        if self.shade_open and y2 - y < -200:
            self.shade_open = False
            return
        if self.at_home and self.menu is None and max(abs(x2 - x), abs(y2 - y)) > 200:
            if abs(x2 - x) > abs(y2 - y):
                self._home_gesture("right" if x2 < x else "left")
            else:
                self._home_gesture("down" if y2 < y else "up")
            return
        if self._drawer_drag(x, y, x2, y2):
            return
        start = self.frame().hit(x, y, "click")  # above a dialog or menu, only theirs
        if start is not None and start.node.kind == "slider":
            self._handled = True
            self._slide(start, x2)  # the thumb follows the finger to where it lifts
            return
        if start is not None and start.node.on_stroke is not None:
            self._handled = True
            self._stroke(start, x, y, x2, y2)
            return
        key = self._scroll_target(x, y)
        if key is not None and abs(y2 - y) > abs(x2 - x):
            self._scroll_by(key, y - y2)

    def _drawer_drag(self, x: int, y: int, x2: int, y2: int) -> bool:
        """DrawerLayout's gestures: a horizontal drag from the left edge pulls the drawer
        out (presses the app bar's drawer toggle); one to the left closes an open drawer.
        Whether the drag was one of these."""
        if self.current_app is None or self.menu is not None or abs(x2 - x) <= abs(y2 - y) \
                or abs(x2 - x) < 200:
            return False
        screen = self.screen()
        if screen.dialog is not None:
            if screen.dialog.kind == "drawer" and x2 < x and screen.on_dismiss is not None:
                self._handled = True
                screen.on_dismiss()
                return True
            return False
        toggle = next((c for c in (screen.top_bar.children if screen.top_bar else [])
                       if c.id == "drawer_toggle" and c.on_click is not None), None)
        if toggle is None or x > DRAWER_EDGE or x2 < x or self.keyboard_shown:
            return False
        self._handled = True
        assert toggle.on_click is not None
        toggle.on_click()
        return True

    # --- views -------------------------------------------------------------------------
    def screen(self) -> Screen:
        """The Screen shown (the current app's view, or the app drawer), cached until
        something changes."""
        if self._screen is None or self._screen_version != self.version:
            app = self.current_app
            if app is not None:
                self._screen = app.view(app.route)
            elif self.scroll_key() == DRAWER:
                self._screen = self.launcher.drawer_screen(self)
            else:
                self._screen = Screen(content=[])
            self._screen_version = self.version
        return self._screen

    def _find(self, node_id: str | None) -> Node | None:
        """A text field of the current screen by id, visible or not; while a dialog is
        shown, only the dialog's (it takes the input focus)."""
        if node_id is None or self.scroll_key() is None:
            return None
        screen = self.screen()
        stack: list[Node] = [screen.dialog] if screen.dialog is not None else [
            *screen.content, *([screen.dock] if screen.dock is not None else []),
            *([screen.top_bar] if screen.top_bar is not None else [])]  # a search bar
        while stack:
            node = stack.pop()
            if node.id == node_id and node.kind == "text_field":
                return node
            stack.extend(node.children)
        return None

    def _overlay_top(self) -> int:
        """The top of the system overlays (navigation bar, keyboard): taps on them are not
        taps outside a dialog."""
        top = T.SCREEN_H - T.NAV_H
        return top - T.KEYBOARD_H if self.keyboard_shown else top

    def _reveal_focus(self) -> None:
        """Scroll so that the focused field sits above the keyboard."""
        key = self.scroll_key()
        if key is None:
            return
        frame = self.frame()
        for placed in frame.items:
            if placed.focused and frame.viewport[1] <= placed.full[1] < frame.viewport[3]:
                # not a docked field, nor the app bar's search bar
                bottom = placed.full[3]
                if bottom > frame.viewport[3]:
                    self._scroll_by(key, bottom - frame.viewport[3] + 40)
                    self._invalidate(keep_screen=True)  # a scroll: the view holds
                return

    @property
    def night(self) -> bool:
        """Whether Settings' dark theme is on (``secure.ui_night_mode``, as ``UiModeManager``)."""
        return self.system.get_setting("secure", "ui_night_mode") == NIGHT_MODE_ON

    def palette_of(self, manifest: AppManifest) -> Palette:
        """The palette ``manifest``'s app is drawn with now (its look, the dark theme)."""
        return manifest.look.palette(self.night)

    def frame(self) -> Frame:
        """Everything on screen, laid out (rebuilt only after something changed)."""
        if self._frame is None or self._frame_version != self.version:
            self._frame = self._build()
            self._frame_version = self.version
        return self._frame

    def _build(self) -> Frame:
        frame = Frame()
        app = self.current_app
        home = LAUNCHER_PACKAGE
        frame.package = app.package if app else home
        drawer = app is None and self.scroll_key() == DRAWER
        bg = T.LAUNCHER_BG if app is None and not self.show_recents and not drawer else None
        frame.add(Node("screen", id="content", color=bg), (0, 0, T.SCREEN_W, T.SCREEN_H))
        if self.shade_open:
            self.shade.build(self, frame)
        elif self.show_recents:
            self.overview.build(self, frame)
        elif app is not None:
            frame.palette = self.palette_of(app.manifest)
            self._build_screen(frame, self.screen(), (app.name, app.route))
        elif drawer:
            self._build_screen(frame, self.screen(), DRAWER)
        else:
            self.launcher.build_home(self, frame)
        if self.keyboard_shown and not self.shade_open:
            frame.package = IME_PACKAGE
            kb_rect = (0, T.SCREEN_H - T.NAV_H - T.KEYBOARD_H, T.SCREEN_W, T.SCREEN_H - T.NAV_H)
            keyboard = self._keyboard()
            kb = frame.add(keyboard, kb_rect)
            self._place_keys(frame, keyboard, kb_rect, kb)
        if self.menu_ui.source is not None:  # handlers rebuilt with the frame, as all are
            self.menu_ui.items = self._menu_items(frame) or None
            if self.menu_ui.items is not None:
                self.menu_ui.build(self, frame)
        frame.package = SYSTEMUI_PACKAGE
        self._build_bars(frame)
        frame.package = app.package if app else home
        if self.toast_text:
            w = min(T.SCREEN_W - 2 * T.PAD, 160 + int(text_units(self.toast_text) * 44 * T.CHAR_W))
            y1 = T.SCREEN_H - T.NAV_H - 200
            frame.add(Node("toast", text=self.toast_text),
                      ((T.SCREEN_W - w) // 2, y1 - 120, (T.SCREEN_W + w) // 2, y1))
        frame.package = app.package if app else home
        frame.heights = None  # the layout's memo: not needed once laid out
        return frame

    def _keyboard(self) -> Node:
        """The soft keyboard's node tree (one per shift/symbols/dark-theme state, made once)."""
        keyboards = self.__dict__.setdefault("_keyboards", {})
        pinyin = self.system.locale == "zh-CN"
        key = (self.shift, self.symbols, self.night, pinyin)
        if key not in keyboards:
            keyboards[key] = share(keyboard_node(self._key, shift=self.shift,
                                                 symbols=self.symbols, dark=self.night,
                                                 pinyin=pinyin))
        return keyboards[key]

    def _build_bars(self, frame: Frame) -> None:
        s = self.system
        locale = s.locale
        on = tuple(label for label, ns, key in (("WiFi", "global", "wifi_on"),
                                                ("BT", "global", "bluetooth_on"),
                                                ("✈", "global", "airplane_mode_on"))
                   if s.get_setting(ns, key) == "1")
        # the bars' nodes, made once per look (they hold no state of their own; as the
        # keyboard's, they are shared by the frames that show them)
        bars = self.__dict__.setdefault("_bars", {})
        now = s.now
        if len(bars) > 64:  # the clock moves on: keep only the navigation bars
            for key in [k for k in bars if k[0] != "nav"]:
                del bars[key]
        clock = bars.get("clock")
        if clock is None or clock[0] != (now.hour, now.minute, locale):  # a new minute
            clock = bars["clock"] = ((now.hour, now.minute, locale), format_time(now, locale))
        status_key = (clock[1], on, locale)
        status = bars.get(status_key)
        if status is None:
            t = system_strings(locale).t
            node = share(Node("status_bar", text=status_key[0],
                              hint=" ".join([t(label) for label in on] + ["100%"]),
                              id="status_bar"))
            # placed once: the frames that show it share it (it has no parent)
            status = bars[status_key] = Placed(node, (0, 0, T.SCREEN_W, T.STATUS_H),
                                               (0, 0, T.SCREEN_W, T.STATUS_H),
                                               package=SYSTEMUI_PACKAGE)
        items = frame.items
        items.append(status)
        runs = self.__dict__.setdefault("_nav_places", {})
        nav_key = (locale, len(items))  # its buttons' parent is its index
        placed = runs.get(nav_key)
        if placed is None:
            if len(runs) > 256:
                runs.clear()
            nav = bars.get(("nav", locale))
            if nav is None:
                t = system_strings(locale).t
                nav = bars[("nav", locale)] = share(Node("nav_bar", id="navigation_bar", children=[
                    Node("icon", glyph="◀", desc=t("Back"), id="back", style="nav",
                         on_click=lambda: self.press("back")),
                    Node("icon", glyph="●", desc=t("Home"), id="home", style="nav",
                         on_click=lambda: self.press("home")),
                    Node("icon", glyph="■", desc=t("Overview"), id="recent_apps",
                         style="nav",
                         on_click=lambda: self.press("recents")),
                ]))
            y0 = T.SCREEN_H - T.NAV_H
            w = T.SCREEN_W // 3
            idx = len(items)
            placed = runs[nav_key] = [
                Placed(nav, (0, y0, T.SCREEN_W, T.SCREEN_H), (0, y0, T.SCREEN_W, T.SCREEN_H),
                       package=SYSTEMUI_PACKAGE),
                *(Placed(child, box, box, idx, package=SYSTEMUI_PACKAGE)
                  for i, child in enumerate(nav.children)
                  for box in [(i * w + w // 4, y0, (i + 1) * w - w // 4, T.SCREEN_H)])]
        items.extend(placed)

    def _place_keys(self, frame: Frame, keyboard: Node, rect: tuple[int, int, int, int],
                    parent: int) -> None:
        # the keys placed once per keyboard, place and parent: the frames that show them
        # share them (``Placed``s are not changed once laid out)
        places = self.__dict__.setdefault("_key_places", {})
        key = (id(keyboard), rect, parent, frame.package)
        placed = places.get(key)
        if placed is None or placed[0] is not keyboard:
            if len(places) > 256:
                places.clear()
            placed = places[key] = (keyboard, [
                Placed(node, box, box, parent, package=frame.package)
                for node, box in self._key_rects(keyboard, rect)])
        frame.items.extend(placed[1])

    @staticmethod
    def _key_rects(keyboard: Node, rect: tuple[int, int, int, int]
                   ) -> list[tuple[Node, tuple[int, int, int, int]]]:
        """Each key of ``keyboard`` with its box, the keyboard at ``rect``."""
        out = []
        rows = keyboard.children  # below Gboard's toolbar strip
        top = rect[1] + T.KEYBOARD_STRIP_H
        row_h = (rect[3] - top - 24) // max(1, len(rows))
        for r, row in enumerate(rows):
            y0 = top + r * row_h
            total = sum(k.weight for k in row.children)
            unit = (T.SCREEN_W - 24) / total
            x = 12.0
            for key in row.children:
                x1 = x + unit * key.weight
                out.append((key, (int(x) + 6, y0 + 10, int(x1) - 6, y0 + row_h - 10)))
                x = x1
        return out

    def _build_screen(self, frame: Frame, screen: Screen, key: tuple[str, Route]) -> None:
        """Lay out an app screen (or the drawer): bars, scrolled content, FAB, dialog."""
        top = T.STATUS_H
        if screen.top_bar is not None:
            place_bar(frame, screen.top_bar, (0, top, T.SCREEN_W, top + T.TOP_BAR_H),
                      focus_id=self.focus)
            top += T.TOP_BAR_H
        bottom = T.SCREEN_H - T.NAV_H
        if self.keyboard_shown:
            bottom -= T.KEYBOARD_H
        elif screen.bottom is not None:
            place_bar(frame, screen.bottom, (0, bottom - T.TAB_BAR_H, T.SCREEN_W, bottom))
            bottom -= T.TAB_BAR_H
        if screen.dock is not None:  # docked above the bottom bar or keyboard
            dock_h = measure(screen.dock, T.SCREEN_W)
            place(frame, screen.dock, 0, T.SCREEN_W, bottom - dock_h,
                  (0, top, T.SCREEN_W, bottom), focus_id=self.focus)
            bottom -= dock_h
        vp = (0, top, T.SCREEN_W, bottom)
        width = T.SCREEN_W - 2 * T.PAD
        heights = frame.heights = {} if frame.heights is None else frame.heights
        if screen.fill and screen.content:  # the last node reaches the content's bottom
            last = screen.content[-1]
            above = sum(measure(n, width, heights) for n in screen.content[:-1])
            last.height = max(T.HEIGHTS["text_field"], bottom - top - 40 - above)
        content_h = sum(measure(n, width, heights) for n in screen.content) + 40
        if screen.fab is not None:
            content_h += T.FAB_SIZE + T.PAD  # room to scroll the last row above the button
        view_h = bottom - top
        offset = max(0, min(self.scroll.get(key, 0), content_h - view_h))
        scrollable = content_h > view_h
        holder = Node("column", id="content_frame")
        hidx = frame.add(holder, vp, scrollable=scrollable)
        frame.viewport, frame.content_height = vp, content_h
        start = len(frame.items)
        place_column(frame, screen.content, T.PAD, T.SCREEN_W - T.PAD, top + 20 - offset, vp,
                     parent=hidx, focus_id=self.focus)
        for placed in frame.items[start:] if scrollable or self.select_all else ():
            if placed.node.kind == "list" and placed.parent == hidx and scrollable:
                placed.scrollable = True
            if placed.focused and self.select_all:
                placed.node.selected = True
                self.__dict__["_marked_screen"] = screen  # not kept by ``_invalidate``
        if screen.fab is not None and not self.keyboard_shown:
            s = T.FAB_SIZE
            frame.add(screen.fab, (T.SCREEN_W - T.PAD - s, bottom - T.PAD - s,
                                   T.SCREEN_W - T.PAD, bottom - T.PAD))
        if screen.dialog is not None:
            dialog = screen.dialog
            sheet = dialog.kind == "sheet"  # a bottom sheet: full width, at the bottom
            x0, x1 = (0, T.SCREEN_W) if sheet else (T.PAD, T.SCREEN_W - T.PAD)
            if dialog.kind == "drawer":  # from the left edge, below the status bar
                x0, x1 = 0, dialog_width(dialog)
            elif dialog.kind == "speed_dial":  # above the FAB's place, at the right
                x0, x1 = T.SCREEN_W - dialog_width(dialog), T.SCREEN_W
            h = measure(dialog, x1 - x0)
            if sheet:
                y0 = max(T.STATUS_H, self._overlay_top() - h)
            elif dialog.kind == "drawer":
                y0 = T.STATUS_H
            elif dialog.kind == "speed_dial":
                y0 = max(T.STATUS_H, bottom - h)
            else:
                y0 = max(T.STATUS_H,
                         (T.SCREEN_H - h) // 2 - (T.KEYBOARD_H // 2 if self.focus else 0))
            if dialog.kind != "speed_dial" or dialog.style == "scrim":
                frame.scrim_before = len(frame.items)
            frame.modal_from = len(frame.items)
            place(frame, screen.dialog, x0, x1, y0, (0, 0, T.SCREEN_W, T.SCREEN_H), layer=1,
                  focus_id=self.focus)
