"""A Calculator app for PhoneWorld: a keypad, a display, and a history of results.

This package is what a third-party app looks like: ``APP`` (with its manifest) and
``TEMPLATES``, exposed through the entry point ``phone_gym.apps`` in ``pyproject.toml``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import Driver
from phone_gym.tasks.families import Lookup
from phone_gym.world.app import App, Route
from phone_gym.world.data import Store, Table
from phone_gym.world.manifest import AppManifest
from phone_gym.world.widgets import Button, ListItem, ListView, Row, Screen, Text, TopBar

MANIFEST = AppManifest(name="Calculator", package="com.example.calculator", icon="calculate",
                       color=(96, 125, 139), description="Adds and subtracts; keeps a history.")
KEYS = ("789", "456", "123", "C0=")


@dataclass(frozen=True)
class Calculation:
    id: int
    expression: str
    result: int


@dataclass
class CalculatorData(Store):
    history: Table[Calculation] = field(default_factory=lambda: Table(kind=Calculation))


@dataclass
class CalculatorUi:
    display: str = ""


def evaluate(expression: str) -> int:
    """``a+b-c`` of whole numbers, left to right (no ``eval``)."""
    total, sign, number = 0, 1, ""
    for ch in expression + "+":
        if ch.isdigit():
            number += ch
        elif ch in "+-":
            total += sign * int(number or 0)
            sign, number = (1 if ch == "+" else -1), ""
    return total


class CalculatorApp(App):
    manifest = MANIFEST

    data: CalculatorData
    ui: CalculatorUi

    def initial_data(self) -> CalculatorData:
        return CalculatorData()

    def initial_ui(self) -> CalculatorUi:
        return CalculatorUi()

    def press_key(self, key: str) -> None:
        if key == "C":
            self.ui.display = ""
        elif key == "=":
            if self.ui.display:
                result = evaluate(self.ui.display)
                self.data.history.new(expression=self.ui.display, result=result)
                self.ui.display = str(result)
        else:
            self.ui.display += key

    def view(self, route: Route) -> Screen:
        rows = [Row([Button(k, lambda k=k: self.press_key(k), id=f"key_{k}") for k in line])
                for line in KEYS]
        ops = Row([Button(op, lambda op=op: self.press_key(op), id=f"op_{n}", style="secondary")
                   for op, n in (("+", "plus"), ("-", "minus"))])
        history = [ListItem(c.expression, f"= {c.result}", id=f"history_{c.id}")
                   for c in reversed(self.data.history.values())]
        return Screen(top_bar=TopBar("Calculator"), content=[
            Text(self.ui.display or "0", style="big", id="display"), *rows, ops,
            Text("History", style="caption", id="history_title"),
            ListView(history, id="history", empty_text="No calculations yet")])


class CalculatorLastResult(Lookup):
    """Read the newest result in the history."""

    apps = ("Calculator",)
    template = "In the Calculator, what was the result of the last calculation?"
    max_steps = 6
    answer_type, answer_field = "number", "result"

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        pairs = [(int(rng.integers(10, 99)), int(rng.integers(10, 99))) for _ in range(3)]
        return {"pairs": pairs, "result": sum(pairs[-1])}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        history = state.app("Calculator").data.history
        for a, b in params["pairs"]:
            history.new(expression=f"{a}+{b}", result=a + b)

    def expected(self, params: Mapping[str, Any]) -> Any:
        return params["result"]

    def candidates(self, params: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [a + b for a, b in params["pairs"]]

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Calculator")
        newest = ui.must(id=f"history_{len(params['pairs'])}")
        yield from ui.answer(newest.hint.removeprefix("= "))


APP = CalculatorApp
TEMPLATES = [CalculatorLastResult()]
