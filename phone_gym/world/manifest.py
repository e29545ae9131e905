"""App manifests: what an app declares about itself, once.

A manifest names the app (``name``, its unique id; ``label``, what the launcher shows), its
Android ``package``, its launcher icon (``icon``: a Material icon name, on an adaptive-icon
``icon_shape`` in ``color``, echoing the real app's icon), the intents and deep
links it answers, and the shared data it owns and reads. Everything else derives from it:
the launcher and drawer, ``open_app`` by label or package, the package map for real phones,
``pm clear`` of the stores an app owns, and intent routing in the virtual adb device.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from .icons import icon_glyph, material_name
from .locale import DEFAULT_LOCALE, LOCALES
from .system import STORES
from .theme import DEFAULT_PALETTE, Palette, make_palette

NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
PACKAGE_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")
#: Launcher icon shapes: Android's adaptive-icon masks, and Chrome's three-colour ring.
ICON_SHAPES = ("circle", "rounded", "square", "tricolor")


def did_you_mean(word: str, choices: Iterable[str], n: int = 3) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``choices``, or an empty string."""
    choices = list(choices)
    lowered = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(word.lower(), list(lowered), n=n, cutoff=0.6)
    if not close:
        return ""
    return " (did you mean " + " or ".join(repr(lowered[c]) for c in close) + "?)"


@dataclass(frozen=True)
class Intent:
    """An Android intent as ``am start`` describes it (the parts PhoneWorld apps read)."""

    action: str = "android.intent.action.MAIN"
    package: str | None = None
    data: str | None = None
    extras: dict[str, Any] = field(default_factory=dict)
    categories: tuple[str, ...] = ()


DARK_MODES = ("light", "dark", "system")
NAVIGATIONS = ("none", "bottom_bar", "tabs", "drawer", "speed_dial_fab")
#: Bottom-bar styles (``kit.bottomnav``): Material 3's NavigationBar, WeChat's green tabs.
NAV_STYLES = ("material", "wechat")
ROW_LEADING = ("none", "avatar", "icon", "checkbox", "thumbnail")
#: Material Symbols names an app bar may show (the icon set's names; drawn by the icon layer).
ACTION_ICONS = frozenset({
    "search", "more_vert", "add", "edit", "delete", "share", "settings", "sort", "filter_list",
    "grid_view", "view_list", "calendar_today", "today", "camera_alt", "photo_camera", "mic",
    "menu", "person", "account_circle", "notifications", "cast", "qr_code_scanner",
    "add_circle", "refresh", "star", "favorite", "shopping_cart", "help", "info", "close",
    "check", "undo", "redo", "save", "visibility", "folder", "create_new_folder", "map",
    "layers", "my_location", "directions", "bookmark", "tab", "home", "history", "download",
    "open_in_new", "print", "call", "videocam", "more_horiz", "tune", "sync", "list",
    "location_on", "timer", "alarm", "brush", "palette", "format_paint", "lock", "apps",
})
#: The real Android dark theme (``secure.ui_night_mode``) value that turns "system" apps dark.
NIGHT_MODE_ON = "2"


def _names(owner: str, what: str, values: tuple[str, ...], accepted: Iterable[str]) -> None:
    accepted = sorted(accepted)
    for v in values:
        if v not in accepted:
            raise ValueError(f"{owner}: {what} {v!r} is not accepted{did_you_mean(v, accepted)};"
                             f" accepted: {', '.join(accepted)}")


