"""Real-device task templates: setup, check and reset through ``DeviceState`` only.

A template here never touches PhoneWorld internals: it writes its initial state and reads
the final one through the device-state interface (``settings``, contacts, alarms, files),
so the same template runs on a phone over adb (``AdbState``), on the virtual adb device,
and on an in-process PhoneWorld phone (``WorldState``). Its oracle reads the screen only
through the UI element list (``uiautomator dump``), so it is a scripted policy that works
wherever the labels match.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...verifiers import Criterion, DeviceState, Verdict, Watch, check, observe
from ...world.a11y import UIElement

MAX_SCROLLS = 6


class OracleError(RuntimeError):
    """The scripted policy cannot find what it looks for on screen."""


class ScreenDriver:
    """Builds actions from what is on screen: ``elements()`` returns the current UI
    element list (refreshed by the env after every action)."""

    def __init__(self, elements: Callable[[], Sequence[UIElement]]) -> None:
        self.elements = elements

    def find(self, text: str | None = None, *, id: str | None = None,
             desc: str | None = None, cls: str | None = None) -> UIElement | None:
        """The last matching element on screen (overlays come last); text matches exactly."""
        for e in reversed(list(self.elements())):
            if text is not None and e.text != text:
                continue
            if id is not None and e.short_id != id:
                continue
            if desc is not None and e.content_desc != desc:
                continue
            if cls is not None and e.short_class != cls:
                continue
            if e.bounds[3] - e.bounds[1] < 10 or not e.enabled:
                continue
            return e
        return None

    def must(self, text: str | None = None, **query: str) -> UIElement:
        found = self.find(text, **query)
        if found is None:
            raise OracleError(f"nothing matching text={text!r} {query} on screen")
        return found

    def reveal(self, text: str | None = None, **query: str) -> Iterator[PhoneAction]:
        """Scroll (down, then up) until a matching element is on screen."""
        for direction in ("down", "up"):
            for _ in range(MAX_SCROLLS):
                if self.find(text, **query) is not None:
                    return
                before = [(e.text, e.bounds) for e in self.elements()]
                yield PhoneAction("scroll", x=500, y=600, direction=direction)
                if [(e.text, e.bounds) for e in self.elements()] == before:
                    break
        self.must(text, **query)

    def tap(self, text: str | None = None, **query: str) -> Iterator[PhoneAction]:
        yield from self.reveal(text, **query)
        x, y = self.must(text, **query).center_norm
        yield PhoneAction("click", x=x, y=y)

    def long_press(self, text: str | None = None, **query: str) -> Iterator[PhoneAction]:
        yield from self.reveal(text, **query)
        x, y = self.must(text, **query).center_norm
        yield PhoneAction("long_press", x=x, y=y)

    def fill(self, text: str, **query: str) -> Iterator[PhoneAction]:
        """Focus a text field and make its text ``text`` (select all and type over it)."""
        yield from self.tap(**query)
        field = self.must(**query)
        if field.text == text:
            return
        if field.text:
            yield from self.long_press(**query)
            yield from self.tap("Select all")
        yield PhoneAction("type", text=text)

    def set_switch(self, label: str, on: bool) -> Iterator[PhoneAction]:
        """Flip the switch labelled ``label`` if it is not ``on`` already."""
        yield from self.reveal(label)
        switch = self._switch(label)
        if switch.checked != on:
            x, y = switch.center_norm
            yield PhoneAction("click", x=x, y=y)

    def _switch(self, label: str) -> UIElement:
        for e in self.elements():
            if e.checkable and (e.text == label or e.content_desc == label):
                return e
        raise OracleError(f"no switch labelled {label!r} on screen")


class RealTaskTemplate:
    """Subclass and set the class attributes; override the methods you need."""

    #: Unique CamelCase id (the env's ``task=`` value).
    id: ClassVar[str] = ""
    #: The app names the task is about (as ``open_app`` takes them).
    apps: ClassVar[tuple[str, ...]] = ()
    #: Packages force-stopped at reset.
    packages: ClassVar[tuple[str, ...]] = ()
    #: Packages that hold the task's data: wiped with ``pm clear`` at reset when the env is
    #: told it may wipe app data.
    data_packages: ClassVar[tuple[str, ...]] = ()
    template: ClassVar[str] = ""
    complexity: ClassVar[int] = 1
    max_steps: ClassVar[int] = 20
    needs_answer: ClassVar[bool] = False
    #: What the snapshots (and so the collateral-damage check) cover.
    watch: ClassVar[Watch] = Watch()

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {}

    def setup(self, state: DeviceState, params: Mapping[str, Any],
              rng: np.random.Generator) -> None:
        """Write the initial state through ``state``."""

    def instruction(self, params: Mapping[str, Any]) -> str:
        return self.template.format(**params)

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        """What must hold in the final snapshot (may depend on the initial one)."""
        return ()

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        """Changes the task asks for (``verifiers.diff.matches`` patterns)."""
        return ()

    def snapshot(self, state: DeviceState) -> dict[str, Any]:
        return observe(state, self.watch)

    def verify(self, initial: Mapping[str, Any], final: Mapping[str, Any],
               params: Mapping[str, Any], answer: str | None) -> Verdict:
        return check(initial, final, self.criteria(params, initial),
                     allowed=self.allowed(params), answer=answer, ignore=())

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        """A wrong end state close to the solved one (for tests): ``verify`` must fail it."""
        raise NotImplementedError

    def oracle(self, ui: ScreenDriver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        """A scripted policy: actions that solve the task, reading the screen via ``ui``."""
        raise NotImplementedError
        yield  # pragma: no cover


class RealEpisode:
    """One task instance on a phone reached through ``state``."""

    def __init__(self, template: RealTaskTemplate, state: DeviceState,
                 rng: np.random.Generator) -> None:
        self.template = template
        self.state = state
        self.params = template.sample_params(rng)
        template.setup(state, self.params, rng)
        self.instruction = template.instruction(self.params)
        self.initial = template.snapshot(state)
        self._oracle: Iterator[PhoneAction] | None = None

    def verify(self, answer: str | None = None) -> Verdict:
        final = self.template.snapshot(self.state)
        return self.template.verify(self.initial, final, self.params, answer)

    def oracle_action(self, elements: Callable[[], Sequence[UIElement]]) -> PhoneAction:
        if self._oracle is None:
            self._oracle = self.template.oracle(ScreenDriver(elements), self.params)
        try:
            return next(self._oracle)
        except StopIteration:
            return PhoneAction("finish", status="success")
