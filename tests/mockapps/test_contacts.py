"""The Contacts app driven through actions: list, search, scrolling, details, the form,
dialogs, long-press menus, favorites, copying, persistence; and its task helpers."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from driving import Driver

from phone_gym.actions import PhoneAction
from phone_gym.crossapp.tasks import CrossContactPhoneToNote
from phone_gym.mockapps import TEMPLATES as ALL_TEMPLATES
from phone_gym.mockapps.contacts import APP, TEMPLATES, ContactsApp
from phone_gym.mockapps.contacts.tasks import ContactsAddContact
from phone_gym.mockapps.notes.app import NotesApp
from phone_gym.tasks.task import Episode
from phone_gym.tasks.vocab import people as sample_people
from phone_gym.verifiers import same_phone
from phone_gym.world import Device

PEOPLE = [
    ("Maria Garcia", "+1 415-555-0101", "maria.garcia@example.com"),
    ("James Chen", "+1 212-555-0102", ""),
    ("Aisha Okafor", "+1 312-555-0103", "aisha@example.org"),
    ("Daniel Miller", "+1 617-555-0104", ""),
    ("Sofia Rossi", "+1 206-555-0105", ""),
    ("Kenji Tanaka", "+1 503-555-0106", ""),
    ("Olivia Johnson", "+1 646-555-0107", ""),
    ("Marcus Patel", "+1 718-555-0108", ""),
    ("Priya Silva", "+1 510-555-0109", ""),
    ("Lucas Nguyen", "+1 305-555-0110", ""),
    ("Emma Brown", "+1 720-555-0111", ""),
    ("Zoe Young", "+1 404-555-0112", ""),
    ("Victor Adams", "+1 415-555-0113", ""),
]


@pytest.fixture
def device() -> Device:
    d = Device([ContactsApp, NotesApp])
    for name, phone, email in PEOPLE:
        d.system.add_contact(name, phone, email)
    return d


def run(device: Device, actions: Iterator[PhoneAction]) -> None:
    """Carry out a driver's actions, failing on any device error."""
    for action in actions:
        assert device.step(action) is None, action


def act(device: Device, type_: str, **fields: object) -> None:
    assert device.step(PhoneAction(type_, **fields)) is None  # type: ignore[arg-type]


def open_contacts(device: Device) -> Driver:
    act(device, "open_app", app="Contacts")
    return Driver(device)


def contact(device: Device, name: str):  # noqa: ANN201 - Contact
    found = device.system.find_contact(name)
    assert found is not None, name
    return found


def route(device: Device) -> str:
    app = device.current_app
    assert app is not None
    return app.route.name


def test_registration() -> None:
    assert APP is ContactsApp
    assert (ContactsApp.name, ContactsApp.package, ContactsApp.glyph) == (
        "Contacts", "com.android.contacts", "person")
    ids = [t.id for t in TEMPLATES]
    assert len(ids) >= 6 and len(set(ids)) == len(ids)
    assert all(i.startswith("Contacts") for i in ids)
    assert sum(t.needs_answer for t in TEMPLATES) >= 1
    # the cross-app task lives with the cross-app tasks now, and is registered
    cross = ALL_TEMPLATES["CrossContactPhoneToNote"]
    assert isinstance(cross, CrossContactPhoneToNote) and cross.apps == ("Contacts", "Notes")


def test_list_is_sorted_with_avatars_and_phones(device: Device) -> None:
    ui = open_contacts(device)
    rows = [p.node for p in device.frame().items if p.node.kind == "list_item"]
    names = [r.text for r in rows]
    assert names == sorted(names)
    assert names[0] == "Aisha Okafor"
    first = rows[0]
    assert first.glyph == "A" and first.hint == "+1 312-555-0103"
    assert ui.find("13 contacts") is not None


def test_long_list_scrolls(device: Device) -> None:
    ui = open_contacts(device)
    assert ui.find("Zoe Young", kind="list_item") is None
    act(device, "scroll", x=500, y=500, direction="down")
    assert ui.find("Zoe Young", kind="list_item") is not None
    assert ui.find("Aisha Okafor", kind="list_item") is None


def test_search_filters_by_name(device: Device) -> None:
    ui = open_contacts(device)
    run(device, ui.tap(id="search"))
    act(device, "type", text="AR")
    names = {p.node.text for p in device.frame().items if p.node.kind == "list_item"}
    assert names == {"Maria Garcia", "Marcus Patel"}
    run(device, ui.fill("search", "nobody"))
    assert ui.find("No contacts found") is not None


