"""To-do: the counterpart of AndroidWorld's Tasks app (org.tasks): a searchable list of tasks
with due dates and times, priorities, hide-until dates, notes and completion dates; tabs for
all, open and completed tasks, a high-priority filter, an editor, checking tasks off and
deleting them.

State is dataclasses (persistent ``TodoData``: a ``Table`` of frozen ``Item`` records;
transient ``TodoUi``), the view is a pure function of them, and updates are small
functions. Dates are ISO strings (``2023-10-20``), times ``HH:MM``; empty means none.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import partial

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import (
    CalendarState,
    Chips,
    ClockState,
    Destination,
    MaterialDatePicker,
    MaterialTimePicker,
    NavigationDrawer,
    slug,
    with_drawer,
)
from ...world.kit.localize import in_locale, localize_dates
from ...world.locale import DEFAULT_LOCALE, format_date
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

#: Priorities as the Tasks app names them: 0 is the highest (AndroidWorld's "importance").
PRIORITIES = ("High", "Medium", "Low", "None")
NO_PRIORITY = 3
TABS = ("All", "Open", "Completed")
#: The drawer's filters and their icons (Tasks' own: "My Tasks", then its filters).
TAB_ICONS = {"All": "list", "Open": "check_box_outline_blank", "Completed": "check_box"}
#: Filter chips: high priority only, due today, due in the next 7 days, and showing the
#: tasks hidden until a later day (the Tasks app hides them until then).
HIGH_ONLY, DUE_TODAY, NEXT_WEEK, SHOW_HIDDEN = ("High priority", "Due today", "Next 7 days",
                                                "Show hidden")
FILTERS = (HIGH_ONLY, DUE_TODAY, NEXT_WEEK, SHOW_HIDDEN)
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Item:
    """One task: a record (frozen; ``Table.update`` makes a changed copy). ``due`` and
    ``hide_until`` are ISO dates, ``due_time`` ``HH:MM``, ``completed`` the ISO date it was
    checked off; ``priority`` 0 (high) to 3 (none)."""

    id: int
    title: str
    note: str = ""
    done: bool = False
    due: str = ""
    due_time: str = ""
    priority: int = NO_PRIORITY
    completed: str = ""
    hide_until: str = ""


@dataclass
class TodoData(Store):
    """What the app stores on disk: verifiers compare this (``apps.Todo.items.<id>``)."""

    items: Table[Item] = field(default_factory=lambda: Table(kind=Item))


@dataclass
class Draft:
    """The editor's fields while an item is open."""

    title: str = ""
    note: str = ""
    due: str = ""
    due_time: str = ""
    priority: int = NO_PRIORITY
    hide_until: str = ""


@dataclass
class TodoUi:
    """Transient state, lost on force-stop."""

    draft: Draft = field(default_factory=Draft)
    picking: str = ""  # the draft field whose picker is open: due, due_time, hide_until
    date_picker: CalendarState | None = None
    time_picker: ClockState | None = None
    query: str = ""
    deleting: int | None = None  # the item whose delete confirmation shows
    tab: str = "All"
    drawer: bool = False  # the side drawer of filters is open
    filters: tuple[str, ...] = ()  # the filter chips that are on


# --- updates -------------------------------------------------------------------------------
def add_item(data: TodoData, title: str, note: str = "", *, done: bool = False, due: str = "",
             due_time: str = "", priority: int = NO_PRIORITY, completed: str = "",
             hide_until: str = "") -> Item:
    return data.items.new(title=title, note=note, done=done, due=due, due_time=due_time,
                          priority=priority, completed=completed, hide_until=hide_until)


def save_draft(data: TodoData, draft: Draft, item_id: int | None) -> bool:
    """Write the draft into its item (or a new one); an item needs a title."""
    title, note = draft.title.strip(), draft.note.strip()
    if not title:
        return False
    fields = {"title": title, "note": note, "due": draft.due.strip(),
              "due_time": draft.due_time.strip(), "priority": draft.priority,
              "hide_until": draft.hide_until.strip()}
    if item_id is None:
        data.items.new(done=False, completed="", **fields)
    elif item_id in data.items:
        item = data.items[item_id]
        changed = {k: v for k, v in fields.items() if getattr(item, k) != v}
        if changed:
            data.items.update(item_id, **changed)
    return True


def set_done(data: TodoData, item_id: int, done: bool, today: date) -> None:
    """Check an item off (recording today as its completion date) or open it again."""
    if item_id in data.items:
        data.items.update(item_id, done=done, completed=today.isoformat() if done else "")


def list_order(item: Item) -> tuple[bool, str, str, str, int]:
    """Open items first, then by due date and time (undated last), then by title."""
    return (item.done, item.due or "~", item.due_time or "~", item.title.casefold(), item.id)


def item_text(item: Item) -> str:
    return f"{item.title}\n{item.note}"


