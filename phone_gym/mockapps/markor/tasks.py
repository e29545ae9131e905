"""Markor tasks: AndroidWorld's Markor tasks on PhoneWorld's Markor (notes are shared files).

Every template's params list the notes its setup writes (``notes``: ``[folder, name, text,
minutes]``, the folder relative to Markor's, ``minutes`` the note's age relative to the
AndroidWorld clock) and the subfolders it makes (``folders``), so a real phone's owner's
files are never overwritten (``conflicts``). Notes are checked by path and by the SHA-1 of
their text as a note's text compares (``fixtures.text_is``, ``text_sha1``: spaces at the
ends of lines, blank lines at the ends and case aside, as AndroidWorld's checks), which a
phone over adb reads too; the templates whose setup and checks go through files only are
``real``.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping, Sequence
from datetime import timedelta
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import MAX_SCROLLS, Driver
from ...tasks.families import CreateRecord, DeleteRecord
from ...tasks.task import Task, data_catalogue
from ...tasks.vocab import pick
from ...verifiers import Allow, Allowed, Criterion, Matcher, NoRecord, Record, lookup
from ...verifiers.state import DeviceState
from ...world.app import app_strings
from ...world.state import WorldState
from .app import KEEP, MARKOR_DIR, MarkorApp
from .fixtures import (
    COLLECTION,
    EXTENSIONS,
    NOISE_TITLES,
    SENTENCES,
    SUBFOLDERS,
    folder_path,
    make_folder,
    note_name,
    note_names,
    note_path,
    random_text,
    sha1,
    text_is,
    where,
    write_note,
)

#: The fixed text of each bystander note.
NOISE_TEXT = dict(zip(NOISE_TITLES, SENTENCES, strict=False))
#: How many bystander notes (``rng.integers`` bounds: 1 to 20) the note tasks seed, as
#: AndroidWorld's ``generate_noise_files`` does.
AW_NOISE = (1, 21)
#: Fewer for the rename tasks: their 12 steps hold the new note, its text and the old
#: note's deletion, with no step left to scroll a longer list.
FEW_NOISE = (2, 5)
#: Folders outside Markor's where bystander files lie.
OUTSIDE_DIRS = ("/sdcard/Download", "/sdcard/Documents")


def noise_notes(rng: np.random.Generator, k: int, folder: str = "") -> list[list[Any]]:
    """``k`` bystander notes ``[folder, name, text, minutes]`` (titles from
    ``NOISE_TITLES``, each with its own fixed text, so that one left on a real phone by an
    earlier episode is no clash), written days to weeks ago."""
    return [[folder, f"{title}.md", NOISE_TEXT[title], -int(rng.integers(1440, 40000))]
            for title in pick(rng, NOISE_TITLES, k)]


class MarkorTask(Task):
    """Shared parts: the app, AndroidWorld's clock, and the setup
    from ``notes`` and ``folders`` params."""

    apps: ClassVar[tuple[str, ...]] = ("Markor",)
    collection: ClassVar[str] = COLLECTION
    start = AW_START  # real phones watch what the manifest names (its ``folders`` too)
    #: In zh-CN the notes hold Chinese text, bystander notes have Chinese titles
    #: (``strings/zh-CN.data.json``); a template runs there when it declares zh-CN.
    data = {"zh-CN": data_catalogue(__file__, "zh-CN")}

    def setup(self, state: DeviceState, params: Mapping[str, Any],
              rng: np.random.Generator) -> None:
        for folder in params.get("folders", ()):
            make_folder(state, folder)
        for folder, name, text, minutes in params.get("notes", ()):
            write_note(state, name, text, folder, when=AW_START + timedelta(minutes=minutes))

    def absent(self, params: Mapping[str, Any]) -> list[str]:
        """Paths that must not exist before the task (what it creates)."""
        return []

    def conflicts(self, params: Mapping[str, Any], existing: Mapping[str, Any]) -> str | None:
        return self.file_conflicts(params, existing) or super().conflicts(params, existing)

    def file_conflicts(self, params: Mapping[str, Any],
                       existing: Mapping[str, Any]) -> str | None:
        """A note the setup writes already there with other text (the phone owner's), or a
        path the task creates already taken."""
        rows = lookup(existing, self.collection)
        rows = rows if isinstance(rows, Mapping) else {}
        for folder, name, text, _ in params.get("notes", ()):
            row = rows.get(note_path(name, folder))
            if isinstance(row, Mapping) and row.get("sha1") != sha1(text):
                return f"{note_path(name, folder)} already holds other text"
        for path in self.absent(params):
            if path in rows or any(str(p).startswith(path + "/") for p in rows):
                return f"{path} already exists"
        return None

    def open_markor(self, ui: Driver) -> Iterator[PhoneAction]:
        yield from ui.open_app("Markor")

    def type_lines(self, ui: Driver, lines: Sequence[str]) -> Iterator[PhoneAction]:
        """Type ``lines`` into the focused field, a line break (enter) between each."""
        for i, line in enumerate(lines):
            if i:
                yield from ui.press("enter")
            if line:
                yield PhoneAction("type", text=line)

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        """A created file must be the one asked for (a family's ``Allow`` of any one added
        file would let a first wrong file through)."""
        if isinstance(self, CreateRecord):
            fields = self.fields(params)
            return [Allow(self.collection, "added",
                          where={k: fields[k] for k in ("name", "folder")}, max=1)]
        return super().allowed(params, initial)

    def new_note(self, ui: Driver, name: str) -> Iterator[PhoneAction]:
        """From the browser: create note ``name`` and land in its editor, the text focused."""
        yield from ui.tap(id="new")
        yield from ui.fill("new_name", name)
        yield from ui.tap(id="button_ok")
        yield from ui.tap(id="editor_body", kind="text_field")


# --- creating ------------------------------------------------------------------------------
class MarkorCreateNote(MarkorTask, CreateRecord):
    template = 'In Markor, create a note named "{file_name}" with the text: {text}'
    instructions = {"zh-CN": "在 Markor 里新建一个名为“{file_name}”的笔记，内容是：{text}"}
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    complexity, max_steps = 2, 16
    real = True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        noise = noise_notes(rng, int(rng.integers(1, 4)))
        return {"file_name": note_name(rng), "text": pick(rng, SENTENCES), "notes": noise}

    def absent(self, p: Mapping[str, Any]) -> list[str]:
        return [note_path(p["file_name"])]

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {**where(note_path(p["file_name"])), "text_sha1": text_is(p["text"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_markor(ui)
        yield from self.new_note(ui, p["file_name"])
        yield PhoneAction("type", text=p["text"])
        yield from ui.tap(id="save")
        yield from ui.finish()


class MarkorCreateNoteFromClipboard(MarkorTask, CreateRecord):
    """The clipboard's text is made by the setup (from its generator), so the params do not
    hold it; the check reads it from the initial state."""

    template = ('In Markor, create a note named "{file_name}" and paste the text that is on '
                'the clipboard into it.')
    instructions = {"zh-CN": "在 Markor 里新建一个名为“{file_name}”的笔记，"
                             "把剪贴板上的文字粘贴进去。"}
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    complexity, max_steps = 1, 14

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        noise = noise_notes(rng, int(rng.integers(1, 4)))
        return {"file_name": note_name(rng), "notes": noise}

    def setup(self, state: DeviceState, params: Mapping[str, Any],
              rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        if isinstance(state, WorldState):
            state.set_clipboard(random_text(rng, 10))

    def absent(self, p: Mapping[str, Any]) -> list[str]:
        return [note_path(p["file_name"])]

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return where(note_path(p["file_name"]))

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        clip = str(lookup(initial, "clipboard") or "")
        return [Record(self.collection, self.fields(p), {"text_sha1": text_is(clip)}, count=1)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_markor(ui)
        yield from self.new_note(ui, p["file_name"])
        yield from ui.long_press(id="editor_body", kind="text_field")
        yield from ui.tap(ui.system_label("Paste"), kind="menu_item")
        yield from ui.tap(id="save")
        yield from ui.finish()


class MarkorCreateFolder(MarkorTask, CreateRecord):
    """A folder exists in the files store through its ``.keep`` placeholder (see the app)."""

    template = 'In Markor, create a new folder named "{folder_name}".'
    instructions = {"zh-CN": "在 Markor 里新建一个名为“{folder_name}”的文件夹。"}
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    complexity, max_steps = 1, 10

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        when = AW_START - timedelta(seconds=int(rng.integers(0, 30 * 86400)))
        noise = noise_notes(rng, int(rng.integers(*AW_NOISE)))
        return {"folder_name": f"folder_{when:%Y%m%d_%H%M%S}", "notes": noise}

    def absent(self, p: Mapping[str, Any]) -> list[str]:
        return [folder_path(p["folder_name"])]

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": KEEP, "folder": folder_path(p["folder_name"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_markor(ui)
        yield from ui.tap(id="new")
        yield from ui.fill("new_name", p["folder_name"])
        yield from ui.tap(id="button_folder")
        yield from ui.finish()


class MarkorMergeNotes(MarkorTask, CreateRecord):
    template = ('In Markor, make a new note named "{new_file_name}" that holds the text of '
                '"{file1_name}", "{file2_name}" and "{file3_name}", in that order, with a '
                'blank line between each.')
    instructions = {"zh-CN": "在 Markor 里新建一个名为“{new_file_name}”的笔记，依次放入"
                             "“{file1_name}”“{file2_name}”和“{file3_name}”的内容，"
                             "每段之间空一行。"}
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    complexity, max_steps = 5, 78
    real = True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        names = note_names(rng, 3)
        texts = [random_text(rng, 20) for _ in names]
        notes = [["", n, t, -int(rng.integers(60, 20000))] for n, t in zip(names, texts,
                                                                            strict=True)]
        notes += noise_notes(rng, int(rng.integers(0, 3)))
        return {"file1_name": names[0], "file2_name": names[1], "file3_name": names[2],
                "new_file_name": random_text(rng, 8) + ".md", "notes": notes}

    def merged(self, p: Mapping[str, Any]) -> str:
        texts = {n: t for _, n, t, _ in p["notes"]}
        return "\n\n".join(texts[p[f"file{i}_name"]] for i in (1, 2, 3))

    def absent(self, p: Mapping[str, Any]) -> list[str]:
        return [note_path(p["new_file_name"])]

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {**where(note_path(p["new_file_name"])), "text_sha1": text_is(self.merged(p))}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_markor(ui)
        texts = []
        for i in (1, 2, 3):
            yield from ui.tap(p[f"file{i}_name"], kind="list_item")
            texts.append(ui.must(id="editor_body", kind="text_field").text.strip())
            yield from ui.press("back")
        yield from self.new_note(ui, p["new_file_name"])
        yield from self.type_lines(ui, [texts[0], "", texts[1], "", texts[2]])
        yield from ui.tap(id="save")
        yield from ui.finish()


# --- deleting ------------------------------------------------------------------------------
class MarkorDeleteNote(MarkorTask, DeleteRecord):
    template = 'In Markor, delete the note "{file_name}".'
    instructions = {"zh-CN": "在 Markor 里删除笔记“{file_name}”。"}
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    complexity, max_steps = 1, 10
    real = True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        name = note_name(rng)
        notes = [["", name, pick(rng, SENTENCES), -int(rng.integers(60, 20000))],
                 *noise_notes(rng, int(rng.integers(*AW_NOISE)))]
        return {"file_name": name, "notes": [notes[int(i)] for i in rng.permutation(len(notes))]}

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return where(note_path(p["file_name"]))

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_markor(ui)
        yield from ui.long_press(p["file_name"], kind="list_item")
        yield from ui.tap(id="delete")
        yield from ui.tap(id="button_delete")
        yield from ui.finish()


class MarkorDeleteNewestNote(MarkorTask, DeleteRecord):
    """Modification times are Markor's (PhoneWorld only): not a real-phone template."""

    template = 'In Markor, delete the note that was modified most recently.'
    instructions = {"zh-CN": "在 Markor 里删除最近修改过的那条笔记。"}
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    complexity, max_steps = 1, 10

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        k = int(rng.integers(2, 7))
        names = note_names(rng, k)
        minutes = [int(m) for m in rng.choice(np.arange(-500, 501), size=k, replace=False)]
        notes = [["", n, pick(rng, SENTENCES), m] for n, m in zip(names, minutes, strict=True)]
        newest = names[int(np.argmax(minutes))]
        return {"newest": newest, "notes": notes}

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return where(note_path(p["newest"]))

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_markor(ui)
        yield from ui.long_press(p["newest"], kind="list_item")
        yield from ui.tap(id="delete")
        yield from ui.tap(id="button_delete")
        yield from ui.finish()


class MarkorDeleteAllNotes(MarkorTask, DeleteRecord):
    template = 'Delete all my notes in Markor.'
    instructions = {"zh-CN": "把我在 Markor 里的笔记全部删掉。"}
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    complexity, max_steps = 1, 14
    real = True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        outside = [[f"{folder}/{name}", pick(rng, SENTENCES)] for folder, name in
                   zip(OUTSIDE_DIRS, note_names(rng, len(OUTSIDE_DIRS)), strict=True)]
        return {"notes": noise_notes(rng, int(rng.integers(2, 7))), "outside": outside}

    def setup(self, state: DeviceState, params: Mapping[str, Any],
              rng: np.random.Generator) -> None:
        """Markor's notes, and a file in Download and in Documents (outside Markor's folder:
        bystanders that a broom deleting more than the notes would take). Notes already in
        Markor's folder are removed first, as AndroidWorld's setup does (the task deletes
        every note there anyway)."""
        for name in state.list_dir(MARKOR_DIR):
            if not name.startswith("."):
                state.remove_file(note_path(name))
        super().setup(state, params, rng)
        for path, text in params["outside"]:
            state.write_file(path, text.encode("utf-8"))

    def absent(self, p: Mapping[str, Any]) -> list[str]:
        return [path for path, _ in p["outside"]]

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"folder": MARKOR_DIR}

    def conflicts(self, params: Mapping[str, Any], existing: Mapping[str, Any]) -> str | None:
        return self.file_conflicts(params, existing)  # the owner's notes: deleted too

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        """The notes go (one edited on the way, then deleted, is no damage); a phone that
        holds subfolders of Markor (none is seeded) may lose them too."""
        inside = Matcher(lambda v: str(v).startswith(MARKOR_DIR + "/"), "inside Markor's")
        return [*super().allowed(p, initial),
                Allow(self.collection, "modified", where=self.target(p), max=len(p["notes"])),
                Allow(self.collection, "removed", where={"folder": inside}, max=10_000)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        """Select the notes (long press the first, tap the others), delete them."""
        ui.why("Opening Markor to see which notes it lists")
        yield from self.open_markor(ui)
        names = yield from listed_names(ui)
        if names:
            ui.why(f"Markor lists {len(names)} notes: selecting them all, starting with "
                   f"{names[0]}")
            yield from ui.long_press(names[0], kind="list_item")
            for name in names[1:]:
                ui.why(f"Also selecting {name}")
                yield from ui.tap(name, kind="list_item")
            ui.why(f"All {len(names)} notes selected: deleting them")
            yield from ui.tap(id="delete")
            yield from ui.tap(id="button_delete")
        ui.why("Markor lists no notes any more")
        yield from ui.finish()


def listed_names(ui: Driver) -> Generator[PhoneAction, None, list[str]]:
    """Scroll Markor's list to its end, reading the names it shows (not the parent folder,
    ".."); returns them in list order (``yield from``'s value)."""
    names: dict[str, None] = {}
    for _ in range(MAX_SCROLLS):
        for e in sorted(ui.find_all(kind="list_item"), key=lambda e: e.bounds[1]):
            # a row is long-clickable (over adb a dump has no widget kinds: the status
            # bar's clock and the title are TextViews too)
            if e.text and e.text != ".." and e.long_clickable and ui.usable(e):
                names.setdefault(e.text)
        if not any(e.scrollable for e in ui.elements()):
            break
        before = [(e.text, e.bounds) for e in ui.elements()]
        yield PhoneAction("scroll", x=500, y=600, direction="down")
        if [(e.text, e.bounds) for e in ui.elements()] == before:
            break
    return list(names)


# --- editing -------------------------------------------------------------------------------
class NoteEdit(MarkorTask):
    """Make the note ``file_name`` (in Markor's folder) hold ``texts(params)``; no other
    file may change."""

    def target_path(self, p: Mapping[str, Any]) -> str:
        return note_path(p["file_name"])

    def original(self, p: Mapping[str, Any]) -> str:
        return str(next(t for f, n, t, _ in p["notes"] if n == p["file_name"] and not f))

    def texts(self, p: Mapping[str, Any]) -> Sequence[str]:
        raise NotImplementedError

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record(self.collection, where(self.target_path(p)),
                       {"text_sha1": text_is(*self.texts(p))}, count=1)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(self.collection, "modified", where=where(self.target_path(p)),
                      fields=("sha1", "text_sha1", "size"))]

    def edit_params(self, rng: np.random.Generator, name: str, text: str,
                    noise: tuple[int, int] = AW_NOISE) -> dict[str, Any]:
        """The note ``name`` holding ``text`` among bystander notes (``noise``: how many,
        as ``rng.integers`` bounds)."""
        notes = [["", name, text, -int(rng.integers(60, 20000))],
                 *noise_notes(rng, int(rng.integers(*noise)))]
        return {"file_name": name, "notes": [notes[int(i)] for i in rng.permutation(len(notes))]}

    def replace_text(self, ui: Driver, p: Mapping[str, Any],
                     lines: Sequence[str]) -> Iterator[PhoneAction]:
        """Open the note, replace its text with ``lines``, save."""
        yield from self.open_markor(ui)
        yield from ui.tap(p["file_name"], kind="list_item")
        yield from ui.tap(id="editor_body", kind="text_field")
        if ui.must(id="editor_body", kind="text_field").text:
            yield from ui.long_press(id="editor_body", kind="text_field")
            yield from ui.tap(ui.system_label("Select all"), kind="menu_item")
        yield from self.type_lines(ui, lines)
        yield from ui.tap(id="save")
        yield from ui.finish()


