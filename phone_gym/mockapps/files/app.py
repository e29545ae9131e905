"""Files: browse, read, rename and delete the text files in shared storage.

Files live in the shared ``system.files`` store (``File`` records keyed by path, like
``/sdcard/Download/report.txt``), not in the app's own data, so every app sees them and
verifiers read them at ``files.<path>`` (name, folder, size, sha1). The app keeps only
transient UI state: which file a rename or delete dialog is about, and the name being typed.

Screens: the root with the two folders "Download" and "Documents" (the files under
``/sdcard/Download/`` and ``/sdcard/Documents/``; deeper paths are not shown), a folder
(its files sorted by name, each with its size; long press for "Rename" and "Delete"), and
a text viewer (tap a file). Delete asks "Delete <name>?" first. Rename opens a dialog with
the name prefilled; a name that is empty, holds a "/" or is taken in that folder shows a
toast and keeps the old name (and the dialog open).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from ...world.app import App, Route
from ...world.data import Table
from ...world.system import File
from ...world.widgets import (
    Dialog,
    DialogButton,
    ListItem,
    ListView,
    Node,
    Screen,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

#: The folders of the root screen: label and path prefix.
FOLDERS: tuple[tuple[str, str], ...] = (
    ("Download", "/sdcard/Download/"),
    ("Documents", "/sdcard/Documents/"),
)
NAME_TAKEN = "A file with this name already exists"


# --- state -------------------------------------------------------------------------------
@dataclass
class FilesUi:
    """Transient state, lost on force-stop: the file a dialog is about, and the new name."""

    renaming: str | None = None  # path of the file the rename dialog is about
    new_name: str = ""
    deleting: str | None = None  # path of the file the delete dialog is about


# --- updates -------------------------------------------------------------------------------
def name_of(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def folder_of(path: str) -> str:
    """The folder prefix of ``path``, with its trailing slash."""
    return path.rsplit("/", 1)[0] + "/"


def in_folder(folder: str, file: File) -> bool:
    """Whether ``file`` is directly in ``folder`` (a prefix ending in ``/``)."""
    return file.path.startswith(folder) and "/" not in file.path[len(folder):]


def by_file_name(file: File) -> tuple[str, str]:
    return (name_of(file.path).casefold(), file.path)


def folder_label(folder: str) -> str:
    return next((label for label, prefix in FOLDERS if prefix == folder), name_of(folder[:-1]))


def list_folder(files: Table[File], folder: str) -> list[str]:
    """Paths of the files directly in ``folder``, sorted by name (any case)."""
    found = [p for p in files.keys() if p.startswith(folder) and "/" not in p[len(folder):]]
    return sorted(found, key=lambda p: (name_of(p).casefold(), p))


def size_text(content: str) -> str:
    """A file's size as Android shows it: "523 B", "1.2 kB" (units of 1000)."""
    size = len(content.encode("utf-8"))
    if size < 1000:
        return f"{size} B"
    return f"{size / 1000:.1f} kB" if size < 1_000_000 else f"{size / 1_000_000:.1f} MB"


def items_text(n: int) -> str:
    return "No items" if n == 0 else f"{n} item" + ("" if n == 1 else "s")


def rename_file(files: Table[File], path: str, new_name: str) -> str | None:
    """Rename ``path`` to ``new_name`` in its folder; an error message when it cannot be."""
    name = new_name.strip()
    if not name:
        return "Enter a name"
    if "/" in name or name in (".", ".."):
        return "Invalid name"
    target = folder_of(path) + name
    if target == path:
        return None
    if target in files:
        return NAME_TAKEN
    old = files.remove(path)
    if old is not None:
        files.put(File(target, old.content, old.mime))
    return None


def delete_file(files: Table[File], path: str) -> None:
    files.remove(path)


# --- the app -------------------------------------------------------------------------------
class FilesApp(App):
    manifest = MANIFEST

    ui: FilesUi

    def initial_ui(self) -> FilesUi:
        return FilesUi()

    @property
    def files(self) -> Table[File]:
        return self.system.files

    def listing(self, folder: str) -> list[str]:
        """``list_folder`` of ``folder``: a table index kept sorted as files are written."""
        index = self.files.index(f"folder:{folder}", by_file_name, keep=partial(in_folder, folder))
        return [f.path for f in index.view(self.files)]

    # dialogs
    def ask_rename(self, path: str) -> None:
        self.ui.renaming, self.ui.new_name = path, name_of(path)

    def set_new_name(self, name: str) -> None:
        self.ui.new_name = name

    def confirm_rename(self) -> None:
        if self.ui.renaming is None:
            return
        error = rename_file(self.files, self.ui.renaming, self.ui.new_name)
        if error is not None:
            self.toast(error)
            return
        self.close_dialogs()

    def ask_delete(self, path: str) -> None:
        self.ui.deleting = path

    def confirm_delete(self, path: str) -> None:
        delete_file(self.files, path)
        self.close_dialogs()
        self.toast("File deleted")

    def close_dialogs(self) -> None:
        self.ui.renaming = self.ui.deleting = None
        self.ui.new_name = ""

    # views
    def view(self, route: Route) -> Screen:
        if route.name == "folder":
            return self.folder(route.arg)
        if route.name == "file":
            return self.viewer(route.arg)
        return self.root()

    def root(self) -> Screen:
        rows = [ListItem(label, items_text(len(self.listing(prefix))),
                         on_click=partial(self.go, "folder", prefix),
                         id=f"folder_{label.lower()}", glyph="📁", color=self.color)
                for label, prefix in FOLDERS]
        return Screen(top_bar=TopBar("Files"),
                      content=[Text("Folders", style="caption", id="folders_header"),
                               ListView(rows, id="folders")])

    def file_row(self, path: str) -> Node:
        return ListItem(
            name_of(path), size_text(self.files[path].content), id="file", glyph="📄",
            color=(66, 133, 244), on_click=lambda: self.go("file", path),
            menu=[("Rename", lambda: self.ask_rename(path)),
                  ("Delete", lambda: self.ask_delete(path))],
        )

    def dialog(self) -> Node | None:
        ui = self.ui
        if ui.deleting is not None and ui.deleting in self.files:
            path = ui.deleting
            return Dialog(f"Delete {name_of(path)}?", "", [
                DialogButton("Cancel", self.close_dialogs),
                DialogButton("Delete", lambda: self.confirm_delete(path)),
            ])
        if ui.renaming is not None and ui.renaming in self.files:
            return Dialog("Rename", "", [
                DialogButton("Cancel", self.close_dialogs),
                DialogButton("OK", self.confirm_rename),
            ], body=[TextField(ui.new_name, self.set_new_name, id="rename_field", label="Name",
                               hint="File name", on_submit=self.confirm_rename)])
        return None

    def folder(self, folder: str) -> Screen:
        paths = self.listing(folder)
        return Screen(
            top_bar=TopBar(folder_label(folder), on_back=self.back),
            content=[Text(items_text(len(paths)), style="caption", id="count"),
                     VirtualList(len(paths), lambda i: self.file_row(paths[i]),
                                 id="files_list", empty_text="No items")],
            dialog=self.dialog(),
            on_dismiss=self.close_dialogs,
        )

    def viewer(self, path: str) -> Screen:
        bar = TopBar(name_of(path), on_back=self.back)
        if path not in self.files:
            return Screen(top_bar=bar, content=[Text("File not found", id="empty")])
        content = self.files[path].content
        return Screen(top_bar=bar, content=[
            Text(f"{folder_label(folder_of(path))} · {size_text(content)}", style="caption",
                 id="file_info"),
            Text(content, id="file_text", copyable=True),
        ])
