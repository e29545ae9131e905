"""Joplin: notebooks (folders) holding notes and to-dos with titles and markdown bodies.

Screens: the notes of the chosen notebook ("All notes" at first; to-dos carry a checkbox),
searchable; the notebooks in the side drawer (opened by the top bar's menu icon or a drag
from the left edge), a speed-dial FAB (New to-do, New note, New notebook, as the real app's
``ActionButton``), a note's page (its markdown shown line by line), an editor for new and
existing notes (title, body, a to-do switch) and a new notebook's name. State is
dataclasses (persistent ``JoplinData``, kept privately as the real app keeps its SQLite
database; transient ``JoplinUi``); views are pure functions of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import (
    ActionIcon,
    ConfirmDialog,
    Destination,
    DialAction,
    NavigationDrawer,
    SearchList,
    SpeedDial,
    SpeedDialFab,
    with_drawer,
    with_speed_dial,
)
from ...world.kit.localize import in_locale
from ...world.widgets import (
    ListItem,
    Node,
    Screen,
    Text,
    TextField,
    Toggle,
    TopBar,
)
from .manifest import MANIFEST

ALL_NOTES = 0  # the pseudo-notebook listing every note


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Folder:
    """A notebook."""

    id: int
    name: str


@dataclass(frozen=True)
class Note:
    """A note, or a to-do when ``is_todo`` (then ``done`` says whether it is checked off)."""

    id: int
    folder: int
    title: str
    body: str = ""
    is_todo: bool = False
    done: bool = False


@dataclass
class JoplinData(Store):
    """What the app stores: ``apps.Joplin.folders`` and ``apps.Joplin.notes``."""

    folders: Table[Folder] = field(default_factory=lambda: Table(kind=Folder))
    notes: Table[Note] = field(default_factory=lambda: Table(kind=Note))


@dataclass
class Draft:
    """The editor's fields."""

    title: str = ""
    body: str = ""
    is_todo: bool = False


@dataclass
class JoplinUi:
    """Transient state: the notebook shown, the search query, the editor's draft, the note
    whose delete confirmation shows."""

    folder: int = ALL_NOTES
    query: str = ""
    draft: Draft = field(default_factory=Draft)
    deleting: int | None = None
    drawer: bool = False
    dial: bool = False
    folder_name: str = ""


# --- updates -------------------------------------------------------------------------------
def add_folder(data: JoplinData, name: str) -> Folder:
    return data.folders.new(name=name)


def add_note(data: JoplinData, folder: int, title: str, body: str = "", *,
             is_todo: bool = False, done: bool = False) -> Note:
    return data.notes.new(folder=folder, title=title, body=body, is_todo=is_todo, done=done)


def note_order(note: Note) -> tuple[bool, str, int]:
    """Open to-dos and notes by title; checked-off to-dos last."""
    return (note.done, note.title.casefold(), note.id)


def note_text(note: Note) -> str:
    return f"{note.title}\n{note.body}"


def say_count(n: int) -> str:
    return "1 note" if n == 1 else f"{n} notes"


def save_draft(data: JoplinData, draft: Draft, folder: int, note_id: int | None) -> bool:
    """Write the draft into its note (or a new one in ``folder``); a note needs a title or a
    body."""
    title, body = draft.title.strip(), draft.body.rstrip()
    if not (title or body):
        return False
    if note_id is None:
        add_note(data, folder, title, body, is_todo=draft.is_todo)
    elif note_id in data.notes:
        note = data.notes[note_id]
        if (note.title, note.body, note.is_todo) != (title, body, draft.is_todo):
            data.notes.update(note_id, title=title, body=body, is_todo=draft.is_todo,
                              done=note.done and draft.is_todo)
    return True


def rendered(line: str, i: int) -> Node:
    """One line of markdown as the note's page shows it: headings bold, the rest as is."""
    if line.startswith("#"):
        return Text(line.lstrip("#").strip(), style="title", id=f"line_{i}")
    return Text(line, id=f"line_{i}")