class RenamedEdit(NoteEdit):
    """Make the note ``file_name`` hold ``texts(params)`` and rename it ``new_name``, as
    AndroidWorld's instruction and checker do: the old name is gone, the new one holds the
    text, no other file changes (a rename, or the same end reached through a new note and
    the old one deleted)."""

    def rename_params(self, rng: np.random.Generator,
                      params: dict[str, Any]) -> dict[str, Any]:
        """``params`` with ``new_name``: a note name new to the folder (stems compared)."""
        taken = [n for _, n, _, _ in params["notes"]]
        return {**params, "new_name": note_names(rng, 1, avoid=taken)[0]}

    def target_path(self, p: Mapping[str, Any]) -> str:
        return note_path(p["new_name"])

    def absent(self, p: Mapping[str, Any]) -> list[str]:
        return [note_path(p["new_name"])]

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [NoRecord(self.collection, where(note_path(p["file_name"]))),
                *super().criteria(p, initial)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(self.collection, "removed", where=where(note_path(p["file_name"]))),
                Allow(self.collection, "added", where=where(self.target_path(p)))]

    def new_text(self, p: Mapping[str, Any], original: str) -> str:
        """The renamed note's text, from the old note's text (as its editor shows it)."""
        raise NotImplementedError

    #: Whether the new text keeps the old note's (which the oracle then reads first).
    keeps_text: ClassVar[bool] = False

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        """Write the new note, then delete the old one: the end of a rename in 11 actions
        (the rename dialog's way, an edit and a rename, takes 12, one more than
        AndroidWorld's budget of 12 steps leaves beside ``finish``). Over adb, which types
        no line break, the lines are typed with Enter between them (3 actions more), and
        a phone's other notes may push the old one below the screen (a scroll or two): the
        templates' own budget, 16, leaves room; AndroidWorld's suite runs in PhoneWorld.
        A note made before a restart shows in the list: it is not made again."""
        old, new = p["file_name"], p["new_name"]
        ui.why(f"Opening Markor: {old} is to become {new}")
        yield from self.open_markor(ui)
        if ui.find(new, kind="list_item") is None:
            original = ""
            if self.keeps_text:
                ui.why(f"Opening {old} to read the text it keeps")
                yield from ui.tap(old, kind="list_item")
                original = ui.must(id="editor_body", kind="text_field").text
                ui.why(f"{old} reads “{original}”: back to the list to write {new}")
                yield from ui.tap(id="navigate_up")
            text = self.new_text(p, original)
            ui.why(f"Writing the note {new} with its new text")
            yield from self.new_note(ui, new)
            if isinstance(ui.state, WorldState):
                yield PhoneAction("type", text=text)
            else:
                yield from self.type_lines(ui, text.split("\n"))
            yield from ui.tap(id="navigate_up")  # saves and goes back to the list
        # below the screen when the new note (or an owner's files) pushed it down; gone
        # when deleted before a restart
        if (yield from ui.seek(old, kind="list_item")):
            ui.why(f"{new} is written: deleting the old note {old}")
            yield from ui.long_press(old, kind="list_item")
            yield from ui.tap(id="delete")
            yield from ui.tap(id="button_delete")
        ui.why(f"Only {new} is left, holding the new text")
        yield from ui.finish()


