"""The simulated phone driven through ``PhoneAction``s: launcher, back stacks, recents, the
notification shade, the soft keyboard, long-press menus, toasts, scrolling, force-stop,
pickling, coordinates and snapshots."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any
from unittest.mock import patch

import numpy as np
import pytest
from driving import Driver, act, center, open_app, press, type_text

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS
from phone_gym.mockapps.contacts.app import ContactsApp
from phone_gym.mockapps.notes.app import NotesApp, add_note
from phone_gym.verifiers import plain
from phone_gym.world import App, Device, Route, Screen, system_ui
from phone_gym.world import theme as T
from phone_gym.world.a11y import ui_elements
from phone_gym.world.device import LAUNCHER_PACKAGE, to_px
from phone_gym.world.layout import Placed
from phone_gym.world.render import Renderer, TileCache
from phone_gym.world.system_ui import Launcher
from phone_gym.world.widgets import Dialog, DialogButton, Text, TextField, TopBar

# --- helpers -----------------------------------------------------------------------------------


def find(device: Device, text: str | None = None, **query: str) -> Placed | None:
    return Driver(device).find(text, **query)


def must(device: Device, text: str | None = None, **query: str) -> Placed:
    placed = find(device, text, **query)
    assert placed is not None, f"nothing matching {text!r} {query} on screen"
    return placed


def tap(device: Device, text: str | None = None, **query: str) -> None:
    x, y = center(must(device, text, **query))
    act(device, PhoneAction("click", x=x, y=y))


def long_press(device: Device, text: str | None = None, **query: str) -> None:
    x, y = center(must(device, text, **query))
    act(device, PhoneAction("long_press", x=x, y=y))


def keys(device: Device, *ids: str) -> None:
    for key_id in ids:
        tap(device, id=key_id, kind="key")


def scroll(device: Device, direction: str, times: int = 1) -> None:
    for _ in range(times):
        act(device, PhoneAction("scroll", x=500, y=500, direction=direction))


def menu_items(device: Device) -> list[str]:
    return [p.node.text for p in device.frame().items if p.node.kind == "menu_item"]


def field_text(device: Device, field_id: str) -> str:
    return must(device, id=field_id, kind="text_field").node.text


def shown(device: Device, kind: str) -> list[str]:
    return [p.node.text for p in device.frame().items if p.node.kind == kind]


def without_clock(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot less the clock, which every step moves on."""
    return {k: v for k, v in snapshot.items() if k != "now"}


def notes(device: Device) -> NotesApp:
    app = device.apps["Notes"]
    assert isinstance(app, NotesApp)
    return app


def contacts(device: Device) -> ContactsApp:
    app = device.apps["Contacts"]
    assert isinstance(app, ContactsApp)
    return app


def open_shade(device: Device) -> None:
    act(device, PhoneAction("drag", x=500, y=10, x2=500, y2=600))
    assert device.shade_open


@pytest.fixture
def device() -> Device:
    """All mock apps installed; two contacts (ids 1, 2) and a note (id 1)."""
    dev = Device(APPS)
    dev.system.add_contact("Ann Lee", "555 0100")
    dev.system.add_contact("Bob Roy", "555 0199")
    add_note(notes(dev).data, "Groceries", "Milk")
    return dev


@pytest.fixture
def long_notes(device: Device) -> Device:
    """Notes holding 30 more notes (a list several screens long), open on its list."""
    for i in range(30):
        add_note(notes(device).data, f"Note {i}", "text")
    open_app(device, "Notes")
    return device


# --- launcher and back stacks ------------------------------------------------------------------


def home_icons(device: Device) -> list[str]:
    """The app icons of every home page, page by page (turned with the next-page arrow)."""
    out = shown(device, "app_icon")
    while find(device, id="next_page") is not None:
        tap(device, id="next_page")
        out += shown(device, "app_icon")
    press(device, "home")
    return out


