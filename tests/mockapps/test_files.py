"""The Files app driven through actions: folders, the sorted file list, the text viewer, the
long-press menu, the delete and rename dialogs (name clashes included), persistence; and
its task helpers."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from driving import Driver, act, fill, long_press, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS
from phone_gym.mockapps.files import APP, TEMPLATES, FilesApp
from phone_gym.mockapps.files.app import NAME_TAKEN, list_folder, size_text
from phone_gym.mockapps.files.fixtures import sample_files
from phone_gym.verifiers import NoRecord, Record
from phone_gym.verifiers.fields import content_digest
from phone_gym.world import Device
from phone_gym.world.data import Table
from phone_gym.world.system import File

FILES = {
    "/sdcard/Download/report.txt": "Quarterly report\nSales are up.",
    "/sdcard/Download/Agenda.txt": "9:00 standup",
    "/sdcard/Download/big.log": "x" * 1500,
    "/sdcard/Download/old/nested.txt": "not shown: deeper than the folder",
    "/sdcard/Documents/letter.txt": "Dear Sam,",
    "/sdcard/Pictures/cat.txt": "shown in Pictures",
}


def file_table(files: dict[str, str]) -> Table[File]:
    """A files store (``File`` records keyed by path) holding ``files`` (path -> text)."""
    return Table([File(path, content) for path, content in files.items()], key="path",
                 kind=File)


def contents(device: Device) -> dict[str, str]:
    """The phone's files as path -> text."""
    return {f.path: f.content for f in device.system.files}


def snapshot_of(files: dict[str, str]) -> dict[str, dict[str, object]]:
    """What a device snapshot shows of ``files``: per path, its name, folder, size, type,
    SHA-1 and the SHA-1 of its text as checks compare it (not the text)."""
    out: dict[str, dict[str, object]] = {}
    for path, content in files.items():
        data = content.encode("utf-8")
        folder, name = path.rsplit("/", 1)
        out[path] = {"name": name, "folder": folder, "size": len(data), "mime": "text/plain",
                     "sha1": hashlib.sha1(data).hexdigest(),
                     "text_sha1": content_digest(data)}
    return out


@pytest.fixture
def device() -> Device:
    d = Device(APPS)
    for path, content in FILES.items():
        d.system.write_file(path, content)
    open_app(d, "Files")
    return d


def route(device: Device) -> str:
    app = device.current_app
    assert app is not None
    return app.route.name


def rows(device: Device) -> list[tuple[str, str]]:
    return [(p.node.text, p.node.hint) for p in device.frame().items
            if p.node.kind == "list_item"]


def menu_items(device: Device) -> list[str]:
    return [p.node.text for p in device.frame().items if p.node.kind == "menu_item"]


def open_download(device: Device) -> None:
    tap(device, "Download", kind="list_item")
    assert route(device) == "folder"


def test_registration() -> None:
    assert APP is FilesApp
    assert (FilesApp.name, FilesApp.package) == ("Files", "com.google.android.documentsui")
    ids = [t.id for t in TEMPLATES]
    assert len(ids) >= 2 and all(i.startswith("Files") for i in ids)
    assert any(t.needs_answer for t in TEMPLATES)


def test_root_shows_the_storage_folders_with_their_counts(device: Device) -> None:
    assert shown(device, "Files", kind="top_bar")
    got = dict(rows(device))  # the twelve standard folders, alphabetically (ten on screen)
    assert list(got)[:5] == ["Alarms", "Audiobooks", "DCIM", "Documents", "Download"]
    assert (got["Download"], got["Documents"], got["Pictures"], got["Music"]) == (
        "3 items", "1 item", "1 item", "No items")
    press(device, "back")
    assert device.current_app is None


def test_a_folder_lists_its_own_files_sorted_with_sizes(device: Device) -> None:
    open_download(device)
    assert shown(device, "Download", kind="top_bar") and shown(device, "3 items")
    assert rows(device) == [("Agenda.txt", "12 B"), ("big.log", "1.5 kB"),
                            ("report.txt", "30 B")]
    tap(device, id="navigate_up")
    tap(device, "Documents", kind="list_item")
    assert rows(device) == [("letter.txt", "9 B")]


