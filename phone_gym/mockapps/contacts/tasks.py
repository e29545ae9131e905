"""Contacts tasks, and one cross-app task that copies a phone number into a note.

Every task seeds a roster of 12 to 16 contacts (more than one screen, so some rows need
scrolling). The roster is sampled in ``sample_params`` and written with ids 1, 2, ... in its
(random) order, so a target's id is known from the params and ``allowed`` can name exactly
the field a task may change.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...verifiers import (
    Answer,
    Criterion,
    Matcher,
    NoRecord,
    Record,
    Verdict,
    digits,
    lookup,
    same_phone,
    same_text,
)
from ...world import Device
from ...world.system import Contact
from ..notes.app import NotesApp
from ..notes.tasks import seed_notes
from ..oracle import Driver
from ..task import TaskTemplate, pick

FIRST_NAMES = ("Maria", "James", "Aisha", "Daniel", "Sofia", "Kenji", "Olivia", "Marcus",
               "Priya", "Lucas", "Emma", "Diego", "Hannah", "Omar", "Chloe", "Ethan", "Fatima",
               "Noah", "Grace", "Mateo", "Lena", "Samuel", "Yuki", "Isaac", "Nora", "Victor",
               "Zoe", "Andre", "Ruth", "Felix")
LAST_NAMES = ("Garcia", "Chen", "Okafor", "Miller", "Rossi", "Tanaka", "Johnson", "Patel",
              "Silva", "Nguyen", "Kowalski", "Brown", "Haddad", "Schmidt", "Lopez", "Kim",
              "Walker", "Moreau", "Novak", "Ibrahim", "Larsen", "Cohen", "Reyes", "Fischer",
              "Adams", "Murphy", "Santos", "Ward", "Bianchi", "Young")
AREA_CODES = ("415", "212", "312", "617", "206", "503", "646", "718", "510", "305", "720",
              "404")
DOMAINS = ("example.com", "example.org", "example.net")

Person = dict[str, Any]  # {"name", "phone", "email", "starred"}: plain, so params stay plain


# --- sampling and seeding ------------------------------------------------------------------
def sample_people(rng: np.random.Generator, k: int, *, starred_share: float = 0.25) -> list[Person]:
    """``k`` people with distinct first names and distinct phone numbers (all in the
    fictional 555-01xx range, formatted like "+1 415-555-0123")."""
    firsts = pick(rng, FIRST_NAMES, k)
    suffixes = pick(rng, range(100), k)
    people = []
    for first, suffix in zip(firsts, suffixes, strict=True):
        last = pick(rng, LAST_NAMES)
        email = f"{first}.{last}@{pick(rng, DOMAINS)}".lower() if rng.random() < 0.7 else ""
        people.append({"name": f"{first} {last}",
                       "phone": f"+1 {pick(rng, AREA_CODES)}-555-01{suffix:02d}",
                       "email": email, "starred": bool(rng.random() < starred_share)})
    return people


def sample_roster(rng: np.random.Generator, extra: int = 0) -> tuple[list[Person], int]:
    """A roster of 12 to 16 people (plus ``extra`` more at the end, for values a task needs
    that must differ from everyone's) and the index of a random target among the first."""
    n = int(rng.integers(12, 17))
    people = sample_people(rng, n + extra)
    return people, int(rng.integers(n))


def seed_contacts(device: Device, people: Sequence[Person]) -> None:
    """Write ``people`` into the contacts provider with ids 1, 2, ... in order."""
    system = device.system
    assert not system.contacts, "seed_contacts expects an empty contacts provider"
    for i, p in enumerate(people, start=1):
        system.contacts.append(Contact(i, p["name"], p["phone"], p["email"], p["starred"]))
    system.next_id = max(system.next_id, len(people) + 1)


def off_by_one(phone: str) -> str:
    """``phone`` with its last digit changed: a near miss."""
    return phone[:-1] + str((int(phone[-1]) + 1) % 10)


def added_one(verdict: Verdict, initial: Mapping[str, Any], final: Mapping[str, Any],
              collection: str) -> Verdict:
    """``verdict``, failed if ``collection`` did not grow by exactly one record: the allowed
    pattern ``added:<collection>.*`` lets any number of records in, so extra ones (a wrong
    first try left behind) are caught here as collateral damage."""
    before, after = len(lookup(initial, collection) or {}), len(lookup(final, collection) or {})
    if verdict.success and after != before + 1:
        return Verdict(False, f"unexpected change: {collection} went from {before} to "
                              f"{after} records, expected {before + 1}", 0.5)
    return verdict


def has_phone(phone: str) -> Matcher:
    """Text containing ``phone``'s ten national digits, however they are formatted."""
    want = digits(phone)[-10:]
    return Matcher(lambda v: want in digits(v), f"containing phone {phone!r}")


def contact_at(state: dict[str, Any], cid: int) -> dict[str, Any]:
    return state["system"]["contacts"][str(cid)]


# --- Contacts tasks --------------------------------------------------------------------------
class ContactsTask(TaskTemplate):
    """Shared parts: params hold the roster (``people``) and the target's id (``cid``)."""

    apps = ("Contacts",)

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        people, t = sample_roster(rng)
        return {"people": people, "cid": t + 1, "name": people[t]["name"],
                "phone": people[t]["phone"]}

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_contacts(device, params["people"])


class ContactsAddContact(ContactsTask):
    id = "ContactsAddContact"
    template = ('Add a new contact named "{name}" with the phone number "{phone}" and the '
                'email "{email}".')
    complexity = 2
    max_steps = 20

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        people, _ = sample_roster(rng, extra=1)
        new = people.pop()
        email = f"{new['name'].replace(' ', '.')}@{pick(rng, DOMAINS)}".lower()
        return {"people": people, "name": new["name"], "phone": new["phone"], "email": email}

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record("system.contacts", {"name": same_text(params["name"])},
                       {"phone": same_phone(params["phone"]),
                        "email": same_text(params["email"])}, count=1)]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return ["added:system.contacts.*"]

    def verify(self, initial: Mapping[str, Any], final: Mapping[str, Any],
               params: Mapping[str, Any], answer: str | None) -> Verdict:
        verdict = super().verify(initial, final, params, answer)
        return added_one(verdict, initial, final, "system.contacts")

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        state = copy.deepcopy(final)
        for contact in state["system"]["contacts"].values():
            if contact["name"] == params["name"]:
                contact["phone"] = off_by_one(contact["phone"])
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Contacts")
        yield from ui.tap(id="create_contact")
        yield from ui.fill("name", params["name"])
        yield from ui.fill("phone", params["phone"])
        yield from ui.fill("email", params["email"])
        yield from ui.tap(id="save")
        yield PhoneAction("finish", status="success")