def test_launcher_icons_open_apps(device: Device) -> None:
    assert device.foreground is None
    assert device.frame().package == LAUNCHER_PACKAGE
    on_launcher = [a for a in APPS if not a.manifest.mini_program]  # not mini-programs
    assert home_icons(device) == [a.manifest.label for a in on_launcher]  # launcher order
    for i, app_class in enumerate(on_launcher):
        for _ in range(Launcher.page_of(i)):
            tap(device, id="next_page")
        tap(device, app_class.manifest.label, kind="app_icon")
        assert device.foreground == app_class.name
        assert device.current_app is device.apps[app_class.name]
        assert device.frame().package == app_class.package
        assert find(device, kind="app_icon") is None
        press(device, "home")
        assert device.foreground is None
        assert device.frame().package == LAUNCHER_PACKAGE


def test_back_pops_screens_then_goes_home(device: Device) -> None:
    open_app(device, "Contacts")
    tap(device, "Ann Lee")
    assert contacts(device).route == Route("detail", 1)
    tap(device, id="edit")
    assert contacts(device).stack == [Route("main"), Route("detail", 1), Route("edit", 1)]
    press(device, "back")
    assert contacts(device).route == Route("detail", 1)
    press(device, "back")
    assert contacts(device).route == Route("main")
    assert device.foreground == "Contacts"
    press(device, "back")
    assert device.foreground is None
    assert contacts(device).stack == [Route("main")]


def test_reopening_an_app_resumes_its_screen(device: Device) -> None:
    open_app(device, "Contacts")
    tap(device, "Bob Roy")
    press(device, "home")
    tap(device, "Notes", kind="app_icon")
    tap(device, "Groceries")
    assert notes(device).route == Route("edit", 1)
    press(device, "home")
    tap(device, "Contacts", kind="app_icon")
    assert contacts(device).route == Route("detail", 2)
    assert must(device, id="name").node.text == "Bob Roy"
    open_app(device, "Notes")
    assert notes(device).route == Route("edit", 1)
    assert field_text(device, "title") == "Groceries"


def test_back_stacks_are_per_app(device: Device) -> None:
    open_app(device, "Contacts")
    tap(device, "Ann Lee")
    open_app(device, "Notes")
    tap(device, "Groceries")
    press(device, "back")  # closes the Notes editor, not the contact
    assert notes(device).route == Route("main")
    assert device.foreground == "Notes"
    assert contacts(device).route == Route("detail", 1)


# --- recents --------------------------------------------------------------------------------------


def test_recents_lists_open_apps_most_recent_first(device: Device) -> None:
    press(device, "recents")
    assert device.show_recents
    assert find(device, "No recent items") is not None
    assert find(device, "Clear all") is None
    press(device, "recents")
    assert not device.show_recents
    open_app(device, "Contacts")
    open_app(device, "Clock")
    open_app(device, "Notes")
    open_app(device, "Contacts")
    press(device, "recents")
    assert device.current_app is None
    assert [p.node.id for p in device.frame().items if p.node.kind == "list_item"] == [
        "task_contacts", "task_notes", "task_clock"]


def test_tapping_a_recent_app_switches_to_it(device: Device) -> None:
    open_app(device, "Contacts")
    tap(device, "Ann Lee")
    open_app(device, "Notes")
    press(device, "recents")
    tap(device, id="task_contacts")
    assert not device.show_recents
    assert device.foreground == "Contacts"
    assert contacts(device).route == Route("detail", 1)
    assert device.recents[0] == "Contacts"


def test_back_leaves_recents_for_the_app_below(device: Device) -> None:
    open_app(device, "Notes")
    press(device, "recents")
    press(device, "back")
    assert not device.show_recents
    assert device.foreground == "Notes"


def test_clear_all_stops_apps_and_goes_home(device: Device) -> None:
    open_app(device, "Contacts")
    tap(device, "Ann Lee")
    open_app(device, "Notes")
    tap(device, id="new_note")
    tap(device, id="title", kind="text_field")
    type_text(device, "Draft")
    press(device, "back")  # hide the keyboard; the editor stays open
    press(device, "recents")
    tap(device, "Clear all")
    assert device.recents == []
    assert not device.show_recents
    assert device.foreground is None
    assert device.frame().package == LAUNCHER_PACKAGE
    assert contacts(device).stack == [Route("main")]
    assert notes(device).stack == [Route("main")]
    assert notes(device).ui.draft.title == ""
    assert [n.title for n in notes(device).data.notes] == ["Groceries"]  # data persists
    press(device, "recents")
    assert find(device, "No recent items") is not None


# --- notification shade ------------------------------------------------------------------------


