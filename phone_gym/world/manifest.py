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
from collections.abc import Iterable
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from .icons import icon_glyph, material_name
from .system import STORES

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
        """Every name ``open_app`` accepts for the app (name, label, package, aliases)."""
        return tuple(dict.fromkeys((self.name, self.label, self.package, *self.aliases)))
