"""The Notes app driven through phone actions: the list, the editor, the keyboard, dialogs,
long-press menus, search, scrolling, and what survives a force-stop."""

from __future__ import annotations

import numpy as np
import pytest
from driving import Driver, act, center, long_press, press, shown, tap, type_text

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.notes.app import Note, NotesApp, add_note, sorted_notes
from phone_gym.mockapps.notes.tasks import (
    TEMPLATES,
    NotesReadNote,
    appended,
)
from phone_gym.tasks.task import Episode
from phone_gym.world import Device


# --- helpers -----------------------------------------------------------------------------------
def keys(device: Device, *ids: str) -> None:
    """Tap soft-keyboard keys by id (key_a, key_space, key_delete...)."""
    for key_id in ids:
        tap(device, id=key_id, kind="key")


def field_text(device: Device, field_id: str) -> str:
    found = Driver(device).find(id=field_id, kind="text_field")
    assert found is not None, f"no field {field_id!r} on screen"
    return found.node.text


def notes_of(device: Device) -> NotesApp:
    app = device.apps["Notes"]
    assert isinstance(app, NotesApp)
    return app


def titles(device: Device) -> list[str]:
    return [n.title for n in notes_of(device).data.notes]


def note(device: Device, note_id: int) -> Note:
    """The note ``note_id`` as stored now (records are frozen: a change makes a new one)."""
    found = notes_of(device).data.notes.get(note_id)
    assert found is not None, note_id
    return found


def last_note(device: Device) -> Note:
    """The note written last."""
    return notes_of(device).data.notes.values()[-1]


@pytest.fixture
def device() -> Device:
    """A phone with Notes holding three notes (ids 1..3), opened on its list."""
    dev = Device([NotesApp])
    data = notes_of(dev).data
    add_note(data, "Groceries", "milk, eggs\nand bread")
    add_note(data, "Trip ideas", "Lisbon in spring")
    add_note(data, "Gift list", "scarf for mom")
    dev.invalidate()
    act(dev, PhoneAction("open_app", app="Notes"))
    return dev


# --- the list --------------------------------------------------------------------------------
def test_list_shows_titles_and_first_lines_newest_first(device: Device) -> None:
    items = [p.node for p in device.frame().items if p.node.kind == "list_item"]
    assert [n.text for n in items] == ["Gift list", "Trip ideas", "Groceries"]
    assert items[2].hint == "milk, eggs"  # only the first line of the text
    assert [n.id for n in items] == ["note_3", "note_2", "note_1"]


def test_empty_list_says_so() -> None:
    dev = Device([NotesApp])
    act(dev, PhoneAction("open_app", app="Notes"))
    assert shown(dev, "No notes yet")


def test_long_list_scrolls_to_the_oldest_note() -> None:
    dev = Device([NotesApp])
    for i in range(14):
        add_note(notes_of(dev).data, f"Note {i}", f"text {i}")
    act(dev, PhoneAction("open_app", app="Notes"))
    assert shown(dev, "Note 13") and not shown(dev, "Note 0")
    act(dev, PhoneAction("scroll", x=500, y=500, direction="down"))
    act(dev, PhoneAction("scroll", x=500, y=500, direction="down"))
    assert shown(dev, "Note 0") and not shown(dev, "Note 13")
    tap(dev, "Note 0", kind="list_item")
    assert field_text(dev, "title") == "Note 0"
    press(dev, "back")
    tap(dev, "Note 13", kind="list_item")  # the driver scrolls back up
    assert field_text(dev, "body") == "text 13"


def test_search_filters_by_title_and_text(device: Device) -> None:
    tap(device, id="search", kind="text_field")
    type_text(device, "SPRING")
    assert shown(device, "Trip ideas", kind="list_item")
    assert not shown(device, "Groceries", kind="list_item")
    keys(device, "key_x")
    assert shown(device, "No matching notes")
    long_press(device, id="search", kind="text_field")
    tap(device, "Select all", kind="menu_item")
    keys(device, "key_delete")
    assert field_text(device, "search") == ""
    assert len([p for p in device.frame().items if p.node.kind == "list_item"]) == 3


def test_search_is_kept_while_a_note_is_open(device: Device) -> None:
    tap(device, id="search", kind="text_field")
    type_text(device, "gift")
    tap(device, "Gift list", kind="list_item")
    press(device, "back")
    assert field_text(device, "search") == "gift"
    assert not shown(device, "Groceries", kind="list_item")


