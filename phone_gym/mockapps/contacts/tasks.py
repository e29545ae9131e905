"""Contacts tasks. Every task seeds a roster of 12 to 16 contacts (more than one screen, so
some rows need scrolling), written in order, so a target's id (``cid``) follows from the
params. ``real`` tasks use only what adb offers, and run on real phones too."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver
from ...tasks.families import CreateRecord, DeleteRecord, EditRecord, Lookup
from ...tasks.task import Task
from ...tasks.vocab import AREA_CODES, FIRST_NAMES, LAST_NAMES, email_of, pick
from ...verifiers import Allowed, Criterion, Value, matching, same_phone, same_text
from ...world.app import app_strings
from ...world.device import CONTACTS_PROVIDER
from ..messages.fixtures import InForeground
from .app import ContactsApp
from .fixtures import (
    COLLECTION,
    DATA,
    MissingContact,
    localize_people,
    roster_params,
    sample_roster,
    seed_contacts,
)
from .manifest import MANIFEST


def label(ui: Driver, key: str) -> str:
    """A Contacts label as the phone's locale shows it (a menu item, a phone type)."""
    return app_strings(ContactsApp, ui.locale).t(key)


#: Where the open new-contact form is kept (``ContactsApp.keep_draft``).
DRAFT = "apps.Contacts.draft"


class ContactsTask(Task):
    """Shared parts: the roster (``people``) and the target (``cid``, ``name``, ``phone``)."""

    apps, collection = ("Contacts",), COLLECTION
    data_packages = (CONTACTS_PROVIDER,)  # contacts live in the provider, not the app
    starred_share = 0.25
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    data = DATA

    locales_stay_home = True

    def localize_params(self, params: dict[str, Any], table: Mapping[str, str]
                        ) -> dict[str, Any]:
        """The roster's names as Chinese ones (高玉梅), its numbers as Chinese mobiles, a
        phone type as the app shows it (住宅; the draft keeps "label")."""
        p: dict[str, Any] = localize_people(params, table)
        if "label" in p:
            p["label_shown"] = app_strings(ContactsApp, "zh-CN").t(p["label"])
        return p

    def localize(self, params: Mapping[str, Any], locale: str) -> Mapping[str, Any]:
        """The phone type as the zh-CN app names it (住宅) in the instruction."""
        if "label_shown" not in params:
            return params
        return {**params, "label": params["label_shown"]}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return roster_params(rng, starred_share=self.starred_share)

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_contacts(state, params["people"])

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": p["name"], "phone": same_phone(p["phone"])}

    def conflicts(self, params: Mapping[str, Any], existing: Mapping[str, Any]) -> str | None:
        """The instruction names the contact: one of that name already on the phone would
        make it ambiguous (which to delete?) or the task done before it starts."""
        if matching(existing, COLLECTION, {"name": same_text(params["name"])}):
            return f"the phone already has a contact named {params['name']!r}"
        return None

    def open_contact(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Contacts")
        yield from ui.tap(p["name"], kind="list_item")

    def fill_form(self, ui: Driver, **fields: str) -> Iterator[PhoneAction]:
        for field, value in fields.items():
            yield from ui.fill(field, value)
        yield from ui.tap(id="save")
        yield from ui.finish()


class ContactsAddContact(ContactsTask, CreateRecord):
    template = ('Add a new contact named "{name}" with the phone number "{phone}" and the '
                'email "{email}".')
    instructions = {"zh-CN": "新建一个联系人，姓名“{name}”，电话“{phone}”"
                             "，电子邮件“{email}”。"}
    complexity, max_steps = 2, 20

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        roster, _ = sample_roster(rng, extra=1)
        new = roster.pop()
        return {"people": roster, "name": new["name"], "phone": new["phone"],
                "email": email_of(new["name"], rng)}

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": same_text(p["name"]), "phone": same_phone(p["phone"]),
                "email": same_text(p["email"]), "starred": False}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Contacts")
        yield from ui.tap(id="create_contact")
        yield from self.fill_form(ui, name=p["name"], phone=p["phone"], email=p["email"])