def test_details_show_copyable_phone_and_email(device: Device) -> None:
    ui = open_contacts(device)
    run(device, ui.tap("Aisha Okafor", kind="list_item"))
    assert route(device) == "detail"
    assert ui.find("Aisha Okafor", id="name") is not None
    assert ui.find("aisha@example.org", id="email") is not None
    run(device, ui.long_press(id="phone", kind="text"))
    run(device, ui.tap("Copy", kind="menu_item"))
    assert device.system.clipboard == "+1 312-555-0103"
    act(device, "press", button="back")
    assert route(device) == "main"
    act(device, "press", button="back")
    assert device.current_app is None  # back from the list goes home


def test_create_contact(device: Device) -> None:
    ui = open_contacts(device)
    run(device, ui.tap(id="create_contact"))
    assert ui.find("Create contact") is not None
    run(device, ui.fill("name", "Nora Kim"))
    run(device, ui.fill("phone", "+1 212-555-0199"))
    run(device, ui.fill("email", "nora@example.com"))
    run(device, ui.tap(id="save"))
    new = contact(device, "Nora Kim")
    assert (new.phone, new.email, new.starred) == ("+1 212-555-0199", "nora@example.com", False)
    assert route(device) == "detail" and ui.find("Nora Kim", id="name") is not None
    act(device, "press", button="back")
    assert route(device) == "main"


def test_a_contact_needs_a_name(device: Device) -> None:
    ui = open_contacts(device)
    run(device, ui.tap(id="create_contact"))
    run(device, ui.fill("phone", "+1 212-555-0199"))
    run(device, ui.tap(id="save"))
    assert route(device) == "edit" and device.toast_text == "Enter a name"
    assert len(device.system.contacts) == len(PEOPLE)


def test_edit_phone(device: Device) -> None:
    ui = open_contacts(device)
    run(device, ui.tap("James Chen", kind="list_item"))
    run(device, ui.tap(id="edit"))
    assert ui.find("Edit contact") is not None
    run(device, ui.fill("phone", "+1 212-555-0188"))
    run(device, ui.tap(id="save"))
    assert contact(device, "James Chen").phone == "+1 212-555-0188"
    assert route(device) == "detail" and ui.find("+1 212-555-0188", id="phone") is not None


def test_back_from_a_changed_form_asks_to_discard(device: Device) -> None:
    ui = open_contacts(device)
    run(device, ui.tap("James Chen", kind="list_item"))
    run(device, ui.tap(id="edit"))
    run(device, ui.fill("phone", "+1 000"))
    act(device, "press", button="back")  # hides the keyboard
    act(device, "press", button="back")
    assert ui.find("Discard changes?") is not None
    run(device, ui.tap("Keep editing"))
    assert ui.find("Discard changes?") is None and route(device) == "edit"
    run(device, ui.tap(id="navigate_up"))
    run(device, ui.tap("Discard"))
    assert route(device) == "detail"
    assert contact(device, "James Chen").phone == "+1 212-555-0102"
    run(device, ui.tap(id="edit"))
    act(device, "press", button="back")  # nothing changed: no question
    assert route(device) == "detail"


def test_delete_from_details_asks_first(device: Device) -> None:
    ui = open_contacts(device)
    run(device, ui.tap("Emma Brown", kind="list_item"))
    run(device, ui.tap(id="delete"))
    assert ui.find("Delete contact?") is not None
    run(device, ui.tap("Cancel"))
    assert device.system.find_contact("Emma Brown") is not None
    run(device, ui.tap(id="delete"))
    act(device, "press", button="back")  # back dismisses the dialog
    assert ui.find("Delete contact?") is None and route(device) == "detail"
    run(device, ui.tap(id="delete"))
    run(device, ui.tap(id="button_delete"))
    assert device.system.find_contact("Emma Brown") is None
    assert len(device.system.contacts) == len(PEOPLE) - 1
    assert route(device) == "main" and device.toast_text == "Contact deleted"


