"""Notes tasks."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...verifiers import Answer, Criterion, Matcher, NoRecord, Record, normalize_text, same_text
from ...world import Device
from ..oracle import Driver, OracleError
from ..task import TaskTemplate, pick
from .app import NotesApp, add_note

TITLES = ("Groceries", "Trip ideas", "Meeting notes", "Books to read", "Gift list",
          "Workout plan", "Recipes", "Packing list", "Project ideas", "Call back")
BODIES = ("milk, eggs, bread", "Lisbon in spring", "ask about the budget", "Dune and Emma",
          "scarf for mom", "run 5k on Monday", "lentil soup", "charger and passport",
          "a birdhouse", "the dentist at 3")

#: Titles of the notes on a device (14 of them at most at once, all different).
NOTE_TITLES = (*TITLES, "Movies to watch", "Garden", "Car service", "Birthday party",
               "Podcasts", "Budget", "Book club", "Home repairs", "Quotes", "Spanish lessons",
               "Vet visit", "Weekend plans", "Dinner menu", "Gym schedule")
#: New titles for renaming: none of them is a title in NOTE_TITLES.
NEW_TITLES = ("Shopping", "Holiday plans", "Work notes", "To do", "Errands", "Reminders",
              "Wish list", "Ideas for May")
#: Lines that note bodies are made of.
LINES = (*BODIES, "water the tomatoes", "oil change at 60000 km", "book the hall for Saturday",
         "pick up the dry cleaning", "Tuesday at 7 pm", "call the plumber",
         "rent is due on the 1st", "try the new bakery", "renew the library card",
         "door code is 4821", "sunscreen and hats", "bring the blue folder")
#: Text that tasks add to a note: none of it is in LINES.
EXTRAS = ("and coffee beans", "bring an umbrella", "check the reviews first", "ask Maria too",
          "before Friday", "cancel if it rains", "2 tickets for June", "also buy batteries")

PINNED_SHARE = 0.25  # chance that a distractor note is pinned


def notes_app(device: Device) -> NotesApp:
    app = device.apps[NotesApp.name]
    assert isinstance(app, NotesApp)
    return app


def seed_notes(device: Device, rng: np.random.Generator, k: int, *,
               avoid: Sequence[str] = ()) -> None:
    """Add ``k`` distractor notes whose titles are not in ``avoid``."""
    titles = [t for t in TITLES if t not in avoid]
    for i in pick(rng, range(len(titles)), k):
        add_note(notes_app(device).data, titles[i], BODIES[i % len(BODIES)])


def sample_body(rng: np.random.Generator, lines: int) -> str:
    """A body of ``lines`` different lines."""
    return "\n".join(pick(rng, LINES, lines))


def words(text: Any) -> list[str]:
    """The lower-case words of ``text``, ignoring punctuation and line breaks."""
    return re.findall(r"[a-z0-9]+", str(text).lower())


def same_words(expected: str) -> Matcher:
    """The same words in the same order (punctuation and line breaks do not matter)."""
    return Matcher(lambda v: same_text(expected)(v) or words(v) == words(expected),
                   f"the words of {expected!r}")


def appended(old: str, extra: str) -> Matcher:
    """The old text, then a separator (spaces, line breaks or ``,;.-``), then ``extra``."""
    def test(value: Any) -> bool:
        v, o, e = normalize_text(value), normalize_text(old), normalize_text(extra)
        middle = v[len(o):len(v) - len(e)]
        return (v.startswith(o) and v.endswith(e) and len(v) > len(o) + len(e)
                and re.fullmatch(r"[\s,;.\-]+", middle) is not None)
    return Matcher(test, f"{old!r} followed by {extra!r}")


class NotesCreateNote(TaskTemplate):
    id = "NotesCreateNote"
    apps = ("Notes",)
    template = 'Create a note titled "{title}" with the text "{body}".'
    complexity = 1
    max_steps = 12

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        i = int(rng.integers(len(TITLES)))
        return {"title": TITLES[i], "body": pick(rng, BODIES)}

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_notes(device, rng, 3, avoid=[params["title"]])

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record("apps.Notes.notes", {"title": same_text(params["title"])},
                       {"body": same_text(params["body"])}, count=1)]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return ["added:apps.Notes.notes.*"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        state = copy.deepcopy(final)
        for note in state["apps"]["Notes"]["notes"].values():
            if note["title"] == params["title"]:
                note["body"] = params["body"] + "s"
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Notes")
        yield from ui.tap(id="new_note")
        yield from ui.fill("title", params["title"])
        yield from ui.fill("body", params["body"])
        yield from ui.tap(id="save")
        yield PhoneAction("finish", status="success")


# --- tasks about one note among many ---------------------------------------------------------
class NoteTask(TaskTemplate):
    """A task about the note titled ``params["title"]`` among ``params["count"]`` notes.

    The target is the ``note_id``-th note written to a fresh app, so its id is known from
    the params (for narrow ``allowed`` patterns); the other notes are distractors, some
    of them pinned. With many notes the target may sit below the fold.
    """

    apps = ("Notes",)
    counts: tuple[int, int] = (4, 14)  # fewest and most notes on the device
    body_lines: tuple[int, int] = (1, 2)  # fewest and most lines in the target's body
    target_pinned = False
    vias: tuple[str, ...] = ("editor",)  # ways the oracle may take

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        count = int(rng.integers(self.counts[0], self.counts[1] + 1))
        lines = int(rng.integers(self.body_lines[0], self.body_lines[1] + 1))
        return {"title": pick(rng, NOTE_TITLES), "body": sample_body(rng, lines),
                "pinned": self.target_pinned, "count": count,
                "note_id": int(rng.integers(count)) + 1, "via": pick(rng, self.vias),
                **self.more_params(rng)}

    def more_params(self, rng: np.random.Generator) -> dict[str, Any]:
        """Params a subclass adds (new text, new title)."""
        return {}

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        data = notes_app(device).data
        others = pick(rng, [t for t in NOTE_TITLES if t != params["title"]], params["count"] - 1)
        for i in range(1, params["count"] + 1):
            if i == params["note_id"]:
                note = add_note(data, params["title"], params["body"], pinned=params["pinned"])
                assert note.id == i, "the target's id must follow from the params"
            else:
                add_note(data, others.pop(), sample_body(rng, int(rng.integers(1, 3))),
                         pinned=bool(rng.random() < PINNED_SHARE))

    def path(self, params: Mapping[str, Any], field: str = "") -> str:
        """The snapshot path of the target note (or one of its fields)."""
        return f"apps.Notes.notes.{params['note_id']}" + (f".{field}" if field else "")

    def open_note(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        """Launch Notes and open the target note in the editor."""
        yield from ui.open_app("Notes")
        yield from ui.tap(params["title"], kind="list_item")


def target(state: dict[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    """The target note's record in a snapshot."""
    return state["apps"]["Notes"]["notes"][str(params["note_id"])]