# --- creating and editing ----------------------------------------------------------------------
def test_create_note_and_save(device: Device) -> None:
    tap(device, id="new_note")
    assert shown(device, "New note", kind="top_bar")
    assert not shown(device, id="delete")  # a new note has nothing to delete yet
    tap(device, id="title", kind="text_field")
    type_text(device, "Packing list")
    tap(device, id="body", kind="text_field")
    type_text(device, "charger")
    assert shown(device, "7 characters")
    tap(device, id="save")
    assert device.toast_text == "Note saved"
    assert shown(device, "Packing list", kind="list_item")
    new = last_note(device)
    assert (new.id, new.title, new.body, new.pinned) == (4, "Packing list", "charger", False)
    assert sorted_notes(notes_of(device).data)[0] is new


def test_back_saves_the_edit(device: Device) -> None:
    tap(device, "Trip ideas", kind="list_item")
    assert shown(device, "Edit note", kind="top_bar")
    tap(device, id="body", kind="text_field")
    press(device, "enter")  # a new line in the multi-line field
    type_text(device, "and Porto")
    press(device, "back")  # hides the keyboard
    assert device.keyboard_shown is False
    assert note(device, 2).body == "Lisbon in spring"  # not yet saved
    press(device, "back")  # leaves the editor, saving
    assert note(device, 2).body == "Lisbon in spring\nand Porto"
    assert device.toast_text == "Note saved"
    assert shown(device, "Trip ideas", kind="list_item")


def test_navigate_up_saves_the_edit(device: Device) -> None:
    tap(device, "Gift list", kind="list_item")
    tap(device, id="title", kind="text_field")
    type_text(device, "s")
    tap(device, id="navigate_up")
    assert titles(device) == ["Groceries", "Trip ideas", "Gift lists"]


def test_unchanged_note_is_not_saved_again(device: Device) -> None:
    tap(device, "Gift list", kind="list_item")
    press(device, "back")
    assert device.toast_text is None
    assert shown(device, "Gift list", kind="list_item")


@pytest.mark.parametrize("leave", ["back", "navigate_up", "save"])
def test_empty_draft_is_discarded(device: Device, leave: str) -> None:
    tap(device, id="new_note")
    tap(device, id="title", kind="text_field")
    type_text(device, "   ")  # blank text counts as empty
    press(device, "back")
    if leave == "back":
        press(device, "back")
    else:
        tap(device, id=leave)
    assert len(notes_of(device).data.notes) == 3
    assert device.toast_text is None
    assert shown(device, "Notes", kind="top_bar")


def test_a_note_with_only_text_gets_untitled(device: Device) -> None:
    tap(device, id="new_note")
    tap(device, id="body", kind="text_field")
    type_text(device, "remember this")
    tap(device, id="save")
    assert shown(device, "Untitled", kind="list_item")


# --- the keyboard --------------------------------------------------------------------------------
def test_keyboard_keys_edit_the_focused_field(device: Device) -> None:
    tap(device, id="new_note")
    tap(device, id="title", kind="text_field")
    assert device.keyboard_shown
    keys(device, "key_shift", "key_h", "key_i", "key_space", "key_x", "key_delete", "key_y",
         "key_o", "key_u")
    assert field_text(device, "title") == "Hi you"
    keys(device, "key_symbols", "key_2", "key_letters", "key_period")
    assert field_text(device, "title") == "Hi you2."
    tap(device, id="body", kind="text_field")  # focus moves to the other field
    keys(device, "key_o", "key_k", "key_enter", "key_a")
    assert field_text(device, "body") == "ok\na"
    assert field_text(device, "title") == "Hi you2."
    tap(device, id="save")
    assert last_note(device).title == "Hi you2."


def test_typing_without_focus_is_an_error(device: Device) -> None:
    tap(device, "Groceries", kind="list_item")
    error = device.step(PhoneAction("type", text="hello"))
    assert error is not None and "focus" in error
    assert field_text(device, "title") == "Groceries"


def test_select_all_then_type_replaces_the_text(device: Device) -> None:
    tap(device, "Groceries", kind="list_item")
    long_press(device, id="body", kind="text_field")
    assert shown(device, "Select all", kind="menu_item")
    tap(device, "Select all", kind="menu_item")
    type_text(device, "just coffee")
    assert field_text(device, "body") == "just coffee"
    type_text(device, " beans")  # the selection is gone: typing appends again
    assert field_text(device, "body") == "just coffee beans"
    press(device, "back")
    press(device, "back")
    assert note(device, 1).body == "just coffee beans"