def test_long_press_menu_on_a_row(device: Device) -> None:
    ui = open_contacts(device)
    run(device, ui.long_press("Sofia Rossi", kind="list_item"))
    labels = [p.node.text for p in device.frame().items if p.node.kind == "menu_item"]
    assert labels == ["Add to favorites", "Edit", "Delete"]
    run(device, ui.tap("Add to favorites", kind="menu_item"))
    assert contact(device, "Sofia Rossi").starred
    run(device, ui.long_press("Sofia Rossi", kind="list_item"))
    run(device, ui.tap("Delete", kind="menu_item"))
    assert ui.find("Delete contact?") is not None
    run(device, ui.tap(id="button_delete"))
    assert device.system.find_contact("Sofia Rossi") is None


def test_favorites_tab_and_star_icon(device: Device) -> None:
    ui = open_contacts(device)
    run(device, ui.tap(id="tab_favorites"))
    assert ui.find("No favorites yet") is not None
    run(device, ui.tap(id="tab_contacts"))
    run(device, ui.tap("Maria Garcia", kind="list_item"))
    run(device, ui.tap(id="favorite"))
    assert contact(device, "Maria Garcia").starred
    assert ui.find(desc="Remove from favorites") is not None
    act(device, "press", button="back")
    assert ui.find(id="starred") is not None  # a star on the row
    run(device, ui.tap(id="tab_favorites"))
    names = [p.node.text for p in device.frame().items if p.node.kind == "list_item"]
    assert names == ["Maria Garcia"]
    run(device, ui.long_press("Maria Garcia", kind="list_item"))
    run(device, ui.tap("Remove from favorites", kind="menu_item"))
    assert not contact(device, "Maria Garcia").starred
    assert ui.find("No favorites yet") is not None


def test_contacts_persist_and_drafts_do_not(device: Device) -> None:
    ui = open_contacts(device)
    run(device, ui.tap(id="create_contact"))
    run(device, ui.fill("name", "Half Typed"))
    act(device, "close_app", app="Contacts")
    ui = open_contacts(device)
    assert route(device) == "main"
    run(device, ui.tap(id="create_contact"))
    assert ui.find(id="name", kind="text_field").node.text == ""  # type: ignore[union-attr]
    assert device.system.find_contact("Half Typed") is None
    run(device, ui.fill("name", "Felix Ward"))
    run(device, ui.tap(id="save"))
    act(device, "close_app", app="Contacts")
    ui = open_contacts(device)
    assert device.system.find_contact("Felix Ward") is not None
    assert ui.find("Felix Ward", kind="list_item") is not None


def test_other_apps_see_the_contacts(device: Device) -> None:
    notes = device.apps["Notes"]
    assert notes.system is device.system
    assert {c.name for c in notes.system.contacts} == {p[0] for p in PEOPLE}


def test_sampled_people_are_distinct_and_well_formed() -> None:
    people = sample_people(np.random.default_rng(0), 16)
    assert len({p["name"] for p in people}) == 16
    assert len({p["phone"] for p in people}) == 16
    for p in people:
        assert len(p["name"].split()) == 2
        assert p["phone"].startswith("+1 ") and p["phone"][6:10] == "-555"


def test_same_phone_ignores_formatting_and_the_country_code() -> None:
    matcher = same_phone("+1 415-555-0123")
    assert matcher("(415) 555 0123") and matcher("+1 415-555-0123") and matcher("4155550123")
    assert not matcher("+1 415-555-0124") and not matcher("415-555-01234")
    assert not matcher("Call 415-555-0123")  # a phone field holds a number, not a sentence
    assert same_phone("415-555-0123")("+1 (415) 555-0123")


def test_an_extra_added_contact_fails() -> None:
    device = Device([ContactsApp, NotesApp])
    ep = Episode(ContactsAddContact(), device, np.random.default_rng(1))
    answer, _ = ep.solve()
    assert ep.verify(answer).success
    device.system.add_contact("Junk Entry", "123")
    verdict = ep.verify(answer)
    assert not verdict.success and "unexpected" in verdict.reason


def test_cross_task_copies_through_the_clipboard() -> None:
    device = Device([ContactsApp, NotesApp])
    ep = Episode(CrossContactPhoneToNote(), device, np.random.default_rng(2))
    assert len(device.apps["Notes"].data.notes) == 3
    answer, _ = ep.solve()
    assert ep.verify(answer).success
    assert device.system.clipboard == ep.params["phone"]
    bodies = [n.body for n in device.apps["Notes"].data.notes]
    assert ep.params["phone"] in bodies
