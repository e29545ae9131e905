"""A record app: a list of records, a record's page and its editor, set up by data.

Many apps are one table of records shown three ways: a sorted list (maybe searchable; a
long press starts selecting records, which a top bar action deletes after a confirmation),
a record's page (labelled values; edit, delete, maybe a favourite star) and an editor
(``FormEditor``). ``RecordApp`` is that app. A subclass declares its look as data, a
``RecordLook`` (the words, the fields, the row, the order), and its ``Store``::

    FIELDS = (RecordField("title", "Title", required=True),
              RecordField("ingredients", "Ingredients", "multiline"))

    class BroccoliApp(RecordApp):
        manifest = MANIFEST
        look = RecordLook(noun="recipe", table="recipes", title="Recipes", fields=FIELDS,
                          order=lambda r: (r.title.casefold(), r.id), search=lambda r: r.title)

        def initial_data(self) -> BroccoliData:
            return BroccoliData()  # a Store whose field ``recipes`` is a Table of recipes

With ``views`` (``RecordView``s) the list's top bar has the drawer toggle and a navigation
drawer (``kit.drawer``) switches between them: each a title and the records it keeps
(Broccoli's "Recipes" and "Favorites"); the first is the list the app opens on.

Words follow ``noun`` ("recipe", ``plural`` "recipes"): "Add recipe", "New recipe", "Edit
recipe", "Recipe saved", "Delete 3 recipes?", "No recipes yet". Ids: the list ``recipes``
(and the search field ``search``), its rows ``recipe_<id>`` (their ``parts`` ``<key>_<id>``),
the add button ``new_recipe``, the selection's ``delete_selected``, the page's actions
``favorite``, ``edit`` and ``delete``, the confirmation's ``button_delete``, the editor's
fields by key and ``save``. Routes: ``main`` (the list), ``<noun>`` (a page; its arg the
record's id), ``edit`` (the editor; a record's id, or ``("new", n)`` for a new one).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar

from ..app import App, Route, app_strings
from ..data import Listing, Table
from ..locale import DEFAULT_LOCALE
from ..system import SystemState
from ..widgets import Fab, Icon, ListItem, Node, Screen, Text, TopBar, VirtualList
from .common import slug
from .dialogs import ConfirmDialog
from .drawer import Destination, NavigationDrawer, with_drawer
from .forms import FormEditor, FormField, FormState, Validate
from .lists import SearchList
from .localize import localize_dates, localize_screen
from .pages import ActionIcon, Detail, DetailPage


def _plain(value: Any) -> str:
    return str(value)


def _strip(text: str) -> Any:
    return text.strip()


@dataclass(frozen=True)
class RecordField:
    """One field of a record as the screens show it: ``key`` (the record's attribute and the
    editor field's id), ``label``, and the editor's input (``FormField``'s ``kind``,
    ``hint``, ``choices``, ``required``, ``id``). ``shown`` writes the value on the page and
    in the row's parts, ``text`` in the editor, ``parse`` reads the editor's text back;
    ``default`` is a new record's text (or a function of the phone's state: today)."""

    key: str
    label: str
    kind: str = "text"
    required: bool = False
    hint: str = ""
    choices: Sequence[str] = ()
    id: str = ""
    default: str | Callable[[SystemState], str] = ""
    shown: Callable[[Any], str] = _plain
    text: Callable[[Any], str] = _plain
    parse: Callable[[str], Any] = _strip

    def form_field(self) -> FormField:
        return FormField(self.key, self.label, self.kind, hint=self.hint, choices=self.choices,
                         required=self.required, id=self.id)

    def new_text(self, system: SystemState) -> str:
        return self.default if isinstance(self.default, str) else self.default(system)


@dataclass(frozen=True)
class RecordView:
    """One destination of a record app's navigation drawer: its ``label`` (the list's title
    while shown), Material ``icon``, and which records it lists (``keep``; None: all). Its
    drawer entry's id is ``nav_<label>``."""

    label: str
    icon: str
    keep: Callable[[Any], bool] | None = None


