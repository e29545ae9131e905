"""Counterparts of AndroidWorld's Joplin information-retrieval tasks: whether a note is a
to-do, the attendee count of a meeting note, an ingredient's quantity in a recipe note, and
how many to-dos a notebook holds.

Each template seeds its notebooks, its target note(s) and everyday noise notes, plus decoys
that answer a neighbouring question (other meetings' counts, other ingredients' quantities,
to-dos in other notebooks, plain notes in the asked one).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver, OracleError
from ...tasks.families import Lookup
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import same_text
from ...world.app import app_strings
from .app import JoplinApp
from .fixtures import (
    DATA,
    FOLDERS,
    localized,
    noise_notes,
    write_folder,
    write_notes,
)


def shown(ui: Driver, key: str) -> str:
    """The Joplin UI string ``key`` as the phone's locale shows it."""
    return app_strings(JoplinApp, ui.locale).t(key)


class InChinese:
    """A Joplin template that also runs in zh-CN: notebooks, titles and bodies from the
    data catalogue (``sample_in``), its instruction ``instructions["zh-CN"]``."""

    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    data: ClassVar[Mapping[str, Mapping[str, str]]] = DATA

    def localize_params(self, params: dict[str, Any], table: Mapping[str, str]
                        ) -> dict[str, Any]:
        return localized(params, table)  # type: ignore[no-any-return]

Row = dict[str, Any]
NOISE = 100  # noise notes per phone, as AndroidWorld's

TODO_TITLES = ("Renew passport", "Fix the fence", "Order business cards", "Call the insurer",
               "Book a haircut", "Buy printer paper", "Plan the offsite", "Pay the nanny",
               "Repair the bike", "Send the contract")
TODO_BODIES = ("Before the end of the month.", "Ask for a quote first.", "- [ ] compare prices",
               "Needs the reference number.", "Check the calendar.", "Low priority.",
               "Takes ten minutes.", "Use the company card.", "Reminder set on phone.",
               "See email from Tuesday.")
MEETINGS = ("Quarterly planning", "Product launch sync", "Budget review", "Design critique",
            "Hiring committee", "Town hall", "Sprint retrospective", "Marketing kickoff",
            "Board meeting", "Customer advisory", "Security briefing", "Vendor review",
            "Offsite planning", "Training day", "Roadmap review", "Sales summit",
            "Partner workshop", "Volunteer meeting", "Team social", "Research showcase")
ROOMS = ("Room 4B", "the main hall", "the cafeteria", "Room 12", "the library annex")
RECIPES = ("Banana bread", "Lentil soup", "Pancakes", "Guacamole", "Tomato pasta",
           "Chicken curry", "Apple crumble", "Caesar salad", "Veggie chili", "Lemon cookies")
INGREDIENTS = ("flour", "sugar", "butter", "milk", "olive oil", "salt", "garlic", "onion",
               "rice", "honey", "baking soda", "lemon juice", "cinnamon", "tomato paste")
QUANTITIES = ("1/2 cup", "2 cups", "1 tablespoon", "3 tablespoons", "1 teaspoon",
              "1/4 teaspoon", "200 grams", "2 cloves", "1 pinch", "3/4 cup")


