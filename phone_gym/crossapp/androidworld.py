"""AndroidWorld's eight multi-app tasks: read something in one app (a receipt photo in the
gallery, a video's frames in VLC, a text file in Markor) and enter it in another (a note in
Markor, expenses in Pro Expense, recipes in Broccoli), and a note that is also texted.

The instruction names the source, never its values: a picture's lines are drawn into the
screenshot only (``kit.Picture``), a video's words show frame by frame, a text file shows in
Markor's editor. Oracles open the source on screen first, as a user would, and enter the
values it shows (the expense oracles parse the rows off the picture's text or the editor).
Every source has decoys (other photos, videos, notes, rows of the text file that are not
asked for), and the app's database holds noise records, so that entering every candidate
fails (the ``CreateRecords`` counts). The noise is AndroidWorld's size: ten rows in the
tracker or Broccoli, 100 expense rows in ``my_expenses.txt``, 40 recipes in
``RecipeAddMultipleRecipesFromMarkor2``'s file.

Transcriptions are checked by the SHA-1 of the file's text (which a phone over adb reads
too): the exact text, with a comma and a space or a bare comma between fields, trailing
whitespace, one final line break and Windows line breaks aside (AndroidWorld uses a fuzzy
ratio; a hash cannot, so the accepted spellings are listed).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..actions import PhoneAction
from ..mockapps.broccoli.fixtures import COLLECTION as RECIPES
from ..mockapps.broccoli.fixtures import (
    PREP_TIMES,
    as_blocks,
    as_csv,
    enter_recipe,
    noise_recipes,
    recipe_fields,
    sample_recipes,
    write_recipes,
)
from ..mockapps.expense.fixtures import COLLECTION as EXPENSES
from ..mockapps.expense.fixtures import KEYS as EXPENSE_KEYS
from ..mockapps.expense.fixtures import LABELS as EXPENSE_LABELS
from ..mockapps.expense.fixtures import (
    enter_expense,
    listing_row,
    noise_expenses,
    sample_expenses,
    write_expenses,
)
from ..mockapps.gallery.fixtures import (
    DCIM,
    PICTURES,
    random_suffix,
    receipt_lines,
    receipt_rows,
    seed_photos,
    write_picture,
)
from ..mockapps.markor.fixtures import (
    SENTENCES,
    MarkorTask,
    create_note,
    noise_notes,
    note_name,
    note_path,
    open_note,
    text_is,
    where,
    write_note,
)
from ..mockapps.messages.fixtures import COLLECTION as SMS
from ..mockapps.messages.fixtures import (
    TELEPHONY_PROVIDER,
    seed_chatter,
    send_sms,
    sms_number,
    sms_numbers,
)
from ..mockapps.messages.manifest import MANIFEST as MESSAGES
from ..mockapps.vlc.fixtures import clip_library, sample_clips, seed_videos, video_file
from ..tasks.aw import AW_START
from ..tasks.driver import Driver, OracleError
from ..tasks.families import (
    CreateRecord,
    CreateRecords,
    parse_listing,
    record_keys,
    records_shown,
)
from ..tasks.task import Task
from ..tasks.vocab import FIRST_NAMES, pick
from ..verifiers import (
    Allow,
    Allowed,
    Criterion,
    Matcher,
    NearMiss,
    Record,
    normalize_text,
    same_phone,
    same_text,
)
from ..verifiers.state import DeviceState
from ..world.device import LAUNCHER_PACKAGE

RECIPE_KEYS = ("title", "description", "servings", "preparation_time", "ingredients",
               "directions")
RECIPE_LABELS = {"title": "Title", "description": "Description", "servings": "Servings",
                 "preparation_time": "Preparation time", "ingredients": "Ingredients",
                 "directions": "Directions"}
#: How wide a picture's lines are drawn (longer ones are wrapped, as on a printed card).
CARD_WIDTH = 40
#: Names of the transcribed receipt's note (AndroidWorld: always ``receipt.md``).
RECEIPT_NOTES = ("receipt.md", "receipt_lines.md", "store_receipt.md", "purchases.md",
                 "receipt_copy.md", "expenses_receipt.md")


# --- oracle steps ------------------------------------------------------------------------------
def view_picture(ui: Driver, path: str) -> Iterator[PhoneAction]:
    """Open the picture at ``path`` full screen in the gallery (from its album list)."""
    folder, _, name = path.rpartition("/")
    yield from ui.open_app("Gallery")
    yield from ui.tap(folder.rpartition("/")[2], kind="thumb")
    yield from ui.tap(name)


def clock_seconds(text: str) -> int:
    """A player's ``M:SS`` as seconds."""
    minutes, _, secs = text.partition(":")
    return int(minutes) * 60 + int(secs)