@dataclass(frozen=True)
class RecordLook:
    """What a ``RecordApp`` shows: its records (the ``table`` field of its data, sorted by
    ``order``; searchable in ``search``'s text when given), named ``noun``; the list's
    ``title`` (with ``views``: the view's label); the editor's ``fields`` in order (the
    first names a record); the ``page``'s fields (keys; default: all but the first); a row's
    ``glyph``, ``subtitle`` and ``parts`` (keys whose values show as pieces of the
    subtitle); a ``total`` line above the list; the bool field a star on the page toggles
    (``favorite``); the editor's own checks (``validate``, as ``FormEditor``'s); the
    drawer's ``views`` (none: no drawer) and its header ``drawer_title``."""

    noun: str
    table: str
    title: str
    fields: Sequence[RecordField]
    order: Callable[[Any], Any]
    plural: str = ""
    page: Sequence[str] = ()
    search: Callable[[Any], str] | None = None
    glyph: str | Callable[[Any], str] = ""
    picture: Callable[[Any], str] | None = None  # a row's drawn picture (``pictures.encode``)
    subtitle: Callable[[Any], str] | None = None
    parts: Sequence[str] = ()
    total: Callable[[Sequence[Any]], str] | None = None
    favorite: str = ""
    validate: Validate | None = None
    views: Sequence[RecordView] = ()
    drawer_title: str = ""

    def __post_init__(self) -> None:
        labels = [v.label for v in self.views]
        if len(set(labels)) != len(labels):
            raise ValueError(f"RecordLook {self.noun!r}: views {labels}; accepted: unique labels")

    def view_named(self, label: str) -> RecordView | None:
        """The view ``label`` ("" or unknown: the first, None without views)."""
        return next((v for v in self.views if v.label == label),
                    self.views[0] if self.views else None)

    @property
    def many(self) -> str:
        return self.plural or f"{self.noun}s"

    @property
    def name_key(self) -> str:
        return self.fields[0].key

    def field(self, key: str) -> RecordField:
        return next(f for f in self.fields if f.key == key)

    def page_fields(self) -> Sequence[RecordField]:
        return [self.field(k) for k in self.page] if self.page else self.fields[1:]

    def name(self, record: Any) -> str:
        return str(getattr(record, self.name_key))


@dataclass
class RecordUi:
    """Transient state: the search query, the selected records (selection mode while any is
    selected), the records whose deletion awaits confirmation, and the editor's form."""

    query: str = ""
    selected: frozenset[int] = frozenset()
    deleting: tuple[int, ...] = ()
    form: FormState = field(default_factory=FormState)
    opened: int = 0  # editors opened: each new record's editor is a route of its own
    view: str = ""  # the drawer's view shown ("": the first)
    drawer: bool = False  # the navigation drawer is open


# --- updates -------------------------------------------------------------------------------
def save_record(table: Table[Any], row: Mapping[str, Any], record_id: int | None) -> int:
    """Store ``row`` as a new record (``record_id`` None or gone) or into one, when it
    changes something; the record's id."""
    record = table.get(record_id) if record_id is not None else None
    if record is None:
        return int(table.new(**row).id)
    if any(getattr(record, k) != v for k, v in row.items()):
        table.update(record.id, **row)
    return int(record.id)


def delete_records(table: Table[Any], ids: Sequence[int]) -> int:
    """Delete the records ``ids`` that exist; how many were deleted."""
    gone = 0
    for record_id in ids:
        if table.get(record_id) is not None:
            table.remove(record_id)
            gone += 1
    return gone


