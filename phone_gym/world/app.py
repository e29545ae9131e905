"""The base class of every mock app.

An app declares itself with an ``AppManifest`` (name, label, package, icon, intents, the
stores it owns and reads), keeps persistent ``data`` (a dataclass, usually holding
``Table``s of frozen records: what verifiers compare), transient ``ui`` state (drafts,
selections: dropped when the app is force-stopped), and a back stack of routes.
``view(route)`` is a pure function of that state returning a ``Screen``; event handlers in
the view call update functions and the navigation helpers below.

Mini-programs
    A mini-program is an app that runs inside a host app (a chat super-app), as WeChat's
    do: its manifest names the host (``AppManifest(..., host="Chat", entry="Discover >
    Mini Programs")``), so it is not on the launcher or in the drawer and the agent's
    ``open_app`` of it is an error that says how to reach it. The host opens it with
    ``self.open_app(name)`` (any app may open another this way). Its screens carry the
    capsule bar (``kit.with_capsule(self, screen)``: "···" opens a menu with "Back to <host>",
    "Share" and "Settings"; "⊙" closes the mini-program). Back at its first screen, and
    the capsule's close, return to the host's screen it was opened from
    (``back_to_host``; close also drops the mini-program's back stack, ``close_mini``).
    Its data is its own ``Store`` (``apps.<Name>...``, read by verifiers); payments go
    through the host's wallet, the system ``wallet`` store, with the host's PIN
    confirmation (``kit.PaySheet`` and ``kit.pay``). Like WeChat on Android, a
    mini-program shows in recents as a card of its own, which resumes it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Any, ClassVar, Protocol

from ..verifiers.snap import freeze
from .data import Journal, attach_all, to_plain
from .locale import DEFAULT_LOCALE, Catalogue
from .manifest import AppManifest, Intent
from .system import SystemState
from .widgets import Screen

#: ``android.util.Log``'s priorities, VERBOSE to ASSERT (logcat's letters).
LOG_PRIORITIES = "VDIWEF"


@dataclass(frozen=True)
class Route:
    """One screen of an app: a name and an optional argument (an id, a tab...)."""

    name: str
    arg: Any = None


class Host(Protocol):
    """What an app may ask of the device."""

    def toast(self, text: str) -> None: ...

    def go_home(self) -> None: ...

    def open_app(self, name: str) -> None: ...

    def log(self, package: str, priority: str, tag: str, message: str) -> None: ...


class App:
    """Subclass, set ``manifest``, and implement ``view``.

    ``name``, ``package``, ``glyph`` and ``color`` come from the manifest. (A subclass that
    sets those four class attributes instead gets a manifest made from them.)
    """

    manifest: ClassVar[AppManifest] = AppManifest("App", "com.example.app")
    name: ClassVar[str] = "App"
    package: ClassVar[str] = "com.example.app"
    glyph: ClassVar[str] = "apps"  # a Material icon name (world.icons)
    color: ClassVar[tuple[int, int, int]] = (26, 115, 232)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__
        if "manifest" in own:
            m = cls.manifest
            cls.name, cls.package, cls.glyph, cls.color = m.name, m.package, m.icon, m.color
        elif any(k in own for k in ("name", "package", "glyph", "color")):
            cls.manifest = AppManifest(cls.name, cls.package, icon=cls.glyph, color=cls.color)

    def __init__(self, system: SystemState, host: Host | None = None,
                 journal: Journal | None = None) -> None:
        self.system = system
        self.host = host
        self.journal = journal
        self.data: Any = self.initial_data()
        self.ui: Any = self.initial_ui()
        self.stack: list[Route] = [Route("main")]
        self.capsule = False  # a mini-program's capsule menu is showing
        self._attach()

    def _attach(self) -> None:
        if self.journal is not None:
            attach_all(self.data, self.journal)
        self.make_indexes()

    def make_indexes(self) -> None:
        """Create the indexes (``Table.index``) of the app's own data that its views read,
        when the app is installed or its data cleared, so that writes keep them sorted."""

    @classmethod
    def index_system(cls, system: SystemState) -> None:
        """Create the indexes of the shared stores the app's views read (called at every
        reset, for every installed app, whether it is opened or not)."""

    @classmethod
    def fresh_snapshot(cls) -> Any:
        """The snapshot of a fresh install's data (what an app nobody opened holds): made
        once per class."""
        cached = cls.__dict__.get("_fresh")
        if cached is None:
            cached = (freeze(to_plain(cls(SystemState()).data)),)
            setattr(cls, "_fresh", cached)  # noqa: B010 - a per-class cache
        return cached[0]

    @property
    def label(self) -> str:
        return self.manifest.label

    def t(self, key: str, **fields: object) -> str:
        """The text to show for the English string ``key`` in the phone's locale (the app's
        catalogue, ``strings/<locale>.json`` beside its module; see ``world.locale``)."""
        locale = self.system.locale
        if locale == DEFAULT_LOCALE:  # the key itself (``Catalogue.t`` in en-US)
            return key.format(**fields) if fields else key
        return app_strings(type(self), locale).t(key, **fields)

    # --- to override -----------------------------------------------------------------
    def initial_data(self) -> Any:
        """Persistent data of a fresh install."""
        return None

    def initial_ui(self) -> Any:
        """Transient UI state when the app starts."""
        return None

    def view(self, route: Route) -> Screen:
        raise NotImplementedError

    def handle_intent(self, intent: Intent) -> bool:
        """Answer an intent the manifest declares; return whether to show the app (False:
        handled in the background, like an alarm set with ``SKIP_UI``). The default opens
        the first screen."""
        return True

    def open_link(self, uri: str) -> None:
        """Show the screen for a deep link the manifest declares."""

    @property
    def ticking(self) -> bool:
        """Whether the view shown now changes as time passes (a running timer): the device
        then redraws after every action, even one that touched nothing."""
        return False

    def snapshot(self) -> Any:
        """Plain persistent data for verifiers (tables as snapshots)."""
        return to_plain(self.data)

    def clear_data(self) -> None:
        """``pm clear``: the data of a fresh install."""
        self.data = self.initial_data()
        self._attach()
        if self.journal is not None:
            self.journal.bump()

    # --- navigation helpers for views ------------------------------------------------
    @property
    def route(self) -> Route:
        return self.stack[-1]

    def go(self, name: str, arg: Any = None) -> None:
        """Open a screen on top of the current one."""
        self.stack.append(Route(name, arg))

    def replace(self, name: str, arg: Any = None) -> None:
        """Swap the current screen for another."""
        self.stack[-1] = Route(name, arg)

    def back(self) -> None:
        """Close the current screen; from the first screen, go to the home screen (a
        mini-program: back to its host)."""
        if len(self.stack) > 1:
            self.stack.pop()
        elif self.manifest.mini_program:
            self.back_to_host()
        elif self.host is not None:
            self.host.go_home()

    def open_app(self, name: str) -> None:
        """Bring another app (a mini-program, from its host) to the foreground."""
        if self.host is not None:
            self.host.open_app(name)

    def back_to_host(self) -> None:
        """A mini-program: show the host again (at the screen it opened this one from),
        keeping this one's back stack for when it is opened again."""
        self.capsule = False
        if self.manifest.host:
            self.open_app(self.manifest.host)

    def close_mini(self) -> None:
        """A mini-program's capsule close: its screens and transient state go, its data
        stays, and the host shows again."""
        self.stop()
        self.back_to_host()

    def toast(self, text: str) -> None:
        if self.host is not None:
            self.host.toast(text)

    def log(self, message: str, *, priority: str = "I", tag: str = "") -> None:
        """Write a line to the phone's log as ``android.util.Log`` does (``priority`` one of
        ``VDIWEF``; ``tag`` defaults to the app's name): ``adb logcat`` on the virtual
        device shows it under the app's uid and pid."""
        if priority not in LOG_PRIORITIES or len(priority) != 1:
            raise ValueError(f"log priority {priority!r}; accepted: one of "
                             f"{', '.join(LOG_PRIORITIES)}")
        if self.host is not None:
            self.host.log(self.package, priority, tag or self.name, message)

    def stop(self) -> None:
        """Force-stop: transient state and back stack are lost, data persists."""
        self.ui = self.initial_ui()
        self.stack = [Route("main")]
        self.capsule = False

    @property
    def fresh(self) -> bool:
        """Whether the app shows its first screen with fresh transient state."""
        return (self.stack == [Route("main")] and self.ui == self.initial_ui()
                and not getattr(self, "capsule", False))

    def __getstate__(self) -> Mapping[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "journal"}

    def __setstate__(self, state: Mapping[str, Any]) -> None:
        self.__dict__.update(state)
        self.journal = None