def read_video(ui: Driver, name: str,
               every: int) -> Generator[PhoneAction, None, list[str]]:
    """Play video ``name`` in VLC and read the names it shows (the text drawn into its
    frames), looking again each ``every`` seconds until the next look would be past its
    end; the names read, in order, are the last value sent back (``yield from``)."""
    ui.why(f'Opening VLC to play "{name}"')
    yield from ui.open_app("VLC")
    if ui.find(name, kind="list_item") is None:
        ui.why(f'"{name}" is not listed here: the Video tab lists the videos')
        yield from ui.tap(id="tab_video", kind="tab")
    ui.why(f'Playing "{name}" to read the names it shows')
    yield from ui.tap(name, kind="list_item")
    yield from ui.tap(id="play_pause")
    names: list[str] = []
    end = clock_seconds(ui.must(id="duration").text)
    while True:
        for shown in ui.picture_texts():
            if shown and (not names or names[-1] != shown):
                names.append(shown)
        at = clock_seconds(ui.must(id="elapsed").text)
        if at + every > end:
            break
        ui.why(f"The video shows {names[-1] if names else 'nothing yet'} at "
               f"{ui.must(id='elapsed').text} of {ui.must(id='duration').text}: watching on")
        yield PhoneAction("wait", seconds=float(every))
    return names


def card_lines(text: str) -> list[str]:
    """``text`` as a picture's lines: wrapped to ``CARD_WIDTH``, blank lines kept."""
    out: list[str] = []
    for line in text.split("\n"):
        out.extend(textwrap.wrap(line, CARD_WIDTH, subsequent_indent="  ") or [""])
    return out


def spellings(lines: Sequence[str]) -> list[str]:
    """The texts a transcription of ``lines`` (fields separated by ", ") may be saved as:
    as written, or with bare commas between fields."""
    text = "\n".join(lines)
    return [text, text.replace(", ", ",")]