def test_drag_down_from_the_status_bar_opens_the_shade(device: Device) -> None:
    act(device, PhoneAction("drag", x=500, y=300, x2=500, y2=900))  # not from the top
    assert not device.shade_open
    act(device, PhoneAction("drag", x=500, y=0, x2=500, y2=50))  # too short
    assert not device.shade_open
    open_shade(device)
    assert find(device, "Quick settings") is not None
    assert find(device, "No notifications") is not None
    assert find(device, kind="app_icon") is None
    press(device, "back")
    assert not device.shade_open
    assert find(device, kind="app_icon") is not None
    open_shade(device)
    act(device, PhoneAction("drag", x=500, y=800, x2=500, y2=100))  # swipe up closes it
    assert not device.shade_open


@pytest.mark.parametrize(("label", "key", "before"), [
    ("Wi-Fi", "wifi_on", "1"), ("Bluetooth", "bluetooth_on", "0"),
    ("Airplane mode", "airplane_mode_on", "0"),
])
def test_quick_settings_flip_settings(device: Device, label: str, key: str, before: str) -> None:
    open_shade(device)
    assert device.system.get_setting("global", key) == before
    assert must(device, label, kind="toggle").node.checked == (before == "1")
    tap(device, label, kind="toggle")
    after = "0" if before == "1" else "1"
    assert device.system.get_setting("global", key) == after
    assert must(device, label, kind="toggle").node.checked == (after == "1")
    assert device.snapshot()["settings"]["global"][key] == after
    tap(device, label, kind="toggle")
    assert device.system.get_setting("global", key) == before
    assert device.shade_open


def test_notifications_appear_newest_first_and_open_their_app(device: Device) -> None:
    device.system.notify("Clock", "Alarm", "07:00")
    note = device.system.notify("Notes", "Reminder", "Buy milk")
    open_shade(device)
    assert shown(device, "list_item") == ["Reminder", "Alarm"]
    assert must(device, "Reminder").node.hint == "Buy milk"
    assert must(device, "Reminder").node.id == f"notification_{note.id}"
    tap(device, "Reminder")
    assert not device.shade_open
    assert device.foreground == "Notes"
    assert device.recents[0] == "Notes"


def test_long_press_dismisses_a_notification(device: Device) -> None:
    device.system.notify("Clock", "Alarm", "07:00")
    keep = device.system.notify("Notes", "Reminder")
    open_shade(device)
    long_press(device, "Alarm")
    assert menu_items(device) == ["Dismiss"]
    tap(device, "Dismiss", kind="menu_item")
    assert device.system.notifications == [keep]
    assert device.menu is None
    assert device.shade_open
    assert shown(device, "list_item") == ["Reminder"]


def test_the_shade_builds_only_the_rows_that_can_show(device: Device) -> None:
    """Thousands of notifications: rows only for those the screen can hold, and the same
    pixels and accessibility tree as a shade that builds a row for every one."""
    for i in range(300):
        device.system.notify("Clock", f"Alarm {i}", "" if i % 3 else "07:00")
    open_shade(device)
    listed = next(p.node for p in device.frame().items if p.node.id == "notifications")
    assert len(listed.children) == system_ui.SHADE_ROWS < 300
    assert shown(device, "list_item")[0] == "Alarm 299"
    lean = (Renderer(cache=TileCache()).render(device.frame()),
            [e.to_dict() for e in ui_elements(device.frame())])
    with patch.object(system_ui, "SHADE_ROWS", 10_000):
        device.invalidate()
        listed = next(p.node for p in device.frame().items if p.node.id == "notifications")
        assert len(listed.children) == 300
        full = (Renderer(cache=TileCache()).render(device.frame()),
                [e.to_dict() for e in ui_elements(device.frame())])
    assert np.array_equal(lean[0], full[0]) and lean[1] == full[1]


def test_back_closes_a_menu_before_the_shade(device: Device) -> None:
    device.system.notify("Clock", "Alarm")
    open_shade(device)
    long_press(device, "Alarm")
    press(device, "back")
    assert device.menu is None and device.shade_open
    press(device, "back")
    assert not device.shade_open
    assert len(device.system.notifications) == 1


# --- keyboard -------------------------------------------------------------------------------------