# --- the app -------------------------------------------------------------------------------
class JoplinApp(App):
    manifest = MANIFEST

    data: JoplinData
    ui: JoplinUi

    def initial_data(self) -> JoplinData:
        return JoplinData()

    def initial_ui(self) -> JoplinUi:
        return JoplinUi()

    def make_indexes(self) -> None:
        self.notes_in(ALL_NOTES)

    def notes_in(self, folder: int) -> Sequence[Note]:
        """The notes of a notebook (every note for ``ALL_NOTES``) matching the search."""
        notes = self.data.notes
        every = notes.index("order", note_order, note_text).view(notes, self.ui.query)
        return every if folder == ALL_NOTES else [n for n in every if n.folder == folder]

    def folder_name(self, folder: int) -> str:
        found = self.data.folders.get(folder)
        return found.name if found is not None else "All notes"

    # navigation and updates
    def open_folder(self, folder: int) -> None:
        """Show a notebook's notes (from the notebooks screen: back to the list)."""
        self.ui.folder, self.ui.query = folder, ""
        self.stack = [Route("main")]

    def open_editor(self, note_id: int | None, folder: int, *, todo: bool = False) -> None:
        note = self.data.notes.get(note_id) if note_id is not None else None
        self.ui.draft = Draft(note.title, note.body, note.is_todo) if note else Draft(
            is_todo=todo)
        self.go("edit", (note_id, folder))

    def set_drawer(self, open: bool) -> None:
        self.ui.drawer = open

    def set_dial(self, open: bool) -> None:
        self.ui.dial = open

    def new_notebook(self) -> None:
        self.ui.folder_name = ""
        self.go("new_folder")

    def save_notebook(self) -> None:
        name = self.ui.folder_name.strip()
        if name:
            folder = add_folder(self.data, name)
            self.toast(self.t("Saved"))
            self.open_folder(folder.id)
        else:
            self.back()

    def save(self) -> None:
        note_id, folder = self.route.arg
        if folder == ALL_NOTES and len(self.data.folders):  # into the first notebook
            folder = min(f.id for f in self.data.folders)
        if save_draft(self.data, self.ui.draft, folder, note_id):
            self.toast(self.t("Saved"))
        self.back()

    def toggle_done(self, note_id: int) -> None:
        note = self.data.notes.get(note_id)
        if note is not None and note.is_todo:
            self.data.notes.update(note_id, done=not note.done)

    def ask_delete(self, note_id: int | None) -> None:
        self.ui.deleting = note_id

    def delete(self, note_id: int) -> None:
        self.data.notes.remove(note_id)
        self.ui.deleting = None
        if self.route.name == "note":
            self.back()
        self.toast(self.t("Note deleted"))

    def set_draft(self, **changes: str | bool) -> None:
        for key, value in changes.items():
            setattr(self.ui.draft, key, value)

    def set_query(self, query: str) -> None:
        self.ui.query = query

    # views
    def view(self, route: Route) -> Screen:
        if route.name == "note" and route.arg in self.data.notes:
            screen = self.note_page(self.data.notes[route.arg])
        elif route.name == "edit":
            screen = self.editor(*route.arg)
        elif route.name == "new_folder":
            screen = self.notebook_editor()
        else:
            screen = self.folder_list(self.ui.folder)
        return in_locale(self, screen)

    def delete_dialog(self) -> Node | None:
        note = self.data.notes.get(self.ui.deleting) if self.ui.deleting else None
        if note is None:
            return None
        return ConfirmDialog("Delete note?", self.t('"{title}" will be deleted.', title=note.title),
                             on_confirm=lambda: self.delete(note.id),
                             on_cancel=lambda: self.ask_delete(None), confirm="Delete",
                             destructive=True)

    def notebooks(self) -> Node:
        """The side drawer: every note, then the notebooks with their note counts."""
        folders = sorted(self.data.folders, key=lambda f: (f.name.casefold(), f.id))
        counts: dict[int, int] = {}
        for n in self.data.notes:
            counts[n.folder] = counts.get(n.folder, 0) + 1
        items: list[Destination | str] = [
            Destination("All notes", "notes", lambda: self.open_folder(ALL_NOTES),
                        id="folder_all", badge=str(len(self.data.notes))), "Notebooks"]
        items += [Destination(f.name, "book", partial(self.open_folder, f.id),
                              id=f"folder_{f.id}", badge=str(counts.get(f.id, 0)))
                  for f in folders]
        return NavigationDrawer(items, selected=self.folder_name(self.ui.folder),
                                title="Joplin", on_close=lambda: self.set_drawer(False))

    def dial(self, folder: int) -> Node:
        """The open speed dial, as the real app's (to-do, note, notebook, bottom-up)."""
        return SpeedDial([
            DialAction("New notebook", "folder", self.new_notebook, id="new_notebook",
                       color=(52, 152, 219)),
            DialAction("New note", "description", lambda: self.open_editor(None, folder),
                       id="new_note", color=(155, 89, 182)),
            DialAction("New to-do", "check_box",
                       lambda: self.open_editor(None, folder, todo=True), id="new_todo",
                       color=(155, 89, 182)),
        ], on_close=lambda: self.set_dial(False), close_color=(231, 76, 60))

    def row(self, n: Note) -> Node:
        trailing = None
        if n.is_todo:
            trailing = Node("checkbox", checked=n.done, id=f"todo_{n.id}",
                            desc=self.t("Done: {title}", title=n.title),
                            on_click=lambda: self.toggle_done(n.id))
        first = next((line for line in n.body.split("\n") if line.strip()), "")
        return ListItem(n.title or self.t("Untitled"), first, id=f"note_{n.id}",
                        trailing=trailing, on_click=lambda: self.go("note", n.id),
                        menu=[(self.t("Delete"), lambda: self.ask_delete(n.id))])

    def folder_list(self, folder: int) -> Screen:
        shown = self.notes_in(folder)
        screen = Screen(
            top_bar=TopBar(self.folder_name(folder), on_menu=lambda: self.set_drawer(True)),
            content=SearchList(self.ui.query, self.set_query, len(shown),
                               lambda i: self.row(shown[i]), id="notes",
                               hint="Search notes", empty_text="This notebook is empty"),
            fab=SpeedDialFab("add", "Add", lambda: self.set_dial(True)),
            dialog=self.delete_dialog(), on_dismiss=lambda: self.ask_delete(None),
        )
        if self.ui.drawer:
            return with_drawer(screen, self.notebooks(), lambda: self.set_drawer(False))
        if self.ui.dial:
            return with_speed_dial(screen, self.dial(folder), lambda: self.set_dial(False))
        return screen

    def notebook_editor(self) -> Screen:
        return Screen(
            top_bar=TopBar("New notebook", on_back=self.back,
                           actions=[ActionIcon("save", self.save_notebook)]),
            content=[TextField(self.ui.folder_name,
                               lambda v: setattr(self.ui, "folder_name", v),
                               hint="Enter notebook title", id="notebook_title",
                               label="Title")],
        )

    def note_page(self, n: Note) -> Screen:
        lines = [rendered(line, i) for i, line in enumerate(n.body.split("\n")) if line.strip()]
        folder = self.folder_name(n.folder)
        if n.folder not in self.data.folders:
            folder = self.t(folder)
        kind = f"{folder} · {self.t('To-do' if n.is_todo else 'Note')}"
        head = [Text(n.title or self.t("Untitled"), style="title", id="note_title"),
                Text(kind + (self.t(" · done") if n.done else ""), style="caption",
                     id="note_kind")]
        return Screen(
            top_bar=TopBar("", on_back=self.back, actions=[
                ActionIcon("edit", lambda: self.open_editor(n.id, n.folder)),
                ActionIcon("delete", lambda: self.ask_delete(n.id))]),
            content=head + lines,
            dialog=self.delete_dialog(), on_dismiss=lambda: self.ask_delete(None),
        )

    def editor(self, note_id: int | None, folder: int) -> Screen:
        draft = self.ui.draft
        return Screen(
            top_bar=TopBar("New note" if note_id is None else "Edit note", on_back=self.back,
                           actions=[ActionIcon("save", self.save)]),
            content=[
                TextField(draft.title, lambda v: self.set_draft(title=v), hint="Title",
                          id="title", label="Title"),
                Toggle("To-do", draft.is_todo,
                       lambda: self.set_draft(is_todo=not draft.is_todo), id="is_todo"),
                TextField(draft.body, lambda v: self.set_draft(body=v), hint="Your note",
                          id="body", label="Body", multiline=True),
            ],
        )