def test_an_empty_folder(device: Device) -> None:
    device.system.files.clear()
    device.invalidate()
    assert {hint for _, hint in rows(device)} == {"No items"}
    open_download(device)
    assert shown(device, "No items", id="empty")


def test_tapping_a_file_shows_its_text(device: Device) -> None:
    open_download(device)
    tap(device, "report.txt", kind="list_item")
    assert route(device) == "file" and shown(device, "report.txt", kind="top_bar")
    assert shown(device, "Quarterly report\nSales are up.", id="file_text")
    assert shown(device, "Download · 30 B", id="file_info")
    long_press(device, id="file_text")
    tap(device, "Copy", kind="menu_item")
    assert device.system.clipboard == FILES["/sdcard/Download/report.txt"]
    press(device, "back")
    assert route(device) == "folder"


def test_long_press_menu_and_delete_confirmation(device: Device) -> None:
    open_download(device)
    long_press(device, "report.txt", kind="list_item")
    assert menu_items(device) == ["Rename", "Move to…", "Delete"]
    tap(device, "Delete", kind="menu_item")
    assert shown(device, "Delete report.txt?")
    tap(device, "Cancel")
    assert not shown(device, "Delete report.txt?")
    assert "/sdcard/Download/report.txt" in device.system.files
    long_press(device, "report.txt", kind="list_item")
    tap(device, "Delete", kind="menu_item")
    press(device, "back")  # back dismisses the dialog
    assert not shown(device, "Delete report.txt?") and route(device) == "folder"
    long_press(device, "report.txt", kind="list_item")
    tap(device, "Delete", kind="menu_item")
    tap(device, id="button_delete")
    assert "/sdcard/Download/report.txt" not in device.system.files
    assert device.toast_text == "File deleted"
    assert [r[0] for r in rows(device)] == ["Agenda.txt", "big.log"]
    assert len(device.system.files) == len(FILES) - 1


def test_rename_keeps_the_content_and_resorts(device: Device) -> None:
    open_download(device)
    long_press(device, "report.txt", kind="list_item")
    tap(device, "Rename", kind="menu_item")
    assert shown(device, "Rename", id="alertTitle")
    field = Driver(device).find(id="rename_field", kind="text_field")
    assert field is not None and field.node.text == "report.txt"  # prefilled
    fill(device, "rename_field", "a-report.txt")
    tap(device, id="button_ok")
    files = device.system.files
    assert "/sdcard/Download/report.txt" not in files
    assert files["/sdcard/Download/a-report.txt"].content == FILES["/sdcard/Download/report.txt"]
    assert not shown(device, "Rename", id="alertTitle")
    assert [r[0] for r in rows(device)] == ["a-report.txt", "Agenda.txt", "big.log"]


def test_rename_submits_with_enter_and_cancel_changes_nothing(device: Device) -> None:
    open_download(device)
    long_press(device, "big.log", kind="list_item")
    tap(device, "Rename", kind="menu_item")
    fill(device, "rename_field", "ignored.log")
    tap(device, id="button_cancel")
    assert "/sdcard/Download/big.log" in device.system.files
    long_press(device, "big.log", kind="list_item")
    tap(device, "Rename", kind="menu_item")
    field = Driver(device).find(id="rename_field", kind="text_field")
    assert field is not None and field.node.text == "big.log"  # a fresh dialog
    fill(device, "rename_field", "huge.log")
    press(device, "enter")
    assert "/sdcard/Download/huge.log" in device.system.files
    assert not shown(device, id="rename_field")