# --- the app -------------------------------------------------------------------------------
class RecordApp(App):
    """An app of one table of records (see the module doc): set ``manifest``, ``look`` and
    ``initial_data``."""

    look: ClassVar[RecordLook]
    ui: RecordUi

    def initial_ui(self) -> RecordUi:
        return RecordUi()

    def make_indexes(self) -> None:
        shown = self.shown()
        if self.look.total is not None:  # its sums asked for now: kept from here on
            self.look.total(shown)
        for view in self.look.views:  # each view's list, kept on write
            self.listing(view)

    @property
    def records(self) -> Table[Any]:
        table: Table[Any] = getattr(self.data, self.look.table)
        return table

    def shown(self) -> Sequence[Any]:
        """The records the list shows, in order, those matching the search (and kept by
        the drawer's view shown)."""
        return self.listing(self.look.view_named(self.ui.view)).view(self.records,
                                                                     self.ui.query)

    def listing(self, view: RecordView | None) -> Listing[Any]:
        """The records ``view`` keeps (None: all), sorted and searchable: a table index
        kept on write."""
        table, look = self.records, self.look
        if view is None or view.keep is None:
            return table.index("list_order", look.order, look.search)
        return table.index(f"list_order/{view.label}", look.order, look.search, view.keep)

    def set_drawer(self, open: bool) -> None:
        self.ui.drawer = open

    def show_view(self, label: str) -> None:
        """Show the drawer's view ``label`` (selection cleared)."""
        self.ui.view, self.ui.selected = label, frozenset()

    # navigation and handlers
    def set_query(self, query: str) -> None:
        self.ui.query = query

    def open_record(self, record_id: int) -> None:
        if self.ui.selected:
            self.toggle_selected(record_id)
        elif self.records.get(record_id) is not None:
            self.go(self.look.noun, record_id)

    def open_editor(self, record_id: int | None) -> None:
        record = self.records.get(record_id) if record_id is not None else None
        self.ui.form = FormState.of({
            f.key: f.text(getattr(record, f.key)) if record is not None
            else f.new_text(self.system) for f in self.look.fields})
        self.ui.opened += 1
        # a new record's editor opens at its top (the phone keeps a scroll per route)
        self.go("edit", record_id if record_id is not None else ("new", self.ui.opened))

    def editing(self) -> int | None:
        """The id of the record the editor shows (None: a new record)."""
        arg = self.route.arg
        return arg if isinstance(arg, int) else None

    def save(self, values: Mapping[str, str]) -> None:
        row = {f.key: f.parse(values.get(f.key, "")) for f in self.look.fields}
        save_record(self.records, row, self.editing())
        self.toast(self.say("{Noun} saved"))
        self.back()

    def toggle_favorite(self, record_id: int) -> None:
        record, key = self.records.get(record_id), self.look.favorite
        if record is not None:
            self.records.update(record_id, **{key: not getattr(record, key)})

    def toggle_selected(self, record_id: int) -> None:
        self.ui.selected = self.ui.selected ^ {record_id}

    def clear_selection(self) -> bool:
        self.ui.selected = frozenset()
        return True

    def ask_delete(self, ids: Sequence[int]) -> None:
        """Show (or, with no ids, hide) the delete confirmation."""
        self.ui.deleting = tuple(ids)

    def confirm_delete(self) -> None:
        gone = delete_records(self.records, self.ui.deleting)
        self.ui.deleting, self.ui.selected = (), frozenset()
        if self.route.name == self.look.noun:
            self.back()
        self.toast(self.say("{Noun} deleted") if gone == 1
                   else self.say("{n} {many} deleted", n=gone))

    def say(self, key: str, **fields: object) -> str:
        """The app's words for ``key`` in the phone's locale, its ``{noun}`` (``{Noun}``
        capitalized) and ``{many}`` filled from the look (en-US: "Recipe saved")."""
        look = self.look
        return self.t(key, noun=look.noun, Noun=look.noun.capitalize(), many=look.many,
                      **fields)

    def value_text(self, f: RecordField, value: Any) -> str:
        """How the page and the row's parts write field ``f``'s ``value`` (``f.shown``; an
        app overrides it to write dates and money in the phone's locale)."""
        return f.shown(value)

    def total_text(self, shown: Sequence[Any]) -> str:
        """The total line above the list of the records ``shown`` (the look's ``total``)."""
        assert self.look.total is not None
        return self.look.total(shown)

    # views
    def view(self, route: Route) -> Screen:
        screen = self.screen(route)
        if self.system.locale != DEFAULT_LOCALE:  # the fixed strings, the kit's included
            localize_screen(screen, dict(app_strings(type(self), self.system.locale).strings))
            if screen.dialog is not None:  # the kit's date picker
                localize_dates(screen.dialog)
        return screen

    def screen(self, route: Route) -> Screen:
        """The screen of ``route`` as the kit builds it (``view`` shows its fixed strings in
        the phone's locale)."""
        if route.name == self.look.noun:
            record = self.records.get(route.arg)
            if record is not None:
                return self.record_page(record)
        if route.name == "edit":
            return self.editor(self.editing())
        return self.record_list()

    def delete_dialog(self) -> Node | None:
        n = len(self.ui.deleting)
        if not n:
            return None
        title = self.say("Delete {noun}?") if n == 1 else self.say("Delete {n} {many}?", n=n)
        return ConfirmDialog(title, "This cannot be undone.", confirm="Delete",
                             destructive=True, on_confirm=self.confirm_delete,
                             on_cancel=lambda: self.ask_delete(()))

    def record_row(self, r: Any) -> Node:
        look, selected = self.look, self.ui.selected
        glyph = look.glyph if isinstance(look.glyph, str) else look.glyph(r)
        if selected:
            glyph = "☑" if r.id in selected else "☐"
        parts = [(f"{k}_{r.id}", self.value_text(look.field(k), getattr(r, k)))
                 for k in look.parts]
        item = ListItem(look.name(r) or self.say("Untitled"),
                        look.subtitle(r) if look.subtitle else "",
                        id=f"{look.noun}_{r.id}", glyph=glyph, parts=parts,
                        picture=look.picture(r) if look.picture and not selected else "",
                        on_click=lambda: self.open_record(r.id),
                        on_long_click=lambda: self.toggle_selected(r.id))
        item.checked = r.id in selected
        return item

    def record_list(self) -> Screen:
        look, ui, shown = self.look, self.ui, self.shown()
        def row(i: int) -> Node:
            return self.record_row(shown[i])
        content: list[Node]
        if look.search is not None:
            content = SearchList(ui.query, self.set_query, len(shown), row, id=look.many,
                                 hint=self.say("Search {many}"),
                                 empty_text=self.say("No {many} yet"))
        else:
            content = [VirtualList(len(shown), row, id=look.many,
                                   empty_text=self.say("No {many} yet"))]
        if look.total is not None:
            content.insert(-1, Text(self.total_text(shown), style="title", id="total"))
        if ui.selected:
            ids = sorted(ui.selected)
            bar = TopBar(self.say("{n} selected", n=len(ids)), on_back=self.clear_selection,
                         actions=[Icon("🗑", "Delete selected", lambda: self.ask_delete(ids),
                                       id="delete_selected")])
            return Screen(top_bar=bar, content=content, dialog=self.delete_dialog(),
                          on_dismiss=lambda: self.ask_delete(()), on_back=self.clear_selection)
        view = look.view_named(ui.view)
        bar = (TopBar(view.label, on_menu=lambda: self.set_drawer(True)) if view is not None
               else TopBar(look.title))
        screen = Screen(top_bar=bar, content=content,
                        fab=Fab("+", self.say("Add {noun}"), lambda: self.open_editor(None),
                                id=f"new_{look.noun}"),
                        dialog=self.delete_dialog(), on_dismiss=lambda: self.ask_delete(()))
        if view is None or not ui.drawer:
            return screen
        return with_drawer(screen, self.drawer(view.label), lambda: self.set_drawer(False))

    def drawer(self, selected: str) -> Node:
        """The navigation drawer of the look's views (ids ``nav_<label>``)."""
        look = self.look
        return NavigationDrawer(
            [Destination(v.label, v.icon, partial(self.show_view, v.label),
                         id=f"nav_{slug(v.label)}") for v in look.views],
            selected=selected, title=look.drawer_title or self.manifest.label,
            on_close=lambda: self.set_drawer(False))

    def record_page(self, r: Any) -> Screen:
        look = self.look
        fields = [Detail(f.label, self.value_text(f, getattr(r, f.key)), id=f.key)
                  for f in look.page_fields()]
        actions = [ActionIcon("edit", lambda: self.open_editor(r.id)),
                   ActionIcon("delete", lambda: self.ask_delete((r.id,)))]
        if look.favorite:
            on = bool(getattr(r, look.favorite))
            actions.insert(0, ActionIcon("unfavorite" if on else "favorite",
                                         lambda: self.toggle_favorite(r.id), id="favorite",
                                         selected=on))
        name = look.name(r)
        return DetailPage(name or self.say("Untitled"), fields, heading=name, on_back=self.back,
                          actions=actions, dialog=self.delete_dialog(),
                          on_dismiss=lambda: self.ask_delete(()))

    def editor(self, record_id: int | None) -> Screen:
        look = self.look
        title = self.say("New {noun}") if record_id is None else self.say("Edit {noun}")
        return FormEditor(title, [f.form_field() for f in look.fields], self.ui.form,
                          on_save=self.save, on_close=self.back, validate=look.validate,
                          today=self.system.now.date())


__all__ = ["RecordApp", "RecordField", "RecordLook", "RecordUi", "RecordView", "delete_records",
           "save_record"]
