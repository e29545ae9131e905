"""The Gallery app driven through phone actions: albums from the pictures in shared
storage, the grid, the viewer (text drawn, not in the accessibility tree), copy, move,
rename and delete."""

from __future__ import annotations

import numpy as np
import pytest
from driving import act, fill, long_press, open_app, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.gallery import GalleryApp
from phone_gym.mockapps.gallery.app import NAME_TAKEN, albums, copy_picture, is_image
from phone_gym.mockapps.gallery.fixtures import receipt_lines, receipt_rows
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.system import File

RECEIPT = "/sdcard/DCIM/receipt_ab12c.jpg"
LINES = ["Date, Item, Amount", "2023-10-12, Taxi ride, 22.00"]


@pytest.fixture
def device() -> Device:
    d = Device([GalleryApp])
    d.system.write_file(RECEIPT, "\n".join(LINES))
    d.system.write_file("/sdcard/Pictures/beach.jpg", "A beach")
    d.system.write_file("/sdcard/Download/notes.txt", "not a picture")
    open_app(d, "Gallery")
    return d


def texts(device: Device) -> str:
    return " ".join(e.text + " " + e.content_desc for e in ui_elements(device.frame()))


def test_albums_are_the_folders_holding_pictures(device: Device) -> None:
    assert albums(device.system.files) == ["/sdcard/DCIM", "/sdcard/Pictures"]
    assert shown(device, "DCIM", kind="thumb") and not shown(device, "Download")
    assert is_image(File("/x/a.PNG")) and is_image(File("/x/a", mime="image/png"))
    assert not is_image(File("/x/a.txt"))


def test_the_viewer_draws_the_text_without_exposing_it(device: Device) -> None:
    tap(device, "DCIM", kind="thumb")
    tap(device, "receipt_ab12c.jpg")
    assert shown(device, desc="Picture receipt_ab12c.jpg")
    assert "Taxi ride" not in texts(device)


def test_copy_to_download_keeps_the_original(device: Device) -> None:
    tap(device, "DCIM", kind="thumb")
    tap(device, "receipt_ab12c.jpg")
    tap(device, desc="Copy to")
    tap(device, "Download", kind="radio")
    files = device.system.files
    assert RECEIPT in files and files["/sdcard/Download/receipt_ab12c.jpg"].content == \
        "\n".join(LINES)
    assert copy_picture(files, RECEIPT, "/sdcard/Download") == NAME_TAKEN


def test_move_rename_and_delete_from_the_grid(device: Device) -> None:
    tap(device, "DCIM", kind="thumb")
    long_press(device, "receipt_ab12c.jpg")
    tap(device, "Move to", kind="list_item")
    tap(device, "Pictures", kind="radio")
    files = device.system.files
    assert RECEIPT not in files and "/sdcard/Pictures/receipt_ab12c.jpg" in files
    act(device, PhoneAction("press", button="back"))
    tap(device, "Pictures", kind="thumb")
    tap(device, "beach.jpg")
    tap(device, desc="Rename")
    fill(device, "rename_field", "shore.jpg")
    tap(device, "OK")
    assert "/sdcard/Pictures/shore.jpg" in files and "/sdcard/Pictures/beach.jpg" not in files
    tap(device, desc="Delete")
    tap(device, id="button_delete")
    assert "/sdcard/Pictures/shore.jpg" not in files


def test_deleting_an_album_deletes_only_its_pictures(device: Device) -> None:
    device.system.write_file("/sdcard/DCIM/readme.txt", "keep me")
    long_press(device, "DCIM", kind="thumb")
    tap(device, "Delete", kind="menu_item")
    tap(device, id="button_delete")
    assert RECEIPT not in device.system.files and "/sdcard/DCIM/readme.txt" in device.system.files


def test_receipt_fixture_lines() -> None:
    rows = receipt_rows(np.random.default_rng(3), 3)
    lines = receipt_lines(rows)
    assert lines[0] == "Date, Item, Amount" and len(lines) == 4
    assert all(line.startswith("2023-10-") for line in lines[1:])


def test_check_app() -> None:
    from phone_gym.testing import check_app

    check_app("Gallery", 300)


def test_albums_are_a_grid_of_covers_with_name_and_count(device: Device) -> None:
    from phone_gym.mockapps.gallery.app import ALBUM_COLUMNS, photo
    from phone_gym.world import pictures

    cells = [p for p in device.frame().items if p.node.kind == "thumb"]
    assert [c.node.text for c in cells] == ["DCIM", "Pictures"]
    assert [c.node.hint for c in cells] == ["1", "1"]
    # side by side in one row of the grid, each a square cell of its share of the width
    (ax0, ay0, ax1, ay1), (bx0, by0, _, _) = cells[0].rect, cells[1].rect
    assert ay0 == by0 and bx0 >= ax1 and ay1 - ay0 == ax1 - ax0 and ALBUM_COLUMNS == 2
    # the cover is the album's first picture, drawn
    assert cells[0].node.glyph == photo(device.system.files[RECEIPT])
    assert pictures.decode(cells[1].node.glyph)[0] == "landscape"  # "A beach"
    elements = {e.text: e for e in ui_elements(device.frame())}
    assert elements["DCIM"].class_name == "android.widget.ImageView"
    assert elements["DCIM"].clickable and elements["DCIM"].long_clickable


def test_the_albums_and_the_grid_read_no_whole_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """With 600 photos the albums, an album's grid scrolled, a photo and a copy read a
    grouping kept on write: no pass over every file per frame, a screenful of thumbnails
    built (benchmarks/growth.py, photos: flat as the photos grow)."""
    from phone_gym.world.data import Table

    d = Device([GalleryApp])
    for i in range(600):
        d.system.write_file(f"/sdcard/DCIM/Camera/IMG_{i:05d}.jpg", f"Photo {i}")
    d.system.write_file("/sdcard/Pictures/beach.jpg", "A beach")
    files, scans = d.system.files, list[str]()
    every, keys, where = Table.__iter__, Table.keys, Table.where

    def scan(name: str, real: object) -> object:
        def wrapped(self: Table, *args: object, **kwargs: object) -> object:
            scans.extend([name] if self is files else [])
            return real(self, *args, **kwargs)  # type: ignore[operator]
        return wrapped

    monkeypatch.setattr(Table, "__iter__", scan("iter", every))
    monkeypatch.setattr(Table, "keys", scan("keys", keys))
    monkeypatch.setattr(Table, "where", scan("where", where))
    open_app(d, "Gallery")
    assert shown(d, "Camera", kind="thumb") and shown(d, "Pictures", kind="thumb")
    tap(d, "Camera", kind="thumb")
    built = [sum(p.node.kind == "thumb" for p in d.frame().items)]
    for direction in ("down", "down", "up", "up"):
        act(d, PhoneAction("scroll", x=500, y=600, direction=direction))
        built.append(sum(p.node.kind == "thumb" for p in d.frame().items))
    long_press(d, "IMG_00000.jpg")
    tap(d, "Copy to", kind="list_item")
    tap(d, "Download", kind="radio")
    tap(d, "IMG_00001.jpg")
    assert shown(d, desc="Picture IMG_00001.jpg")
    monkeypatch.undo()
    assert "/sdcard/Download/IMG_00000.jpg" in files
    assert scans == [] and 0 < max(built) <= 30, (scans[:3], built)