@pytest.mark.parametrize(("name", "toast"), [
    ("Agenda.txt", NAME_TAKEN), ("", "Enter a name"), ("sub/dir.txt", "Invalid name"),
])
def test_a_bad_new_name_keeps_the_old_one(device: Device, name: str, toast: str) -> None:
    open_download(device)
    long_press(device, "report.txt", kind="list_item")
    tap(device, "Rename", kind="menu_item")
    fill(device, "rename_field", name)
    tap(device, id="button_ok")
    assert device.toast_text == toast
    assert contents(device) == FILES  # nothing renamed, nothing overwritten
    assert shown(device, id="rename_field")  # the dialog stays to fix the name
    tap(device, id="button_cancel")
    assert not shown(device, id="rename_field")


def test_renaming_to_the_same_name_changes_nothing(device: Device) -> None:
    open_download(device)
    long_press(device, "report.txt", kind="list_item")
    tap(device, "Rename", kind="menu_item")
    tap(device, id="button_ok")
    assert contents(device) == FILES and not shown(device, id="rename_field")


def test_files_persist_and_dialogs_do_not(device: Device) -> None:
    open_download(device)
    long_press(device, "report.txt", kind="list_item")
    tap(device, "Delete", kind="menu_item")
    act(device, PhoneAction("close_app", app="Files"))
    open_app(device, "Files")
    assert route(device) == "main"
    open_download(device)
    assert not shown(device, "Delete report.txt?")
    assert contents(device) == FILES
    assert device.snapshot()["files"] == snapshot_of(FILES)
    assert device.snapshot()["apps"]["Files"] is None


def test_helpers() -> None:
    assert size_text("") == "0 B" and size_text("é" * 600) == "1.2 kB"
    assert size_text("x" * 2_500_000) == "2.5 MB"
    assert list_folder(file_table(FILES), "/sdcard/Download/") == [
        "/sdcard/Download/Agenda.txt", "/sdcard/Download/big.log",
        "/sdcard/Download/report.txt"]


def test_sampled_files_fill_both_folders() -> None:
    for seed in range(10):
        pairs = sample_files(np.random.default_rng(seed), {"extra.txt": "hi"})
        files = {path: content for path, content in pairs}
        assert len(files) == len(pairs)  # no path twice
        assert 9 <= len(files) <= 13
        assert len(list_folder(file_table(files), "/sdcard/Download/")) >= 3
        assert len(list_folder(file_table(files), "/sdcard/Documents/")) >= 3
        assert "hi" in files.values()
        names = [p.rsplit("/", 1)[1] for p in files]
        assert len(set(names)) == len(names)


def test_file_criteria() -> None:
    """Files are checked as the tasks check them: by name and folder, the text by its SHA-1."""
    dev = Device(APPS)
    dev.system.write_file("/sdcard/Download/a.txt", "A")
    state = dev.snapshot()

    def sha1(text: str) -> str:
        return hashlib.sha1(text.encode("utf-8")).hexdigest()

    a = {"name": "a.txt", "folder": "/sdcard/Download"}
    b = {"name": "b.txt", "folder": "/sdcard/Download"}
    assert Record("files", a, {"sha1": sha1("A")}).check(state, None)[0]
    assert not Record("files", a, {"sha1": sha1("B")}).check(state, None)[0]
    assert not Record("files", b, {"sha1": sha1("A")}).check(state, None)[0]
    assert NoRecord("files", b).check(state, None)[0]
    ok, reason = NoRecord("files", a).check(state, None)
    assert not ok and "a.txt" in reason


def test_move_to_another_folder(device: Device) -> None:
    open_download(device)
    long_press(device, "report.txt", kind="list_item")
    tap(device, "Move to…", kind="menu_item")
    assert shown(device, "Move report.txt to", kind="top_bar")
    tap(device, "Download", kind="list_item")  # its own folder: nothing moves
    tap(device, id="move_here")
    assert device.toast_text == "The file is already in this folder"
    press(device, "back")
    tap(device, "Music", kind="list_item")
    assert shown(device, "Move report.txt here?")
    tap(device, id="move_here")
    files = device.system.files
    assert "/sdcard/Download/report.txt" not in files
    assert files["/sdcard/Music/report.txt"].content == FILES["/sdcard/Download/report.txt"]
    assert device.toast_text == "Moved to Music" and route(device) == "folder"
    assert [r[0] for r in rows(device)] == ["Agenda.txt", "big.log"]


