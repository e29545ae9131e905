"""Gallery (Simple Gallery Pro): albums of the pictures in shared storage, a grid per album,
a full-screen viewer, and copy, move, rename and delete.

Pictures are files of the shared ``system.files`` store (``File(path, content, mime)``), so
a camera's photos, a download and a pushed file all show here. PhoneWorld keeps files as
text, so an image's content is a description of what it shows. The convention, which
fixtures of other apps follow: **a file is a picture when its name ends in an image
extension** (``IMAGE_EXTENSIONS``: .jpg, .jpeg, .png, .gif, .webp) **or its mime type starts
with** ``image/``; **its content is the text the photo shows, one drawn line per line**
(a receipt's rows, a recipe card). The viewer draws those lines with ``kit.Picture``: they
are pixels in the screenshot and are not in the accessibility tree, which shows only the
picture's description (its file name), as an ``ImageView`` does on a phone.

Screens: the albums (a ``kit.media.CoverGrid`` of every folder holding pictures: its first
picture as the cover, its name and count over it), an album (a
``kit.ImageGrid``; long press a picture for its menu), the viewer (top bar actions "Copy
to", "Move to", "Rename" and "Delete"). Copy and move ask for a destination folder
(``DESTINATIONS``); a name taken there shows a toast and changes nothing. Long press an
album to delete it (its pictures), after a confirmation. The app keeps no
data of its own: only transient UI state (the dialog showing and the name being typed).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from ...world import pictures
from ...world.app import App, Route, app_strings
from ...world.data import Grouping, Mapped, Table
from ...world.kit import (
    ActionIcon,
    BottomSheet,
    ChoiceDialog,
    ConfirmDialog,
    GridItem,
    ImageGrid,
    Picture,
)
from ...world.kit.localize import in_locale
from ...world.kit.media import Cover, CoverGrid
from ...world.system import File, SystemState
from ...world.widgets import (
    Dialog,
    DialogButton,
    Icon,
    Node,
    Screen,
    TextField,
    TopBar,
)
from .manifest import MANIFEST

IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".gif", ".webp")
#: Folders pictures may be copied or moved to: label -> path.
DESTINATIONS: dict[str, str] = {
    "Camera": "/sdcard/DCIM/Camera",
    "DCIM": "/sdcard/DCIM",
    "Download": "/sdcard/Download",
    "Documents": "/sdcard/Documents",
    "Pictures": "/sdcard/Pictures",
    "Screenshots": "/sdcard/Pictures/Screenshots",
}
NAME_TAKEN = "A file with this name already exists there"
#: Columns of the albums' grid: Simple Gallery's default in portrait (its store screenshot).
ALBUM_COLUMNS = 2


def is_image(file: File) -> bool:
    """Whether ``file`` is a picture (see the module docstring)."""
    return file.path.lower().endswith(IMAGE_EXTENSIONS) or file.mime.startswith("image/")


def picture_lines(file: File) -> list[str]:
    """The lines a picture shows (its text content)."""
    return file.content.split("\n")


def photo(file: File) -> str:
    """The drawn picture of a photo file (``pictures``): what its lines show, seeded by its
    name."""
    return pictures.encode(*pictures.describe(picture_lines(file), file.name))


def album_label(folder: str) -> str:
    return posixpath.basename(folder) or folder


def picture_folder(file: File) -> str | None:
    """The album of ``file``: its folder, if it is a picture."""
    return file.folder if is_image(file) else None


def by_picture_name(file: File) -> tuple[str, str]:
    return (posixpath.basename(file.path).casefold(), file.path)


def album_index(files: Table[File]) -> Grouping[File]:
    """The pictures by album, each by name (any case, then path): kept on every write, so
    a screen reads its album, not every file (thousands of photos)."""
    return files.grouping("gallery_albums", picture_folder, by_picture_name)


def albums(files: Table[File]) -> list[str]:
    """The folders holding pictures, sorted by name."""
    return sorted(album_index(files).ranked(), key=lambda d: (album_label(d).casefold(), d))


def album_files(files: Table[File], folder: str) -> Sequence[File]:
    """The pictures directly in ``folder``, sorted by name (read in place: no copy)."""
    return album_index(files).view(folder)


def album_pictures(files: Table[File], folder: str) -> list[str]:
    """Paths of the pictures directly in ``folder``, sorted by name."""
    return [f.path for f in album_files(files, folder)]


def thumbs(shown: Sequence[File], name: Callable[[str], str]) -> Sequence[GridItem]:
    """An album's pictures as grid items, each made when read (the grid reads those on
    screen)."""

    def item(i: int) -> GridItem:
        base = posixpath.basename(shown[i].path)
        return GridItem(base, name(base), "☀", id=f"picture_{i}", picture=photo(shown[i]))

    return Mapped(range(len(shown)), item)


def copy_picture(files: Table[File], path: str, folder: str, *, move: bool = False) -> str | None:
    """Copy (or move) ``path`` into ``folder`` under the same name; an error, or None."""
    file = files.get(path)
    if file is None:
        return "The file is gone"
    target = f"{folder}/{file.name}"
    if target == path:
        return "The file is already there"
    if target in files:
        return NAME_TAKEN
    files.put(File(target, file.content, file.mime))
    if move:
        files.remove(path)
    return None


def rename_picture(files: Table[File], path: str, new_name: str) -> str | None:
    name = new_name.strip()
    if not name or "/" in name or name in (".", ".."):
        return "Invalid name"
    file = files.get(path)
    if file is None:
        return "The file is gone"
    target = f"{file.folder}/{name}"
    if target == path:
        return None
    if target in files:
        return NAME_TAKEN
    files.remove(path)
    files.put(File(target, file.content, file.mime))
    return None


@dataclass
class GalleryUi:
    """Transient state: the dialog showing (``copy``, ``move``, ``rename``, ``delete``),
    the picture it is about, and the name being typed."""

    dialog: str = ""
    path: str = ""
    new_name: str = ""


class GalleryApp(App):
    manifest = MANIFEST

    ui: GalleryUi

    def initial_ui(self) -> GalleryUi:
        return GalleryUi()

    @classmethod
    def index_system(cls, system: SystemState) -> None:
        album_index(system.files)

    @property
    def files(self) -> Table[File]:
        return self.system.files

    # dialogs
    def ask(self, dialog: str, path: str) -> None:
        """Show ``dialog`` about ``path`` (a picture; a folder for ``delete_album``)."""
        file = self.files.get(path)
        self.ui.dialog, self.ui.path = dialog, path
        self.ui.new_name = file.name if file is not None else ""

    def close_dialog(self) -> None:
        self.ui.dialog, self.ui.path, self.ui.new_name = "", "", ""

    def set_new_name(self, name: str) -> None:
        self.ui.new_name = name

    def copy_to(self, label: str) -> None:
        move = self.ui.dialog == "move"
        error = copy_picture(self.files, self.ui.path, DESTINATIONS[label], move=move)
        if error is not None:
            self.toast(self.t(error))
            return
        self.close_dialog()
        self.toast(self.t("Moved to {folder}" if move else "Copied to {folder}",
                          folder=self.folder_label(DESTINATIONS[label])))
        if move and self.route.name == "view":
            self.back()

    def confirm_rename(self) -> None:
        error = rename_picture(self.files, self.ui.path, self.ui.new_name)
        if error is not None:
            self.toast(self.t(error))
            return
        old = self.files.get(self.ui.path)
        if old is None and self.route.name == "view":
            self.replace("view", posixpath.dirname(self.ui.path) + "/" + self.ui.new_name.strip())
        self.close_dialog()

    def delete_album(self, folder: str) -> None:
        """Delete the pictures of ``folder`` (other files there stay)."""
        for path in album_pictures(self.files, folder):  # (a copy: the album changes)
            self.files.remove(path)
        self.close_dialog()
        self.toast(self.t("Folder deleted"))

    def confirm_delete(self) -> None:
        self.files.remove(self.ui.path)
        self.close_dialog()
        self.toast(self.t("File deleted"))
        if self.route.name == "view":
            self.back()

    def folder_label(self, folder: str) -> str:
        """An album's name: the folder's, or the locale's word for a standard folder
        (Camera: 相机; a folder of the user's keeps its name)."""
        label = album_label(folder)
        return dict(app_strings(type(self), self.system.locale).strings).get(label, label)

    # views
    def view(self, route: Route) -> Screen:
        """The screen for ``route``, its fixed strings in the phone's locale."""
        if route.name == "album":
            screen = self.album(route.arg)
        elif route.name == "view" and route.arg in self.files:
            screen = self.viewer(route.arg)
        else:
            screen = self.album_list()
        return in_locale(self, screen)

    def dialog(self) -> Node | None:
        ui = self.ui
        file = self.files.get(ui.path) if ui.path else None
        if file is None:
            return None
        if ui.dialog in ("copy", "move"):
            title = "Copy to" if ui.dialog == "copy" else "Move to"
            return ChoiceDialog(title, list(DESTINATIONS), "", self.copy_to, self.close_dialog,
                                id="destinations")
        if ui.dialog == "rename":
            return Dialog("Rename", "", [DialogButton("Cancel", self.close_dialog),
                                         DialogButton("OK", self.confirm_rename)],
                          body=[TextField(ui.new_name, self.set_new_name, id="rename_field",
                                          label="File name", on_submit=self.confirm_rename)])
        if ui.dialog == "delete":
            return ConfirmDialog(self.t("Delete {name}?", name=file.name),
                                 "The file will be deleted.", on_confirm=self.confirm_delete,
                                 on_cancel=self.close_dialog,
                                 confirm="Delete", destructive=True)
        return None

    def album_list(self) -> Screen:
        folders = albums(self.files)
        covers = []
        for i, folder in enumerate(folders):
            shown = album_files(self.files, folder)
            covers.append(Cover(self.folder_label(folder), str(len(shown)),
                                photo(shown[0]), id=f"album_{i}",
                                menu=((self.t("Delete"),
                                       partial(self.ask, "delete_album", folder)),)))

        dialog = None
        if self.ui.dialog == "delete_album" and self.ui.path in folders:
            folder = self.ui.path
            dialog = ConfirmDialog(
                self.t("Delete the folder {folder}?", folder=self.folder_label(folder)),
                "Its pictures will be deleted.", confirm="Delete",
                on_confirm=partial(self.delete_album, folder),
                on_cancel=self.close_dialog, destructive=True)
        return Screen(top_bar=TopBar("Gallery"),
                      content=[CoverGrid(covers, lambda i: self.go("album", folders[i]),
                                         columns=ALBUM_COLUMNS, empty_text="No pictures")],
                      dialog=dialog, on_dismiss=self.close_dialog)

    def album(self, folder: str) -> Screen:
        shown = album_files(self.files, folder)
        items = thumbs(shown, lambda name: self.t("Picture {name}", name=name))
        return Screen(top_bar=TopBar(self.folder_label(folder), on_back=self.back),
                      content=[ImageGrid(items, columns=3,
                                         on_open=lambda i: self.go("view", shown[i].path),
                                         on_long_press=lambda i: self.ask("menu", shown[i].path),
                                         id="pictures")],
                      dialog=self.sheet() or self.dialog(), on_dismiss=self.close_dialog)

    def sheet(self) -> Node | None:
        """The long-press menu of a picture in the grid."""
        if self.ui.dialog != "menu" or self.ui.path not in self.files:
            return None
        path = self.ui.path
        return BottomSheet(posixpath.basename(path), [
            ("Copy to", partial(self.ask, "copy", path)),
            ("Move to", partial(self.ask, "move", path)),
            ("Rename", partial(self.ask, "rename", path)),
            ("Delete", partial(self.ask, "delete", path))])

    def viewer(self, path: str) -> Screen:
        file = self.files[path]
        actions = [
            Icon("📃", "Copy to", partial(self.ask, "copy", path), id="copy_to"),
            Icon("➡", "Move to", partial(self.ask, "move", path), id="move_to"),
            Icon("✎", "Rename", partial(self.ask, "rename", path), id="rename"),
            ActionIcon("delete", partial(self.ask, "delete", path)),
        ]
        return Screen(top_bar=TopBar(file.name, on_back=self.back, actions=actions),
                      content=[Picture(picture_lines(file),
                                       desc=self.t("Picture {name}", name=file.name),
                                       picture=photo(file),
                                       # a long page is taller (the screen scrolls)
                                       height=max(1400, 100 + 60 * len(picture_lines(file))))],
                      dialog=self.dialog(), on_dismiss=self.close_dialog)