@dataclass(frozen=True)
class AppLook:
    """How an app looks, as data (the real app it models, its colors and its anatomy).

    ``light`` and ``dark_palette`` are its palettes (``theme.make_palette`` builds one from
    brand colors); ``dark`` says which one it shows: ``"light"``, ``"dark"`` or ``"system"``
    (follows Settings' dark theme, ``secure.ui_night_mode``, as Android apps with a
    DayNight theme do). The app bar: ``title_align`` left/center is the palettes', and
    ``actions`` are the Material Symbols it shows (``ACTION_ICONS``). ``navigation`` is
    ``none``, ``bottom_bar`` (``nav_items`` with ``nav_icons``), ``tabs``, ``drawer`` or
    ``speed_dial_fab``, a bottom bar drawn in ``nav_style`` (``NAV_STYLES``); list rows:
    ``row_leading`` (``ROW_LEADING``), ``two_line``,
    ``row_dividers`` (the palettes'). ``title`` is what the real app's main screen shows in
    its app bar ("" for none: a month name, a search field). ``models`` names the real app
    and version modelled; ``simplifies`` says what the mock still draws differently (the
    fidelity page, ``phone_gym.docgen.fidelity``).
    """

    models: str = ""
    title: str = ""
    dark: str = "light"
    light: Palette = DEFAULT_PALETTE
    dark_palette: Palette | None = None
    actions: tuple[str, ...] = ()
    navigation: str = "none"
    nav_items: tuple[str, ...] = ()
    nav_icons: tuple[str, ...] = ()
    nav_style: str = "material"
    row_leading: str = "none"
    two_line: bool = False
    simplifies: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.dark not in DARK_MODES:
            raise ValueError(f"look: dark {self.dark!r}; accepted: {', '.join(DARK_MODES)}")
        if self.navigation not in NAVIGATIONS:
            raise ValueError(f"look: navigation {self.navigation!r}; accepted: "
                             f"{', '.join(NAVIGATIONS)}")
        if self.nav_style not in NAV_STYLES:
            raise ValueError(f"look: nav_style {self.nav_style!r}; accepted: "
                             f"{', '.join(NAV_STYLES)}")
        if self.row_leading not in ROW_LEADING:
            raise ValueError(f"look: row_leading {self.row_leading!r}; accepted: "
                             f"{', '.join(ROW_LEADING)}")
        for name in ("light", "dark_palette"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, Palette):
                raise ValueError(f"look: {name} must be a theme.Palette (see "
                                 f"theme.make_palette), got {type(value).__name__}")
        _names("look", "action icon", self.actions, ACTION_ICONS)
        _names("look", "navigation icon", self.nav_icons, ACTION_ICONS)
        if self.navigation in ("bottom_bar", "tabs") and not self.nav_items:
            raise ValueError(f"look: navigation {self.navigation!r} needs nav_items (the "
                             "labels of its destinations)")
        if self.nav_icons and len(self.nav_icons) != len(self.nav_items):
            raise ValueError(f"look: {len(self.nav_icons)} nav_icons for "
                             f"{len(self.nav_items)} nav_items; give one icon per item")
        if self.dark != "light" and self.dark_palette is None:
            raise ValueError(f"look: dark {self.dark!r} needs a dark_palette")
        if self.dark == "dark" and not self.dark_palette.dark:  # type: ignore[union-attr]
            raise ValueError("look: dark 'dark' needs a dark_palette with a dark background")

    def palette(self, night: bool = False) -> Palette:
        """The palette shown when Settings' dark theme is ``night``."""
        if self.dark == "dark" or (self.dark == "system" and night):
            return self.dark_palette  # type: ignore[return-value]
        return self.light

    @property
    def palettes(self) -> tuple[Palette, ...]:
        """Every palette the app can show."""
        dark = self.dark_palette
        if self.dark == "light" or dark is None:
            return (self.light,)
        return (dark,) if self.dark == "dark" else (self.light, dark)


#: The look of an app that declares none: today's house style, light only.
DEFAULT_LOOK = AppLook()


def material_you(primary: tuple[int, int, int] = (11, 87, 208), *, title: str = "",
                 **kw: Any) -> AppLook:
    """A stock Android (Pixel, Material You) app's look: surface app bar, tonal selection,
    following the system's dark theme; ``kw`` are more ``AppLook`` fields."""
    light = make_palette(primary, bg=(249, 250, 254), row_dividers=False)
    dark = make_palette(tuple(min(255, c + 90) for c in primary),  # type: ignore[arg-type]
                        dark=True, bg=(20, 21, 24), row_dividers=False)
    return AppLook(title=title, dark="system", light=light, dark_palette=dark, **kw)


def mini_program(primary: tuple[int, int, int], *, models: str, title: str = "",
                 **kw: Any) -> AppLook:
    """A WeChat mini-program's look: a white bar with a centered title and the capsule
    (More, Close) at the right, a light grey page, the program's brand ``primary``."""
    light = make_palette(primary, bg=(247, 247, 247), bar=(255, 255, 255),
                         title_align="center", row_dividers=True)
    return AppLook(models=models, title=title, light=light, actions=("more_horiz", "close"),
                   **kw)


