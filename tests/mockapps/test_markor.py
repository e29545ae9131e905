"""The Markor app driven through actions: the file browser (folders first, notes by name or
date, search, the ".." row), creating notes and folders, the editor (save, paste), selection
with rename, move and delete (select all included), the To-Do and QuickNote tabs; its update
functions; its fixtures and its task helpers."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from driving import fill, long_press, open_app, press, shown, tap, type_text

from phone_gym.mockapps import APPS
from phone_gym.mockapps.markor import APP, TEMPLATES, MarkorApp
from phone_gym.mockapps.markor.app import (
    KEEP,
    MARKOR_DIR,
    NAME_TAKEN,
    all_folders,
    create_folder,
    create_note,
    delete_entries,
    entries,
    move_entries,
    note_file_name,
    rename_entry,
    save_note,
)
from phone_gym.mockapps.markor.fixtures import note_names, text_is
from phone_gym.verifiers.fields import content_digest
from phone_gym.world import Device
from phone_gym.world.data import Table
from phone_gym.world.system import File

NOTES = {
    f"{MARKOR_DIR}/beta.md": "Second note",
    f"{MARKOR_DIR}/alpha.txt": "First note",
    f"{MARKOR_DIR}/Work/plan.md": "Ship it",
    f"{MARKOR_DIR}/Empty/{KEEP}": "",
    "/sdcard/Documents/outside.txt": "Not a Markor note",
}
TIMES = {f"{MARKOR_DIR}/beta.md": "2023-10-14T09:00:00",
         f"{MARKOR_DIR}/alpha.txt": "2023-10-15T12:00:00"}


@pytest.fixture
def device() -> Device:
    d = Device(APPS)
    for path, content in NOTES.items():
        d.system.write_file(path, content)
    app = d.app("Markor")
    assert isinstance(app, MarkorApp)
    app.data.modified.update(TIMES)
    open_app(d, "Markor")
    return d


def markor(device: Device) -> MarkorApp:
    app = device.app("Markor")
    assert isinstance(app, MarkorApp)
    return app


def rows(device: Device) -> list[str]:
    return [p.node.text for p in device.frame().items if p.node.kind == "list_item"]


def contents(device: Device) -> dict[str, str]:
    return {f.path: f.content for f in device.system.files}


def table(files: dict[str, str]) -> Table[File]:
    return Table([File(p, c) for p, c in files.items()], key="path", kind=File)


# --- the app through actions -----------------------------------------------------------------
def test_registration() -> None:
    assert APP is MarkorApp
    assert (MarkorApp.name, MarkorApp.package) == ("Markor", "net.gsantner.markor")
    assert MarkorApp.manifest.order == 32
    assert len(TEMPLATES) == 11 and all(t.id.startswith("Markor") for t in TEMPLATES)


def test_browser_lists_folders_then_notes_and_hides_placeholders(device: Device) -> None:
    assert shown(device, "Markor", kind="top_bar")
    assert rows(device) == ["..", "Empty", "Work", "alpha.txt", "beta.md"]
    tap(device, "Empty", kind="list_item")
    assert rows(device) == [".."]
    press(device, "back")
    tap(device, "Work", kind="list_item")
    assert rows(device) == ["..", "plan.md"]


def test_sorting_by_date_shows_the_newest_first(device: Device) -> None:
    tap(device, id="sort")
    tap(device, "Date modified")
    assert rows(device)[-2:] == ["alpha.txt", "beta.md"]  # alpha was written last
    hints = {p.node.text: p.node.hint for p in device.frame().items
             if p.node.kind == "list_item"}
    assert hints["alpha.txt"] == "Oct 15, 2023 12:00 · 10 B"


def test_search_filters_the_folder(device: Device) -> None:
    fill(device, "search", "alp")
    assert rows(device) == ["..", "alpha.txt"]


def test_parent_row_climbs_out_of_markor(device: Device) -> None:
    tap(device, "..", kind="list_item")
    assert shown(device, "Documents", kind="top_bar")
    assert "outside.txt" in rows(device) and "Markor" in rows(device)


def test_create_a_note_type_and_save(device: Device) -> None:
    tap(device, id="new")
    fill(device, "new_name", "shopping")
    tap(device, id="format_txt")
    tap(device, id="button_ok")
    assert markor(device).route.name == "edit"
    tap(device, id="editor_body")
    type_text(device, "eggs")
    tap(device, id="save")
    assert contents(device)[f"{MARKOR_DIR}/shopping.txt"] == "eggs"
    press(device, "back")  # hides the keyboard
    press(device, "back")
    assert "shopping.txt" in rows(device)


def test_a_taken_name_is_refused(device: Device) -> None:
    tap(device, id="new")
    fill(device, "new_name", "alpha.txt")
    tap(device, id="button_ok")
    assert markor(device).ui.dialog == "create"  # the dialog stays, a toast says why
    assert sum(p.endswith("alpha.txt") for p in contents(device)) == 1


def test_create_a_folder(device: Device) -> None:
    tap(device, id="new")
    fill(device, "new_name", "Ideas")
    tap(device, id="button_folder")
    assert contents(device)[f"{MARKOR_DIR}/Ideas/{KEEP}"] == ""
    assert "Ideas" in rows(device)


def test_editor_saves_when_leaving_and_pastes_the_clipboard(device: Device) -> None:
    device.system.clipboard = "pasted"
    tap(device, "beta.md", kind="list_item")
    long_press(device, id="editor_body")
    tap(device, "Paste", kind="menu_item")
    press(device, "back")  # hides the keyboard
    press(device, "back")
    assert contents(device)[f"{MARKOR_DIR}/beta.md"] == "Second notepasted"
    saved = markor(device).data.modified[f"{MARKOR_DIR}/beta.md"]  # dated when saved
    assert saved != TIMES[f"{MARKOR_DIR}/beta.md"]
    assert saved[:10] == device.system.now.date().isoformat()


def test_select_and_delete_with_confirmation(device: Device) -> None:
    long_press(device, "beta.md", kind="list_item")
    assert shown(device, "1 selected", kind="top_bar")
    tap(device, id="delete")
    tap(device, id="button_cancel")
    assert f"{MARKOR_DIR}/beta.md" in contents(device)
    tap(device, id="delete")
    tap(device, id="button_delete")
    assert f"{MARKOR_DIR}/beta.md" not in contents(device)
    assert f"{MARKOR_DIR}/alpha.txt" in contents(device)


def test_select_all_and_delete_empties_markor(device: Device) -> None:
    long_press(device, "alpha.txt", kind="list_item")
    tap(device, id="select_all")
    assert shown(device, "4 selected", kind="top_bar")
    tap(device, id="delete")
    tap(device, id="button_delete")
    assert [p for p in contents(device) if p.startswith(MARKOR_DIR)] == []
    assert "/sdcard/Documents/outside.txt" in contents(device)


def test_rename_and_move(device: Device) -> None:
    long_press(device, "alpha.txt", kind="list_item")
    tap(device, id="rename")
    fill(device, "rename_field", "first.txt")
    tap(device, id="button_ok")
    assert f"{MARKOR_DIR}/first.txt" in contents(device)
    assert f"{MARKOR_DIR}/first.txt" in markor(device).data.modified
    long_press(device, "first.txt", kind="list_item")
    tap(device, id="move")
    tap(device, "Work", kind="list_item")
    assert contents(device)[f"{MARKOR_DIR}/Work/first.txt"] == "First note"
    assert f"{MARKOR_DIR}/first.txt" not in contents(device)


def test_quicknote_tab_writes_its_note_only_with_text(device: Device) -> None:
    tap(device, id="tab_quicknote")
    tap(device, id="tab_main")
    assert f"{MARKOR_DIR}/QuickNote.md" not in contents(device)
    tap(device, id="tab_quicknote")
    tap(device, id="editor_body")
    type_text(device, "idea")
    press(device, "back")  # hides the keyboard
    tap(device, id="tab_todo")
    assert contents(device)[f"{MARKOR_DIR}/QuickNote.md"] == "idea"


# --- update functions ------------------------------------------------------------------------
def test_update_functions() -> None:
    files = table(NOTES)
    assert entries(files, MARKOR_DIR)[0] == [f"{MARKOR_DIR}/Empty", f"{MARKOR_DIR}/Work"]
    assert all_folders(files) == [MARKOR_DIR, f"{MARKOR_DIR}/Empty", f"{MARKOR_DIR}/Work"]
    assert note_file_name("a", ".md") == "a.md" and note_file_name("b.TXT", ".md") == "b.TXT"
    assert create_note(files, MARKOR_DIR, "beta.md", ".md") == ("", NAME_TAKEN)
    assert create_note(files, MARKOR_DIR, " ", ".md")[1] == "Enter a name"
    assert create_folder(files, MARKOR_DIR, "Work") == NAME_TAKEN
    assert not save_note(files, f"{MARKOR_DIR}/new.md", "")  # an empty new note: not written
    assert rename_entry(files, f"{MARKOR_DIR}/Work", "Job") == (
        {f"{MARKOR_DIR}/Work/plan.md": f"{MARKOR_DIR}/Job/plan.md"}, "")
    moves, error = move_entries(files, [f"{MARKOR_DIR}/beta.md"], f"{MARKOR_DIR}/Job")
    assert error == "" and f"{MARKOR_DIR}/Job/beta.md" in files
    assert delete_entries(files, [f"{MARKOR_DIR}/Job"]) == 1
    assert not any(p.startswith(f"{MARKOR_DIR}/Job") for p in files.keys())


def test_text_matcher_compares_as_a_note_reads() -> None:
    """Spaces at the ends of lines, blank lines at the ends and case aside (issue 26: as
    AndroidWorld compares a note), on a file's ``text_sha1``."""
    match = text_is("a\n\nb")
    for ok in ("a\n\nb", "a\n\nb\n", "a\r\n\r\nb", "A \n\nb", "\na\n\nb  \n\n"):
        assert match(content_digest(ok)), ok
    for bad in ("a\nb", "a b", "a\n\nc", ""):
        assert not match(content_digest(bad)), bad
    assert not match(hashlib.sha1(b"A \n\nb").hexdigest())  # not the bytes' digest