class ContactsEditPhone(ContactsTask):
    id = "ContactsEditPhone"
    template = 'Change the phone number of the contact "{name}" to "{new_phone}".'
    complexity = 2
    max_steps = 24

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        people, t = sample_roster(rng, extra=1)
        new_phone = people.pop()["phone"]
        return {"people": people, "cid": t + 1, "name": people[t]["name"],
                "phone": people[t]["phone"], "new_phone": new_phone}

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record("system.contacts", {"name": params["name"]},
                       {"phone": same_phone(params["new_phone"])}, count=1)]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"system.contacts.{params['cid']}.phone"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        state = copy.deepcopy(final)
        contact_at(state, params["cid"])["phone"] = off_by_one(params["new_phone"])
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Contacts")
        yield from ui.tap(params["name"], kind="list_item")
        yield from ui.tap(id="edit")
        yield from ui.fill("phone", params["new_phone"])
        yield from ui.tap(id="save")
        yield PhoneAction("finish", status="success")


class ContactsDeleteContact(ContactsTask):
    id = "ContactsDeleteContact"
    template = 'Delete the contact "{name}".'
    complexity = 2
    max_steps = 16

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [NoRecord("system.contacts", {"name": params["name"]})]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"removed:system.contacts.{params['cid']}"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        """The wrong contact deleted: the target is back, a bystander is gone."""
        state = copy.deepcopy(final)
        contacts = state["system"]["contacts"]
        p, cid = params["people"][params["cid"] - 1], params["cid"]
        contacts[str(cid)] = {"id": cid, "name": p["name"], "phone": p["phone"],
                              "email": p["email"], "starred": p["starred"]}
        del contacts[next(k for k in contacts if k != str(cid))]
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Contacts")
        yield from ui.long_press(params["name"], kind="list_item")
        yield from ui.tap("Delete", kind="menu_item")
        yield from ui.tap(id="button_delete")
        yield PhoneAction("finish", status="success")


