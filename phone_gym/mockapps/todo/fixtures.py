"""Public fixtures of To-do: what tasks (this app's and other apps') use to seed items."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import date
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.pickers import pick_date
from ...tasks.task import data_catalogue
from ...tasks.vocab import pick
from ...verifiers.state import DeviceState
from . import app as app_module

COLLECTION = "apps.Todo.items"
#: Titles of items; new ones for tasks that add or rename one (not among these).
TITLES = ("Buy milk", "Call the dentist", "Pay rent", "Renew passport", "Water the plants",
          "Book flights", "Return library books", "Fix the bike", "Send invoice",
          "Plan the party", "Clean the garage", "Order new glasses", "Back up photos",
          "Cancel the gym", "Pick up the parcel")
NEW_TITLES = ("Bake a cake", "Call grandma", "Wash the car", "Buy a gift", "Update resume",
              "Vacuum the stairs")
#: The seeded data in zh-CN (``strings/zh-CN.data.json``: the titles); templates draw
#: their params as in en-US, then take these words (``Task.sample_in``).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def app_of(state: DeviceState) -> app_module.TodoApp:
    app = state.app("Todo")  # type: ignore[attr-defined]
    assert isinstance(app, app_module.TodoApp)
    return app


def write_item(state: DeviceState, title: str, note: str = "", *, done: bool = False,
               **fields: Any) -> app_module.Item:
    """Add an item (PhoneWorld: the app's own data); ``fields`` are the other ``Item``
    fields (``due``, ``due_time``, ``priority``, ``completed``, ``hide_until``)."""
    return app_module.add_item(app_of(state).data, title, note, done=done, **fields)


def seed_items(state: DeviceState, titles: Sequence[str], done: Sequence[bool]) -> None:
    """Write ``titles`` in order (ids 1, 2, ...), ``done`` or not."""
    for title, is_done in zip(titles, done, strict=True):
        write_item(state, title, done=is_done)


def sample_titles(rng: np.random.Generator, k: int) -> list[str]:
    return pick(rng, TITLES, k)


def set_due(ui: Driver, due: str) -> Iterator[PhoneAction]:
    """Oracle steps in an open item's editor: set its due date (``YYYY-MM-DD``) through the
    date picker, unless it is due then already."""
    day = date.fromisoformat(due)
    yield from ui.reveal(id="due_value")
    if ui.must(id="due_value").text == app_module.say_date(due):
        return
    yield from ui.tap(id="due")
    yield from pick_date(ui, day)
