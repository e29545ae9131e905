"""Notes tasks."""

from __future__ import annotations

import copy

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...verifiers import Criterion, Record, same_text
from ...world import Device
from ..oracle import Driver
from ..task import TaskTemplate, pick
from .app import NotesApp, add_note

TITLES = ("Groceries", "Trip ideas", "Meeting notes", "Books to read", "Gift list",
          "Workout plan", "Recipes", "Packing list", "Project ideas", "Call back")
BODIES = ("milk, eggs, bread", "Lisbon in spring", "ask about the budget", "Dune and Emma",
          "scarf for mom", "run 5k on Monday", "lentil soup", "charger and passport",
          "a birdhouse", "the dentist at 3")


def notes_app(device: Device) -> NotesApp:
    app = device.apps[NotesApp.name]
    assert isinstance(app, NotesApp)
    return app


def seed_notes(device: Device, rng: np.random.Generator, k: int, *, avoid: Sequence[str] = ()) -> None:
    """Add ``k`` distractor notes whose titles are not in ``avoid``."""
    titles = [t for t in TITLES if t not in avoid]
    for i in pick(rng, range(len(titles)), k):
        add_note(notes_app(device).data, titles[i], BODIES[i % len(BODIES)])


class NotesCreateNote(TaskTemplate):
    id = "NotesCreateNote"
    apps = ("Notes",)
    template = 'Create a note titled "{title}" with the text "{body}".'
    complexity = 1
    max_steps = 12

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        i = int(rng.integers(len(TITLES)))
        return {"title": TITLES[i], "body": pick(rng, BODIES)}

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_notes(device, rng, 3, avoid=[params["title"]])

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record("apps.Notes.notes", {"title": same_text(params["title"])},
                       {"body": same_text(params["body"])}, count=1)]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return ["added:apps.Notes.notes.*"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        state = copy.deepcopy(final)
        for note in state["apps"]["Notes"]["notes"].values():
            if note["title"] == params["title"]:
                note["body"] = params["body"] + "s"
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Notes")
        yield from ui.tap(id="new_note")
        yield from ui.fill("title", params["title"])
        yield from ui.fill("body", params["body"])
        yield from ui.tap(id="save")
        yield PhoneAction("finish", status="success")


TEMPLATES: list[TaskTemplate] = [NotesCreateNote()]
