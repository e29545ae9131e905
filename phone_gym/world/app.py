"""The base class of every mock app.

An app keeps persistent ``data`` (a dataclass: what verifiers compare), transient ``ui``
state (drafts, selections: dropped when the app is force-stopped), and a back stack of
routes. ``view(route)`` is a pure function of that state returning a ``Screen``; event
handlers in the view call update functions and the navigation helpers below.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from .system import SystemState, to_plain
from .widgets import Screen


@dataclass(frozen=True)
class Route:
    """One screen of an app: a name and an optional argument (an id, a tab...)."""

    name: str
    arg: Any = None


class Host(Protocol):
    """What an app may ask of the device."""

    def toast(self, text: str) -> None: ...

    def go_home(self) -> None: ...


class App:
    """Subclass, set the class attributes, and implement ``view``."""

    name: ClassVar[str] = "App"
    package: ClassVar[str] = "com.example.app"
    glyph: ClassVar[str] = "A"
    color: ClassVar[tuple[int, int, int]] = (26, 115, 232)

    def __init__(self, system: SystemState, host: Host | None = None) -> None:
        self.system = system
        self.host = host
        self.data: Any = self.initial_data()
        self.ui: Any = self.initial_ui()
        self.stack: list[Route] = [Route("main")]

    # --- to override -----------------------------------------------------------------
    def initial_data(self) -> Any:
        """Persistent data of a fresh install."""
        return None

    def initial_ui(self) -> Any:
        """Transient UI state when the app starts."""
        return None

    def view(self, route: Route) -> Screen:
        raise NotImplementedError

    @property
    def ticking(self) -> bool:
        """Whether the view shown now changes as time passes (a running timer): the device
        then redraws after every action, even one that touched nothing."""
        return False

    def snapshot(self) -> Any:
        """Plain persistent data for verifiers."""
        return to_plain(self.data)

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
        """Close the current screen; from the first screen, go to the home screen."""
        if len(self.stack) > 1:
            self.stack.pop()
        elif self.host is not None:
            self.host.go_home()

    def toast(self, text: str) -> None:
        if self.host is not None:
            self.host.toast(text)

    def stop(self) -> None:
        """Force-stop: transient state and back stack are lost, data persists."""
        self.ui = self.initial_ui()
        self.stack = [Route("main")]