# --- transcribing into a note ------------------------------------------------------------------
class MarkorTranscribeReceipt(MarkorTask, CreateRecord):
    """Write a receipt photo's transactions as CSV into a new Markor note. Decoy photos
    (another receipt among them) sit in the gallery."""

    tags = frozenset({"handoff"})
    apps = ("Gallery", "Markor")
    template = ('Look at the picture "{image}" in Simple Gallery and write its transactions '
                'into a new Markor note named "{file_name}", in CSV with the header '
                '"Date, Item, Amount".')
    complexity, max_steps = 2, 18

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"image": f"receipt_{random_suffix(rng)}.jpg",
                "file_name": str(pick(rng, RECEIPT_NOTES)),
                "lines": receipt_lines(receipt_rows(rng)),
                "other": f"receipt_{random_suffix(rng)}.jpg",
                "other_lines": receipt_lines(receipt_rows(rng)),
                "notes": noise_notes(rng, int(rng.integers(1, 4)))}

    def setup(self, state: DeviceState, params: Mapping[str, Any],
              rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        write_picture(state, f"{DCIM}/{params['image']}", params["lines"])
        write_picture(state, f"{DCIM}/{params['other']}", params["other_lines"])
        seed_photos(state, rng, 3, folders=(DCIM, PICTURES))

    def absent(self, p: Mapping[str, Any]) -> list[str]:
        return [note_path(p["file_name"])]

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {**where(note_path(p["file_name"])), "text_sha1": text_is(*spellings(p["lines"]))}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from view_picture(ui, f"{DCIM}/{p['image']}")
        yield from create_note(ui, p["file_name"], ["\n".join(p["lines"])])
        yield from ui.finish()


class MarkorTranscribeVideo(MarkorTask, CreateRecord):
    """Each 8 seconds the video shows another first name: write them, comma-separated, into
    a new Markor note. 5 to 20 other videos are on the phone."""

    tags = frozenset({"handoff"})
    apps = ("VLC", "Markor")
    template = ('Play the video "{video}" in VLC and write the names it shows, in order and '
                'separated by commas, into a new Markor note named "{file_name}".')
    complexity, max_steps = 2, 20
    seconds_each: ClassVar[int] = 8

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        count = int(rng.integers(5, 21))
        video, *others = sample_clips(rng, count + 1)
        stem = video.rsplit(".", 1)[0]
        return {"video": video, "file_name": f"{stem}_transcription.txt",
                "names": [str(n) for n in pick(rng, FIRST_NAMES, int(rng.integers(2, 5)))],
                "others": others, "notes": noise_notes(rng, int(rng.integers(1, 3)))}

    def setup(self, state: DeviceState, params: Mapping[str, Any],
              rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        seed_videos(state, clip_library(rng, params["others"]))
        frames = [n for n in params["names"] for _ in range(self.seconds_each)]
        path, text = video_file(params["video"], len(frames), frames)
        state.write_file(path, text.encode("utf-8"))

    def absent(self, p: Mapping[str, Any]) -> list[str]:
        return [note_path(p["file_name"])]

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {**where(note_path(p["file_name"])),
                "text_sha1": text_is(*spellings([", ".join(p["names"])]))}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        names = yield from read_video(ui, p["video"], self.seconds_each)
        ui.why(f"The video showed {', '.join(names)}: writing them into the new note "
               f"\"{p['file_name']}\"")
        yield from create_note(ui, p["file_name"], [", ".join(names)])
        yield from ui.finish()


# --- a note, also texted -----------------------------------------------------------------------
@dataclass(frozen=True)
class SentInForeground(Record):
    """A ``Record`` of the SMS store that also needs SMS Messenger (``package``) on screen at
    the end (AndroidWorld's SMS check): one criterion, so a composite's progress counts the
    text as one part. A snapshot without a foreground app (a real phone's) checks the record
    only."""

    package: str = ""

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        ok, why = super().check(state, answer)
        if not ok or "foreground" not in state or state["foreground"] == self.package:
            return ok, why
        return False, f"{state['foreground']!r} is on screen, expected {self.package!r}"


class MarkorCreateNoteAndSms(MarkorTask):
    """Two parts, one criterion each (``info["progress"]`` is AndroidWorld's fraction, the
    reward stays 0/1): the note with the text, and one sent SMS to the number with the same
    text while SMS Messenger is on screen at the end. Nothing else may change."""

    tags = frozenset({"handoff"})
    apps = ("Markor", MESSAGES.name)
    template = ('In Markor, create a note named "{file_name}" with the text: {text} Then text '
                'the same text to {number}.')
    complexity, max_steps = 2, 18
    real = True
    data_packages = (TELEPHONY_PROVIDER,)

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        number = sms_number(rng)
        return {"file_name": note_name(rng), "text": str(pick(rng, SENTENCES)),
                "number": number, "others": sms_numbers(rng, int(rng.integers(1, 3)), [number]),
                "notes": noise_notes(rng, int(rng.integers(1, 3)))}

    def setup(self, state: DeviceState, params: Mapping[str, Any],
              rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        seed_chatter(state, rng, params["others"])

    def absent(self, p: Mapping[str, Any]) -> list[str]:
        return [note_path(p["file_name"])]

    def note(self, p: Mapping[str, Any]) -> dict[str, Any]:
        return {**where(note_path(p["file_name"])), "text_sha1": text_is(p["text"])}

    def sms(self, p: Mapping[str, Any]) -> dict[str, Any]:
        return {"address": same_phone(p["number"]), "body": same_text(p["text"]), "box": "sent"}

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        before = len(record_keys(initial, SMS, self.sms(p)))
        return [Record(self.collection, self.note(p), count=1),
                SentInForeground(SMS, self.sms(p), count=before + 1,
                                 package=MESSAGES.package)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(self.collection, "added", where=where(note_path(p["file_name"])), max=1),
                Allow(SMS, "added", max=1)]

    def declared_near_misses(self, initial: Mapping[str, Any], final: Mapping[str, Any],
                             params: Mapping[str, Any], answer: str | None) -> list[NearMiss]:
        if "foreground" not in final:
            return []
        return [NearMiss({**final, "foreground": LAUNCHER_PACKAGE}, answer,
                         "sent, then left SMS Messenger for the home screen")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why(f'Opening Markor to create the note "{p["file_name"]}"')
        yield from ui.open_app("Markor")
        if ui.find(p["file_name"], kind="list_item") is None:  # made before a restart?
            ui.why(f'Markor lists no "{p["file_name"]}" yet: creating it with the text')
            yield from ui.tap(id="new")
            yield from ui.fill("new_name", p["file_name"])
            yield from ui.tap(id="button_ok")
            yield from ui.tap(id="editor_body", kind="text_field")
            yield PhoneAction("type", text=p["text"])
            yield from ui.tap(id="save")
        ui.why(f"The note is saved: texting the same text to {p['number']}")
        yield from send_sms(ui, p["number"], p["text"])
        yield from ui.finish()


# --- expenses read from a picture or a text file -----------------------------------------------
def expense_records(expenses: Sequence[Mapping[str, Any]],
                    tag: str = "") -> list[Mapping[str, Any]]:
    """Where-clauses of the expenses to enter (a ``tag`` ending the note may be kept)."""
    def note(text: str) -> Matcher:
        ok = {normalize_text(text), normalize_text(f"{text} {tag}")}
        return Matcher(lambda v: normalize_text(v) in ok, f"note like {text!r}")
    return [{"name": same_text(e["name"]), "amount": e["amount"], "category": e["category"],
             "note": note(e["note"])} for e in expenses]


def expense_csv(expenses: Sequence[Mapping[str, Any]]) -> str:
    return as_csv([listing_row(e) for e in expenses], EXPENSE_KEYS,
                  [EXPENSE_LABELS[k] for k in EXPENSE_KEYS])


def unwrap_card(lines: Sequence[str]) -> str:
    """A picture's text as written before ``card_lines`` wrapped it: a line indented by two
    spaces continues the line above."""
    out: list[str] = []
    for line in "\n".join(lines).split("\n"):
        if line.startswith("  ") and out:
            out[-1] += " " + line[2:]
        else:
            out.append(line)
    return "\n".join(out)


def cents(text: str) -> int:
    """The amount of a money text as shown ("-¥112.50", "$1,204.99"), in cents, unsigned."""
    whole, _, frac = re.sub(r"[^\d.]", "", text).partition(".")
    return int(whole or 0) * 100 + int((frac + "00")[:2])


def enter_expenses(ui: Driver, rows: Sequence[Mapping[str, str]], source: str,
                   seen: str = "") -> Iterator[PhoneAction]:
    """Open Pro Expense and add the ``rows`` read off a source (CSV fields as shown) that
    its list does not show yet; ``source`` ends the reasons' "the expenses ..." ("the
    picture lists"), ``seen`` opens the first (what the source showed).
    The list puts the newest first: an expense entered earlier (today) heads it, so the
    rows on screen at its top tell what is there already."""
    ui.why(f"{seen}Opening Pro Expense to enter the {len(rows)} expenses {source}")
    yield from ui.open_app("Expense")
    listed = {(r.get("name", ""), cents(r["amount"]))
              for r in records_shown(ui, "expense").values() if r.get("amount")}
    there: list[str] = []  # entered before (a restarted script): said with the next step
    for i, row in enumerate(rows, 1):
        amount = cents(row["amount"])
        if (row["name"], amount) in listed:
            there.append(f'"{row["name"]}" ({row["amount"]})')
            continue
        before = f"Pro Expense lists {' and '.join(there)} already. " if there else ""
        there = []
        ui.why(f'{before}Of the {len(rows)} expenses {source}, entering #{i}, '
               f'"{row["name"]}", {row["amount"]}, {row["category"]}, note "{row["note"]}"')
        yield from enter_expense(ui, {**row, "amount": amount})
    ui.why(f"Pro Expense holds every expense {source}")


class ExpenseAddMultipleFromGallery(CreateRecords):
    """Enter the three expenses a picture lists. Ten other expenses are in the tracker
    already, each also drawn in a decoy picture of the same album."""

    tags = frozenset({"handoff", "long_horizon"})
    apps, collection = ("Gallery", "Expense"), EXPENSES
    template = ('Add the expenses listed in the picture "{image}" (in Simple Gallery) to '
                'Pro Expense.')
    complexity, max_steps = 5, 60
    start = AW_START

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        expenses = sample_expenses(rng, 13)
        return {"image": "expenses.jpg", "expenses": expenses[:3], "noise": expenses[3:]}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        write_expenses(state, params["noise"])
        write_picture(state, f"{PICTURES}/{params['image']}",
                      card_lines(expense_csv(params["expenses"])))
        for i, expense in enumerate(params["noise"]):
            write_picture(state, f"{PICTURES}/expense_{i + 1}.jpg",
                          card_lines(expense_csv([expense])))

    def records(self, params: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        return expense_records(params["expenses"])

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why(f'Opening the picture "{p["image"]}" in Simple Gallery to read its expenses')
        yield from view_picture(ui, f"{PICTURES}/{p['image']}")
        text = unwrap_card([line for t in ui.picture_texts() for line in t.split("\n")])
        rows = parse_listing(text, EXPENSE_LABELS)
        if not rows:
            raise OracleError(f'"{p["image"]}" shows no expenses')
        yield from enter_expenses(ui, rows, f'the picture "{p["image"]}" lists')
        yield from ui.finish()


class ExpenseAddMultipleFromMarkor(CreateRecords):
    """Of a Markor file of transactions, enter the two whose note ends "Reimbursable." (the
    tag may be kept in the note or left out). The 100 other rows (AndroidWorld's number;
    their names may repeat, never a target's) are in the tracker already."""

    tags = frozenset({"handoff"})
    apps, collection = ("Markor", "Expense"), EXPENSES
    template = ('Go through the transactions in "{file_name}" in Markor and add the ones '
                'marked as reimbursable to Pro Expense.')
    complexity, max_steps = 5, 60
    start = AW_START
    tag: ClassVar[str] = "Reimbursable."
    noise: ClassVar[int] = 100

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"file_name": "my_expenses.txt", "expenses": sample_expenses(rng, 2)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        noise = noise_expenses(rng, self.noise,
                               avoid_names=[e["name"] for e in params["expenses"]])
        write_expenses(state, noise)
        tagged = [{**e, "note": f"{e['note']} {self.tag}"} for e in params["expenses"]]
        rows = [*tagged, *noise]
        write_note(state, params["file_name"],
                   expense_csv([rows[i] for i in rng.permutation(len(rows))]))

    def records(self, params: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        return expense_records(params["expenses"], self.tag)

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why(f'Opening "{p["file_name"]}" in Markor to read its transactions')
        yield from open_note(ui, p["file_name"])
        rows = parse_listing(ui.must(id="editor_body").text, EXPENSE_LABELS)
        marked = [{**r, "note": r["note"].removesuffix(self.tag).strip()} for r in rows
                  if r.get("note", "").endswith(self.tag)]
        if not marked:
            raise OracleError(f'"{p["file_name"]}" marks no transaction {self.tag}')
        seen = (f'"{p["file_name"]}" lists {len(rows)} transactions; the notes of '
                f'{" and ".join(r["name"] for r in marked)} end "{self.tag}". ')
        yield from enter_expenses(ui, marked, f'"{p["file_name"]}" marks reimbursable', seen)
        yield from ui.finish()


# --- recipes read from a picture or a text file ------------------------------------------------
def recipe_listing(recipes: Sequence[Mapping[str, Any]], fmt: str) -> str:
    if fmt == "csv":
        return as_csv(recipes, RECIPE_KEYS, [RECIPE_LABELS[k] for k in RECIPE_KEYS])
    return as_blocks(recipes, RECIPE_KEYS, RECIPE_LABELS)


def enter_recipes(ui: Driver, recipes: Sequence[Mapping[str, Any]]) -> Iterator[PhoneAction]:
    """Open Broccoli and add the ``recipes`` not there yet (planned from state)."""
    yield from ui.open_app("Broccoli")
    for recipe in recipes:
        if ui.find(recipe["title"], kind="list_item") is None:  # not listed yet
            ui.why(f'Adding the recipe "{recipe["title"]}" the listing gives')
            yield from enter_recipe(ui, recipe)


class RecipesFrom(CreateRecords):
    """Enter the three recipes a source lists into Broccoli, which holds 10 others."""

    tags = frozenset({"handoff", "long_horizon"})
    apps = ("Markor", "Broccoli")
    collection = RECIPES
    start = AW_START
    complexity, max_steps = 5, 60
    noise: ClassVar[int] = 10

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        recipes = sample_recipes(rng, 3 + self.noise)
        return {"recipes": recipes[:3], "noise": recipes[3:],
                "format": str(pick(rng, ("csv", "text")))}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        write_recipes(state, params["noise"])

    def records(self, params: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        return [recipe_fields(r) for r in params["recipes"]]

    def show(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        """Open the source: the Markor note ``file_name``."""
        yield from open_note(ui, p["file_name"])

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.show(ui, p)
        yield from enter_recipes(ui, p["recipes"])
        yield from ui.finish()


class RecipeAddMultipleRecipesFromImage(RecipesFrom):
    apps = ("Gallery", "Broccoli")
    template = 'Add the recipes shown in the picture "{image}" (in Simple Gallery) to Broccoli.'

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {**super().sample_params(rng), "image": "recipes.jpg", "format": "text"}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        write_picture(state, f"{PICTURES}/{params['image']}",
                      card_lines(recipe_listing(params["recipes"], "text")))
        seed_photos(state, rng, 3, folders=(PICTURES, DCIM))

    def show(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from view_picture(ui, f"{PICTURES}/{p['image']}")


class RecipeAddMultipleRecipesFromMarkor(RecipesFrom):
    template = 'Add the recipes written in "{file_name}" in Markor to Broccoli.'

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {**super().sample_params(rng), "file_name": "recipes.txt"}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        write_note(state, params["file_name"],
                   recipe_listing(params["recipes"], params["format"]))


class RecipeAddMultipleRecipesFromMarkor2(RecipesFrom):
    """The file lists 3 recipes taking ``prep_time`` among 40 taking other times
    (AndroidWorld's numbers; their titles may repeat, never a target's), and the 40 are in
    Broccoli already."""

    template = ('Add to Broccoli the recipes in "{file_name}" in Markor that take {prep_time} '
                'to prepare.')
    noise = 40

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        prep = str(pick(rng, PREP_TIMES))
        recipes = [{**r, "preparation_time": prep} for r in sample_recipes(rng, 3)]
        return {"recipes": recipes, "prep_time": prep, "file_name": "recipes.txt",
                "format": str(pick(rng, ("csv", "text")))}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        noise = noise_recipes(rng, self.noise,
                              avoid_titles=[r["title"] for r in params["recipes"]],
                              prep_times=[t for t in PREP_TIMES if t != params["prep_time"]])
        write_recipes(state, noise)
        rows = [*params["recipes"], *noise]
        write_note(state, params["file_name"],
                   recipe_listing([rows[i] for i in rng.permutation(len(rows))],
                                  params["format"]))


TEMPLATES: list[Task] = [
    MarkorTranscribeReceipt(), MarkorTranscribeVideo(), MarkorCreateNoteAndSms(),
    ExpenseAddMultipleFromGallery(), ExpenseAddMultipleFromMarkor(),
    RecipeAddMultipleRecipesFromImage(), RecipeAddMultipleRecipesFromMarkor(),
    RecipeAddMultipleRecipesFromMarkor2(),
]