def other_note(state: dict[str, Any], params: Mapping[str, Any], **fields: Any) -> dict[str, Any]:
    """A note other than the target whose fields have the given values."""
    return next(n for key, n in state["apps"]["Notes"]["notes"].items()
                if key != str(params["note_id"]) and all(n[k] == v for k, v in fields.items()))


class NotesEditNote(NoteTask):
    id = "NotesEditNote"
    template = 'Add the line "{extra}" to the end of the note titled "{title}".'
    complexity = 2
    max_steps = 14

    def more_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"extra": pick(rng, EXTRAS)}

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record("apps.Notes.notes", {"title": params["title"]},
                       {"body": appended(params["body"], params["extra"])}, count=1)]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [self.path(params, "body")]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        state = copy.deepcopy(final)
        target(state, params)["body"] = params["extra"]  # replaced instead of added
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_note(ui, params)
        yield from ui.tap(id="body", kind="text_field")
        yield from ui.press("enter")
        yield PhoneAction("type", text=params["extra"])
        yield from ui.tap(id="save")
        yield PhoneAction("finish", status="success")


class NotesReplaceNoteText(NoteTask):
    id = "NotesReplaceNoteText"
    template = 'Replace the whole text of the note titled "{title}" with "{new_body}".'
    complexity = 2
    max_steps = 16

    def more_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"new_body": pick(rng, EXTRAS)}

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record("apps.Notes.notes", {"title": params["title"]},
                       {"body": same_text(params["new_body"])}, count=1)]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [self.path(params, "body")]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        state = copy.deepcopy(final)
        target(state, params)["body"] = params["body"] + "\n" + params["new_body"]  # added
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_note(ui, params)
        yield from ui.fill("body", params["new_body"])
        yield from ui.tap(id="save")
        yield PhoneAction("finish", status="success")


