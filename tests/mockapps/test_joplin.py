"""Joplin driven through phone actions: notebooks, a notebook's notes and to-dos, a note's
page, checking a to-do off, writing and deleting notes, and the authoring checks."""

from __future__ import annotations

import pytest
from driving import Driver, act, fill, long_press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.joplin import APP
from phone_gym.mockapps.joplin.app import JoplinApp, add_folder, add_note
from phone_gym.testing import check_app
from phone_gym.world import Device


def app_of(device: Device) -> JoplinApp:
    app = device.apps["Joplin"]
    assert isinstance(app, JoplinApp)
    return app


@pytest.fixture
def device() -> Device:
    dev = Device([JoplinApp])
    data = app_of(dev).data
    add_folder(data, "Work")
    add_folder(data, "Home")
    add_note(data, 1, "Budget review", "# Agenda\n\nWe expect 25 attendees.")
    add_note(data, 1, "Send the contract", "By Friday", is_todo=True)
    add_note(data, 2, "Pancakes", "- 2 cups flour\n- 1/2 cup milk")
    dev.invalidate()
    act(dev, PhoneAction("open_app", app="Joplin"))
    return dev


def rows(device: Device) -> list[str]:
    return [p.node.text for p in device.frame().items if p.node.kind == "list_item"]


def drawer_items(device: Device) -> list[tuple[str, str, bool]]:
    return [(p.node.text, p.node.hint, p.node.selected) for p in device.frame().items
            if p.node.kind == "drawer_item"]


def test_notebooks_are_in_the_side_drawer_with_counts(device: Device) -> None:
    assert len(rows(device)) == 3  # it opens on every note
    assert drawer_items(device) == []
    tap(device, desc="Open navigation drawer")
    assert drawer_items(device) == [("All notes", "3", True), ("Home", "1", False),
                                    ("Work", "2", False)]
    tap(device, id="folder_1")  # choosing a notebook closes the drawer
    assert drawer_items(device) == [] and rows(device) == ["Budget review",
                                                           "Send the contract"]
    tap(device, desc="Open navigation drawer")
    assert ("Work", "2", True) in drawer_items(device)
    act(device, PhoneAction("press", button="back"))  # back closes the drawer, not the app
    assert drawer_items(device) == [] and device.current_app is not None


def test_the_speed_dial_adds_todos_notes_and_notebooks(device: Device) -> None:
    assert not shown(device, id="new_note")
    tap(device, id="fab")
    assert shown(device, "New to-do") and shown(device, "New notebook")
    tap(device, id="new_todo")
    assert app_of(device).ui.draft.is_todo and not app_of(device).ui.dial
    act(device, PhoneAction("press", button="back"))
    tap(device, id="fab")
    tap(device, id="new_notebook")
    fill(device, "notebook_title", "Garden")
    tap(device, id="save")
    assert [f.name for f in app_of(device).data.folders] == ["Work", "Home", "Garden"]
    assert device.frame().items and shown(device, "Garden")  # its (empty) list shows


def test_a_notebook_lists_its_notes_and_todos(device: Device) -> None:
    tap(device, desc="Open navigation drawer")
    tap(device, id="folder_1")
    assert rows(device) == ["Budget review", "Send the contract"]
    assert shown(device, id="todo_2") and not shown(device, id="todo_1")
    tap(device, id="todo_2")
    assert app_of(device).data.notes[2].done


def test_a_note_page_shows_its_markdown_lines(device: Device) -> None:
    tap(device, id="note_3")
    assert shown(device, "Pancakes") and shown(device, "- 1/2 cup milk")
    note_kind = Driver(device).find(id="note_kind")
    assert note_kind is not None and note_kind.node.text == "Home · Note"
    tap(device, id="navigate_up")
    tap(device, id="note_1")
    assert shown(device, "Agenda")  # a markdown heading, shown as a heading


def test_writing_and_deleting_notes(device: Device) -> None:
    tap(device, desc="Open navigation drawer")
    tap(device, id="folder_2")
    tap(device, id="fab")
    tap(device, id="new_note")
    fill(device, "title", "Shopping")
    tap(device, id="is_todo")
    fill(device, "body", "eggs")
    tap(device, id="save")
    new = app_of(device).data.notes[4]
    assert (new.folder, new.title, new.body, new.is_todo) == (2, "Shopping", "eggs", True)
    long_press(device, "Pancakes", kind="list_item")
    tap(device, "Delete", kind="menu_item")
    tap(device, id="button_delete")
    assert 3 not in app_of(device).data.notes


def test_check_app() -> None:
    check_app(APP, 2000)