class ContactsStarContact(ContactsTask):
    id = "ContactsStarContact"
    template = 'Add the contact "{name}" to favorites.'
    complexity = 1
    max_steps = 14

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        params = super().sample_params(rng)
        params["people"][params["cid"] - 1]["starred"] = False
        return params

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record("system.contacts", {"name": params["name"]}, {"starred": True})]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"system.contacts.{params['cid']}.starred"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        """The wrong contact starred."""
        state = copy.deepcopy(final)
        contact_at(state, params["cid"])["starred"] = False
        other = next(c for c in state["system"]["contacts"].values() if not c["starred"])
        other["starred"] = True
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Contacts")
        yield from ui.tap(params["name"], kind="list_item")
        yield from ui.tap(id="favorite")
        yield PhoneAction("finish", status="success")


class ContactsRemoveFavorite(ContactsTask):
    id = "ContactsRemoveFavorite"
    template = 'Remove the contact "{name}" from favorites, but keep the contact.'
    complexity = 2
    max_steps = 14

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        params = super().sample_params(rng)
        people, t = params["people"], params["cid"] - 1
        people[t]["starred"] = True
        people[(t + 1 + int(rng.integers(len(people) - 1))) % len(people)]["starred"] = True
        return params

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record("system.contacts", {"name": params["name"]}, {"starred": False})]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"system.contacts.{params['cid']}.starred"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        """Another favorite removed instead."""
        state = copy.deepcopy(final)
        contact_at(state, params["cid"])["starred"] = True
        other = next(c for c in state["system"]["contacts"].values()
                     if c["starred"] and c["id"] != params["cid"])
        other["starred"] = False
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Contacts")
        yield from ui.tap(id="tab_favorites")
        yield from ui.long_press(params["name"], kind="list_item")
        yield from ui.tap("Remove from favorites", kind="menu_item")
        yield PhoneAction("finish", status="success")


class ContactsLookupPhone(ContactsTask):
    id = "ContactsLookupPhone"
    template = 'What is the phone number of "{name}"?'
    complexity = 1
    max_steps = 12
    needs_answer = True

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Answer(same_phone(params["phone"]))]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        return copy.deepcopy(final), off_by_one(answer or params["phone"])

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Contacts")
        yield from ui.tap(id="search", kind="text_field")
        yield PhoneAction("type", text=params["name"])
        yield from ui.tap(params["name"], kind="list_item")
        phone = ui.find(id="phone", kind="text")
        yield PhoneAction("answer", text=phone.node.text if phone else "")


# --- cross-app -----------------------------------------------------------------------------
NOTE_TITLES = ("Plumber", "Dentist", "Babysitter", "Landlord", "Tennis coach", "Mechanic",
               "Piano teacher", "Vet", "Electrician", "Realtor")
DISTRACTOR_NOTES = 3


class CrossContactPhoneToNote(ContactsTask):
    id = "CrossContactPhoneToNote"
    apps = ("Contacts", "Notes")
    template = 'Create a note titled "{title}" containing the phone number of "{name}".'
    complexity = 3
    max_steps = 30

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {**super().sample_params(rng), "title": pick(rng, NOTE_TITLES)}

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(device, params, rng)
        seed_notes(device, rng, DISTRACTOR_NOTES, avoid=[params["title"]])

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record(f"apps.{NotesApp.name}.notes", {"title": same_text(params["title"])},
                       {"body": has_phone(params["phone"])}, count=1)]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"added:apps.{NotesApp.name}.notes.*"]

    def verify(self, initial: Mapping[str, Any], final: Mapping[str, Any],
               params: Mapping[str, Any], answer: str | None) -> Verdict:
        verdict = super().verify(initial, final, params, answer)
        return added_one(verdict, initial, final, f"apps.{NotesApp.name}.notes")

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        state = copy.deepcopy(final)
        for note in state["apps"][NotesApp.name]["notes"].values():
            if note["title"] == params["title"]:
                note["body"] = off_by_one(params["phone"])
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Contacts")
        yield from ui.tap(params["name"], kind="list_item")
        yield from ui.long_press(id="phone", kind="text")
        yield from ui.tap("Copy", kind="menu_item")
        yield from ui.open_app(NotesApp.name)
        yield from ui.tap(id="new_note")
        yield from ui.fill("title", params["title"])
        yield from ui.long_press(id="body", kind="text_field")
        yield from ui.tap("Paste", kind="menu_item")
        yield from ui.tap(id="save")
        yield PhoneAction("finish", status="success")


TEMPLATES: list[TaskTemplate] = [
    ContactsAddContact(), ContactsEditPhone(), ContactsDeleteContact(), ContactsStarContact(),
    ContactsRemoveFavorite(), ContactsLookupPhone(), CrossContactPhoneToNote(),
]
