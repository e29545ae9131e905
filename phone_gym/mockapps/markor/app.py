"""Markor: markdown and plain-text notes kept as files in shared storage.

Notes are ``File`` records of the shared ``system.files`` store under ``MARKOR_DIR``
(``/sdcard/Documents/Markor``, where AndroidWorld's Markor keeps them), so other apps (Files,
a later cross-app task) see them and verifiers read them at ``files.<path>`` (name, folder,
size, sha1), on a PhoneWorld phone and over adb alike.

Folders: the files store holds files only, and a folder exists while a file lies under it.
A folder Markor creates gets a hidden, empty placeholder file ``.keep`` (never shown in the
browser, kept when the folder's notes are deleted or moved out), so an empty folder exists
in the store, in snapshots and for an adb client of the virtual device (``ls`` shows the
folder). Deleting a folder deletes everything under it, ``.keep`` included.

Modification times live in the app's own data (``MarkorData.modified``: path -> ISO time),
untracked (outside snapshots: saving a note does not count as a second change); a file
written by another app has no time there and sorts as the oldest.

Screens: the file browser (a folder: its folders, then its notes sorted by name or by date
modified, newest first, with a search field; long press starts selecting: select all,
rename, move, delete with a confirmation), the "create" dialog (a name, Markdown or plain
text, and OK or "Folder"), the move screen (every folder of Markor), and the editor (the
text in a full-screen Markdown editor, ``kit.EditorView``, with its formatting bar docked
above the keyboard; saved by the save icon and when leaving), and, as Markor's bottom
tabs, To-Do and QuickNote: editors of ``todo.txt`` and ``QuickNote.md`` in Markor's
folder. As in Markor, a ".." row climbs above Markor's folder, up to ``/sdcard``.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import (
    ChoiceDialog,
    ConfirmDialog,
    EditHistory,
    EditorView,
    FormatBar,
    Radio,
    SearchList,
)
from ...world.kit.localize import in_locale
from ...world.locale import DEFAULT_LOCALE, format_date
from ...world.system import File
from ...world.widgets import (
    Column,
    Dialog,
    DialogButton,
    Fab,
    Icon,
    ListItem,
    ListView,
    Node,
    Screen,
    Tab,
    TabBar,
    Text,
    TextField,
    TopBar,
)
from .manifest import MANIFEST

#: Markor's folder in shared storage (AndroidWorld's).
MARKOR_DIR = "/sdcard/Documents/Markor"
#: The top of the storage the browser may climb to (through the ".." row).
STORAGE_ROOT = "/sdcard"
#: The hidden placeholder file that keeps a folder Markor created when it holds no note.
KEEP = ".keep"
#: The note formats of the create dialog: label and extension.
FORMATS: tuple[tuple[str, str], ...] = (("Markdown", ".md"), ("Plain text", ".txt"))
EXTENSIONS = tuple(ext for _, ext in FORMATS)
SORTS = ("Name", "Date modified")
#: The bottom tabs: route name -> (label, the note the tab edits; "" for the browser).
TABS: dict[str, tuple[str, str]] = {
    "main": ("Files", ""), "todo": ("To-Do", f"{MARKOR_DIR}/todo.txt"),
    "quicknote": ("QuickNote", f"{MARKOR_DIR}/QuickNote.md")}
NAME_TAKEN = "A file or folder with this name already exists"


# --- state -------------------------------------------------------------------------------
@dataclass
class MarkorData(Store):
    """The app's own data: when each note was last written (untracked: not in snapshots)."""

    untracked = ("modified",)

    modified: dict[str, str] = field(default_factory=dict)


@dataclass
class MarkorUi:
    """Transient state, lost on force-stop: the selection, the open dialog and its fields,
    the editor's draft, the sort order and the search query."""

    selected: tuple[str, ...] = ()
    dialog: str = ""  # "", "create", "rename", "delete", "sort"
    name: str = ""  # the name field of the create and rename dialogs
    ext: str = ".md"
    draft: str = ""
    sort: str = "Name"
    query: str = ""
    history: EditHistory = field(default_factory=EditHistory)  # the editor's undo/redo


# --- updates -------------------------------------------------------------------------------
def is_hidden(name: str) -> bool:
    return name.startswith(".")


def mime_for(name: str) -> str:
    return "text/markdown" if name.lower().endswith(".md") else "text/plain"


def under(path: str, folder: str) -> bool:
    """Whether ``path`` lies somewhere below ``folder``."""
    return path.startswith(folder.rstrip("/") + "/")


def is_folder(files: Table[File], path: str) -> bool:
    """Whether ``path`` is a folder: Markor's own, or one a file lies under."""
    return path == MARKOR_DIR or (path not in files and any(under(p, path) for p in files.keys()))


