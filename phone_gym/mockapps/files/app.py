"""Files: browse, read, rename, move and delete the files in shared storage.

Files live in the shared ``system.files`` store (``File`` records keyed by path, like
``/sdcard/Download/report.txt``), not in the app's own data, so every app sees them and
verifiers read them at ``files.<path>`` (name, folder, size, sha1). The app keeps only
transient UI state: which file a rename or delete dialog is about, and the name being typed.

Screens: the root (the internal storage) with Android's twelve standard storage folders
(``STORAGE_FOLDERS``: Alarms ... Ringtones, the files directly under ``/sdcard/<folder>/``;
deeper paths are not shown), a folder (its files sorted by name, each with its size; long
press for "Rename", "Move to…" and "Delete"), a text viewer (tap a file), and the "Move to"
picker (the folders; tap one to see it, then "Move"). Delete asks "Delete <name>?" first.
Rename opens a dialog with the name prefilled; a name that is empty, holds a "/" or is taken
in that folder shows a toast and keeps the old name (and the dialog open). A move into a
folder that holds a file of that name shows a toast and moves nothing.

A web page (``.html``/``.htm``) is not read in the text viewer: tapping it asks Android's
"Open with" question (the resolver sheet a VIEW intent brings up when several apps can
open the file): each installed app whose manifest opens ``file://`` links (Chrome), and
"HTML Viewer" (this app's viewer, showing the page's source). Tap an app to choose it,
then "Just once": the chosen app opens ``file://<path>`` (its ``open_link``). ("Always" is
not offered: the question comes every time.)

The root's navigation drawer (the menu icon, or a drag from the left edge) holds the roots
DocumentsUI shows: the Images, Videos, Audio and Documents categories (every file of shared
storage of that kind, by its extension or else its MIME type, as MediaProvider's
``MediaDocumentsProvider`` sorts them), Downloads, and the internal storage (the root).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from ...world.app import App, Route, app_strings
from ...world.data import Grouping, Table
from ...world.kit import Destination, NavigationDrawer, slug, with_drawer
from ...world.kit.localize import in_locale
from ...world.system import File, SystemState
from ...world.widgets import (
    Button,
    Dialog,
    DialogButton,
    ListItem,
    ListView,
    Node,
    Row,
    Screen,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

#: The folders sample text files go in (``fixtures``): label and path prefix.
FOLDERS: tuple[tuple[str, str], ...] = (
    ("Download", "/sdcard/Download/"),
    ("Documents", "/sdcard/Documents/"),
)
#: The folders of the root screen (Android's ``Environment.DIRECTORY_*`` folders of shared
#: storage, the ones AndroidWorld's file tasks use): label and path prefix.
STORAGE_FOLDERS: tuple[tuple[str, str], ...] = tuple(
    (name, f"/sdcard/{name}/") for name in (
        "Alarms", "Audiobooks", "DCIM", "Documents", "Download", "Movies", "Music",
        "Notifications", "Pictures", "Podcasts", "Recordings", "Ringtones"))
#: The drawer's category roots: label, Material icon, the MIME types they hold (a prefix
#: ending in "/" or a whole type; Documents: MediaDocumentsProvider's document types) and the
#: extensions that say the type when the MIME type does not.
CATEGORIES: tuple[tuple[str, str, tuple[str, ...], frozenset[str]], ...] = (
    ("Images", "image", ("image/",), frozenset({"jpg", "jpeg", "png", "gif", "webp", "heic",
                                                 "bmp"})),
    ("Videos", "videocam", ("video/",), frozenset({"mp4", "mkv", "webm", "3gp", "mov"})),
    ("Audio", "music_note", ("audio/",), frozenset({"mp3", "ogg", "wav", "flac", "m4a", "aac",
                                                     "opus", "m3u", "amr"})),
    ("Documents", "description", ("text/", "application/pdf", "application/msword",
                                  "application/vnd.ms-", "application/vnd.oasis.opendocument",
                                  "application/vnd.openxmlformats-officedocument"),
     frozenset({"txt", "md", "pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "csv", "odt",
                "html", "htm", "json"})),
)
#: The drawer's name of the device's storage (the root screen).
INTERNAL_STORAGE = "Internal storage"
NAME_TAKEN = "A file with this name already exists"
#: Files another app may open (web pages), and the name of this app's own viewer for them.
WEB_PAGES = (".html", ".htm")
HTML_VIEWER = "HTML Viewer"


# --- state -------------------------------------------------------------------------------
@dataclass
class FilesUi:
    """Transient state, lost on force-stop: the file a dialog is about, and the new name."""

    renaming: str | None = None  # path of the file the rename dialog is about
    new_name: str = ""
    deleting: str | None = None  # path of the file the delete dialog is about
    opening: str | None = None  # path of the web page the "Open with" sheet is about
    chosen: str = ""  # the app picked in that sheet
    drawer: bool = False  # the roots drawer is open


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


def shared_category(file: File) -> str | None:
    """The drawer category of a file in shared storage (None: another file, or none)."""
    return (category_of(file) or None) if file.path.startswith("/sdcard/") else None


def categories(files: Table[File]) -> Grouping[File]:
    """Shared storage's files by drawer category, each by name: kept on every write."""
    return files.grouping("categories", shared_category, by_file_name)


