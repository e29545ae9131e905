"""The authoring kit: ``check_task`` and ``check_app`` pass on every built-in template and
app, report their figures, and catch broken ones."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, TEMPLATES, Driver
from phone_gym.mockapps.notes.fixtures import COLLECTION, seed_notes
from phone_gym.tasks.families import CreateRecord
from phone_gym.testing import (
    CheckFailed,
    check_app,
    check_task,
    fingerprints,
    fresh_process_fingerprints,
)
from phone_gym.verifiers import same_text
from phone_gym.world import App, Route, Screen
from phone_gym.world.manifest import AppManifest
from phone_gym.world.widgets import Icon, Text


@pytest.mark.parametrize("task_id", sorted(TEMPLATES))
def test_check_task_passes_every_template(task_id: str) -> None:
    report = check_task(task_id, 20, processes=False)
    assert report.solved == 20 and report.negatives >= 20
    for k in (0, 3, 10):
        recoverable, solved, _ = report.starts[k]
        assert recoverable >= 15 and solved >= 0.9 * recoverable, report.line()


@pytest.mark.slow  # a sweep of its own: the full tier runs it
def test_the_same_seeds_give_the_same_episodes_in_a_fresh_process() -> None:
    ids = sorted(TEMPLATES)
    assert fresh_process_fingerprints(ids, 2) == fingerprints(ids, 2)


@pytest.mark.parametrize("app", [a.name for a in APPS])
def test_check_app_passes_every_app(app: str) -> None:
    report = check_app(app, 10_000)
    assert report.steps == 10_000 and report.screens >= 5


class LazyNote(CreateRecord):
    """A broken template: its oracle finishes at once, and its criteria accept any note."""

    id = "LazyNote"
    apps, collection = ("Notes",), COLLECTION
    template = 'Create a note titled "{title}".'

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"title": "Plans"}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_notes(state, rng, 2)

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": same_text(p["title"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.finish()


def test_check_task_reports_a_broken_template() -> None:
    with pytest.raises(CheckFailed, match="oracle's end state fails"):
        check_task(LazyNote(), 3, starts=(), processes=False)
    report = check_task(LazyNote(), 3, starts=(), processes=False, raise_on_failure=False)
    assert report.solved == 0 and report.problems


class Unlabelled(App):
    manifest = AppManifest("Unlabelled", "com.example.unlabelled")

    def view(self, route: Route) -> Screen:
        return Screen(content=[Text("hi"), Icon("", "", lambda: None, id="mystery")])


class Crashing(App):
    manifest = AppManifest("Crashing", "com.example.crashing")

    def view(self, route: Route) -> Screen:
        return Screen(content=[Icon("x", "Explode", self.explode, id="explode")])

    def explode(self) -> None:
        raise ZeroDivisionError("boom")


def test_check_app_finds_unlabelled_controls_and_crashes() -> None:
    with pytest.raises(CheckFailed, match="no text and no content description"):
        check_app(Unlabelled, 300, others=[])
    with pytest.raises(CheckFailed, match="ZeroDivisionError"):
        check_app(Crashing, 3000, others=[])
