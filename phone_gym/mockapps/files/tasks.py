"""Files tasks: deleting and renaming a file, and reading a code out of one. Every setup
writes 8 to 12 text files, split between Download and Documents (at least three in each);
the records are checked by name and folder (``files.<path>``: name, folder, size, sha1), so
the delete and rename tasks run on real phones too (pushed files, read back over sync)."""

from __future__ import annotations

import copy
import hashlib
import re
import string
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver
from ...tasks.families import DeleteRecord, Infeasible, Lookup
from ...tasks.task import Task, localize_data
from ...tasks.vocab import pick
from ...verifiers import (
    Allow,
    Allowed,
    Criterion,
    NearMiss,
    NoRecord,
    Record,
    lookup,
    matching,
)
from ...world.app import app_strings
from ...world.state import WorldState
from .app import STORAGE_FOLDERS, FilesApp, name_of
from .fixtures import COLLECTION, DATA, sample_files, seed_files, target_params

#: Names for renamed files (never among the sample files).
NEW_NAMES = ("notes-final.txt", "archive.txt", "old-copy.txt", "shared.txt", "backup.txt",
             "draft-2.txt", "keep.txt", "2026-plan.txt", "for-review.txt", "misc.txt")
#: Files a booking reference is read from (never among the sample files).
BOOKING_NAMES = ("booking.txt", "hotel-booking.txt", "reservation.txt", "confirmation.txt")
HOTELS = ("Hotel Miramar", "Alpine Lodge", "Harbor Inn", "Casa Verde", "The Linden")


def label(ui: Driver, key: str) -> str:
    """A Files string as the phone's locale shows it (the menu's "Delete": 删除)."""
    return app_strings(FilesApp, ui.locale).t(key)


#: A booking file's text in Chinese (``FilesReadBookingCode``): the hotel, the code.
BOOKING_ZH = "{hotel}\n入住：10月20日 15:00 起\n预订编号：{code}\n含早餐，期待您的光临！"


class FilesTask(Task):
    """Shared parts: params hold the files (``files``) and the target (``path``, ``name``,
    ``folder`` label, ``dir``). In zh-CN the sample files hold Chinese text
    (``strings/zh-CN.data.json``) and the folders are named as the app shows them (下载)."""

    apps, collection = ("Files",), COLLECTION
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    data = DATA

    locales_stay_home = True  # elsewhere: en-US unless it declares zh-CN

    def localize_params(self, params: dict[str, Any], table: Mapping[str, str]
                        ) -> dict[str, Any]:
        p: dict[str, Any] = localize_data(params, table)
        shown = app_strings(FilesApp, "zh-CN")
        for key in ("folder", "dest"):
            if key in p:
                p[key] = shown.t(p[key])
        return p

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        files = sample_files(rng)
        return {"files": files, **target_params(pick(rng, sorted(p for p, _ in files)))}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_files(state, params["files"], rng)

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": p["name"], "folder": p["dir"]}

    def conflicts(self, p: Mapping[str, Any], existing: Mapping[str, Any]) -> str | None:
        """A file the setup would write already there with other content: the phone
        owner's, which the setup must not overwrite (the same content, left by an earlier
        episode, is fine: a path holds one file)."""
        rows = lookup(existing, self.collection)
        rows = rows if isinstance(rows, Mapping) else {}
        for path, content in p["files"]:
            row = rows.get(path)
            if row is not None and row.get("sha1") != sha1_of(content):
                return f"{path} already holds other content"
        return None

    def open_file_menu(self, ui: Driver, p: Mapping[str, Any], item: str) -> Iterator[PhoneAction]:
        yield from ui.open_app("Files")
        yield from ui.tap(p["folder"], kind="list_item")
        yield from ui.long_press(p["name"], kind="list_item")
        yield from ui.tap(label(ui, item), kind="menu_item")


class FilesDeleteFile(FilesTask, DeleteRecord):
    template = 'In Files, delete the file "{name}" from the {folder} folder.'
    instructions = {"zh-CN": "在文件管理里，删除“{folder}”文件夹中的文件“{name}”。"}
    complexity, max_steps = 2, 12
    real = True

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_file_menu(ui, p, "Delete")
        yield from ui.tap(id="button_delete")
        yield from ui.finish()


