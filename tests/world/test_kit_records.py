"""The screen kit, part 4: the record app (``kit.records``): a table of records as a sorted,
searchable list with multi-select delete, a record's page and its editor, set up by a
``RecordLook``, on a tiny book app driven on a ``Device`` (helpers: ``test_kit``); and the
chips kind of ``FormEditor`` it uses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pytest
from driving import fill, long_press, press, tap
from test_kit import check_accessible, element, ids, render, start, texts

from phone_gym.world import Device
from phone_gym.world.data import Store, Table
from phone_gym.world.kit import RecordApp, RecordField, RecordLook
from phone_gym.world.kit.records import delete_records, save_record
from phone_gym.world.manifest import AppManifest
from phone_gym.world.system import SystemState

GENRES = ("Novel", "Poetry", "Essay")


@dataclass(frozen=True)
class Book:
    id: int
    title: str
    pages: int = 0
    genre: str = "Novel"
    author: str = ""
    starred: bool = False


@dataclass
class Shelf(Store):
    books: Table[Book] = field(default_factory=lambda: Table(kind=Book))


def year(system: SystemState) -> str:
    return f"{system.now.year} edition"


def check(values: Mapping[str, str]) -> dict[str, str]:
    return {"pages": "Too long"} if values.get("pages", "").strip() == "9999" else {}


def length(books: Sequence[Book]) -> str:
    return f"{sum(b.pages for b in books)} pages in all"


FIELDS = (
    RecordField("title", "Title", required=True),
    RecordField("author", "Author", default=year),
    RecordField("pages", "Pages", "number", shown=lambda n: f"{n} p.",
                parse=lambda t: int(float(t or 0))),
    RecordField("genre", "Genre", "chips", choices=GENRES, default="Novel"),
)
LOOK = RecordLook(noun="book", table="books", title="My shelf", fields=FIELDS,
                  order=lambda b: (b.title.casefold(), b.id), search=lambda b: b.title,
                  glyph=lambda b: b.genre[:1], subtitle=lambda b: b.author,
                  parts=("pages", "genre"), total=length, favorite="starred",
                  page=("pages", "author"), validate=check)


class ShelfApp(RecordApp):
    manifest = AppManifest("Shelf", "com.example.shelf")
    look = LOOK
    data: Shelf

    def initial_data(self) -> Shelf:
        shelf = Shelf()
        for title, pages, genre in (("Walden", 352, "Essay"), ("Beloved", 324, "Novel"),
                                    ("Ariel", 96, "Poetry")):
            shelf.books.new(title=title, pages=pages, genre=genre, author="Someone")
        return shelf


class PlainApp(ShelfApp):
    """The same shelf without search, total or star."""

    manifest = AppManifest("Plain", "com.example.plain")
    look = RecordLook(noun="entry", table="books", title="Plain", fields=FIELDS[:2],
                      order=lambda b: -b.id, plural="entries", glyph="•")


def shelf(device: Device) -> ShelfApp:
    app = device.apps["Shelf"]
    assert isinstance(app, ShelfApp)
    return app


def books(device: Device) -> dict[str, Book]:
    return {b.title: b for b in shelf(device).data.books}


def test_the_list_is_sorted_searchable_and_shows_rows_parts_and_a_total() -> None:
    device = start(ShelfApp)
    check_accessible(device)
    assert element(device, "toolbar").text == "My shelf"
    rows = [e for e in texts(device) if e in ("Walden", "Beloved", "Ariel")]
    assert rows == ["Ariel", "Beloved", "Walden"]  # by title
    walden = element(device, "book_1")
    assert walden.hint == "352 p. · Essay" and walden.long_clickable
    assert element(device, "pages_1").text == "352 p."
    assert element(device, "genre_1").text == "Essay"
    assert element(device, "total").text == "772 pages in all"
    assert element(device, "new_book").content_desc == "Add book"
    assert element(device, "search").hint == "Search books"
    render(device)
    fill(device, "search", "wal")
    assert "book_1" in ids(device) and "book_2" not in ids(device)
    assert element(device, "total").text == "352 pages in all"  # of the rows shown
    fill(device, "search", "zzz")
    assert element(device, "empty").text == 'No results for "zzz"'


def test_a_new_record_is_entered_parsed_and_stored() -> None:
    device = start(ShelfApp)
    tap(device, id="new_book")
    assert element(device, "toolbar").text == "New book"
    assert element(device, "author").text == f"{shelf(device).system.now.year} edition"
    assert element(device, "genre_label").text == "Genre"
    assert element(device, "chip_novel").checked and not element(device, "chip_poetry").checked
    check_accessible(device)
    tap(device, id="save")
    assert element(device, "title_error").text == "Title is required"
    fill(device, "title", "Odes")
    fill(device, "pages", "9999")
    press(device, "back")
    tap(device, id="save")
    assert element(device, "pages_error").text == "Too long"  # the look's own check
    fill(device, "pages", "120")
    press(device, "back")
    tap(device, id="chip_poetry")
    assert element(device, "chip_poetry").checked and not element(device, "chip_novel").checked
    tap(device, id="save")
    odes = books(device)["Odes"]
    assert (odes.pages, odes.genre) == (120, "Poetry")
    assert odes.author.endswith("edition") and not odes.starred
    assert shelf(device).route.name == "main" and element(device, "book_4").text == "Odes"


def test_the_page_shows_values_stars_and_edits() -> None:
    device = start(ShelfApp)
    tap(device, id="book_1")
    app = shelf(device)
    assert app.route.name == "book" and element(device, "heading").text == "Walden"
    assert element(device, "pages").text == "352 p."
    assert element(device, "author").text == "Someone"
    assert "genre" not in ids(device)  # not on the page
    check_accessible(device)
    tap(device, id="favorite")
    assert books(device)["Walden"].starred
    assert element(device, "favorite").content_desc == "Remove from favorites"
    version = app.data.books.version
    tap(device, id="edit")
    assert element(device, "toolbar").text == "Edit book" and element(device, "pages").text == "352"
    tap(device, id="save")  # nothing changed: nothing written
    assert app.data.books.version == version and app.route.name == "book"
    tap(device, id="edit")
    fill(device, "title", "Walden; or, Life")
    press(device, "back")
    tap(device, id="save")
    assert books(device)["Walden; or, Life"].id == 1
    assert element(device, "heading").text == "Walden; or, Life"


def test_delete_one_from_its_page_or_several_selected() -> None:
    device = start(ShelfApp)
    tap(device, id="book_2")
    tap(device, id="delete")
    assert element(device, "alertTitle").text == "Delete book?"
    tap(device, id="button_cancel")
    assert "Beloved" in books(device)
    tap(device, id="delete")
    tap(device, id="button_delete")
    assert "Beloved" not in books(device) and shelf(device).route.name == "main"
    long_press(device, id="book_1")
    tap(device, id="book_3")
    assert element(device, "toolbar").text == "2 selected" and element(device, "book_1").checked
    tap(device, id="book_1")  # a tap while selecting toggles
    assert element(device, "toolbar").text == "1 selected"
    tap(device, id="book_1")
    tap(device, id="delete_selected")
    assert element(device, "alertTitle").text == "Delete 2 books?"
    tap(device, id="button_delete")
    assert books(device) == {} and element(device, "empty").text == "No books yet"


def test_back_leaves_selection_mode() -> None:
    device = start(ShelfApp)
    long_press(device, id="book_1")
    press(device, "back")
    assert shelf(device).ui.selected == frozenset() and "new_book" in ids(device)


def test_a_look_without_search_total_or_star() -> None:
    device = start(PlainApp)
    assert element(device, "toolbar").text == "Plain" and element(device, "new_entry")
    assert not {"search", "total"} & ids(device)
    assert [e for e in texts(device) if e in ("Walden", "Ariel")] == ["Ariel", "Walden"]
    tap(device, id="entry_1")
    assert {"edit", "delete"} <= ids(device) and "favorite" not in ids(device)
    assert element(device, "author").text == "Someone"  # the page: all fields but the first
    tap(device, id="delete")
    tap(device, id="button_delete")
    tap(device, id="entry_2")
    tap(device, id="delete")
    tap(device, id="button_delete")
    long_press(device, id="entry_3")
    tap(device, id="delete_selected")
    tap(device, id="button_delete")
    assert element(device, "empty").text == "No entries yet"


@pytest.mark.parametrize("record_id", [None, 7])
def test_save_record_adds_when_new_or_gone(record_id: int | None) -> None:
    table: Table[Book] = Table(kind=Book)
    new = save_record(table, {"title": "A", "pages": 3}, record_id)
    assert table[new].title == "A"
    version = table.version
    assert save_record(table, {"title": "A", "pages": 3}, new) == new
    assert table.version == version  # unchanged: not written
    save_record(table, {"title": "B", "pages": 3}, new)
    assert table[new].title == "B" and len(table) == 1


def test_delete_records_counts_what_existed() -> None:
    table: Table[Book] = Table(kind=Book)
    a, b = table.new(title="A"), table.new(title="B")
    assert delete_records(table, [a.id, 99, b.id, a.id]) == 2 and len(table) == 0


def test_views_need_unique_labels() -> None:
    from phone_gym.world.kit.records import RecordView
    with pytest.raises(ValueError, match="unique labels"):
        RecordLook(noun="note", table="notes", title="Notes",
                   fields=(RecordField("title", "Title"),), order=lambda r: r.id,
                   views=(RecordView("All", "notes"), RecordView("All", "star")))