def folder_label(folder: str) -> str:
    return next((label for label, prefix in STORAGE_FOLDERS if prefix == folder),
                name_of(folder[:-1]))


def list_folder(files: Table[File], folder: str) -> list[str]:
    """Paths of the files directly in ``folder``, sorted by name (any case)."""
    found = [p for p in files.keys() if p.startswith(folder) and "/" not in p[len(folder):]]
    return sorted(found, key=lambda p: (name_of(p).casefold(), p))


def category_of(file: File) -> str:
    """The drawer category (``CATEGORIES``) of ``file``: by its extension, else by its MIME
    type; "" for none (an APK, a zip)."""
    ext = name_of(file.path).rpartition(".")[2].lower() if "." in name_of(file.path) else ""
    for label, _, _, exts in CATEGORIES:
        if ext in exts:
            return label
    for label, _, mimes, _ in CATEGORIES:
        if any(file.mime.startswith(m) for m in mimes):
            return label
    return ""


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


def move_file(files: Table[File], path: str, folder: str) -> str | None:
    """Move ``path`` into ``folder`` (a prefix ending in ``/``), keeping its name and
    content; an error message when it cannot be."""
    old = files.get(path)
    if old is None:
        return "File not found"
    target = folder + name_of(path)
    if target == path:
        return "The file is already in this folder"
    if target in files:
        return NAME_TAKEN
    files.remove(path)
    files.put(File(target, old.content, old.mime))
    return None


