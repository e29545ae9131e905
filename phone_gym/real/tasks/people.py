"""Contacts tasks, checked with ``content query`` on the contacts provider."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...verifiers import Answer, Criterion, DeviceState, Record, Value, same_phone
from ...verifiers.state import contact_key
from ...world.device import CONTACTS_PROVIDER
from .base import RealTaskTemplate, ScreenDriver

CONTACTS = "com.android.contacts"
FIRST = ("Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Margaret", "Linus",
         "Radia", "Ken", "Frances", "Niklaus")
LAST = ("Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Hamilton",
        "Torvalds", "Perlman", "Thompson", "Allen", "Wirth")


def person(rng: np.random.Generator) -> tuple[str, str]:
    """A name and a phone number (555 numbers, never real)."""
    name = f"{FIRST[int(rng.integers(len(FIRST)))]} {LAST[int(rng.integers(len(LAST)))]}"
    phone = f"555-{int(rng.integers(100, 1000)):03d}-{int(rng.integers(0, 10000)):04d}"
    return name, phone


def distinct_people(rng: np.random.Generator, k: int) -> list[tuple[str, str]]:
    people: dict[str, str] = {}
    while len(people) < k:
        name, phone = person(rng)
        people.setdefault(name, phone)
    return list(people.items())


class ContactsTask(RealTaskTemplate):
    apps = ("Contacts",)
    packages = (CONTACTS,)
    data_packages = (CONTACTS_PROVIDER,)  # contacts live in the provider, not the app

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        people = distinct_people(rng, 4)
        return {"name": people[0][0], "phone": people[0][1],
                "others": [list(p) for p in people[1:]]}


class ContactsCreate(ContactsTask):
    id = "ContactsCreate"
    template = 'Create a contact named "{name}" with the phone number {phone}.'
    complexity = 2
    max_steps = 16

    def setup(self, state: DeviceState, params: Mapping[str, Any],
              rng: np.random.Generator) -> None:
        for name, phone in params["others"]:
            state.add_contact(name, phone)

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        key = contact_key(params["name"], params["phone"])
        before = initial["contacts"].get(key, {}).get("count", 0)
        return [Record("contacts", {"name": params["name"], "phone": same_phone(params["phone"])},
                       {"count": before + 1})]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        key = contact_key(params["name"], params["phone"])
        return [f"contacts.{key}"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        wrong = copy.deepcopy(final)
        key = contact_key(params["name"], params["phone"])
        record = wrong["contacts"].pop(key)
        record["phone"] = record["phone"][:-1] + str((int(record["phone"][-1]) + 1) % 10)
        wrong["contacts"][contact_key(record["name"], record["phone"])] = record
        return wrong, answer

    def oracle(self, ui: ScreenDriver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield PhoneAction("open_app", app="Contacts")
        yield from ui.tap(id="create_contact")
        yield from ui.fill(params["name"], id="name")
        yield from ui.fill(params["phone"], id="phone")
        yield from ui.tap(id="save")
        yield PhoneAction("finish", status="success")


class ContactsDelete(ContactsTask):
    id = "ContactsDelete"
    template = 'Delete the contact "{name}".'
    complexity = 2
    max_steps = 14

    def setup(self, state: DeviceState, params: Mapping[str, Any],
              rng: np.random.Generator) -> None:
        state.add_contact(params["name"], params["phone"])
        for name, phone in params["others"]:
            state.add_contact(name, phone)

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        key = contact_key(params["name"], params["phone"])
        left = initial["contacts"][key]["count"] - 1  # the phone may hold namesakes already
        return [Value(f"contacts.{key}.count", left or None)]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"contacts.{contact_key(params['name'], params['phone'])}"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        wrong = copy.deepcopy(final)  # deleted the wrong person instead
        name, phone = params["others"][0]
        wrong["contacts"].pop(contact_key(name, phone))
        return wrong, answer

    def oracle(self, ui: ScreenDriver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield PhoneAction("open_app", app="Contacts")
        yield from ui.long_press(params["name"])
        yield from ui.tap("Delete")
        yield from ui.tap(id="button_delete")
        yield PhoneAction("finish", status="success")


class ContactsLookupPhone(ContactsTask):
    id = "ContactsLookupPhone"
    template = 'What is the phone number of "{name}"? Answer with the number.'
    complexity = 1
    max_steps = 10
    needs_answer = True

    setup = ContactsDelete.setup

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Answer(same_phone(params["phone"]))]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        return final, params["others"][0][1]

    def oracle(self, ui: ScreenDriver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield PhoneAction("open_app", app="Contacts")
        yield from ui.tap(params["name"])
        shown = [e.text for e in ui.elements() if e.text.startswith("555")]
        if not shown:
            raise RuntimeError("the contact's phone number is not on screen")
        yield PhoneAction("answer", text=shown[0])


TEMPLATES: list[RealTaskTemplate] = [ContactsCreate(), ContactsDelete(), ContactsLookupPhone()]
