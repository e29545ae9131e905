"""Notes: a searchable list of notes, an editor, pinning and deleting.

State is dataclasses (persistent ``NotesData``: a ``Table`` of frozen ``Note`` records;
transient ``NotesUi`` holding the editor's ``Draft``), the view is a pure function of them,
and updates are small functions. The app declares itself in ``manifest.py``. Read this file
as the tutorial for writing a mock app (``docs/writing-an-app.md`` walks through it).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit.localize import in_locale
from ...world.widgets import (
    Dialog,
    DialogButton,
    Fab,
    Icon,
    ListItem,
    Node,
    Screen,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Note:
    """One note: a record (frozen; ``Table.update`` makes a changed copy)."""

    id: int
    title: str
    body: str = ""
    pinned: bool = False


@dataclass
class NotesData(Store):
    """What the app stores on disk: verifiers compare this (``apps.Notes.notes.<id>``)."""

    notes: Table[Note] = field(default_factory=lambda: Table(kind=Note))


@dataclass
class Draft:
    """The editor's fields while a note is open; saved when the editor closes."""

    title: str = ""
    body: str = ""
    pinned: bool = False


@dataclass
class NotesUi:
    """Transient state, lost on force-stop: the draft, the search query, and the note whose
    delete confirmation is showing."""

    draft: Draft = field(default_factory=Draft)
    query: str = ""
    deleting: int | None = None


# --- updates -------------------------------------------------------------------------------
def add_note(data: NotesData, title: str, body: str = "", *, pinned: bool = False) -> Note:
    return data.notes.new(title=title, body=body, pinned=pinned)


def find_note(data: NotesData, note_id: int) -> Note | None:
    return data.notes.get(note_id)


def delete_note(data: NotesData, note_id: int) -> None:
    data.notes.remove(note_id)


def save_draft(data: NotesData, draft: Draft, note_id: int | None) -> bool:
    """Write the draft into its note (or a new one). Empty drafts are discarded."""
    if note_id is None:
        if not (draft.title.strip() or draft.body.strip()):
            return False
        add_note(data, draft.title, draft.body, pinned=draft.pinned)
        return True
    note = find_note(data, note_id)
    if note is None or (note.title, note.body, note.pinned) == (draft.title, draft.body,
                                                                draft.pinned):
        return False
    data.notes.update(note_id, title=draft.title, body=draft.body, pinned=draft.pinned)
    return True


def sorted_notes(data: NotesData) -> list[Note]:
    """Pinned first, then newest first."""
    return sorted(data.notes, key=lambda n: (not n.pinned, -n.id))


def list_order(note: Note) -> tuple[bool, int]:
    """Pinned first, then newest first."""
    return (not note.pinned, -note.id)


def searchable(note: Note) -> str:
    return f"{note.title}\n{note.body}"


def matches(note: Note, query: str) -> bool:
    """Whether the title or the text contains ``query``, ignoring case."""
    q = query.strip().lower()
    return not q or q in note.title.lower() or q in note.body.lower()