@dataclass(frozen=True)
class AppManifest:
    """What an app declares about itself (see the module doc).

    ``intents`` are intent actions (fnmatch patterns such as ``android.settings.*``) that the
    app's ``handle_intent`` answers; ``deep_links`` are URI prefixes (``geo:``,
    ``https://maps.example.com/``) its ``open_link`` opens. ``owns`` are system stores whose
    data the app holds (``pm clear`` of the app wipes them); ``reads`` are system stores it
    shows or edits without owning them. ``aliases`` are more names ``open_app`` accepts;
    ``order`` places built-in apps on the launcher (lower first). ``icon`` is a Material icon
    name (``world.icons``; a legacy symbol such as "📅" is read as the icon it maps to, an
    empty one is "apps"), drawn on ``icon_shape`` (``ICON_SHAPES``) filled with ``color``.
    """

    name: str
    package: str
    label: str = ""
    icon: str = ""
    color: tuple[int, int, int] = (26, 115, 232)
    icon_shape: str = "circle"
    intents: tuple[str, ...] = ()
    deep_links: tuple[str, ...] = ()
    owns: tuple[str, ...] = ()
    reads: tuple[str, ...] = ()
    #: Shared-storage folders the app keeps its own files in, beyond the standard ones
    #: (``verifiers.state.SHARED_DIRS``): a real-device task about the app watches them.
    folders: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    description: str = ""
    order: int = 1000
    #: A mini-program names its host app here (``"Chat"``): it is not on the launcher or in
    #: the drawer, ``open_app`` of it is an error saying how to reach it, the host opens it
    #: (``App.open_app``), and back at its root returns to the host (see ``world.app``,
    #: "Mini-programs"). ``entry`` says where the host lists it ("Discover > Mini Programs").
    host: str = ""
    entry: str = ""
    #: How the app looks (``AppLook``): its palettes, bars, navigation and rows.
    look: AppLook = DEFAULT_LOOK
    #: The launcher label in other locales (``{"zh-CN": "微信"}``): what the phone shows in
    #: that locale, the name the real app has there.
    labels: Mapping[str, str] = field(default_factory=dict, hash=False)
    #: The locales whose every screen the app can show (its ``strings/<locale>.json``
    #: catalogue is complete, its fixtures seed that locale's data); en-US always.
    locales: tuple[str, ...] = (DEFAULT_LOCALE,)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not NAME_RE.match(self.name):
            raise ValueError(f"app name {self.name!r}: use letters, digits and _ (starting with "
                             "a letter), e.g. 'Notes' or 'ExpenseTracker'")
        if not isinstance(self.package, str) or not PACKAGE_RE.match(self.package):
            raise ValueError(f"app {self.name}: package {self.package!r} is not an Android "
                             "package name such as 'com.example.notes'")
        if not self.label:
            object.__setattr__(self, "label", self.name)
        icon = material_name(self.icon) if isinstance(self.icon, str) and self.icon else "apps"
        if icon is None:
            try:
                icon_glyph(self.icon)
            except ValueError as e:
                raise ValueError(f"app {self.name}: launcher icon: {e}") from None
        object.__setattr__(self, "icon", icon)
        if self.icon_shape not in ICON_SHAPES:
            raise ValueError(f"app {self.name}: icon_shape {self.icon_shape!r}; accepted: "
                             f"{', '.join(ICON_SHAPES)}")
        if len(self.color) != 3 or not all(isinstance(c, int) and 0 <= c <= 255
                                           for c in self.color):
            raise ValueError(f"app {self.name}: color {self.color!r} is not an (r, g, b) of "
                             "ints in 0..255")
        if not isinstance(self.look, AppLook):
            raise ValueError(f"app {self.name}: look must be an AppLook, got "
                             f"{type(self.look).__name__}")
        _names(f"app {self.name}", "locale", tuple(self.labels), LOCALES)
        _names(f"app {self.name}", "locale", self.locales, LOCALES)
        if DEFAULT_LOCALE not in self.locales:
            object.__setattr__(self, "locales", (DEFAULT_LOCALE, *self.locales))
        for kind in ("owns", "reads"):
            for store in getattr(self, kind):
                if store not in STORES:
                    raise ValueError(f"app {self.name}: {kind} {store!r} is not a system store"
                                     f"{did_you_mean(store, STORES)}; stores: "
                                     f"{', '.join(STORES)}")

    @property
    def mini_program(self) -> bool:
        """Whether the app is a mini-program running inside its ``host``."""
        return bool(self.host)

    def answers(self, action: str) -> bool:
        """Whether the app declares intent ``action``."""
        return any(fnmatchcase(action, pattern) for pattern in self.intents)

    def links(self, uri: str) -> bool:
        """Whether the app opens the deep link ``uri``."""
        return any(uri.startswith(prefix) for prefix in self.deep_links)

    def names(self) -> tuple[str, ...]:
        """Every name ``open_app`` accepts for the app (name, label, package, aliases, and
        its labels in other locales)."""
        return tuple(dict.fromkeys((self.name, self.label, self.package, *self.aliases,
                                    *self.labels.values())))

    def label_in(self, locale: str) -> str:
        """The launcher label the phone shows in ``locale`` (its English ``label`` when the
        manifest names none for that locale)."""
        return self.labels.get(locale, self.label)