class FilesRenameFile(FilesTask):
    template = 'In Files, rename the file "{name}" in the {folder} folder to "{new_name}".'
    instructions = {"zh-CN": "在文件管理里，把“{folder}”文件夹中的文件“{name}”重命名为"
                             "“{new_name}”。"}
    complexity, max_steps = 2, 16
    real = True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {**super().sample_params(rng), "new_name": pick(rng, NEW_NAMES)}

    def conflicts(self, p: Mapping[str, Any], existing: Mapping[str, Any]) -> str | None:
        """A file with the new name already in the folder (the rename would replace it)."""
        if matching(existing, self.collection, {"name": p["new_name"], "folder": p["dir"]}):
            return f"the {p['folder']} folder already holds {p['new_name']!r}"
        return super().conflicts(p, existing)

    def criteria(self, p: Mapping[str, Any], initial: Any) -> Sequence[Criterion]:
        sha1 = sha1_of(dict(map(tuple, p["files"]))[p["path"]])
        return [NoRecord(self.collection, self.target(p)),
                Record(self.collection, {"name": p["new_name"], "folder": p["dir"]},
                       {"sha1": sha1}, count=1)]

    def allowed(self, p: Mapping[str, Any], initial: Any) -> Sequence[Allowed]:
        return [Allow(self.collection, "removed", where=self.target(p), max=1),
                Allow(self.collection, "added", where={"name": p["new_name"],
                                                       "folder": p["dir"]}, max=1)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_file_menu(ui, p, "Rename")
        yield from ui.fill("rename_field", p["new_name"])
        yield from ui.tap(id="button_ok")
        yield from ui.finish()


def sha1_of(content: str) -> str:
    return hashlib.sha1(content.encode("utf-8")).hexdigest()


def booking_code(rng: np.random.Generator) -> str:
    """Six capital letters and digits, like "K7Q2XM"."""
    alphabet = string.ascii_uppercase.replace("O", "").replace("I", "") + "23456789"
    return "".join(pick(rng, alphabet) for _ in range(6))


class FilesReadBookingCode(FilesTask, Lookup):
    template = ('In Files, open "{name}" in the {folder} folder: what is the booking '
                'reference written in it?')
    instructions = {"zh-CN": "在文件管理里打开“{folder}”文件夹中的“{name}”，里面写的预订编号是"
                             "什么？"}
    complexity, max_steps = 2, 12

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        code, name, hotel = booking_code(rng), pick(rng, BOOKING_NAMES), pick(rng, HOTELS)
        content = (f"{hotel}\nCheck-in: October 20, from 15:00\nBooking reference: {code}\n"
                   "Breakfast included. See you soon!")
        files = sample_files(rng, {name: content})
        path = next(p for p, _ in files if name_of(p) == name)
        return {"files": files, "code": code, **target_params(path)}

    def localize_params(self, params: dict[str, Any], table: Mapping[str, str]
                        ) -> dict[str, Any]:
        """The booking file written in Chinese (its hotel through the data catalogue)."""
        p = super().localize_params(params, table)
        files = []
        for path, content in p["files"]:
            if path == p["path"]:
                hotel = content.split("\n", 1)[0]
                content = BOOKING_ZH.format(hotel=table.get(hotel, hotel), code=p["code"])
            files.append([path, content])
        return {**p, "files": files}

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["code"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        content = dict(map(tuple, p["files"]))[p["path"]]  # the code among the file's words
        return [*content.split("\n")[:2], p["code"], p["name"]]

    def declared_near_misses(self, initial: Any, final: Any, p: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        code = p["code"]
        return [NearMiss(final, code[:-1] + ("A" if code[-1] != "A" else "B"),
                         "one character misread")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Files")
        yield from ui.tap(p["folder"], kind="list_item")
        yield from ui.tap(p["name"], kind="list_item")
        found = re.search(r"(?:Booking reference|预订编号)[:：]\s*(\S+)",
                          ui.must(id="file_text").text)
        yield from ui.answer(found[1] if found else "")


# --- AndroidWorld's FilesMoveFile (``suites.aw_system``) ---------------------------------------
#: What a file in each storage folder is usually called: extensions and their MIME types.
KINDS: dict[str, tuple[tuple[str, str], ...]] = {
    "Alarms": ((".ogg", "audio/ogg"), (".mp3", "audio/mpeg")),
    "Audiobooks": ((".m4b", "audio/mp4"), (".mp3", "audio/mpeg")),
    "DCIM": ((".jpg", "image/jpeg"), (".mp4", "video/mp4")),
    "Documents": ((".pdf", "application/pdf"), (".txt", "text/plain"),
                  (".docx", "application/vnd.openxmlformats-officedocument."
                            "wordprocessingml.document")),
    "Download": ((".pdf", "application/pdf"), (".zip", "application/zip"),
                 (".apk", "application/vnd.android.package-archive")),
    "Movies": ((".mp4", "video/mp4"), (".mkv", "video/x-matroska")),
    "Music": ((".mp3", "audio/mpeg"), (".flac", "audio/flac")),
    "Notifications": ((".ogg", "audio/ogg"),),
    "Pictures": ((".jpg", "image/jpeg"), (".png", "image/png")),
    "Podcasts": ((".mp3", "audio/mpeg"),),
    "Recordings": ((".m4a", "audio/mp4"), (".wav", "audio/wav")),
    "Ringtones": ((".ogg", "audio/ogg"), (".mp3", "audio/mpeg")),
}
ADJECTIVES = ("quiet", "golden", "rapid", "hidden", "bright", "frozen", "ancient", "lucky",
              "silver", "gentle", "brave", "misty", "crimson", "sunny", "wild", "cozy")
NOUNS = ("river", "forest", "harbor", "meadow", "falcon", "lantern", "summit", "garden",
         "canyon", "island", "comet", "orchard", "violin", "compass", "pebble", "willow")
MODIFIERS = ("", "", "_final", "_2023", "_copy", "_v2", "_draft", "_old")


def storage_file(rng: np.random.Generator, folder: str, taken: Sequence[str] = ()) -> list[str]:
    """``[name, content, mime]`` of a file as ``folder`` would hold one: an
    adjective_noun(+modifier) name with one of the folder's extensions (none of ``taken``)."""
    while True:
        ext, mime = pick(rng, KINDS[folder])
        name = f"{pick(rng, ADJECTIVES)}_{pick(rng, NOUNS)}{pick(rng, MODIFIERS)}{ext}"
        if name not in taken:
            return [name, f"{mime} data of {name} ({int(rng.integers(10**5, 10**6))})", mime]


class FilesMoveFile(FilesTask):
    """Move one file from a storage folder to another (two of the twelve). The source holds
    noise files, the destination a few files of its own: all must stay as they are."""

    template = 'In Files, move the file "{name}" from the {folder} folder to the {dest} folder.'
    instructions = {"zh-CN": "在文件管理里，把“{folder}”文件夹中的文件“{name}”移到“{dest}”文件夹。"}
    start, complexity, max_steps, real = AW_START, 2, 20, True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        (src, src_dir), (dst, dst_dir) = pick(rng, STORAGE_FOLDERS, 2)
        name, content, mime = storage_file(rng, dst)  # named like a file of the destination
        files: list[list[str]] = [[src_dir + name, content, mime]]
        taken = [name]
        for folder, prefix, n in ((src, src_dir, int(rng.integers(1, 21))),  # AndroidWorld's
                                  (dst, dst_dir, int(rng.integers(1, 4)))):
            for _ in range(n):
                other, text, kind = storage_file(rng, folder, taken)
                taken.append(other)
                files.append([prefix + other, text, kind])
        return {"files": files, "path": src_dir + name, "name": name, "folder": src,
                "dir": src_dir.rstrip("/"), "dest": dst, "dest_dir": dst_dir.rstrip("/")}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        for path, content, _ in params["files"]:
            state.write_file(path, content.encode("utf-8"))
        if isinstance(state, WorldState):  # bystanders a careless agent could touch
            seed_files(state, [], rng)

    def moved(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": p["name"], "folder": p["dest_dir"]}

    def conflicts(self, p: Mapping[str, Any], existing: Mapping[str, Any]) -> str | None:
        """A file of that name already in the destination (the move would clash)."""
        if matching(existing, self.collection, self.moved(p)):
            return f"the {p['dest']} folder already holds {p['name']!r}"
        rows = lookup(existing, self.collection)
        rows = rows if isinstance(rows, Mapping) else {}
        for path, content, _ in p["files"]:
            row = rows.get(path)
            if row is not None and row.get("sha1") != sha1_of(content):
                return f"{path} already holds other content"
        return None

    def criteria(self, p: Mapping[str, Any], initial: Any) -> Sequence[Criterion]:
        sha1 = sha1_of(p["files"][0][1])
        return [NoRecord(self.collection, self.target(p)),
                Record(self.collection, self.moved(p), {"sha1": sha1}, count=1)]

    def allowed(self, p: Mapping[str, Any], initial: Any) -> Sequence[Allowed]:
        return [Allow(self.collection, "removed", where=self.target(p), max=1),
                Allow(self.collection, "added", where=self.moved(p), max=1)]

    def declared_near_misses(self, initial: Any, final: Any, p: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        """Copied instead of moved (the source file kept)."""
        state = copy.deepcopy(final)
        state[self.collection][p["path"]] = dict(initial[self.collection][p["path"]])
        return [NearMiss(state, answer, "copied, the source file kept")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_file_menu(ui, p, "Move to…")
        yield from ui.tap(p["dest"], kind="list_item")
        yield from ui.tap(id="move_here")
        yield from ui.finish()


# --- infeasible variants: the file is not in the folder the task names ----------------------
class MissingFile(Infeasible, FilesTask):
    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        params = super().sample_params(rng)
        params["files"] = [f for f in params["files"] if f[0] != params["path"]]
        return params

    def look(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Files")
        yield from ui.tap(p["folder"], kind="list_item")


class FilesDeleteFileInfeasible(MissingFile, FilesDeleteFile):
    pass


class FilesRenameFileInfeasible(MissingFile, FilesRenameFile):
    pass


TEMPLATES: list[Task] = [FilesDeleteFile(), FilesRenameFile(), FilesReadBookingCode(),
                         FilesDeleteFileInfeasible(), FilesRenameFileInfeasible(),
                         FilesMoveFile()]