class MarkorChangeNoteContent(RenamedEdit):
    template = ('In Markor, replace the whole text of the note "{file_name}" with '
                '"{new_text}" and rename the note to "{new_name}".')
    instructions = {"zh-CN": "在 Markor 里把笔记“{file_name}”的全部内容替换成“{new_text}”，"
                             "并把笔记重命名为“{new_name}”。"}
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    # AndroidWorld's suite: 12; on a real phone the owner's other notes can push the old
    # note below the screen, which takes a scroll or two more
    complexity, max_steps = 1, 16
    real = True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        params = {**self.edit_params(rng, note_name(rng), pick(rng, SENTENCES), FEW_NOISE),
                  "new_text": random_text(rng, 20)}
        return self.rename_params(rng, params)

    def texts(self, p: Mapping[str, Any]) -> Sequence[str]:
        return [p["new_text"]]

    def new_text(self, p: Mapping[str, Any], original: str) -> str:
        return str(p["new_text"])


class MarkorAddNoteHeader(RenamedEdit):
    template = ('In Markor, add the header line "{header}" at the top of the note '
                '"{file_name}", followed by a blank line before its text, and rename the '
                'note to "{new_name}".')
    instructions = {"zh-CN": "在 Markor 里给笔记“{file_name}”的开头加一行标题“{header}”，"
                             "标题和原文之间空一行，然后把笔记重命名为“{new_name}”。"}
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    complexity, max_steps = 1, 16  # AndroidWorld's suite: 12 (see ``oracle``)
    real = True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        params = {**self.edit_params(rng, note_name(rng), pick(rng, SENTENCES), FEW_NOISE),
                  "header": random_text(rng, 20)}
        return self.rename_params(rng, params)

    keeps_text = True

    def texts(self, p: Mapping[str, Any]) -> Sequence[str]:
        return [f"{p['header']}\n\n{self.original(p)}"]

    def new_text(self, p: Mapping[str, Any], original: str) -> str:
        return f"{p['header']}\n\n{original}"

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        """On PhoneWorld: edit in place (the text read off the editor, the header put before
        it by replacing the field's text), then rename: 10 actions, within AndroidWorld's
        budget of 12. Over adb, which types no line break, the write-anew path."""
        if not isinstance(ui.state, WorldState):  # which phone, no state read
            yield from super().oracle(ui, p)
            return
        old, new = p["file_name"], p["new_name"]
        ui.why(f"Opening Markor: {old} gets a header, then becomes {new}")
        yield from self.open_markor(ui)
        if ui.find(new, kind="list_item") is None:
            yield from ui.tap(old, kind="list_item")
            body = ui.must(id="editor_body", kind="text_field")
            if not body.text.startswith(p["header"] + "\n"):
                ui.why(f"{old} reads “{body.text}”: putting the header line above it")
                if not body.focused:
                    yield from ui.tap(id="editor_body", kind="text_field")
                yield PhoneAction("type", text=self.new_text(p, body.text), clear=True)
            yield from ui.tap(id="navigate_up")  # saves and goes back to the list
            ui.why(f"The header is in: renaming {old} to {new}")
            yield from ui.long_press(old, kind="list_item")
            yield from ui.tap(id="rename")
            yield from ui.tap(id="rename_field", kind="text_field")
            yield PhoneAction("type", text=new, clear=True)
            yield from ui.tap(app_strings(MarkorApp, ui.locale).t("OK"))
        ui.why(f"{new} holds the header and the old text")
        yield from ui.finish()