def index_systems(handles: Iterable[AppHandle], system: SystemState) -> None:
    """``index_system(system)`` of each loaded app of ``handles`` that has its own (a
    handle not loaded makes its indexes on first use; ``App``'s makes none)."""
    for handle in handles:
        cls = handle._cls
        if cls is not None and cls.index_system.__func__ is not _NO_INDEXES:  # type: ignore[attr-defined]
            cls.index_system(system)


class Unknown:
    """The type of ``UNKNOWN``: one instance, which pickles as a reference to it (an env
    pickled with a handle whose fresh data is not known yet loads with the same one)."""

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __reduce__(self) -> str:
        return "UNKNOWN"


#: An ``AppHandle``'s fresh data before anyone said what it is.
UNKNOWN: Any = Unknown()


class AppHandle:
    """An installed app before its code is loaded: its manifest, and ``load`` to import its
    ``App`` class on first use (a phone with 47 apps imports only the ones an episode
    touches). It stands in for the class: ``name``, ``package``, ``glyph``, ``color`` and
    ``manifest`` come from the manifest; calling it or reading any other attribute loads
    the class (``cls``). A class passed where a handle is expected is wrapped (``of``)."""

    __slots__ = ("_cls", "_fresh", "_load", "manifest")
    #: How many handles have loaded their class in this process (caches of what depends
    #: on which apps are loaded key on it).
    loads: ClassVar[int] = 0

    def __init__(self, manifest: AppManifest, load: Callable[[], type[App]],
                 fresh: Any = UNKNOWN) -> None:
        self.manifest = manifest
        self._load = load
        self._cls: type[App] | None = None
        self._fresh = fresh  # the fresh install's data snapshot, if known without the code

    @classmethod
    def of(cls, app: type[App] | AppHandle) -> AppHandle:
        if isinstance(app, AppHandle):
            return app
        handle = cls(app.manifest, partial(_same, app))
        handle._cls = app
        return handle

    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def package(self) -> str:
        return self.manifest.package

    @property
    def glyph(self) -> str:
        return self.manifest.icon

    @property
    def color(self) -> tuple[int, int, int]:
        return self.manifest.color

    @property
    def loaded(self) -> bool:
        return self._cls is not None

    @property
    def cls(self) -> type[App]:
        """The app's class, imported on first use."""
        if self._cls is None:
            loaded = self._load()
            if loaded.manifest != self.manifest:
                raise ValueError(f"app {self.manifest.name}: the loaded class's manifest "
                                 "differs from the one it was installed with")
            self._cls = loaded
            AppHandle.loads += 1
        return self._cls

    def fresh(self) -> Any:
        """The snapshot of a fresh install's data (``App.fresh_snapshot``): the one the
        handle was made with (the registry's index holds every built-in app's) while the
        class is not loaded; the class's own once it is (equal to it: a test checks)."""
        if self._cls is None and self._fresh is not UNKNOWN:
            return self._fresh
        return self.cls.fresh_snapshot()

    def __call__(self, *args: Any, **kwargs: Any) -> App:
        return self.cls(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.cls, name)

    def __getstate__(self) -> tuple[Any, ...]:
        return self.manifest, self._load, self._cls, self._fresh  # classes by reference

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.manifest, self._load, self._cls, self._fresh = state

    def __eq__(self, other: object) -> bool:
        """The same app: a handle or the class of the same manifest."""
        if isinstance(other, AppHandle):
            return self is other or self.manifest == other.manifest
        return isinstance(other, type) and getattr(other, "manifest", None) == self.manifest

    def __hash__(self) -> int:
        return hash(self.manifest.package)

    def __repr__(self) -> str:
        return f"AppHandle({self.manifest.name!r}, loaded={self.loaded})"


#: An app as the device and the registry take it: its class, or a handle that loads it.
AppLike = type[App] | AppHandle


def app_strings(cls: type[App], locale: str) -> Catalogue:
    """The catalogue of app class ``cls`` in ``locale``: ``strings/<locale>.json`` in its
    package's folder. An app that does not declare ``locale`` (``AppManifest.locales``)
    shows its English strings there (it is not translated yet, and says so); one that
    declares it raises ``MissingString`` for a string its catalogue lacks."""
    if locale not in cls.manifest.locales:
        locale = DEFAULT_LOCALE
    return _strings(cls.__module__, cls.manifest.name, locale)


@cache
def _strings(module: str, owner: str, locale: str) -> Catalogue:
    folder = Path(sys.modules[module].__file__ or "").parent / "strings"
    return Catalogue(owner, folder, locale)


def _same(value: Any) -> Any:
    return value


#: ``App.index_system``'s function: an app that keeps it makes no indexes of the system.
_NO_INDEXES = App.index_system.__func__  # type: ignore[attr-defined]