class JoplinLookup(Lookup):
    """A question about the notes: ``rows`` (notes) are written into ``folders``."""

    apps = ("Joplin",)
    start = AW_START
    complexity, max_steps = 1, 10

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        for name in params["folders"]:
            write_folder(state, name)
        write_notes(state, params["rows"])

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["answer"]

    def shuffled(self, rng: np.random.Generator, rows: list[Row]) -> list[Row]:
        return [rows[int(i)] for i in rng.permutation(len(rows))]

    def note_id(self, p: Mapping[str, Any], title: str) -> int:
        """The id of the note titled ``title`` (notes are written in order, ids from 1)."""
        return 1 + next(i for i, r in enumerate(p["rows"]) if r["title"] == title)

    def open_notebook(self, ui: Driver, folder_id: str, name: str) -> Iterator[PhoneAction]:
        """Show the notebook ``folder_id`` named ``name`` (``folder_all``: every note),
        through the side drawer (the top bar's menu icon) unless its list shows already."""
        yield from ui.open_app("Joplin")
        if ui.find(name, id="toolbar") is None or ui.find(id="drawer_toggle") is None:
            if ui.find(id="drawer_toggle") is not None:
                yield from ui.tap(desc=shown(ui, "Open navigation drawer"))
            yield from ui.tap(id=folder_id)

    def open_note(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        """Show every note, search for the title ``p["title"]`` (a hundred notes are more
        than a few screens), then open its note."""
        yield from self.open_notebook(ui, "folder_all", shown(ui, "All notes"))
        ui.why(f"Searching all notes for {p['title']}")
        yield from ui.fill("search", p["title"])
        # the search also lists notes that only mention the title: scroll to the one named so
        yield from ui.reveal(p["title"], kind="list_item")
        found = [e for e in ui.find_all(p["title"], kind="list_item")
                 if e.short_id.startswith("note_")]
        if len(found) != 1:
            raise OracleError(f"{len(found)} notes titled {p['title']!r} listed")
        ui.why(f"Opening the note {p['title']}")
        yield from ui.tap(id=found[0].short_id)


class NotesIsTodo(InChinese, JoplinLookup):
    template = 'In Joplin, is the note titled "{title}" a to-do? Answer yes or no.'
    instructions = {"zh-CN": "在 Joplin 里，标题为“{title}”的笔记是待办事项吗？请回答是或否。"}
    answer_type = "yes_no"

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        folders = pick(rng, FOLDERS, 4)
        title = pick(rng, TODO_TITLES)
        is_todo = bool(rng.random() < 0.5)
        target = {"folder": int(rng.integers(1, 5)), "title": title,
                  "body": pick(rng, TODO_BODIES), "is_todo": is_todo, "done": False}
        others = [{"folder": int(rng.integers(1, 5)), "title": t, "body": pick(rng, TODO_BODIES),
                   "is_todo": not is_todo, "done": False}
                  for t in pick(rng, [t for t in TODO_TITLES if t != title], 3)]
        rows = self.shuffled(rng, [target, *others, *noise_notes(rng, NOISE, 4)])
        return {"folders": folders, "rows": rows, "title": title, "answer": is_todo}

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return ["Yes", "No"]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_note(ui, p)
        kind = ui.must(id="note_kind").text
        todo = shown(ui, "To-do") in kind
        if ui.locale == "zh-CN":
            yield from ui.answer("是" if todo else "否")
        else:
            yield from ui.answer("Yes" if todo else "No")


def meeting_body(rng: np.random.Generator, count: int) -> str:
    """A meeting note in markdown that states its attendee count among other numbers."""
    day, hour = int(rng.integers(16, 29)), int(rng.integers(9, 17))
    form = int(rng.integers(3))
    people = (f"Attendees: {count} people", f"We expect {count} attendees.",
              f"{count} people have confirmed they will attend.")[form]
    return (f"# Agenda\n- Welcome at {hour}:00 on October {day}\n- {int(rng.integers(2, 6))} "
            f"topics to cover\n\n{people}\nLocation: {pick(rng, ROOMS)}")


class NotesMeetingAttendeeCount(JoplinLookup):
    template = ('In Joplin, how many people are attending the meeting in the note titled '
                '"{title}"? Answer with the number.')
    answer_type, answer_field = "count", "count"

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        titles = pick(rng, MEETINGS, 3)
        counts = [int(c) for c in pick(rng, range(5, 101, 5), 3)]
        meetings = [{"folder": 1, "title": t, "body": meeting_body(rng, c), "is_todo": False,
                     "done": False} for t, c in zip(titles, counts, strict=True)]
        rows = self.shuffled(rng, [*meetings, *noise_notes(rng, NOISE, 3)])
        return {"folders": ["Meetings", *pick(rng, FOLDERS[:6], 2)], "rows": rows,
                "title": titles[0], "answer": counts[0], "others": counts[1:]}

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [*p["others"], p["answer"] + 5, len(p["rows"])]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_note(ui, p)
        yield from ui.answer(str(p["answer"]))


class NotesRecipeIngredientCount(JoplinLookup):
    template = ('In Joplin, how much {ingredient} does the recipe in the note "{title}" '
                'call for? Answer with the quantity as the note writes it.')
    answer_type = "text"

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        titles = pick(rng, RECIPES, 2)
        ingredients = pick(rng, INGREDIENTS, 5)
        quantities = pick(rng, QUANTITIES, 5)
        items = "\n".join(f"- {q} {i}" for q, i in zip(quantities, ingredients, strict=True))
        body = (f"## Ingredients\n{items}\n\n## Steps\n1. Mix everything.\n"
                f"2. Cook for {int(rng.integers(10, 40))} minutes.")
        other_q = pick(rng, QUANTITIES, 3)
        other_body = "## Ingredients\n" + "\n".join(
            f"- {q} {i}" for q, i in zip(other_q, [ingredients[0], *pick(rng, INGREDIENTS, 2)],
                                         strict=True))
        rows = [{"folder": 1, "title": titles[0], "body": body, "is_todo": False,
                 "done": False},
                {"folder": 1, "title": titles[1], "body": other_body, "is_todo": False,
                 "done": False}]
        rows = self.shuffled(rng, [*rows, *noise_notes(rng, NOISE, 3)])
        return {"folders": ["Recipes", *pick(rng, FOLDERS[:2], 2)], "rows": rows,
                "title": titles[0], "ingredient": ingredients[0], "answer": quantities[0],
                "others": [*quantities[1:], *other_q]}

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["answer"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [q for q in dict.fromkeys(p["others"]) if not same_text(p["answer"])(q)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_note(ui, p)
        yield from ui.answer(p["answer"])


class NotesTodoItemCount(InChinese, JoplinLookup):
    template = 'In Joplin, how many to-dos are in the notebook "{folder}"? Answer with the number.'
    instructions = {"zh-CN": "在 Joplin 里，笔记本“{folder}”中有几个待办事项？请回答数字。"}
    answer_type, answer_field = "count", "count"

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        folders = pick(rng, FOLDERS, 4)
        k = int(rng.integers(1, 6))
        titles = pick(rng, TODO_TITLES, k + 3)
        todos = [{"folder": 1, "title": t, "body": pick(rng, TODO_BODIES), "is_todo": True,
                  "done": False} for t in titles[:k]]
        elsewhere = [{"folder": int(rng.integers(2, 5)), "title": t,
                      "body": pick(rng, TODO_BODIES), "is_todo": True, "done": False}
                     for t in titles[k:]]
        noise = noise_notes(rng, NOISE, 4)
        for row in noise:  # the notebook's own notes are plain notes
            if row["folder"] == 1:
                row["is_todo"] = False
        noise[0]["folder"], noise[0]["is_todo"] = 1, False
        rows = self.shuffled(rng, [*todos, *elsewhere, *noise])
        in_folder = sum(r["folder"] == 1 for r in rows)
        return {"folders": folders, "rows": rows, "folder": folders[0], "answer": k,
                "in_folder": in_folder, "todos": sum(bool(r["is_todo"]) for r in rows)}

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [p["in_folder"], p["todos"], p["answer"] + 1, len(p["rows"])]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_notebook(ui, "folder_1", p["folder"])
        yield from ui.answer(str(p["answer"]))


TEMPLATES: list[Task] = [NotesIsTodo(), NotesMeetingAttendeeCount(),
                         NotesRecipeIngredientCount(), NotesTodoItemCount()]