def entries(files: Table[File], folder: str) -> tuple[list[str], list[str]]:
    """The folders (paths, by name) and the visible notes (paths) directly in ``folder``."""
    prefix = folder.rstrip("/") + "/"
    folders: set[str] = set()
    notes: list[str] = []
    for path in files.keys():
        if not path.startswith(prefix):
            continue
        head, sep, _ = path[len(prefix):].partition("/")
        if sep:
            folders.add(prefix + head)
        elif not is_hidden(head):
            notes.append(path)
    return sorted(folders, key=lambda p: posixpath.basename(p).casefold()), notes


def all_folders(files: Table[File]) -> list[str]:
    """Markor's folder and every folder below it, sorted by path."""
    found = {MARKOR_DIR}
    for path in files.keys():
        if under(path, MARKOR_DIR):
            parent = posixpath.dirname(path)
            while parent != MARKOR_DIR and under(parent, MARKOR_DIR):
                found.add(parent)
                parent = posixpath.dirname(parent)
    return sorted(found, key=str.casefold)


def bad_name(name: str) -> str | None:
    """Why ``name`` cannot name a file or folder (None: it can)."""
    if not name:
        return "Enter a name"
    if "/" in name or name in (".", ".."):
        return "Invalid name"
    return None


def note_file_name(name: str, ext: str) -> str:
    """``name`` with the chosen extension, unless it already ends in a note extension."""
    name = name.strip()
    return name if name.lower().endswith(EXTENSIONS) else name + ext


def create_note(files: Table[File], folder: str, name: str, ext: str) -> tuple[str, str]:
    """Create an empty note; ``(path, "")`` or ``("", error)``."""
    file_name = note_file_name(name, ext)
    error = bad_name(name.strip())
    if error is not None:
        return "", error
    path = f"{folder}/{file_name}"
    if path in files or is_folder(files, path):
        return "", NAME_TAKEN
    files.put(File(path, "", mime_for(file_name)))
    return path, ""


def create_folder(files: Table[File], folder: str, name: str) -> str:
    """Create folder ``name`` in ``folder`` (with its ``.keep``); an error or ""."""
    name = name.strip()
    error = bad_name(name)
    if error is not None:
        return error
    path = f"{folder}/{name}"
    if path in files or is_folder(files, path):
        return NAME_TAKEN
    files.put(File(f"{path}/{KEEP}", "", "text/plain"))
    return ""


def save_note(files: Table[File], path: str, text: str) -> bool:
    """Write ``text`` into the note at ``path`` (keeping its type); whether it changed."""
    old = files.get(path)
    if (old.content if old is not None else "") == text:
        return False  # unchanged, or a new note left empty
    name = posixpath.basename(path)
    files.put(File(path, text, old.mime if old is not None else mime_for(name)))
    return True


def delete_entries(files: Table[File], paths: Iterable[str]) -> int:
    """Delete notes, and folders with everything under them; how many entries went."""
    count = 0
    for path in paths:
        if path in files:
            files.remove(path)
            count += 1
        else:
            inside = [p for p in files.keys() if under(p, path)]
            for p in inside:
                files.remove(p)
            count += bool(inside)
    return count


def relocate(files: Table[File], src: str, dest: str) -> dict[str, str]:
    """Move the note or folder at ``src`` to ``dest``; old path -> new path of each file."""
    if src in files:
        moves = {src: dest}
    else:
        moves = {p: dest + p[len(src):] for p in files.keys() if under(p, src)}
    for old, new in moves.items():
        record = files.remove(old)
        if record is not None:
            files.put(File(new, record.content, record.mime))
    return moves


def rename_entry(files: Table[File], path: str, new_name: str) -> tuple[dict[str, str], str]:
    """Rename a note or folder in its folder; ``(moves, "")`` or ``({}, error)``."""
    name = new_name.strip()
    error = bad_name(name)
    if error is not None:
        return {}, error
    target = f"{posixpath.dirname(path)}/{name}"
    if target == path:
        return {}, ""
    if target in files or is_folder(files, target):
        return {}, NAME_TAKEN
    return relocate(files, path, target), ""


def move_entries(files: Table[File], paths: Iterable[str],
                 dest: str) -> tuple[dict[str, str], str]:
    """Move notes and folders into folder ``dest``; the moves and an error ("" if none)."""
    moves: dict[str, str] = {}
    for path in paths:
        target = f"{dest}/{posixpath.basename(path)}"
        if target == path:
            continue
        if under(dest + "/", path):
            return moves, "A folder cannot go into itself"
        if target in files or is_folder(files, target):
            return moves, NAME_TAKEN
        moves.update(relocate(files, path, target))
    return moves, ""