def test_keyboard_only_with_a_focused_text_field(device: Device) -> None:
    open_app(device, "Notes")
    assert not device.keyboard_shown and find(device, kind="keyboard") is None
    tap(device, id="search", kind="text_field")
    assert device.keyboard_shown and find(device, kind="keyboard") is not None
    assert device.focus == "search"
    assert find(device, id="new_note") is None  # the FAB hides behind the keyboard
    press(device, "back")  # hides the keyboard first
    assert not device.keyboard_shown and find(device, kind="keyboard") is None
    assert device.foreground == "Notes"
    press(device, "back")
    assert device.foreground is None


def test_keyboard_goes_when_the_screen_changes(device: Device) -> None:
    open_app(device, "Notes")
    tap(device, id="search", kind="text_field")
    press(device, "home")
    assert not device.keyboard_shown
    open_app(device, "Notes")
    assert not device.keyboard_shown


def test_typing_needs_focus(device: Device) -> None:
    open_app(device, "Notes")
    before = device.system.now
    error = device.step(PhoneAction("type", text="x"))
    assert error is not None and "no text field has focus" in error
    assert device.system.now == before  # a failed action changes nothing


def test_soft_keys_type(device: Device) -> None:
    open_app(device, "Notes")
    tap(device, id="new_note")
    tap(device, id="title", kind="text_field")
    keys(device, "key_shift")
    assert must(device, id="key_h", kind="key").node.text == "H"
    assert must(device, id="key_shift").node.selected
    keys(device, "key_h", "key_i")  # shift applies to one letter
    assert must(device, id="key_h", kind="key").node.text == "h"
    keys(device, "key_comma", "key_space", "key_symbols")
    assert find(device, id="key_1", kind="key") is not None
    assert find(device, id="key_a", kind="key") is None
    keys(device, "key_4", "key_2", "key_@", "key_letters", "key_x", "key_period")
    assert field_text(device, "title") == "Hi, 42@x."
    keys(device, "key_delete", "key_delete")
    assert field_text(device, "title") == "Hi, 42@"
    assert notes(device).ui.draft.title == "Hi, 42@"


def test_enter_key(device: Device) -> None:
    open_app(device, "Notes")
    tap(device, id="new_note")
    tap(device, id="body", kind="text_field")
    keys(device, "key_a", "key_enter", "key_b")
    assert field_text(device, "body") == "a\nb"  # a multi-line field takes a newline
    press(device, "enter")
    assert field_text(device, "body") == "a\nb\n"
    tap(device, id="title", kind="text_field")
    press(device, "enter")  # a single-line field without a submit action: done
    assert not device.keyboard_shown


def test_delete_on_an_empty_field(device: Device) -> None:
    open_app(device, "Notes")
    tap(device, id="search", kind="text_field")
    keys(device, "key_delete")
    assert field_text(device, "search") == ""


# --- long-press menus on text -------------------------------------------------------------------


def test_text_field_menu_depends_on_text_and_clipboard(device: Device) -> None:
    open_app(device, "Notes")
    tap(device, id="new_note")
    long_press(device, id="title", kind="text_field")
    assert device.menu is None  # empty field, empty clipboard: nothing to offer
    assert device.focus == "title"
    device.system.clipboard = "clip"
    long_press(device, id="title", kind="text_field")
    assert menu_items(device) == ["Paste"]
    press(device, "back")
    type_text(device, "abc")
    long_press(device, id="title", kind="text_field")
    assert menu_items(device) == ["Paste", "Copy", "Select all"]
    device.system.clipboard = ""
    press(device, "back")
    long_press(device, id="title", kind="text_field")
    assert menu_items(device) == ["Copy", "Select all"]


def test_copy_and_paste(device: Device) -> None:
    open_app(device, "Notes")
    tap(device, "Groceries")
    long_press(device, id="title", kind="text_field")
    tap(device, "Copy", kind="menu_item")
    assert device.system.clipboard == "Groceries"
    assert device.toast_text == "Copied to clipboard"
    assert device.menu is None
    tap(device, id="body", kind="text_field")
    type_text(device, " and ")
    long_press(device, id="body", kind="text_field")
    tap(device, "Paste", kind="menu_item")
    assert field_text(device, "body") == "Milk and Groceries"