def test_a_move_onto_a_taken_name_moves_nothing(device: Device) -> None:
    device.system.write_file("/sdcard/Documents/report.txt", "another report")
    open_download(device)
    long_press(device, "report.txt", kind="list_item")
    tap(device, "Move to…", kind="menu_item")
    tap(device, "Documents", kind="list_item")
    assert shown(device, "report.txt", id="picked_file")  # the destination's files are listed
    tap(device, id="move_here")
    assert device.toast_text == NAME_TAKEN
    assert device.system.files["/sdcard/Documents/report.txt"].content == "another report"
    assert "/sdcard/Download/report.txt" in device.system.files
    tap(device, id="move_cancel")
    assert shown(device, "Move report.txt to", kind="top_bar")


def test_move_file_names_fit_the_destination() -> None:
    from phone_gym.mockapps.files.tasks import KINDS, FilesMoveFile

    task = FilesMoveFile()
    noise = []
    for seed in range(40):
        p = task.sample_params(np.random.default_rng(seed))
        assert p["folder"] != p["dest"] and p["path"] == f"{p['dir']}/{p['name']}"
        assert any(p["name"].endswith(ext) for ext, _ in KINDS[p["dest"]])
        names = [path.rsplit("/", 1)[1] for path, _, _ in p["files"]]
        assert len(names) == len(set(names)) >= 3
        noise.append(sum(path.startswith(p["dir"] + "/") for path, _, _ in p["files"]) - 1)
    # AndroidWorld's 1 to 20 noise files in the source folder
    assert min(noise) >= 1 and max(noise) <= 20 and max(noise) > 12


def test_check_app() -> None:
    from phone_gym.testing import check_app

    check_app("Files", 300)


def test_the_drawer_shows_documentsuis_roots(device: Device) -> None:
    device.system.write_file("/sdcard/DCIM/Camera/IMG_1.jpg", "a beach", "image/jpeg")
    device.system.write_file("/sdcard/Pictures/scan", "a receipt", "image/png")
    device.system.write_file("/sdcard/Music/song.mp3", "a song")  # the extension says audio
    device.system.write_file("/sdcard/Download/app.apk", "x",
                             "application/vnd.android.package-archive")
    device.invalidate()
    tap(device, desc="Open navigation drawer")
    placed = Driver(device).find(id="navigation_drawer")
    assert placed is not None
    assert [(n.text, n.id, n.selected) for n in placed.node.children
            if n.kind == "drawer_item"] == [
        ("Images", "root_images", False), ("Videos", "root_videos", False),
        ("Audio", "root_audio", False), ("Documents", "root_documents", False),
        ("Downloads", "root_downloads", False), ("Internal storage", "root_storage", True)]
    tap(device, id="root_images")
    assert shown(device, "Images", kind="top_bar") and shown(device, "2 items")
    assert [name for name, _ in rows(device)] == ["IMG_1.jpg", "scan"]
    long_press(device, "scan", kind="list_item")
    assert menu_items(device) == ["Rename", "Move to…", "Delete"]
    press(device, "back")
    press(device, "back")
    assert route(device) == "main"
    tap(device, desc="Open navigation drawer")
    tap(device, id="root_audio")
    assert [name for name, _ in rows(device)] == ["song.mp3"]
    tap(device, id="navigate_up")
    tap(device, desc="Open navigation drawer")
    tap(device, id="root_documents")  # text of every folder, deeper ones too; not the APK
    assert [name for name, _ in rows(device)] == [
        "Agenda.txt", "big.log", "cat.txt", "letter.txt", "nested.txt", "report.txt"]
    tap(device, id="navigate_up")
    tap(device, desc="Open navigation drawer")
    tap(device, id="root_downloads")
    assert shown(device, "Download", kind="top_bar") and shown(device, "4 items")
    press(device, "back")
    tap(device, desc="Open navigation drawer")
    tap(device, id="root_storage")
    assert route(device) == "main" and not shown(device, id="navigation_drawer")