class NotesRenameNote(NoteTask):
    id = "NotesRenameNote"
    template = 'Rename the note titled "{title}" to "{new_title}".'
    complexity = 2
    max_steps = 16

    def more_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"new_title": pick(rng, NEW_TITLES)}

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record("apps.Notes.notes", {"title": same_text(params["new_title"])},
                       {"body": params["body"]}, count=1),
                NoRecord("apps.Notes.notes", {"title": same_text(params["title"])})]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [self.path(params, "title")]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        state = copy.deepcopy(final)
        target(state, params)["title"] = params["new_title"] + " " + params["title"]
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_note(ui, params)
        yield from ui.fill("title", params["new_title"])
        yield from ui.tap(id="save")
        yield PhoneAction("finish", status="success")


class NotesDeleteNote(NoteTask):
    id = "NotesDeleteNote"
    template = 'Delete the note titled "{title}".'
    complexity = 2
    max_steps = 12
    vias = ("editor", "menu")

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [NoRecord("apps.Notes.notes", {"title": same_text(params["title"])})]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return ["removed:" + self.path(params)]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        state = copy.deepcopy(final)  # the wrong note deleted
        notes = state["apps"]["Notes"]["notes"]
        wrong = next(iter(notes))
        del notes[wrong]
        notes[str(params["note_id"])] = {"id": params["note_id"], "title": params["title"],
                                         "body": params["body"], "pinned": params["pinned"]}
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        if params["via"] == "menu":
            yield from ui.open_app("Notes")
            yield from ui.long_press(params["title"], kind="list_item")
            yield from ui.tap("Delete", kind="menu_item")
        else:
            yield from self.open_note(ui, params)
            yield from ui.tap(id="delete")
        yield from ui.tap(id="button_delete")
        yield PhoneAction("finish", status="success")


class NotesPinNote(NoteTask):
    id = "NotesPinNote"
    template = 'Pin the note titled "{title}".'
    complexity = 1
    max_steps = 12
    vias = ("editor", "menu")

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record("apps.Notes.notes", {"title": params["title"]},
                       {"pinned": not self.target_pinned}, count=1)]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [self.path(params, "pinned")]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        state = copy.deepcopy(final)  # the wrong note (un)pinned
        target(state, params)["pinned"] = self.target_pinned
        other_note(state, params)["pinned"] ^= True
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        action = "Unpin" if self.target_pinned else "Pin"
        if params["via"] == "menu":
            yield from ui.open_app("Notes")
            yield from ui.long_press(params["title"], kind="list_item")
            yield from ui.tap(action, kind="menu_item")
        else:
            yield from self.open_note(ui, params)
            yield from ui.tap(id="pin", desc=action)
            yield from ui.press("back")
        yield PhoneAction("finish", status="success")


class NotesUnpinNote(NotesPinNote):
    id = "NotesUnpinNote"
    template = 'Unpin the note titled "{title}".'
    target_pinned = True


class NotesReadNote(NoteTask):
    id = "NotesReadNote"
    template = 'What does the note titled "{title}" say? Answer with its full text.'
    complexity = 2
    max_steps = 10
    needs_answer = True
    counts = (8, 14)
    body_lines = (2, 2)  # the list shows only the first line: the note must be opened

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Answer(same_words(params["body"]))]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        return copy.deepcopy(final), params["body"].split("\n")[0]  # the list's preview

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_note(ui, params)
        body = ui.find(id="body", kind="text_field")
        if body is None:
            raise OracleError("the note's text field is not on screen")
        yield PhoneAction("answer", text=" ".join(body.node.text.split()))


TEMPLATES: list[TaskTemplate] = [
    NotesCreateNote(), NotesEditNote(), NotesReplaceNoteText(), NotesRenameNote(),
    NotesDeleteNote(), NotesPinNote(), NotesUnpinNote(), NotesReadNote(),
]
