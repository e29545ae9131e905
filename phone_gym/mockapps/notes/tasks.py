"""Notes tasks."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.families import CreateRecord, DeleteRecord, EditRecord, Infeasible, Lookup
from ...tasks.task import Task
from ...tasks.vocab import TITLES, pick
from ...verifiers import Matcher, NearMiss, lookup, same_text
from ...world.app import app_strings
from .app import NotesApp
from .fixtures import (
    COLLECTION,
    DATA,
    EXTRAS,
    NEW_TITLES,
    localized,
    sample_body,
    seed_around,
    seed_notes,
)


class InChinese:
    """A Notes template that also runs in zh-CN: its titles and texts from the data
    catalogue (``sample_in``), its instruction ``instructions["zh-CN"]``."""

    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    data: ClassVar[Mapping[str, Mapping[str, str]]] = DATA

    def localize_params(self, params: dict[str, Any], table: Mapping[str, str]
                        ) -> dict[str, Any]:
        return localized(params, "zh-CN")  # type: ignore[no-any-return]


def shown(ui: Driver, key: str) -> str:
    """The Notes UI string ``key`` as the phone's locale shows it (menus, buttons)."""
    return app_strings(NotesApp, ui.locale).t(key)


def words(text: Any) -> list[str]:
    """The lower-case words of ``text``, ignoring punctuation and line breaks."""
    return re.findall(r"[a-z0-9]+", str(text).lower())


def appended(old: str, extra: str) -> Matcher:
    """The old text kept exactly (trailing spaces aside), then a separator (spaces, line
    breaks or ``,;.-``), then ``extra`` (as ``same_text`` compares)."""
    def test(value: Any) -> bool:
        v, o = str(value).rstrip(), old.rstrip()
        if not v.startswith(o):
            return False
        rest = v[len(o):]
        found = re.match(r"[\s,;.\-]+", rest)
        return found is not None and same_text(extra)(rest[found.end():])
    return Matcher(test, f"{old!r} kept, followed by {extra!r}")


class NotesCreateNote(InChinese, CreateRecord):
    apps, collection = ("Notes",), COLLECTION
    template = 'Create a note titled "{title}" with the text "{body}".'
    instructions = {"zh-CN": "新建一条笔记，标题为“{title}”，内容为“{body}”。"}
    complexity, max_steps = 1, 12

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"title": pick(rng, TITLES[:10]), "body": pick(rng, EXTRAS)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_notes(state, rng, 3, avoid=[params["title"]])

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": same_text(p["title"]), "body": same_text(p["body"]),
                "pinned": False}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Notes")
        yield from ui.tap(id="new_note")
        yield from ui.fill("title", p["title"])
        yield from ui.fill("body", p["body"])
        yield from ui.tap(id="save")
        yield from ui.finish()