def test_copy_a_copyable_text(device: Device) -> None:
    open_app(device, "Contacts")
    tap(device, "Bob Roy")
    long_press(device, id="phone")
    assert menu_items(device) == ["Copy"]
    tap(device, "Copy", kind="menu_item")
    assert device.system.clipboard == "555 0199"


def test_select_all_then_type_replaces(device: Device) -> None:
    open_app(device, "Notes")
    tap(device, "Groceries")
    long_press(device, id="title", kind="text_field")
    tap(device, "Select all", kind="menu_item")
    assert must(device, id="title", kind="text_field").node.selected
    type_text(device, "Shopping")
    assert field_text(device, "title") == "Shopping"
    type_text(device, "!")  # the selection is gone
    assert field_text(device, "title") == "Shopping!"


def test_select_all_then_keys_replace(device: Device) -> None:
    open_app(device, "Notes")
    tap(device, "Groceries")
    long_press(device, id="title", kind="text_field")
    tap(device, "Select all", kind="menu_item")
    keys(device, "key_x", "key_y")
    assert field_text(device, "title") == "xy"
    long_press(device, id="title", kind="text_field")
    tap(device, "Select all", kind="menu_item")
    keys(device, "key_delete")
    assert field_text(device, "title") == ""


def test_a_selection_ends_when_another_field_is_tapped(device: Device) -> None:
    open_app(device, "Notes")
    tap(device, "Groceries")
    long_press(device, id="title", kind="text_field")
    tap(device, "Select all", kind="menu_item")
    tap(device, id="body", kind="text_field")
    assert not must(device, id="title", kind="text_field").node.selected
    type_text(device, " and eggs")
    assert field_text(device, "body") == "Milk and eggs"
    assert field_text(device, "title") == "Groceries"


def test_tapping_outside_a_menu_closes_it(device: Device) -> None:
    open_app(device, "Notes")
    long_press(device, "Groceries")
    assert menu_items(device) == ["Pin", "Delete"]
    before = device.snapshot()
    act(device, PhoneAction("click", x=500, y=100))
    assert device.menu is None
    assert notes(device).route == Route("main")  # the tap did not reach the list
    assert without_clock(device.snapshot()) == without_clock(before)


# --- toasts ---------------------------------------------------------------------------------------


def test_toasts_disappear_after_about_three_seconds(device: Device) -> None:
    open_app(device, "Contacts")
    tap(device, "Bob Roy")
    long_press(device, id="phone")
    tap(device, "Copy", kind="menu_item")  # the toast is posted during this step
    assert shown(device, "toast") == ["Copied to clipboard"]
    act(device, PhoneAction("wait", seconds=0.5))
    assert shown(device, "toast") == ["Copied to clipboard"]
    act(device, PhoneAction("wait", seconds=0.5))
    assert shown(device, "toast") == []
    assert device.toast_text is None


def test_a_long_wait_clears_a_toast(device: Device) -> None:
    device.toast("Hello")
    assert shown(device, "toast") == ["Hello"]
    act(device, PhoneAction("wait", seconds=5))
    assert shown(device, "toast") == []


# --- scrolling -----------------------------------------------------------------------------------


def offset(device: Device) -> int:
    app = device.current_app
    assert app is not None
    return device.scroll.get((app.name, app.route), 0)


def list_titles(device: Device) -> list[str]:
    return shown(device, "list_item")


def test_scrolling_clamps_at_both_ends(long_notes: Device) -> None:
    device = long_notes
    top = list_titles(device)
    scroll(device, "up")
    assert offset(device) == 0 and list_titles(device) == top
    scroll(device, "down")
    assert offset(device) > 0 and list_titles(device) != top
    scroll(device, "down", 30)
    frame = device.frame()
    vp = frame.viewport
    limit = frame.content_height - (vp[3] - vp[1])
    assert offset(device) == limit
    bottom = list_titles(device)
    assert bottom[-1] == "Groceries"  # the oldest note is last
    scroll(device, "down")
    assert offset(device) == limit and list_titles(device) == bottom
    scroll(device, "up", 30)
    assert offset(device) == 0 and list_titles(device) == top


def test_scrolling_left_or_right_does_nothing(long_notes: Device) -> None:
    scroll(long_notes, "left")
    scroll(long_notes, "right")
    assert offset(long_notes) == 0