def test_select_all_then_key_replaces_the_text(device: Device) -> None:
    tap(device, "Trip ideas", kind="list_item")
    long_press(device, id="title", kind="text_field")
    tap(device, "Select all", kind="menu_item")
    keys(device, "key_r")
    assert field_text(device, "title") == "r"


def test_copy_and_paste_between_fields(device: Device) -> None:
    tap(device, "Gift list", kind="list_item")
    long_press(device, id="body", kind="text_field")
    tap(device, "Copy", kind="menu_item")
    assert device.system.clipboard == "scarf for mom"
    long_press(device, id="title", kind="text_field")
    tap(device, "Paste", kind="menu_item")
    assert field_text(device, "title") == "Gift listscarf for mom"


# --- deleting ------------------------------------------------------------------------------------
def test_delete_from_the_editor(device: Device) -> None:
    tap(device, "Trip ideas", kind="list_item")
    tap(device, id="delete")
    assert shown(device, "Delete note?")
    tap(device, id="button_delete")
    assert titles(device) == ["Groceries", "Gift list"]
    assert device.toast_text == "Note deleted"
    assert shown(device, "Notes", kind="top_bar")
    assert not shown(device, "Trip ideas", kind="list_item")


def test_delete_discards_the_unsaved_draft(device: Device) -> None:
    tap(device, "Trip ideas", kind="list_item")
    tap(device, id="title", kind="text_field")
    type_text(device, " edited")
    tap(device, id="delete")
    tap(device, id="button_delete")
    assert titles(device) == ["Groceries", "Gift list"]


@pytest.mark.parametrize("how", ["cancel", "back", "outside"])
def test_delete_dialog_can_be_cancelled(device: Device, how: str) -> None:
    tap(device, "Trip ideas", kind="list_item")
    tap(device, id="delete")
    assert shown(device, "Delete note?")
    if how == "cancel":
        tap(device, id="button_cancel")
    elif how == "back":
        press(device, "back")
    else:
        act(device, PhoneAction("click", x=500, y=60))  # the scrim above the dialog
    assert not shown(device, "Delete note?")
    assert shown(device, "Edit note", kind="top_bar")  # still in the editor
    assert len(notes_of(device).data.notes) == 3
    press(device, "back")
    assert len(notes_of(device).data.notes) == 3


def test_dialog_blocks_the_screen_behind_it(device: Device) -> None:
    tap(device, "Trip ideas", kind="list_item")
    tap(device, id="delete")
    title_field = next(p for p in device.frame().items if p.node.id == "title")
    act(device, PhoneAction("click", x=center(title_field)[0], y=center(title_field)[1]))
    assert not device.keyboard_shown  # the tap only dismissed the dialog
    assert not shown(device, "Delete note?")
    assert len(notes_of(device).data.notes) == 3


def test_long_press_menu_delete_asks_first(device: Device) -> None:
    long_press(device, "Groceries", kind="list_item")
    assert shown(device, "Pin", kind="menu_item") and shown(device, "Delete", kind="menu_item")
    tap(device, "Delete", kind="menu_item")
    assert shown(device, "Delete note?")
    press(device, "back")
    assert not shown(device, "Delete note?") and len(notes_of(device).data.notes) == 3
    long_press(device, "Groceries", kind="list_item")
    tap(device, "Delete", kind="menu_item")
    tap(device, id="button_delete")
    assert titles(device) == ["Trip ideas", "Gift list"]
    assert shown(device, "Notes", kind="top_bar")


def test_long_press_menu_closes_with_back(device: Device) -> None:
    long_press(device, "Groceries", kind="list_item")
    assert device.menu is not None
    press(device, "back")
    assert device.menu is None
    assert shown(device, "Notes", kind="top_bar")  # still in the app


# --- pinning -------------------------------------------------------------------------------------
def test_pin_and_unpin_from_the_long_press_menu(device: Device) -> None:
    long_press(device, "Groceries", kind="list_item")
    tap(device, "Pin", kind="menu_item")
    assert note(device, 1).pinned
    order = [p.node.text for p in device.frame().items
             if p.node.kind == "list_item" or p.node.id.endswith("_header")]
    assert order == ["Pinned", "Groceries", "Others", "Gift list", "Trip ideas"]
    long_press(device, "Groceries", kind="list_item")
    assert shown(device, "Unpin", kind="menu_item")
    tap(device, "Unpin", kind="menu_item")
    assert not note(device, 1).pinned
    assert not shown(device, "Pinned")


