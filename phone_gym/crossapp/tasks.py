"""Cross-app templates: a contact's number copied into a note (``families.handoff``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ..actions import PhoneAction
from ..mockapps.contacts.fixtures import MissingContact, roster_params, seed_contacts
from ..mockapps.notes.fixtures import seed_notes
from ..tasks.driver import Driver
from ..tasks.task import Task
from ..tasks.vocab import pick
from ..verifiers import Matcher
from ..verifiers.answers import answer_matcher
from .families.handoff import ToNote

NOTE_TITLES = ("Plumber", "Dentist", "Babysitter", "Landlord", "Tennis coach", "Mechanic",
               "Piano teacher", "Vet", "Electrician", "Realtor")


class CrossContactPhoneToNote(ToNote):
    """Copy a contact's number (Contacts) into a new note (Notes)."""

    apps = ("Contacts", "Notes")
    template = 'Create a note titled "{title}" containing the phone number of "{name}".'
    complexity, max_steps = 3, 30

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {**roster_params(rng), "title": pick(rng, NOTE_TITLES)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_contacts(state, params["people"])
        seed_notes(state, rng, 3, avoid=[params["title"]])

    def reading(self, p: Mapping[str, Any]) -> Matcher:
        return answer_matcher("phone", p["phone"])  # that one number: a dump of all fails

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {**super().fields(p), "pinned": False}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Contacts")
        yield from ui.tap(p["name"], kind="list_item")
        yield from ui.long_press(id="phone", kind="text")
        yield from ui.tap("Copy", kind="menu_item")
        yield from ui.open_app("Notes")
        yield from ui.tap(id="new_note")
        yield from ui.fill("title", p["title"])
        yield from ui.long_press(id="body", kind="text_field")
        yield from ui.tap("Paste", kind="menu_item")
        yield from ui.tap(id="save")
        yield from ui.finish()


class CrossContactPhoneToNoteInfeasible(MissingContact, CrossContactPhoneToNote):
    """The contact is not on the phone: there is no number to copy."""


TEMPLATES: list[Task] = [CrossContactPhoneToNote(), CrossContactPhoneToNoteInfeasible()]