def date_text(iso: str) -> str:
    """``Oct 15, 2023 15:34`` of an ISO time ("" when unknown)."""
    if len(iso) < 16:
        return ""
    months = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
              "Dec")
    return f"{months[int(iso[5:7]) - 1]} {int(iso[8:10])}, {iso[:4]} {iso[11:16]}"


def size_text(content: str) -> str:
    size = len(content.encode("utf-8"))
    return f"{size} B" if size < 1000 else f"{size / 1000:.1f} kB"


def folder_title(folder: str) -> str:
    return "Markor" if folder == MARKOR_DIR else posixpath.basename(folder)


# --- the app -------------------------------------------------------------------------------
class MarkorApp(App):
    manifest = MANIFEST

    data: MarkorData
    ui: MarkorUi

    def initial_data(self) -> MarkorData:
        return MarkorData()

    def initial_ui(self) -> MarkorUi:
        return MarkorUi()

    @property
    def files(self) -> Table[File]:
        return self.system.files

    @property
    def folder(self) -> str:
        """The folder the browser shows."""
        arg = self.route.arg if self.route.name == "folder" else None
        return arg if isinstance(arg, str) else MARKOR_DIR

    # --- times ---------------------------------------------------------------------------
    def touch(self, path: str) -> None:
        self.data.modified[path] = self.system.now.isoformat(timespec="seconds")

    def moved(self, moves: dict[str, str]) -> None:
        for old, new in moves.items():
            when = self.data.modified.pop(old, None)
            if when is not None:
                self.data.modified[new] = when

    # --- browsing and selecting --------------------------------------------------------------
    def open_entry(self, path: str) -> None:
        if self.ui.selected:
            self.toggle(path)
        elif path in self.files:
            self.open_file(path)
        else:
            self.ui.query = ""
            self.go("folder", path)

    def open_file(self, path: str) -> None:
        """Open the note at ``path`` in the editor (what a cross-app task's "open" does)."""
        record = self.files.get(path)
        self.ui.draft = record.content if record is not None else ""
        self.ui.selected, self.ui.dialog, self.ui.history = (), "", EditHistory()
        self.go("edit", path)

    def toggle(self, path: str) -> None:
        selected = list(self.ui.selected)
        if path in selected:
            selected.remove(path)
        else:
            selected.append(path)
        self.ui.selected = tuple(selected)

    def select_all(self) -> None:
        folders, notes = self.shown()
        self.ui.selected = tuple([*folders, *notes])

    def clear_selection(self) -> None:
        self.ui.selected, self.ui.dialog = (), ""

    def set_query(self, query: str) -> None:
        self.ui.query = query

    def browse_back(self) -> bool:
        if self.ui.selected:
            self.clear_selection()
            return True
        self.ui.query = ""
        self.back()
        return True

    # --- dialogs -----------------------------------------------------------------------------
    def show(self, dialog: str) -> None:
        self.ui.dialog = dialog
        if dialog == "create":
            self.ui.name, self.ui.ext = "", ".md"
        elif dialog == "rename" and len(self.ui.selected) == 1:
            self.ui.name = posixpath.basename(self.ui.selected[0])

    def close_dialog(self) -> None:
        self.ui.dialog, self.ui.name = "", ""

    def set_name(self, name: str) -> None:
        self.ui.name = name

    def set_ext(self, ext: str) -> None:
        self.ui.ext = ext

    def set_sort(self, sort: str) -> None:
        self.ui.sort = sort
        self.close_dialog()

    def confirm_create(self) -> None:
        path, error = create_note(self.files, self.folder, self.ui.name, self.ui.ext)
        if error:
            self.toast(self.t(error))
            return
        self.touch(path)
        self.close_dialog()
        self.open_file(path)

    def confirm_folder(self) -> None:
        error = create_folder(self.files, self.folder, self.ui.name)
        if error:
            self.toast(self.t(error))
            return
        self.close_dialog()
        self.toast(self.t("Folder created"))

    def confirm_rename(self) -> None:
        if len(self.ui.selected) != 1:
            self.close_dialog()
            return
        moves, error = rename_entry(self.files, self.ui.selected[0], self.ui.name)
        if error:
            self.toast(self.t(error))
            return
        self.moved(moves)
        self.clear_selection()
        self.close_dialog()

    def confirm_delete(self) -> None:
        count = delete_entries(self.files, self.ui.selected)
        for path in self.ui.selected:
            self.data.modified.pop(path, None)
        self.clear_selection()
        self.toast(self.t("Deleted {n} item" if count == 1 else "Deleted {n} items", n=count))

    def start_move(self) -> None:
        if self.ui.selected:
            self.ui.dialog = ""
            self.go("move")

    def move_to(self, dest: str) -> None:
        moves, error = move_entries(self.files, self.ui.selected, dest)
        self.moved(moves)
        if error:
            self.toast(self.t(error))
        elif moves:
            self.toast(self.t("Moved"))
        self.clear_selection()
        self.back()

    # --- the editor --------------------------------------------------------------------------
    def set_draft(self, text: str) -> None:
        self.ui.draft = text

    def open_tab(self, name: str) -> None:
        """Switch the bottom tab: Files (the browser), To-Do or QuickNote (an editor on
        Markor's ``todo.txt`` or ``QuickNote.md``; the note is written once it holds
        text)."""
        if self.route.name in TABS and self.route.name != "main":
            self.save()
        self.ui = MarkorUi(sort=self.ui.sort)
        path = TABS[name][1]
        if path:
            record = self.files.get(path)
            self.ui.draft = record.content if record is not None else ""
        self.stack = [Route(name, path or None)]

    def save(self) -> None:
        path = self.route.arg
        if isinstance(path, str) and save_note(self.files, path, self.ui.draft):
            self.touch(path)
            self.toast(self.t("Saved"))

    def close_editor(self) -> None:
        self.save()
        self.back()

    # --- views ---------------------------------------------------------------------------
    def when(self, iso: str) -> str:
        """When a note was written: ``Oct 15, 2023 15:34`` (2023年10月15日 15:34)."""
        if self.system.locale == DEFAULT_LOCALE or len(iso) < 16:
            return date_text(iso)
        day = datetime.fromisoformat(iso[:16]).date()
        return f"{format_date(day, self.system.locale)} {iso[11:16]}"

    def size(self, content: str) -> str:
        """A note's size: "523 B", "1.2 kB"."""
        size = len(content.encode("utf-8"))
        return self.t("{size} B", size=size) if size < 1000 else \
            self.t("{size} kB", size=f"{size / 1000:.1f}")

    def items(self, n: int) -> str:
        """A folder's count: "1 item", "3 items" (3 项)."""
        return self.t("{n} item" if n == 1 else "{n} items", n=n)

    def view(self, route: Route) -> Screen:
        """The screen for ``route``, its fixed strings in the phone's locale."""
        screen = self.markor_view(route)
        return in_locale(self, screen)

    def markor_view(self, route: Route) -> Screen:
        if route.name in TABS and route.name != "main":
            return self.editor(TABS[route.name][1], tabs=True)
        if route.name == "edit" and isinstance(route.arg, str):
            return self.editor(route.arg)
        if route.name == "move":
            return self.move_screen()
        return self.browser()

    def sort_key(self, path: str) -> tuple[str, str]:
        return (self.data.modified.get(path, ""), path)

    def shown(self) -> tuple[list[str], list[str]]:
        """The folders and notes the browser shows, in order, filtered by the search."""
        folders, notes = entries(self.files, self.folder)
        if self.ui.sort == "Date modified":
            notes.sort(key=self.sort_key, reverse=True)
        else:
            notes.sort(key=lambda p: (posixpath.basename(p).casefold(), p))
        q = self.ui.query.strip().casefold()
        if q:
            folders = [p for p in folders if q in posixpath.basename(p).casefold()]
            notes = [p for p in notes if q in posixpath.basename(p).casefold()]
        return folders, notes

    def row(self, path: str) -> Node:
        name = posixpath.basename(path)
        chosen = path in self.ui.selected
        record = self.files.get(path)
        if record is None:
            folders, notes = entries(self.files, path)
            count = len(folders) + len(notes)
            subtitle = self.items(count)
            glyph = "📁"
        else:
            when = self.when(self.data.modified.get(path, ""))
            subtitle = " · ".join(t for t in (when, self.size(record.content)) if t)
            glyph = "📄"
        return ListItem(name, subtitle, id="folder" if record is None else "note",
                        glyph="✓" if chosen else glyph,
                        on_click=lambda: self.open_entry(path),
                        on_long_click=lambda: self.toggle(path))

    def dialog(self) -> Node | None:
        ui = self.ui
        if ui.dialog == "create":
            radios = [Radio(self.t(f"{label} ({ext})"), ui.ext == ext,
                            partial(self.set_ext, ext), id=f"format_{ext[1:]}")
                      for label, ext in FORMATS]
            return Dialog("Create new", "", [
                DialogButton("Cancel", self.close_dialog),
                DialogButton("Folder", self.confirm_folder),
                DialogButton("OK", self.confirm_create),
            ], body=[TextField(ui.name, self.set_name, id="new_name", label="Name",
                               hint="Name"), Column(radios, id="formats")])
        if ui.dialog == "rename" and len(ui.selected) == 1:
            return Dialog("Rename", "", [
                DialogButton("Cancel", self.close_dialog),
                DialogButton("OK", self.confirm_rename),
            ], body=[TextField(ui.name, self.set_name, id="rename_field", label="Name",
                               hint="New name", on_submit=self.confirm_rename)])
        if ui.dialog == "delete" and ui.selected:
            n = len(ui.selected)
            return ConfirmDialog(
                "Delete", self.t("Delete {n} selected item?" if n == 1
                                 else "Delete {n} selected items?", n=n),
                on_confirm=self.confirm_delete, on_cancel=self.close_dialog,
                confirm="Delete", destructive=True)
        if ui.dialog == "sort":
            return ChoiceDialog("Sort by", SORTS, ui.sort, self.set_sort, self.close_dialog)
        return None

    def top_bar(self) -> Node:
        selected = self.ui.selected
        if selected:
            actions = [Icon("☑", "Select all", self.select_all, id="select_all")]
            if len(selected) == 1:
                actions.append(Icon("✎", "Rename", lambda: self.show("rename"), id="rename"))
            actions += [Icon("➜", "Move", self.start_move, id="move"),
                        Icon("🗑", "Delete", lambda: self.show("delete"), id="delete")]
            return TopBar(self.t("{n} selected", n=len(selected)), on_back=self.clear_selection,
                          actions=actions)
        up = None if self.folder == MARKOR_DIR else self.browse_back
        return TopBar(folder_title(self.folder), on_back=up,
                      actions=[Icon("⇅", "Sort", lambda: self.show("sort"), id="sort")])

    def up_row(self) -> Node:
        """The ".." row: the folder above (up to the storage's root, as Markor allows)."""
        parent = posixpath.dirname(self.folder)
        return ListItem("..", "Parent folder", id="parent", glyph="📁",
                        on_click=lambda: self.open_parent(parent))

    def open_parent(self, parent: str) -> None:
        self.ui.selected, self.ui.query = (), ""
        self.go("folder", parent)

    def browser(self) -> Screen:
        folders, notes = self.shown()
        paths = [*folders, *notes]
        up = self.folder != STORAGE_ROOT and not self.ui.selected
        rows = len(paths) + up
        empty = "No notes here" if not self.ui.query.strip() else "No matches"
        return Screen(
            top_bar=self.top_bar(),
            content=[*SearchList(self.ui.query, self.set_query, rows,
                                 lambda i: self.up_row() if up and i == 0
                                 else self.row(paths[i - up]), id="file_list",
                                 hint="Search in this folder", empty_text=empty)],
            bottom=self.tab_bar(),
            fab=None if self.ui.selected else Fab("+", "Create new",
                                                  lambda: self.show("create"), id="new"),
            dialog=self.dialog(),
            on_dismiss=self.close_dialog,
            on_back=self.browse_back,
        )

    def move_screen(self) -> Screen:
        names = ", ".join(posixpath.basename(p) for p in self.ui.selected)
        rows = [ListItem(folder_title(p) if p == MARKOR_DIR else p[len(MARKOR_DIR) + 1:],
                         "Move here", id="destination", glyph="📁",
                         on_click=partial(self.move_to, p))
                for p in all_folders(self.files)]

        def cancel() -> bool:
            self.back()
            return True

        return Screen(top_bar=TopBar("Move to", on_back=self.back),
                      content=[Text(self.t("Moving: {names}", names=names), style="caption",
                                    id="moving"),
                               ListView(rows, id="folders")],
                      on_back=cancel)

    def tab_bar(self) -> Node:
        return TabBar([Tab(label, self.route.name == name, partial(self.open_tab, name),
                           id=f"tab_{name}") for name, (label, _) in TABS.items()])

    def editor(self, path: str, *, tabs: bool = False) -> Screen:
        def back() -> bool:
            self.close_editor()
            return True

        ui = self.ui
        return Screen(
            top_bar=TopBar(posixpath.basename(path), on_back=None if tabs else self.close_editor,
                           actions=[Icon("💾", "Save", self.save, id="save")]),
            bottom=self.tab_bar() if tabs else None,
            content=[EditorView(ui.draft, self.set_draft, ui.history, id="editor_body",
                                label="Note text", hint="Start writing")],
            dock=FormatBar(ui.draft, self.set_draft, ui.history),
            fill=True,
            on_back=back,
        )