# --- the app -------------------------------------------------------------------------------
class NotesApp(App):
    manifest = MANIFEST

    data: NotesData
    ui: NotesUi

    def initial_data(self) -> NotesData:
        return NotesData()

    def initial_ui(self) -> NotesUi:
        return NotesUi()

    # navigation with side effects on the draft
    def open_editor(self, note_id: int | None) -> None:
        note = find_note(self.data, note_id) if note_id is not None else None
        self.ui.draft = Draft(note.title, note.body, note.pinned) if note else Draft()
        self.go("edit", note_id)

    def close_editor(self) -> None:
        if save_draft(self.data, self.ui.draft, self.route.arg):
            self.toast(self.t("Note saved"))
        self.back()

    def ask_delete(self, note_id: int | None) -> None:
        """Show (or, with None, hide) the delete confirmation."""
        self.ui.deleting = note_id

    def confirm_delete(self, note_id: int) -> None:
        delete_note(self.data, note_id)
        self.ui.deleting = None
        if self.route.name == "edit":
            self.ui.draft = Draft()
            self.back()
        self.toast(self.t("Note deleted"))

    def toggle_pin(self, note_id: int) -> None:
        note = find_note(self.data, note_id)
        if note is not None:
            self.data.notes.update(note_id, pinned=not note.pinned)

    def set_draft(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.ui.draft, key, value)

    def set_query(self, query: str) -> None:
        self.ui.query = query

    # views
    def view(self, route: Route) -> Screen:
        screen = self.editor(route.arg) if route.name == "edit" else self.note_list()
        return in_locale(self, screen)

    def note_item(self, n: Note) -> Node:
        """A list row: the title and the first line of the text; long press for a menu."""
        return ListItem(
            n.title or self.t("Untitled"),
            n.body.split("\n")[0],
            id=f"note_{n.id}",
            on_click=lambda: self.open_editor(n.id),
            menu=[(self.t("Unpin" if n.pinned else "Pin"), lambda: self.toggle_pin(n.id)),
                  (self.t("Delete"), lambda: self.ask_delete(n.id))],
        )

    def delete_dialog(self, note_id: int) -> Node:
        return Dialog("Delete note?", "This note will be deleted permanently.", [
            DialogButton("Cancel", lambda: self.ask_delete(None)),
            DialogButton("Delete", lambda: self.confirm_delete(note_id)),
        ])

    def make_indexes(self) -> None:
        self.shown()

    def shown(self) -> Sequence[Note]:
        """The notes the list shows, in order: a table index keeps them sorted as notes are
        written (a list of thousands is not sorted again every frame), and searches their
        title and text."""
        notes = self.data.notes
        return notes.index("list_order", list_order, searchable).view(notes, self.ui.query)

    def note_list(self) -> Screen:
        ui = self.ui
        shown = self.shown()
        # pinned notes come first: where the first unpinned one is (not every note read)
        pinned = bisect_left(range(len(shown)), True, key=lambda i: not shown[i].pinned)
        headers = [(0, self.t("Pinned")), (pinned, self.t("Others"))] if pinned else []
        empty = "No matching notes" if ui.query.strip() else "No notes yet"
        return Screen(
            top_bar=TopBar("Notes"),
            content=[
                TextField(ui.query, self.set_query, hint="Search notes", id="search",
                          label="Search"),
                # only the rows on screen are built: a list of thousands costs what 10 do
                VirtualList(len(shown), lambda i: self.note_item(shown[i]), id="notes_list",
                            headers=headers, empty_text=empty),
            ],
            fab=Fab("+", "New note", lambda: self.open_editor(None), id="new_note"),
            dialog=self.delete_dialog(ui.deleting) if ui.deleting is not None else None,
            on_dismiss=lambda: self.ask_delete(None),
        )

    def editor(self, note_id: int | None) -> Screen:
        draft = self.ui.draft
        actions = [
            Icon("★" if draft.pinned else "☆", "Unpin" if draft.pinned else "Pin",
                 lambda: self.set_draft(pinned=not draft.pinned), id="pin"),
            Icon("✓", "Save", self.close_editor, id="save"),
        ]
        if note_id is not None:
            actions.append(Icon("🗑", "Delete", lambda: self.ask_delete(note_id), id="delete"))
        dialog = None
        if note_id is not None and self.ui.deleting == note_id:
            dialog = self.delete_dialog(note_id)

        def back() -> bool:
            self.close_editor()
            return True

        return Screen(
            top_bar=TopBar("New note" if note_id is None else "Edit note",
                           on_back=self.close_editor, actions=actions),
            content=[
                TextField(draft.title, lambda v: self.set_draft(title=v), hint="Title",
                          id="title", label="Title"),
                TextField(draft.body, lambda v: self.set_draft(body=v), hint="Note",
                          id="body", label="Note", multiline=True),
                Text(self.t("{n} characters", n=len(draft.body)), style="caption",
                     id="char_count"),
            ],
            dialog=dialog,
            on_dismiss=lambda: self.ask_delete(None),
            on_back=back,
        )