def test_drag_scrolls_by_the_distance(long_notes: Device) -> None:
    device = long_notes
    act(device, PhoneAction("drag", x=500, y=700, x2=500, y2=500))
    _, y0 = to_px(500, 700)
    _, y1 = to_px(500, 500)
    assert offset(device) == y0 - y1
    act(device, PhoneAction("drag", x=500, y=300, x2=500, y2=900))
    assert offset(device) == 0


def test_scroll_up_moves_a_page_after_the_keyboard_hides(long_notes: Device) -> None:
    device = long_notes
    tap(device, id="search", kind="text_field")
    scroll(device, "down", 30)  # to the bottom, with the keyboard up
    press(device, "back")
    assert not device.keyboard_shown
    frame = device.frame()
    vp = frame.viewport
    limit = frame.content_height - (vp[3] - vp[1])
    bottom = list_titles(device)
    scroll(device, "up")
    assert offset(device) == limit - int((vp[3] - vp[1]) * 0.6)
    assert list_titles(device) != bottom


def test_a_short_screen_does_not_scroll(device: Device) -> None:
    open_app(device, "Notes")
    scroll(device, "down", 3)
    assert offset(device) == 0


# --- taps that do nothing, and coordinates ---------------------------------------------------


@pytest.mark.parametrize("app", [None, "Notes", "Contacts", "Clock"])
def test_a_tap_on_empty_space_changes_nothing(device: Device, app: str | None) -> None:
    if app is not None:
        open_app(device, app)
    before, key = device.snapshot(), device.screen_key()
    texts = [(p.node.kind, p.node.text) for p in device.frame().items if p.node.kind != "text"]
    y = 600 if app is not None else 250  # below short lists; above the home grid
    assert device.frame().hit(*to_px(500, y)) is None
    act(device, PhoneAction("click", x=500, y=y))
    act(device, PhoneAction("click", x=0, y=0))  # the status bar
    assert without_clock(device.snapshot()) == without_clock(before)
    assert device.screen_key() == key
    assert [(p.node.kind, p.node.text) for p in device.frame().items
            if p.node.kind != "text"] == texts