class MarkorEditNote(NoteEdit):
    template = 'In Markor, edit the note "{file_name}": {edit}'
    instructions = {"zh-CN": "在 Markor 里编辑笔记“{file_name}”：{edit}"}
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")

    def localize_params(self, params: dict[str, Any], table: Mapping[str, str]
                        ) -> dict[str, Any]:
        """The sentences in Chinese (the replacing text runs them together, as Chinese
        writes them) and the edit worded as a Chinese instruction words it."""
        p = super().localize_params(params, table)
        if p["edit_type"] == "replace":
            parts = sorted((s for s in SENTENCES if s in params["edit_text"]),
                           key=params["edit_text"].index)
            text = "".join(table[s] for s in parts)
            p["edit_text"], p["edit"] = text, f"把全部内容替换成“{text}”"
        else:
            where_to = "开头" if p["edit_type"] == "header" else "末尾"
            p["edit"] = f"在{where_to}加一行“{p['edit_text']}”"
        return p
    complexity, max_steps = 1, 12
    real = True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        name = "note_" + random_text(rng, 5).lower() + pick(rng, EXTENSIONS)
        params = self.edit_params(rng, name, pick(rng, SENTENCES))
        kind = pick(rng, ("header", "footer", "replace"))
        original = self.original(params)
        others = [s for s in SENTENCES if s != original]
        if kind == "replace":
            text = " ".join(pick(rng, others, 3))
            edit = f'replace its whole text with "{text}".'
        else:
            text = pick(rng, others)
            where_to = "at the top" if kind == "header" else "at the end"
            edit = f'add the line "{text}" {where_to}.'
        return {**params, "edit_type": kind, "edit_text": text, "edit": edit}

    def texts(self, p: Mapping[str, Any]) -> Sequence[str]:
        text, original = p["edit_text"], self.original(p)
        if p["edit_type"] == "header":
            return [f"{text}\n{original}", f"{text}\n\n{original}"]
        if p["edit_type"] == "footer":
            return [f"{original}\n{text}", f"{original}\n\n{text}"]
        return [text]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        """The edit as the instruction words it: a line at the end (typed after the text),
        at the top (the text retyped under it) or the whole text replaced."""
        edit, text = p["edit"], p["edit_text"]
        kind = "replace" if edit.startswith(("replace", "把全部内容替换")) else \
            "header" if edit.endswith("at the top.") or edit.startswith("在开头") else "footer"
        ui.why(f"Opening {p['file_name']} in Markor to edit it")
        yield from self.open_markor(ui)
        yield from ui.tap(p["file_name"], kind="list_item")
        yield from ui.tap(id="editor_body", kind="text_field")
        body = ui.must(id="editor_body", kind="text_field").text
        if kind == "footer":
            ui.why("Adding the line at the end of the text")
            if not body.endswith("\n"):
                yield from ui.press("enter")
            yield PhoneAction("type", text=text)
        else:
            if body:
                ui.why("Selecting the whole text to write it anew")
                yield from ui.long_press(id="editor_body", kind="text_field")
                yield from ui.tap(ui.system_label("Select all"), kind="menu_item")
            ui.why("Writing the line at the top, then the text the note held" if
                   kind == "header" else "Typing the new text")
            yield from self.type_lines(ui, [text, body] if kind == "header" else [text])
        ui.why("Saving the note")
        yield from ui.tap(id="save")
        yield from ui.finish()