# --- tasks about one note among many ---------------------------------------------------------
class NoteTask(InChinese, Task):
    """A task about the note titled ``title`` among ``count`` notes: the target is the
    ``note_id``-th note written, its id known from the params; some others are pinned, and
    with many notes it may sit below the fold."""

    apps, collection = ("Notes",), COLLECTION
    counts: tuple[int, int] = (4, 14)  # fewest and most notes on the device
    body_lines: tuple[int, int] = (1, 2)  # fewest and most lines in the target's body
    target_pinned = False
    vias: tuple[str, ...] = ("editor",)  # ways the oracle may take

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        count = int(rng.integers(self.counts[0], self.counts[1] + 1))
        lines = int(rng.integers(self.body_lines[0], self.body_lines[1] + 1))
        return {"title": pick(rng, TITLES), "body": sample_body(rng, lines),
                "pinned": self.target_pinned, "count": count,
                "note_id": int(rng.integers(count)) + 1, "via": pick(rng, self.vias),
                **self.more_params(rng)}

    def more_params(self, rng: np.random.Generator) -> dict[str, Any]:
        """Params a subclass adds (new text, new title)."""
        return {}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_around(state, rng, dict(params))

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"id": p["note_id"]}

    def open_note(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        """Launch Notes and open the target note in the editor."""
        yield from ui.open_app("Notes")
        yield from ui.tap(p["title"], kind="list_item")


class NotesEditNote(NoteTask, EditRecord):
    template = 'Add the line "{extra}" to the end of the note titled "{title}".'
    instructions = {"zh-CN": "在标题为“{title}”的笔记末尾另起一行，添加“{extra}”。"}
    complexity, max_steps = 2, 14

    def more_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"extra": pick(rng, EXTRAS)}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"body": appended(p["body"], p["extra"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_note(ui, p)
        yield from ui.tap(id="body", kind="text_field")
        yield from ui.press("enter")
        yield PhoneAction("type", text=p["extra"])
        yield from ui.tap(id="save")
        yield from ui.finish()


class NotesReplaceNoteText(NoteTask, EditRecord):
    template = 'Replace the whole text of the note titled "{title}" with "{new_body}".'
    instructions = {"zh-CN": "把标题为“{title}”的笔记的全部内容替换成“{new_body}”。"}
    complexity, max_steps = 2, 16

    def more_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"new_body": pick(rng, EXTRAS)}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"body": same_text(p["new_body"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_note(ui, p)
        yield from ui.fill("body", p["new_body"])
        yield from ui.tap(id="save")
        yield from ui.finish()


class NotesRenameNote(NoteTask, EditRecord):
    template = 'Rename the note titled "{title}" to "{new_title}".'
    instructions = {"zh-CN": "把标题为“{title}”的笔记重命名为“{new_title}”。"}
    complexity, max_steps = 2, 16

    def more_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"new_title": pick(rng, NEW_TITLES)}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": same_text(p["new_title"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_note(ui, p)
        yield from ui.fill("title", p["new_title"])
        yield from ui.tap(id="save")
        yield from ui.finish()


class NotesDeleteNote(NoteTask, DeleteRecord):
    template = 'Delete the note titled "{title}".'
    instructions = {"zh-CN": "删除标题为“{title}”的笔记。"}
    complexity, max_steps = 2, 12
    vias = ("editor", "menu")

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": same_text(p["title"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        if ui.choose(self.vias) == "menu":
            yield from ui.open_app("Notes")
            ui.why(f"Deleting {p['title']} from its row's menu")
            yield from ui.long_press(p["title"], kind="list_item")
            yield from ui.tap(shown(ui, "Delete"), kind="menu_item")
        else:
            yield from self.open_note(ui, p)
            yield from ui.tap(id="delete")
        yield from ui.tap(id="button_delete")
        yield from ui.finish()


class NotesPinNote(NoteTask, EditRecord):
    template = 'Pin the note titled "{title}".'
    instructions = {"zh-CN": "固定标题为“{title}”的笔记。"}
    complexity, max_steps = 1, 12
    vias = ("editor", "menu")

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"pinned": not self.target_pinned}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        action = "Unpin" if self.target_pinned else "Pin"
        label = shown(ui, action)
        if ui.choose(self.vias) == "menu":
            yield from ui.open_app("Notes")
            ui.why(f"Opening {p['title']}'s menu: it offers {action} unless done already")
            yield from ui.long_press(p["title"], kind="list_item")
            if ui.find(label, kind="menu_item") is not None:
                yield from ui.tap(label, kind="menu_item")
            else:
                ui.why(f"The menu offers no {action}: the note is {action.lower()}ned already")
                yield from ui.press("back")
        else:
            ui.why(f"Opening {p['title']}: its pin button says whether it is pinned")
            yield from self.open_note(ui, p)
            if ui.find(id="pin", desc=label) is not None:
                ui.why(f"{action}ning the note, then back to the list")
                yield from ui.tap(id="pin", desc=label)
            else:
                ui.why(f"The note is {action.lower()}ned already")
            yield from ui.press("back")
        yield from ui.finish()


class NotesUnpinNote(NotesPinNote):
    template = 'Unpin the note titled "{title}".'
    instructions = {"zh-CN": "取消固定标题为“{title}”的笔记。"}
    target_pinned = True


class NotesReadNote(NoteTask, Lookup):
    template = 'What does the note titled "{title}" say? Answer with its full text.'
    instructions = {"zh-CN": "标题为“{title}”的笔记里写了什么？请回答它的全部内容。"}
    complexity, max_steps = 2, 10
    counts = (8, 14)
    body_lines = (2, 2)  # the list shows only the first line: the note must be opened

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["body"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [n["body"] for n in lookup(initial, COLLECTION).values()]

    def declared_near_misses(self, initial: Any, final: Any, p: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        return [NearMiss(final, p["body"].split("\n")[0], "the list's preview line")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_note(ui, p)
        body = ui.must(id="body", kind="text_field")
        yield from ui.answer(" ".join(body.text.split()))


# --- infeasible variants: no note has the title the task names -----------------------------
class MissingNote(Infeasible, NoteTask):
    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_notes(state, rng, params["count"], avoid=[params["title"]])

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": same_text(p["title"])}


class NotesDeleteNoteInfeasible(MissingNote, NotesDeleteNote):
    pass


class NotesReadNoteInfeasible(MissingNote, NotesReadNote):
    pass


TEMPLATES: list[Task] = [
    NotesCreateNote(), NotesEditNote(), NotesReplaceNoteText(), NotesRenameNote(),
    NotesDeleteNote(), NotesPinNote(), NotesUnpinNote(), NotesReadNote(),
    NotesDeleteNoteInfeasible(), NotesReadNoteInfeasible(),
]