# --- the app -------------------------------------------------------------------------------
class FilesApp(App):
    manifest = MANIFEST

    ui: FilesUi

    def initial_ui(self) -> FilesUi:
        return FilesUi()

    @classmethod
    def index_system(cls, system: SystemState) -> None:
        system.folders()
        categories(system.files)

    @property
    def files(self) -> Table[File]:
        return self.system.files

    def listing(self, folder: str) -> Sequence[File]:
        """The files of ``list_folder(folder)`` in its order, read from the store's folder
        index (kept sorted on every write: nothing is listed again per frame)."""
        return self.system.folders().view(folder)

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
            self.toast(self.t(error))
            return
        self.close_dialogs()

    def ask_delete(self, path: str) -> None:
        self.ui.deleting = path

    def confirm_delete(self, path: str) -> None:
        delete_file(self.files, path)
        self.close_dialogs()
        self.toast(self.t("File deleted"))

    def ask_move(self, path: str) -> None:
        self.go("move", path)

    def pick_folder(self, path: str, folder: str) -> None:
        self.go("pick", (path, folder))

    def confirm_move(self, path: str, folder: str) -> None:
        error = move_file(self.files, path, folder)
        if error is not None:
            self.toast(self.t(error))
            return
        while self.route.name in ("move", "pick"):
            self.back()
        self.toast(self.t("Moved to {folder}", folder=self.folder_name(folder)))

    def set_drawer(self, open: bool) -> None:
        self.ui.drawer = open

    def open_root(self, route: Route | None) -> None:
        """Show a root of the drawer: a category or folder (``route``) or the storage."""
        self.stack = [Route("main")] if route is None else [Route("main"), route]

    def category(self, label: str) -> Sequence[File]:
        """Shared storage's files in category ``label``, sorted by name (an index of the
        store kept on every write)."""
        return categories(self.files).view(label)

    def close_dialogs(self) -> None:
        self.ui.renaming = self.ui.deleting = self.ui.opening = None
        self.ui.new_name = self.ui.chosen = ""

    # opening a file
    def viewers(self, path: str) -> list[str]:
        """The apps that may open the file at ``path``: for a web page, each installed app
        that opens its ``file://`` address, then ``HTML_VIEWER``; else none (this app's
        text viewer shows it)."""
        if not path.lower().endswith(WEB_PAGES):
            return []
        manifests = getattr(self.host, "manifests", ())
        return [m.name for m in manifests
                if m.name != self.name and m.links(f"file://{path}")] + [HTML_VIEWER]

    def open_file(self, path: str) -> None:
        """Tap on a file: the text viewer, or for a web page the "Open with" sheet."""
        if self.viewers(path):
            self.ui.opening, self.ui.chosen = path, ""
        else:
            self.go("file", path)

    def choose(self, name: str) -> None:
        self.ui.chosen = name

    def confirm_open(self) -> None:
        path, name = self.ui.opening, self.ui.chosen
        if path is None or not name:
            return
        self.close_dialogs()
        self.open_with(path, name)

    def open_with(self, path: str, name: str) -> None:
        """Open ``path`` in app ``name`` (``HTML_VIEWER``: this app's viewer)."""
        finder = getattr(self.host, "app", None)
        app = finder(name) if callable(finder) and name != HTML_VIEWER else None
        if app is None:
            self.go("file", path)
            return
        app.open_link(f"file://{path}")
        self.open_app(app.name)

    def items(self, n: int) -> str:
        """How many files a folder holds: "No items", "1 item", "3 items" (3 项)."""
        return self.t(items_text(n)) if n == 0 else \
            self.t("{n} item" if n == 1 else "{n} items", n=n)

    def size(self, content: str) -> str:
        """A file's size: "523 B", "1.2 kB" (the locale's unit names)."""
        size = len(content.encode("utf-8"))
        if size < 1000:
            return self.t("{size} B", size=size)
        if size < 1_000_000:
            return self.t("{size} kB", size=f"{size / 1000:.1f}")
        return self.t("{size} MB", size=f"{size / 1_000_000:.1f}")

    def folder_name(self, folder: str) -> str:
        """A folder's name as shown: a standard folder's in the locale's words (Download:
        下载), another its own."""
        label = folder_label(folder)
        return dict(app_strings(type(self), self.system.locale).strings).get(label, label)

    def app_label(self, name: str) -> str:
        """The label the phone shows for app ``name`` (``HTML_VIEWER``: this app's)."""
        if name == HTML_VIEWER:
            return self.t(name)
        manifests = getattr(self.host, "manifests", ())
        found = next((m for m in manifests if m.name == name), None)
        return found.label_in(self.system.locale) if found is not None else name

    # views
    def view(self, route: Route) -> Screen:
        """The screen for ``route``, its fixed strings in the phone's locale."""
        screen = self.files_view(route)
        return in_locale(self, screen)

    def files_view(self, route: Route) -> Screen:
        if route.name == "folder":
            return self.folder(route.arg)
        if route.name == "file":
            return self.viewer(route.arg)
        if route.name == "move":
            return self.move_picker(route.arg)
        if route.name == "pick":
            return self.picked(*route.arg)
        if route.name == "category":
            return self.category_screen(route.arg)
        return self.root()

    def root(self) -> Screen:
        rows = [ListItem(label, self.items(len(self.listing(prefix))),
                         on_click=partial(self.go, "folder", prefix),
                         id=f"folder_{label.lower()}", glyph="📁", color=self.color)
                for label, prefix in STORAGE_FOLDERS]
        screen = Screen(top_bar=TopBar("Files", on_menu=lambda: self.set_drawer(True)),
                        content=[Text("Folders", style="caption", id="folders_header"),
                                 ListView(rows, id="folders")])
        return with_drawer(screen, self.drawer() if self.ui.drawer else None,
                           lambda: self.set_drawer(False))

    def drawer(self) -> Node:
        """DocumentsUI's roots: the categories, Downloads and the internal storage."""
        items: list[Destination | str] = [
            Destination(label, icon, partial(self.open_root, Route("category", label)),
                        id=f"root_{slug(label)}") for label, icon, _, _ in CATEGORIES]
        items += [Destination("Downloads", "download",
                              partial(self.open_root, Route("folder", "/sdcard/Download/")),
                              id="root_downloads"),
                  Destination(INTERNAL_STORAGE, "phone_android", partial(self.open_root, None),
                              id="root_storage")]
        return NavigationDrawer(items, selected=INTERNAL_STORAGE, title="Files", dense=True,
                                on_close=lambda: self.set_drawer(False))

    def category_screen(self, label: str) -> Screen:
        """A category root: its files from every folder (long press for the file menu)."""
        found = self.category(label)
        return Screen(
            top_bar=TopBar(label, on_back=self.back),
            content=[Text(self.items(len(found)), style="caption", id="count"),
                     VirtualList(len(found), lambda i: self.file_row(found[i].path),
                                 id="files_list", empty_text="No items")],
            dialog=self.dialog(),
            on_dismiss=self.close_dialogs,
        )

    def move_picker(self, path: str) -> Screen:
        """"Move to": the folders; tapping one shows it with a "Move" button."""
        rows = [ListItem(label, self.items(len(self.listing(prefix))),
                         on_click=partial(self.pick_folder, path, prefix),
                         id=f"move_{label.lower()}", glyph="📁", color=self.color)
                for label, prefix in STORAGE_FOLDERS]
        title = self.t("Move {name} to", name=name_of(path))
        return Screen(top_bar=TopBar(title, on_back=self.back),
                      content=[ListView(rows, id="move_folders")])

    def picked(self, path: str, folder: str) -> Screen:
        found = self.listing(folder)
        return Screen(
            top_bar=TopBar(folder_label(folder), on_back=self.back),
            content=[Text(self.t("Move {name} here?", name=name_of(path)), style="caption",
                          id="move_prompt"),
                     Row([Button("Cancel", self.back, id="move_cancel", style="secondary"),
                          Button("Move", partial(self.confirm_move, path, folder),
                                 id="move_here")], id="move_buttons"),
                     VirtualList(len(found), lambda i: ListItem(found[i].name, id="picked_file",
                                                               glyph="📄"),
                                 id="picked_files", empty_text="No items")],
        )

    def file_row(self, path: str) -> Node:
        return ListItem(
            name_of(path), self.size(self.files[path].content), id="file", glyph="📄",
            color=(66, 133, 244), on_click=lambda: self.open_file(path),
            menu=[(self.t("Rename"), lambda: self.ask_rename(path)),
                  (self.t("Move to…"), lambda: self.ask_move(path)),
                  (self.t("Delete"), lambda: self.ask_delete(path))],
        )

    def resolver(self, path: str) -> Node:
        """Android's "Open with" sheet: the apps (tap to choose), then "Just once"."""
        rows = [ListItem(self.app_label(name), glyph="✓" if name == self.ui.chosen else "○",
                         on_click=partial(self.choose, name), id=f"open_with_{slug(name)}")
                for name in self.viewers(path)]
        return Node("sheet", id="resolver", children=[
            Text(self.t("Open {name} with", name=name_of(path)), style="title",
                 id="resolver_title"), *rows,
            Button("Just once", self.confirm_open, id="button_once",
                   enabled=bool(self.ui.chosen))])

    def dialog(self) -> Node | None:
        ui = self.ui
        if ui.opening is not None and ui.opening in self.files:
            return self.resolver(ui.opening)
        if ui.deleting is not None and ui.deleting in self.files:
            path = ui.deleting
            return Dialog(self.t("Delete {name}?", name=name_of(path)), "", [
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
        found = self.listing(folder)
        return Screen(
            top_bar=TopBar(folder_label(folder), on_back=self.back),
            content=[Text(self.items(len(found)), style="caption", id="count"),
                     VirtualList(len(found), lambda i: self.file_row(found[i].path),
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
            Text(f"{self.folder_name(folder_of(path))} · {self.size(content)}", style="caption",
                 id="file_info"),
            Text(content, id="file_text", copyable=True),
        ])