class ContactsEditPhone(ContactsTask, EditRecord):
    template = 'Change the phone number of the contact "{name}" to "{new_phone}".'
    instructions = {"zh-CN": "把联系人“{name}”的电话号码改成“{new_phone"
                             "}”。"}
    complexity, max_steps = 2, 24

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        roster, t = sample_roster(rng, extra=1)
        new_phone = roster.pop()["phone"]
        return {"people": roster, "cid": t + 1, "name": roster[t]["name"],
                "phone": roster[t]["phone"], "new_phone": new_phone}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"phone": same_phone(p["new_phone"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_contact(ui, p)
        yield from ui.tap(id="edit")
        yield from self.fill_form(ui, phone=p["new_phone"])


class ContactsDeleteContact(ContactsTask, DeleteRecord):
    template = 'Delete the contact "{name}".'
    instructions = {"zh-CN": "删除联系人“{name}”。"}
    complexity, max_steps = 2, 16

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Contacts")
        yield from ui.long_press(p["name"], kind="list_item")
        yield from ui.tap(label(ui, "Delete"), kind="menu_item")
        yield from ui.tap(id="button_delete")
        yield from ui.finish()


class ContactsStarContact(ContactsTask, EditRecord):
    template = 'Add the contact "{name}" to favorites.'
    instructions = {"zh-CN": "把联系人“{name}”添加到收藏。"}
    complexity, max_steps = 1, 14
    starred = True  # what the task asks for; the target starts the other way

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        params = super().sample_params(rng)
        roster, t = params["people"], params["cid"] - 1
        roster[t]["starred"] = not self.starred
        if not self.starred:  # another favorite, not to be touched
            roster[(t + 1 + int(rng.integers(len(roster) - 1))) % len(roster)]["starred"] = True
        return params

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"starred": self.starred}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        if self.starred:
            yield from self.open_contact(ui, p)
            if ui.must(id="favorite").content_desc == label(ui, "Remove from favorites"):
                ui.why(f"{p['name']} is in favorites already")
            else:
                ui.why(f"{p['name']} is not in favorites: tapping the star")
                yield from ui.tap(id="favorite")
        else:
            yield from ui.open_app("Contacts")
            ui.why(f"Looking for {p['name']} among the favorites")
            yield from ui.tap(id="tab_favorites")
            for _ in range(12):
                if ui.find(p["name"], kind="list_item") is not None:
                    break
                before = [(e.text, e.bounds) for e in ui.elements()]
                yield PhoneAction("scroll", x=500, y=500, direction="down")
                if [(e.text, e.bounds) for e in ui.elements()] == before:
                    break
            if ui.find(p["name"], kind="list_item") is None:
                ui.why(f"{p['name']} is not among the favorites: nothing to remove")
                yield from ui.finish()
                return
            ui.why(f"{p['name']} is a favorite: removing it from favorites (the contact stays)")
            yield from ui.long_press(p["name"], kind="list_item")
            yield from ui.tap(label(ui, "Remove from favorites"), kind="menu_item")
        yield from ui.finish()


class ContactsRemoveFavorite(ContactsStarContact):
    template = 'Remove the contact "{name}" from favorites, but keep the contact.'
    instructions = {"zh-CN": "把联系人“{name}”从收藏中移除，但联系人要保留。"}
    complexity = 2
    starred = False


class ContactsLookupPhone(ContactsTask, Lookup):
    template = 'What is the phone number of "{name}"? Answer with the number.'
    instructions = {"zh-CN": "“{name}”的电话号码是多少？请直接回答号码。"}
    complexity, max_steps = 1, 12
    real, starred_share = True, 0.0
    answer_type, answer_field = "phone", "phone"

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["phone"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [c["phone"] for c in initial[COLLECTION].values()]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Contacts")
        yield from ui.tap(id="search", kind="text_field")
        yield PhoneAction("type", text=p["name"])
        yield from ui.tap(p["name"], kind="list_item")
        yield from ui.answer(ui.must(id="phone").text)


# --- the stock-Android tasks, written for real phones first ------------------------------------
class ContactsCreate(ContactsTask, CreateRecord):
    template = 'Create a contact named "{name}" with the phone number {phone}.'
    instructions = {"zh-CN": "新建联系人“{name}”，电话号码是{phone}。"}
    complexity, max_steps = 2, 16
    real, starred_share = True, 0.0

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        roster, _ = sample_roster(rng, extra=1, starred_share=0.0)
        new = roster.pop()
        return {"people": pick(rng, roster, 3), "name": new["name"], "phone": new["phone"]}

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": same_text(p["name"]), "phone": same_phone(p["phone"]),
                "starred": False}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Contacts")
        yield from ui.tap(id="create_contact")
        yield from self.fill_form(ui, name=p["name"], phone=p["phone"])


class ContactsDelete(ContactsDeleteContact):
    template = 'Delete the contact "{name}".'
    instructions = {"zh-CN": "把“{name}”这个联系人删掉。"}
    complexity, max_steps = 2, 14
    real, starred_share = True, 0.0


# --- AndroidWorld ----------------------------------------------------------------------------
class ContactsNewContactDraft(ContactsTask):
    """AndroidWorld's ContactsNewContactDraft: fill in the new-contact form and leave it
    unsaved. AndroidWorld reads the form off the screen; here the editor keeps the open form
    in the app's data (``apps.Contacts.draft``), so the check reads state: the draft holds the
    name, the number (digits compared) and the phone type, nothing else typed, no contact
    saved, and Contacts on screen at the end."""

    template = ('Fill in a new contact named "{first} {last}" with the {label} phone number '
                '{phone}, but do not save it.')
    instructions = {"zh-CN": "填写一个新联系人：姓名“{name}”，{label}电话{"
                             "phone}，但先不要保存。"}
    complexity, max_steps = 1, 12  # AndroidWorld: complexity 1.2
    start = AW_START
    starred_share = 0.0

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        first, last = pick(rng, FIRST_NAMES[:10]), pick(rng, LAST_NAMES[:10])
        roster, _ = sample_roster(rng, starred_share=0.0)
        roster = [p for p in roster if not p["name"].startswith(f"{first} ")]
        phone = f"{pick(rng, AREA_CODES)}-555-01{int(rng.integers(100)):02d}"
        return {"people": pick(rng, roster, 4), "first": first, "last": last,
                "name": f"{first} {last}", "phone": phone,
                "label": pick(rng, ("Home", "Work"))}

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Value(f"{DRAFT}.name", same_text(params["name"])),
                Value(f"{DRAFT}.phone", same_phone(params["phone"])),
                Value(f"{DRAFT}.label", params["label"]),
                Value(f"{DRAFT}.email", ""),
                InForeground(MANIFEST.package)]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [DRAFT]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Contacts")
        yield from ui.tap(id="create_contact")
        yield from ui.fill("name", p["name"])
        yield from ui.fill("phone", p["phone"])
        yield from ui.tap(id="phone_type")
        shown = p["label_shown"] if "label_shown" in p else p["label"]  # as instructed
        yield from ui.tap(shown, kind="radio")
        yield from ui.finish()


# --- infeasible variants: the contact the task names is not on the phone ---------------------
class ContactsDeleteContactInfeasible(MissingContact, ContactsDeleteContact):
    pass


class ContactsEditPhoneInfeasible(MissingContact, ContactsEditPhone):
    pass


class ContactsLookupPhoneInfeasible(MissingContact, ContactsLookupPhone):
    pass


TEMPLATES: list[Task] = [
    ContactsAddContact(), ContactsEditPhone(), ContactsDeleteContact(), ContactsStarContact(),
    ContactsRemoveFavorite(), ContactsLookupPhone(), ContactsCreate(), ContactsDelete(),
    ContactsDeleteContactInfeasible(), ContactsEditPhoneInfeasible(),
    ContactsLookupPhoneInfeasible(), ContactsNewContactDraft(),
]
