"""To-do: a searchable list of items, an editor, checking items off and deleting them.

State is dataclasses (persistent ``TodoData``: a ``Table`` of frozen ``Item`` records;
transient ``TodoUi``), the view is a pure function of them, and updates are small
functions. Grow it from here: more fields, screens, and the kit's building blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ...world.app import App, Route
from ...world.data import Store, Table
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
class Item:
    """One item: a record (frozen; ``Table.update`` makes a changed copy)."""

    id: int
    title: str
    note: str = ""
    done: bool = False


@dataclass
class TodoData(Store):
    """What the app stores: verifiers compare this (``apps.Todo.items.<id>``)."""

    items: Table[Item] = field(default_factory=lambda: Table(kind=Item))


@dataclass
class Draft:
    """The editor's fields while an item is open."""

    title: str = ""
    note: str = ""


@dataclass
class TodoUi:
    """Transient state, lost on force-stop."""

    draft: Draft = field(default_factory=Draft)
    query: str = ""
    deleting: int | None = None  # the item whose delete confirmation shows


# --- updates -------------------------------------------------------------------------------
def add_item(data: TodoData, title: str, note: str = "", *, done: bool = False) -> Item:
    return data.items.new(title=title, note=note, done=done)


def save_draft(data: TodoData, draft: Draft, item_id: int | None) -> bool:
    """Write the draft into its item (or a new one); an item needs a title."""
    title, note = draft.title.strip(), draft.note.strip()
    if not title:
        return False
    if item_id is None:
        add_item(data, title, note)
    elif item_id in data.items:
        data.items.update(item_id, title=title, note=note)
    return True


def list_order(item: Item) -> tuple[bool, str, int]:
    """Open items first, then by title."""
    return (item.done, item.title.casefold(), item.id)


def item_text(item: Item) -> str:
    return f"{item.title}\n{item.note}"


# --- the app -------------------------------------------------------------------------------
class TodoApp(App):
    manifest = MANIFEST

    data: TodoData
    ui: TodoUi

    def initial_data(self) -> TodoData:
        return TodoData()

    def initial_ui(self) -> TodoUi:
        return TodoUi()

    def make_indexes(self) -> None:
        self.shown()

    def shown(self) -> Sequence[Item]:
        """The items the list shows: a table index keeps them sorted as they are written."""
        items = self.data.items
        return items.index("list_order", list_order, item_text).view(items, self.ui.query)

    # navigation and updates
    def open_editor(self, item_id: int | None) -> None:
        item = self.data.items.get(item_id) if item_id is not None else None
        self.ui.draft = Draft(item.title, item.note) if item else Draft()
        self.go("edit", item_id)

    def save(self) -> None:
        if not save_draft(self.data, self.ui.draft, self.route.arg):
            self.toast("Enter a title")
            return
        self.toast("Saved")
        self.back()

    def toggle_done(self, item_id: int) -> None:
        item = self.data.items.get(item_id)
        if item is not None:
            self.data.items.update(item_id, done=not item.done)

    def ask_delete(self, item_id: int | None) -> None:
        self.ui.deleting = item_id

    def delete(self, item_id: int) -> None:
        self.data.items.remove(item_id)
        self.ui.deleting = None
        if self.route.name == "edit":
            self.back()
        self.toast("Deleted")

    def set_draft(self, **changes: str) -> None:
        for key, value in changes.items():
            setattr(self.ui.draft, key, value)

    def set_query(self, query: str) -> None:
        self.ui.query = query

    # views
    def view(self, route: Route) -> Screen:
        return self.editor(route.arg) if route.name == "edit" else self.item_list()

    def row(self, item: Item) -> Node:
        return ListItem(
            item.title, item.note.split("\n")[0], id=f"item_{item.id}",
            on_click=lambda: self.open_editor(item.id),
            menu=[("Mark as open" if item.done else "Mark as done",
                   lambda: self.toggle_done(item.id)),
                  ("Delete", lambda: self.ask_delete(item.id))],
            trailing=Node("checkbox", checked=item.done, id=f"done_{item.id}",
                          desc=f"Done: {item.title}", on_click=lambda: self.toggle_done(item.id)),
        )

    def delete_dialog(self) -> Node | None:
        item = self.data.items.get(self.ui.deleting) if self.ui.deleting else None
        if item is None:
            return None
        return Dialog("Delete item?", f'"{item.title}" will be deleted.', [
            DialogButton("Cancel", lambda: self.ask_delete(None)),
            DialogButton("Delete", lambda: self.delete(item.id)),
        ])

    def item_list(self) -> Screen:
        shown = self.shown()
        empty = "No matching items" if self.ui.query.strip() else "Nothing here yet"
        return Screen(
            top_bar=TopBar("To-do"),
            content=[
                TextField(self.ui.query, self.set_query, hint="Search", id="search",
                          label="Search"),
                Text(f"{sum(not i.done for i in shown)} open", style="caption", id="count"),
                VirtualList(len(shown), lambda i: self.row(shown[i]), id="items",
                            empty_text=empty),
            ],
            fab=Fab("+", "New item", lambda: self.open_editor(None), id="new_item"),
            dialog=self.delete_dialog(),
            on_dismiss=lambda: self.ask_delete(None),
        )

    def editor(self, item_id: int | None) -> Screen:
        draft = self.ui.draft
        actions = [Icon("✓", "Save", self.save, id="save")]
        if item_id is not None:
            actions.append(Icon("🗑", "Delete", lambda: self.ask_delete(item_id), id="delete"))
        return Screen(
            top_bar=TopBar("New item" if item_id is None else "Edit item", on_back=self.back,
                           actions=actions),
            content=[
                TextField(draft.title, lambda v: self.set_draft(title=v), hint="Title",
                          id="title", label="Title"),
                TextField(draft.note, lambda v: self.set_draft(note=v), hint="Note", id="note",
                          label="Note", multiline=True),
            ],
            dialog=self.delete_dialog(),
            on_dismiss=lambda: self.ask_delete(None),
        )