# --- moving --------------------------------------------------------------------------------
class MarkorMoveNote(MarkorTask):
    template = ('In Markor, move the note "{file_name}" from the folder "{source}" to the '
                'folder "{destination}".')
    instructions = {"zh-CN": "在 Markor 里把笔记“{file_name}”从“{source}”文件夹移到"
                             "“{destination}”文件夹。"}
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    complexity, max_steps = 1, 14
    real = True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        folders = [str(f) for f in pick(rng, SUBFOLDERS, int(rng.integers(2, 5)))]
        source, destination = folders[0], folders[1]
        name = note_name(rng)
        notes = [[source, name, pick(rng, SENTENCES), -int(rng.integers(60, 20000))],
                 *noise_notes(rng, int(rng.integers(*AW_NOISE)), source),
                 *noise_notes(rng, int(rng.integers(0, 3)), destination),
                 *noise_notes(rng, int(rng.integers(1, 3)))]
        return {"file_name": name, "source": source, "destination": destination,
                "folders": folders, "notes": notes}

    def source_path(self, p: Mapping[str, Any]) -> str:
        return note_path(p["file_name"], p["source"])

    def dest_path(self, p: Mapping[str, Any]) -> str:
        return note_path(p["file_name"], p["destination"])

    def absent(self, p: Mapping[str, Any]) -> list[str]:
        return [self.dest_path(p)]

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        text = next(t for f, n, t, _ in p["notes"] if (f, n) == (p["source"], p["file_name"]))
        return [NoRecord(self.collection, where(self.source_path(p))),
                Record(self.collection, where(self.dest_path(p)), {"sha1": sha1(text)},
                       count=1)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(self.collection, "removed", where=where(self.source_path(p))),
                Allow(self.collection, "added", where=where(self.dest_path(p)))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_markor(ui)
        yield from ui.tap(p["source"], kind="list_item")
        yield from ui.long_press(p["file_name"], kind="list_item")
        yield from ui.tap(id="move")
        yield from ui.tap(p["destination"], kind="list_item")
        yield from ui.finish()


TEMPLATES: list[Task] = [
    MarkorCreateNote(), MarkorCreateNoteFromClipboard(), MarkorCreateFolder(),
    MarkorMergeNotes(), MarkorDeleteNote(), MarkorDeleteNewestNote(), MarkorDeleteAllNotes(),
    MarkorChangeNoteContent(), MarkorAddNoteHeader(), MarkorEditNote(), MarkorMoveNote(),
]