def test_pin_from_the_editor_is_saved_on_leaving(device: Device) -> None:
    tap(device, "Trip ideas", kind="list_item")
    tap(device, id="pin", desc="Pin")
    assert shown(device, id="pin", desc="Unpin")
    assert not note(device, 2).pinned  # a draft change until saved
    press(device, "back")
    assert note(device, 2).pinned
    assert shown(device, "Pinned")


def test_new_pinned_note(device: Device) -> None:
    tap(device, id="new_note")
    tap(device, id="pin")
    tap(device, id="title", kind="text_field")
    type_text(device, "Top")
    tap(device, id="save")
    assert last_note(device).pinned


# --- force-stop ----------------------------------------------------------------------------------
def test_saved_changes_survive_close_and_reopen(device: Device) -> None:
    tap(device, "Trip ideas", kind="list_item")
    tap(device, id="body", kind="text_field")
    type_text(device, "!")
    tap(device, id="save")
    long_press(device, "Gift list", kind="list_item")
    tap(device, "Pin", kind="menu_item")
    act(device, PhoneAction("close_app", app="Notes"))
    assert device.current_app is None
    act(device, PhoneAction("open_app", app="Notes"))
    assert shown(device, "Notes", kind="top_bar")
    assert shown(device, "Pinned")
    tap(device, "Trip ideas", kind="list_item")
    assert field_text(device, "body") == "Lisbon in spring!"


def test_unsaved_draft_is_lost_on_close(device: Device) -> None:
    tap(device, "Groceries", kind="list_item")
    tap(device, id="title", kind="text_field")
    type_text(device, " (old)")
    tap(device, id="pin")
    act(device, PhoneAction("close_app", app="Notes"))
    act(device, PhoneAction("open_app", app="Notes"))
    assert shown(device, "Notes", kind="top_bar")  # back on the list, not the editor
    assert titles(device) == ["Groceries", "Trip ideas", "Gift list"]
    assert not any(n.pinned for n in notes_of(device).data.notes)
    tap(device, id="new_note")
    tap(device, id="title", kind="text_field")
    type_text(device, "Draft")
    act(device, PhoneAction("close_app", app="Notes"))
    assert len(notes_of(device).data.notes) == 3


def test_home_keeps_the_editor_open(device: Device) -> None:
    tap(device, "Groceries", kind="list_item")
    tap(device, id="title", kind="text_field")
    type_text(device, "!")
    press(device, "home")
    act(device, PhoneAction("open_app", app="Notes"))
    assert field_text(device, "title") == "Groceries!"  # the draft is still there


def test_search_is_lost_on_close(device: Device) -> None:
    tap(device, id="search", kind="text_field")
    type_text(device, "gift")
    act(device, PhoneAction("close_app", app="Notes"))
    act(device, PhoneAction("open_app", app="Notes"))
    assert field_text(device, "search") == ""


# --- task pieces ---------------------------------------------------------------------------------
def test_appended_matcher() -> None:
    ok = appended("milk, eggs\nbread", "and coffee")
    assert ok("milk, eggs\nbread\nand coffee")
    assert ok("milk, eggs\nbread, and coffee.")
    assert ok("milk, eggs\nbread  And coffee")
    assert not ok("milk, eggs bread, and coffee.")  # the kept text was edited
    assert not ok("Milk, eggs\nbread\nand coffee")  # ... its case too
    assert not ok("milk, eggs\nbread\nand coffee\nand coffee")  # added twice
    assert not ok("milk, eggs\nbreadand coffee")  # no separator
    assert not ok("and coffee")  # the old text is gone
    assert not ok("milk, eggs\nbread")  # nothing added
    assert not ok("and coffee\nmilk, eggs\nbread")  # added at the start
    assert not ok("milk, eggs\nbread\nand coffee\nand coffee?!x")


def test_note_task_ids_and_titles_are_unique() -> None:
    dev = Device([NotesApp])
    for template in TEMPLATES:
        assert template.id.startswith("Notes")
        for seed in range(10):
            Episode(template, dev, np.random.default_rng(seed))
            names = titles(dev)
            assert len(names) == len(set(names)), (template.id, names)
            assert len(names) >= 3


def test_some_read_tasks_need_scrolling() -> None:
    dev = Device([NotesApp])
    scrolled = 0
    for seed in range(20):
        ep = Episode(NotesReadNote(), dev, np.random.default_rng(seed))
        act(dev, PhoneAction("open_app", app="Notes"))
        if not shown(dev, ep.params["title"], kind="list_item"):
            scrolled += 1
        body = ep.params["body"]
        assert "\n" in body  # the list preview shows only its first line
    assert scrolled >= 2