def test_note_names_differ() -> None:
    names = note_names(np.random.default_rng(0), 6)
    assert len({n.rsplit(".", 1)[0] for n in names}) == 6
    assert all(n.endswith((".md", ".txt")) for n in names)


def test_newest_note_follows_the_dates() -> None:
    from phone_gym.mockapps.markor.tasks import MarkorDeleteNewestNote

    p = MarkorDeleteNewestNote().sample_params(np.random.default_rng(3))
    newest = max(p["notes"], key=lambda n: n[3])
    assert p["newest"] == newest[1]


def test_check_app() -> None:
    from phone_gym.testing import check_app

    check_app("Markor", 300)


def test_cross_app_helpers_create_and_open_a_note() -> None:
    from phone_gym.mockapps.markor.fixtures import create_note, open_note
    from phone_gym.tasks.driver import Driver
    from phone_gym.world.a11y import ui_elements

    d = Device(APPS)
    ui = Driver(lambda: ui_elements(d.frame()))
    for action in create_note(ui, "receipt.md", ["Date, Item, Amount", "", "x"]):
        d.step(action)
    assert contents(d)[f"{MARKOR_DIR}/receipt.md"] == "Date, Item, Amount\n\nx"
    d.press("home")
    markor(d).stop()
    for action in open_note(ui, "receipt.md"):
        d.step(action)
    assert markor(d).route.name == "edit" and markor(d).ui.draft.endswith("x")