def keep(item: Item, tab: str, filters: tuple[str, ...], today: date) -> bool:
    """Whether the list shows ``item`` on ``tab`` with the ``filters`` on, ``today``."""
    day, week_end = today.isoformat(), (today + timedelta(days=6)).isoformat()
    return ((tab == "All" or item.done == (tab == "Completed"))
            and (HIGH_ONLY not in filters or item.priority == 0)
            and (DUE_TODAY not in filters or item.due == day)
            and (NEXT_WEEK not in filters or day <= item.due <= week_end)
            and (SHOW_HIDDEN in filters or not item.hide_until or item.hide_until <= day))


def say_date(iso: str, locale: str = DEFAULT_LOCALE) -> str:
    """``2023-10-20`` as ``Oct 20, 2023`` (zh-CN: ``2023年10月20日``; anything else as it
    is)."""
    try:
        d = date.fromisoformat(iso)
    except ValueError:
        return iso
    if locale != DEFAULT_LOCALE:
        return format_date(d, locale)
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"


def _english(key: str, **fields: object) -> str:
    return key.format(**fields)


def subtitle(item: Item, t: Callable[..., str] = _english,
             locale: str = DEFAULT_LOCALE) -> str:
    """A row's second line: due date and time, priority, completion, hide-until (``t``:
    the app's catalogue, for the phone's ``locale``)."""
    parts = []
    if item.due:
        parts.append(t("Due {date}", date=say_date(item.due, locale))
                     + (f" {item.due_time}" if item.due_time else ""))
    if item.priority < NO_PRIORITY:
        parts.append(t(f"{PRIORITIES[item.priority]} priority"))
    if item.done and item.completed:
        parts.append(t("Completed {date}", date=say_date(item.completed, locale)))
    if item.hide_until:
        parts.append(t("Hidden until {date}", date=say_date(item.hide_until, locale)))
    if not parts and item.note:
        parts.append(item.note.split("\n")[0])
    return " · ".join(parts)


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
        """The items the list shows: a table index keeps them sorted as they are written;
        the tab and the filter chips pick among them (tasks hidden until a later day only
        with "Show hidden")."""
        items = self.data.items
        found = items.index("list_order", list_order, item_text).view(items, self.ui.query)
        tab, filters, today = self.ui.tab, self.ui.filters, self.system.now.date()
        return [i for i in found if keep(i, tab, filters, today)]

    # navigation and updates
    def open_editor(self, item_id: int | None) -> None:
        item = self.data.items.get(item_id) if item_id is not None else None
        self.ui.draft = (Draft(item.title, item.note, item.due, item.due_time, item.priority,
                               item.hide_until) if item else Draft())
        self.ui.picking = ""
        self.go("edit", item_id)

    def open_picker(self, which: str) -> None:
        """The date picker (due, hide until) or the time picker (due time), at the field's
        value or else today / the next full hour, as Tasks.org's."""
        value, now = getattr(self.ui.draft, which), self.system.now
        if which == "due_time":
            twelve = self.system.get_setting("system", "time_12_24") == "12"
            self.ui.time_picker = ClockState.of(value or f"{min(now.hour + 1, 23):02d}:00",
                                                is24h=not twelve)
        else:
            self.ui.date_picker = CalendarState.of(value or now.date().isoformat(),
                                                   today=now.date())
        self.ui.picking = which

    def picked(self, value: str) -> None:
        setattr(self.ui.draft, self.ui.picking, value)
        self.ui.picking = ""

    def close_picker(self) -> None:
        self.ui.picking = ""

    def dismiss(self) -> None:
        self.ui.picking, self.ui.deleting = "", None

    def save(self) -> None:
        if not save_draft(self.data, self.ui.draft, self.route.arg):
            self.toast(self.t("Enter a title"))
            return
        self.toast(self.t("Saved"))
        self.back()

    def toggle_done(self, item_id: int) -> None:
        item = self.data.items.get(item_id)
        if item is not None:
            set_done(self.data, item_id, not item.done, self.system.now.date())

    def ask_delete(self, item_id: int | None) -> None:
        self.ui.deleting = item_id

    def delete(self, item_id: int) -> None:
        self.data.items.remove(item_id)
        self.ui.deleting = None
        if self.route.name == "edit":
            self.back()
        self.toast(self.t("Deleted"))

    def set_draft(self, **changes: str | int) -> None:
        for key, value in changes.items():
            setattr(self.ui.draft, key, value)

    def set_query(self, query: str) -> None:
        self.ui.query = query

    def set_drawer(self, open: bool) -> None:
        self.ui.drawer = open

    def set_tab(self, tab: str) -> None:
        self.ui.tab = tab

    def toggle_filter(self, label: str) -> None:
        on = self.ui.filters
        self.ui.filters = tuple(f for f in FILTERS if (f in on) != (f == label))

    # views
    def view(self, route: Route) -> Screen:
        screen = self.editor(route.arg) if route.name == "edit" else self.item_list()
        return in_locale(self, screen)

    def row(self, item: Item) -> Node:
        return ListItem(
            item.title, subtitle(item, self.t, self.system.locale), id=f"item_{item.id}",
            on_click=lambda: self.open_editor(item.id),
            menu=[(self.t("Mark as open" if item.done else "Mark as done"),
                   lambda: self.toggle_done(item.id)),
                  (self.t("Delete"), lambda: self.ask_delete(item.id))],
            trailing=Node("checkbox", checked=item.done, id=f"done_{item.id}",
                          desc=self.t("Done: {title}", title=item.title),
                          on_click=lambda: self.toggle_done(item.id)),
        )

    def delete_dialog(self) -> Node | None:
        item = self.data.items.get(self.ui.deleting) if self.ui.deleting else None
        if item is None:
            return None
        return Dialog("Delete item?", self.t('"{title}" will be deleted.', title=item.title), [
            DialogButton("Cancel", lambda: self.ask_delete(None)),
            DialogButton("Delete", lambda: self.delete(item.id)),
        ])

    def item_list(self) -> Screen:
        shown = self.shown()
        empty = "No matching items" if self.ui.query.strip() else "Nothing here yet"
        screen = Screen(
            # Tasks' default list, "My Tasks", holds every task; a filter shows its own name
            top_bar=TopBar("My Tasks" if self.ui.tab == "All" else self.ui.tab,
                           on_menu=lambda: self.set_drawer(True)),
            content=[
                TextField(self.ui.query, self.set_query, hint="Search", id="search",
                          label="Search"),
                Chips(FILTERS, self.ui.filters, self.toggle_filter, id="filters"),
                Text(self.t("{n} open", n=sum(not i.done for i in shown)), style="caption",
                     id="count"),
                VirtualList(len(shown), lambda i: self.row(shown[i]), id="items",
                            empty_text=empty),
            ],
            fab=Fab("+", "New item", lambda: self.open_editor(None), id="new_item"),
            dialog=self.delete_dialog(),
            on_dismiss=lambda: self.ask_delete(None),
        )
        return with_drawer(screen, self.drawer() if self.ui.drawer else None,
                           lambda: self.set_drawer(False))

    def drawer(self) -> Node:
        """The side drawer: the filters that were top tabs (ids ``tab_<filter>``)."""
        return NavigationDrawer(
            ["Filters", *(Destination(t, TAB_ICONS[t], partial(self.set_tab, t),
                                      id=f"tab_{slug(t)}") for t in TABS)],
            selected=self.ui.tab, title="Tasks", on_close=lambda: self.set_drawer(False))

    def value_row(self, title: str, which: str, shown: str) -> Node:
        """An editor row (id ``which``) showing its value (``<which>_value``, "None" when
        unset); a tap opens its picker, the ✕ clears it."""
        clear = (Icon("✕", self.t(f"Clear {title.lower()}"), lambda: self.set_draft(**{which: ""}),
                      id=f"{which}_clear") if shown else None)
        return ListItem(title, id=which, parts=[(f"{which}_value", shown or "None")],
                        on_click=lambda: self.open_picker(which), trailing=clear)

    def editor(self, item_id: int | None) -> Screen:
        draft = self.ui.draft
        actions = [Icon("✓", "Save", self.save, id="save")]
        if item_id is not None:
            actions.append(Icon("🗑", "Delete", lambda: self.ask_delete(item_id), id="delete"))
        dialog = self.delete_dialog()
        if self.ui.picking == "due_time" and self.ui.time_picker is not None:
            dialog = MaterialTimePicker(self.ui.time_picker, on_done=self.picked,
                                        on_cancel=self.close_picker)
        elif self.ui.picking and self.ui.date_picker is not None:
            dialog = MaterialDatePicker(self.ui.date_picker, on_done=self.picked,
                                        on_cancel=self.close_picker)
            if self.system.locale != DEFAULT_LOCALE:
                localize_dates(dialog)
        return Screen(
            top_bar=TopBar("New item" if item_id is None else "Edit item", on_back=self.back,
                           actions=actions),
            content=[
                TextField(draft.title, lambda v: self.set_draft(title=v), hint="Title",
                          id="title", label="Title"),
                self.value_row("Due date", "due",
                               say_date(draft.due, self.system.locale) if draft.due else ""),
                self.value_row("Due time", "due_time", draft.due_time),
                Text("Priority", style="caption", id="priority_label"),
                Chips(PRIORITIES, [PRIORITIES[draft.priority]],
                      lambda p: self.set_draft(priority=PRIORITIES.index(p)), id="priority"),
                self.value_row("Hide until", "hide_until",
                               say_date(draft.hide_until, self.system.locale)
                               if draft.hide_until else ""),
                TextField(draft.note, lambda v: self.set_draft(note=v), hint="Note", id="note",
                          label="Note", multiline=True),
            ],
            dialog=dialog,
            on_dismiss=self.dismiss,
        )