def test_coordinates_0_and_1000_are_on_screen() -> None:
    assert to_px(0, 0) == (0, 0)
    assert to_px(1000, 1000) == (T.SCREEN_W - 1, T.SCREEN_H - 1)
    assert to_px(500, 500) == (T.SCREEN_W // 2, T.SCREEN_H // 2)


def test_the_bottom_edge_reaches_the_navigation_bar(device: Device) -> None:
    open_app(device, "Notes")
    act(device, PhoneAction("click", x=500, y=1000))  # home, at the very bottom
    assert device.foreground is None
    open_app(device, "Notes")
    tap(device, "Groceries")
    act(device, PhoneAction("click", x=0, y=1000))  # outside every nav icon
    assert notes(device).route == Route("edit", 1)
    act(device, PhoneAction("click", x=160, y=1000))  # back
    assert notes(device).route == Route("main")
    act(device, PhoneAction("click", x=1000, y=1000))  # the far corner: nothing there
    assert not device.show_recents
    for x, y in ((0, 0), (1000, 0), (0, 1000), (1000, 1000)):
        for kind in ("click", "long_press", "double_click"):
            act(device, PhoneAction(kind, x=x, y=y))
        act(device, PhoneAction("scroll", x=x, y=y, direction="down"))


# --- force-stop --------------------------------------------------------------------------------


def test_close_app_keeps_data_but_drops_transient_ui(long_notes: Device) -> None:
    device = long_notes
    scroll(device, "down", 2)
    assert offset(device) > 0
    tap(device, id="new_note")
    tap(device, id="title", kind="text_field")
    type_text(device, "Unsaved")
    data = without_clock(device.snapshot())
    act(device, PhoneAction("close_app", app="notes"))  # names are case-insensitive
    assert device.foreground is None
    assert "Notes" not in device.recents
    assert not device.keyboard_shown
    assert without_clock(device.snapshot()) == data
    app = notes(device)
    assert app.stack == [Route("main")] and app.ui.draft.title == ""
    open_app(device, "Notes")
    assert offset(device) == 0
    assert list_titles(device)[0] == "Note 29"


def test_close_app_of_a_background_app(device: Device) -> None:
    open_app(device, "Contacts")
    tap(device, id="search", kind="text_field")
    type_text(device, "Bo")
    open_app(device, "Notes")
    act(device, PhoneAction("close_app", app="Contacts"))
    assert device.foreground == "Notes"
    assert device.recents == ["Notes"]
    open_app(device, "Contacts")
    assert field_text(device, "search") == ""
    assert shown(device, "list_item") == ["Ann Lee", "Bob Roy"]


def test_unknown_apps_are_errors(device: Device) -> None:
    for kind in ("open_app", "close_app"):
        error = device.step(PhoneAction(kind, app="Quokka"))
        labels = ", ".join(sorted(a.manifest.label for a in APPS))
        assert error == f"unknown app 'Quokka'; installed apps: {labels}"
    assert device.foreground is None
    act(device, PhoneAction("open_app", app="com.android.contacts"))  # by package
    assert device.foreground == "Contacts"


# --- pickling ----------------------------------------------------------------------------------


def test_pickle_restores_a_list_item_menu(device: Device) -> None:
    open_app(device, "Notes")
    long_press(device, "Groceries")
    copy = pickle.loads(pickle.dumps(device))
    assert menu_items(copy) == ["Pin", "Delete"]
    tap(copy, "Delete", kind="menu_item")
    assert copy.screen().dialog is not None
    tap(copy, "Delete", id="button_delete")
    assert notes(copy).data.notes == []
    assert [n.title for n in notes(device).data.notes] == ["Groceries"]  # the original


def test_pickle_restores_a_text_field_menu(device: Device) -> None:
    open_app(device, "Notes")
    tap(device, "Groceries")
    device.system.clipboard = " list"
    long_press(device, id="title", kind="text_field")
    copy = pickle.loads(pickle.dumps(device))
    assert copy.menu_source == device.menu_source
    assert menu_items(copy) == ["Paste", "Copy", "Select all"]
    tap(copy, "Paste", kind="menu_item")
    assert field_text(copy, "title") == "Groceries list"
    assert copy.menu is None


def test_pickle_restores_a_menu_before_the_first_step(device: Device) -> None:
    open_app(device, "Contacts")
    tap(device, "Bob Roy")
    long_press(device, id="phone")
    copy = pickle.loads(pickle.dumps(device))
    x, y = center(must(device, "Copy", kind="menu_item"))  # where the original shows it
    act(copy, PhoneAction("click", x=x, y=y))  # no frame built yet on the copy
    assert copy.system.clipboard == "555 0199"


def test_pickle_restores_a_shade_menu(device: Device) -> None:
    device.system.notify("Clock", "Alarm")
    open_shade(device)
    long_press(device, "Alarm")
    copy = pickle.loads(pickle.dumps(device))
    tap(copy, "Dismiss", kind="menu_item")
    assert copy.system.notifications == []
    assert len(device.system.notifications) == 1


def test_pickle_keeps_the_screen(device: Device) -> None:
    open_app(device, "Notes")
    tap(device, "Groceries")
    tap(device, id="body", kind="text_field")
    copy = pickle.loads(pickle.dumps(device))
    assert copy.menu is None and copy.menu_source is None
    assert copy.screen_key() == device.screen_key()
    assert copy.keyboard_shown
    assert [(p.node.kind, p.node.text, p.rect) for p in copy.frame().items] == [
        (p.node.kind, p.node.text, p.rect) for p in device.frame().items]


# --- construction and snapshots --------------------------------------------------------------


def test_duplicate_app_names_are_rejected() -> None:
    class OtherNotes(App):
        name = "notes"

    with pytest.raises(ValueError, match="unique"):
        Device([NotesApp, NotesApp])
    with pytest.raises(ValueError, match="unique"):
        Device([NotesApp, OtherNotes])


def test_snapshot_is_plain_data(device: Device) -> None:
    device.system.notify("Clock", "Alarm")
    snap = device.snapshot()
    assert json.loads(json.dumps(plain(snap))) == snap
    assert {"contacts", "settings", "files", "alarms", "notifications", "apps"} <= set(snap)
    assert set(snap["apps"]) == {a.name for a in APPS}
    assert snap["contacts"]["2"]["name"] == "Bob Roy"
    assert snap["apps"]["Notes"]["notes"]["1"]["title"] == "Groceries"


def test_snapshot_unchanged_by_pure_navigation(device: Device) -> None:
    device.system.notify("Clock", "Alarm")
    before = device.snapshot()
    open_app(device, "Contacts")
    tap(device, "Ann Lee")
    press(device, "back")
    tap(device, id="tab_favorites")
    open_app(device, "Clock")
    tap(device, id="tab_timer")
    open_app(device, "Notes")
    tap(device, "Groceries")
    press(device, "back")
    press(device, "recents")
    press(device, "home")
    open_shade(device)
    press(device, "back")
    scroll(device, "down")
    after = device.snapshot()
    assert without_clock(after) == without_clock(before)
    assert after["now"] > before["now"]


def test_snapshot_is_a_copy(device: Device) -> None:
    snap = device.snapshot()
    with pytest.raises(TypeError, match="read-only"):
        snap["contacts"]["1"]["name"] = "Changed"
    edited = copy.deepcopy(snap)
    edited["contacts"]["1"]["name"] = "Changed"
    snap["settings"]["global"]["wifi_on"] = "0"
    assert device.system.contacts[1].name == "Ann Lee"
    assert device.snapshot()["contacts"]["1"]["name"] == "Ann Lee"
    assert device.system.get_setting("global", "wifi_on") == "1"


def test_reset_wipes_everything(device: Device) -> None:
    open_app(device, "Notes")
    long_press(device, "Groceries")
    device.toast("hi")
    device.reset()
    assert device.foreground is None and device.menu is None and device.toast_text is None
    assert device.recents == [] and device.scroll == {}
    assert device.snapshot()["contacts"] == {}
    assert len(notes(device).data.notes) == 0


# --- a dialog with a text field ---------------------------------------------------------------


class RenameApp(App):
    """A screen whose dialog holds a text field."""

    name = "Rename"
    package = "com.example.rename"

    def initial_ui(self) -> dict[str, Any]:
        return {"name": "", "open": True}

    def set_name(self, value: str) -> None:
        self.ui["name"] = value

    def close(self) -> None:
        self.ui["open"] = False

    def view(self, route: Route) -> Screen:
        dialog = None
        if self.ui["open"]:
            dialog = Dialog("Rename", "", [DialogButton("OK", self.close)],
                            body=[TextField(self.ui["name"], self.set_name, id="name")])
        return Screen(content=[Text("Files", id="label")], top_bar=TopBar("Rename"),
                      dialog=dialog, on_dismiss=self.close)


def test_keys_type_into_a_dialog_field() -> None:
    device = Device([RenameApp])
    open_app(device, "Rename")
    tap(device, id="name", kind="text_field")
    assert device.keyboard_shown
    dialog = must(device, kind="dialog").rect
    keyboard = must(device, kind="keyboard").rect
    assert dialog[3] <= keyboard[1]  # the dialog moves up above the keyboard
    keys(device, "key_o", "key_k")
    assert device.apps["Rename"].ui == {"name": "ok", "open": True}
    act(device, PhoneAction("click", x=500, y=50))  # above the dialog: dismisses it
    assert device.apps["Rename"].ui["open"] is False
    assert not device.keyboard_shown  # its field is gone


def test_back_in_a_dialog_hides_the_keyboard_then_dismisses() -> None:
    device = Device([RenameApp])
    open_app(device, "Rename")
    tap(device, id="name", kind="text_field")
    press(device, "back")
    assert not device.keyboard_shown and device.apps["Rename"].ui["open"]
    press(device, "back")
    assert not device.apps["Rename"].ui["open"]
    assert device.foreground == "Rename"


def test_a_dialog_takes_the_focus_from_the_screen_below(device: Device) -> None:
    open_app(device, "Contacts")
    tap(device, id="create_contact")
    tap(device, id="name", kind="text_field")
    type_text(device, "Zed")
    tap(device, id="navigate_up")  # unsaved changes: a dialog asks first
    assert device.screen().dialog is not None
    assert not device.keyboard_shown
    assert device.step(PhoneAction("type", text="XX")) is not None
    assert contacts(device).ui.form.name == "Zed"
    tap(device, "Keep editing")
    assert contacts(device).route == Route("edit", None)
