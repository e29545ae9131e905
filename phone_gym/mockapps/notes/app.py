"""Notes: a list of notes, an editor, pinning and deleting.

State is two dataclasses (persistent ``NotesData``, transient ``Draft``), the view is a
pure function of them, and updates are small functions. Read this file as the tutorial
for writing a mock app.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...world.app import App, Route
from ...world.widgets import (
    Dialog,
    DialogButton,
    Fab,
    Icon,
    ListItem,
    ListView,
    Screen,
    Text,
    TextField,
    TopBar,
)


# --- state -------------------------------------------------------------------------------
@dataclass
class Note:
    id: int
    title: str
    body: str = ""
    pinned: bool = False


@dataclass
class NotesData:
    """What the app stores on disk: verifiers compare this."""

    notes: list[Note] = field(default_factory=list)
    next_id: int = 1


@dataclass
class Draft:
    """The editor's fields while a note is open; lost on force-stop."""

    title: str = ""
    body: str = ""
    confirm_delete: bool = False


# --- updates -------------------------------------------------------------------------------
def add_note(data: NotesData, title: str, body: str = "", *, pinned: bool = False) -> Note:
    note = Note(data.next_id, title, body, pinned)
    data.next_id += 1
    data.notes.append(note)
    return note


def find_note(data: NotesData, note_id: int) -> Note | None:
    return next((n for n in data.notes if n.id == note_id), None)


def delete_note(data: NotesData, note_id: int) -> None:
    data.notes = [n for n in data.notes if n.id != note_id]


def save_draft(data: NotesData, draft: Draft, note_id: int | None) -> bool:
    """Write the draft into its note (or a new one). Empty drafts are discarded."""
    if note_id is None:
        if not (draft.title.strip() or draft.body.strip()):
            return False
        add_note(data, draft.title, draft.body)
        return True
    note = find_note(data, note_id)
    if note is None or (note.title, note.body) == (draft.title, draft.body):
        return False
    note.title, note.body = draft.title, draft.body
    return True


def sorted_notes(data: NotesData) -> list[Note]:
    """Pinned first, then newest first."""
    return sorted(data.notes, key=lambda n: (not n.pinned, -n.id))


# --- the app -------------------------------------------------------------------------------
class NotesApp(App):
    name = "Notes"
    package = "com.example.notes"
    glyph = "N"
    color = (245, 180, 0)

    data: NotesData
    ui: Draft

    def initial_data(self) -> NotesData:
        return NotesData()

    def initial_ui(self) -> Draft:
        return Draft()

    # navigation with side effects on the draft
    def open_editor(self, note_id: int | None) -> None:
        note = find_note(self.data, note_id) if note_id is not None else None
        self.ui = Draft(note.title, note.body) if note else Draft()
        self.go("edit", note_id)

    def close_editor(self) -> None:
        if save_draft(self.data, self.ui, self.route.arg):
            self.toast("Note saved")
        self.back()

    def confirm_delete(self, note_id: int) -> None:
        delete_note(self.data, note_id)
        self.ui = Draft()
        if self.route.name == "edit":
            self.back()
        self.toast("Note deleted")

    def toggle_pin(self, note_id: int) -> None:
        note = find_note(self.data, note_id)
        if note is not None:
            note.pinned = not note.pinned

    def set_draft(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    # views
    def view(self, route: Route) -> Screen:
        if route.name == "edit":
            return self.editor(route.arg)
        return self.note_list()

    def note_list(self) -> Screen:
        items = [
            ListItem(
                ("📌 " if n.pinned else "") + (n.title or "Untitled"),
                n.body.split("\n")[0],
                id=f"note_{n.id}",
                on_click=lambda n=n: self.open_editor(n.id),
                menu=[("Unpin" if n.pinned else "Pin", lambda n=n: self.toggle_pin(n.id)),
                      ("Delete", lambda n=n: self.confirm_delete(n.id))],
            )
            for n in sorted_notes(self.data)
        ]
        return Screen(
            top_bar=TopBar("Notes"),
            content=[ListView(items, id="notes_list", empty_text="No notes yet")],
            fab=Fab("+", "New note", lambda: self.open_editor(None), id="new_note"),
        )

    def editor(self, note_id: int | None) -> Screen:
        draft = self.ui
        actions = [Icon("✓", "Save", self.close_editor, id="save")]
        if note_id is not None:
            actions.append(Icon("🗑", "Delete", lambda: self.set_draft(confirm_delete=True),
                                id="delete"))
        dialog = None
        if draft.confirm_delete and note_id is not None:
            dialog = Dialog("Delete note?", "This note will be deleted permanently.", [
                DialogButton("Cancel", lambda: self.set_draft(confirm_delete=False)),
                DialogButton("Delete", lambda: self.confirm_delete(note_id)),
            ])
        return Screen(
            top_bar=TopBar("Edit note" if note_id else "New note", on_back=self.close_editor,
                           actions=actions),
            content=[
                TextField(draft.title, lambda v: self.set_draft(title=v), hint="Title",
                          id="title", label="Title"),
                TextField(draft.body, lambda v: self.set_draft(body=v), hint="Note",
                          id="body", label="Note", multiline=True),
                Text(f"{len(draft.body)} characters", style="caption", id="char_count"),
            ],
            dialog=dialog,
            on_dismiss=lambda: self.set_draft(confirm_delete=False),
            on_back=lambda: (self.close_editor(), True)[1],
        )
