"""Files tasks: deleting and renaming a file, and reading a code out of one.

Every setup writes 8 to 12 text files, split between Download and Documents (at least
three in each), and posts a notification or two (bystander records). The files are
sampled in ``sample_params`` (as ``[path, content]`` pairs: params hold no nested dicts,
which envs would share between infos), so the target's path and content are known from the
params and ``allowed`` names exactly the paths a task may touch. File paths hold dots, so the
checks read ``system.files`` with the ``FileIs`` and ``NoFile`` criteria below rather
than with dotted-path lookups.
"""

from __future__ import annotations

import copy
import re
import string
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...verifiers import Answer, Criterion, same_text
from ...world import Device
from ..oracle import Driver
from ..task import TaskTemplate, pick
from .app import FOLDERS, name_of

#: Sample files: name -> content.
CONTENTS: dict[str, str] = {
    "meeting-notes.txt": "Team sync, Monday\n- Ship the beta on Friday\n- Maria writes the "
                         "release notes",
    "pancakes.txt": "Pancakes\n2 eggs, 250 ml milk, 120 g flour\nRest the batter 10 minutes.",
    "packing-list.txt": "Passport\nCharger\nSunscreen\nHiking boots",
    "budget-2026.csv": "month,rent,food\nJan,1200,310\nFeb,1200,285",
    "todo.txt": "Call the bank\nBook the dentist\nReturn the library books",
    "itinerary.txt": "Flight LH 455 departs 10:40\nHotel check-in from 15:00",
    "invoice-0423.txt": "Invoice 0423\nGarden maintenance, October\nTotal due: $240.00",
    "letter-draft.txt": "Dear Ms. Novak,\nThank you for the kind invitation. I will gladly "
                        "attend the opening on the 24th.",
    "lecture-4.md": "# Lecture 4\nEntropy and information\nRead chapter 2 before Thursday.",
    "grocery-receipt.txt": "Milk 1.29\nBread 2.49\nApples 3.10\nTotal 6.88",
    "scan-notes.txt": "Scans from the office printer, 300 dpi.",
    "reading-list.txt": "The Left Hand of Darkness\nPiranesi\nThe Remains of the Day",
    "gift-ideas.txt": "Dad: a good umbrella\nLena: watercolor set\nSam: climbing shoes",
    "warranty.txt": "Dishwasher warranty valid until March 2028. Serial 44-1093-B.",
    "garden-plan.txt": "North bed: tomatoes, basil\nSouth bed: beans, marigolds",
    "workout.txt": "Mon: run 5 km\nWed: strength\nFri: swim 1 km",
}
#: Names for renamed files (never among ``CONTENTS``).
NEW_NAMES = ("notes-final.txt", "archive.txt", "old-copy.txt", "shared.txt", "backup.txt",
             "draft-2.txt", "keep.txt", "2026-plan.txt", "for-review.txt", "misc.txt")
#: Files a booking reference is read from (never among ``CONTENTS``).
BOOKING_NAMES = ("booking.txt", "hotel-booking.txt", "reservation.txt", "confirmation.txt")
HOTELS = ("Hotel Miramar", "Alpine Lodge", "Harbor Inn", "Casa Verde", "The Linden")
NOTIFICATIONS = (
    ("Files", "Download complete", "boarding-pass.pdf"),
    ("Files", "Free up space", "You have 2 GB of old downloads"),
    ("Clock", "Upcoming alarm", "Tomorrow 07:00"),
    ("Notes", "Reminder", "Water the plants"),
)


# --- criteria --------------------------------------------------------------------------------
@dataclass(frozen=True)
class FileIs:
    """The file at ``path`` exists with ``content``."""

    path: str
    content: str

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        files = state["system"]["files"]
        if self.path not in files:
            return False, f"no file {self.path}"
        if files[self.path] != self.content:
            return False, f"{self.path} has other content"
        return True, f"{self.path} is there"


@dataclass(frozen=True)
class NoFile:
    """No file at ``path``."""

    path: str

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        if self.path in state["system"]["files"]:
            return False, f"{self.path} still exists"
        return True, f"{self.path} is gone"


# --- sampling and seeding ------------------------------------------------------------------
def sample_files(rng: np.random.Generator,
                 extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """8 to 12 of ``CONTENTS`` (plus the ``extra`` name -> content), shuffled, the first
    three in Download, the next three in Documents, the rest in either: path -> content."""
    names = pick(rng, sorted(CONTENTS), int(rng.integers(8, 13)))
    contents = {**{n: CONTENTS[n] for n in names}, **(extra or {})}
    order = [str(n) for n in rng.permutation(sorted(contents))]
    files: dict[str, str] = {}
    for i, name in enumerate(order):
        folder = FOLDERS[0 if i < 3 else 1 if i < 6 else int(rng.integers(2))][1]
        files[folder + name] = contents[name]
    return files


def target_of(rng: np.random.Generator, files: Mapping[str, str]) -> dict[str, Any]:
    """Params naming a random file of ``files``: path, name and folder label."""
    path = pick(rng, sorted(files))
    return target_params(path)


def target_params(path: str) -> dict[str, Any]:
    folder = next(label for label, prefix in FOLDERS if path.startswith(prefix))
    return {"path": path, "name": name_of(path), "folder": folder}


def as_pairs(files: Mapping[str, str]) -> list[list[str]]:
    """Files as params hold them: ``[path, content]`` pairs."""
    return [[path, content] for path, content in files.items()]


def files_of(params: Mapping[str, Any]) -> dict[str, str]:
    """The params' files: path -> content."""
    return {path: content for path, content in params["files"]}


def seed_files(device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
    """Write the params' files and post one or two notifications."""
    system = device.system
    assert not system.files, "seed_files expects empty storage"
    system.files.update(files_of(params))
    for app, title, text in pick(rng, NOTIFICATIONS, int(rng.integers(1, 3))):
        system.notify(app, title, text)


def open_folder(ui: Driver, folder: str) -> Iterator[PhoneAction]:
    """Oracle steps: open Files and one of its folders."""
    yield from ui.open_app("Files")
    yield from ui.tap(folder, kind="list_item")


class FilesTask(TaskTemplate):
    """Shared parts: params hold the files (``files``) and the target (``path``)."""

    apps = ("Files",)

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        files = sample_files(rng)
        return {"files": as_pairs(files), **target_of(rng, files)}

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_files(device, params, rng)


class FilesDeleteFile(FilesTask):
    id = "FilesDeleteFile"
    template = 'In Files, delete the file "{name}" from the {folder} folder.'
    complexity = 2
    max_steps = 12

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [NoFile(params["path"])]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"removed:system.files.{params['path']}"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        """The wrong file deleted: the target is back, a neighbour is gone."""
        state = copy.deepcopy(final)
        files = state["system"]["files"]
        files[params["path"]] = files_of(params)[params["path"]]
        del files[next(p for p in sorted(files) if p != params["path"])]
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_folder(ui, params["folder"])
        yield from ui.long_press(params["name"], kind="list_item")
        yield from ui.tap("Delete", kind="menu_item")
        yield from ui.tap(id="button_delete")
        yield PhoneAction("finish", status="success")


class FilesRenameFile(FilesTask):
    id = "FilesRenameFile"
    template = 'In Files, rename the file "{name}" in the {folder} folder to "{new_name}".'
    complexity = 2
    max_steps = 16

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        params = super().sample_params(rng)
        new_name = pick(rng, NEW_NAMES)
        folder = params["path"][: -len(params["name"])]
        return {**params, "new_name": new_name, "new_path": folder + new_name}

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [FileIs(params["new_path"], files_of(params)[params["path"]]),
                NoFile(params["path"])]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"removed:system.files.{params['path']}",
                f"added:system.files.{params['new_path']}"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        """A typo in the new name: its last letter before the extension dropped."""
        state = copy.deepcopy(final)
        files = state["system"]["files"]
        stem, dot, ext = params["new_path"].rpartition(".")
        files[f"{stem[:-1]}{dot}{ext}"] = files.pop(params["new_path"])
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_folder(ui, params["folder"])
        yield from ui.long_press(params["name"], kind="list_item")
        yield from ui.tap("Rename", kind="menu_item")
        yield from ui.fill("rename_field", params["new_name"])
        yield from ui.tap(id="button_ok")
        yield PhoneAction("finish", status="success")


def booking_code(rng: np.random.Generator) -> str:
    """Six capital letters and digits, like "K7Q2XM"."""
    alphabet = string.ascii_uppercase.replace("O", "").replace("I", "") + "23456789"
    return "".join(pick(rng, alphabet) for _ in range(6))


class FilesReadBookingCode(FilesTask):
    id = "FilesReadBookingCode"
    template = ('In Files, open "{name}" in the {folder} folder: what is the booking '
                'reference written in it?')
    complexity = 2
    max_steps = 12
    needs_answer = True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        code, name, hotel = booking_code(rng), pick(rng, BOOKING_NAMES), pick(rng, HOTELS)
        content = (f"{hotel}\nCheck-in: October 20, from 15:00\nBooking reference: {code}\n"
                   "Breakfast included. See you soon!")
        files = sample_files(rng, {name: content})
        path = next(p for p in files if name_of(p) == name)
        return {"files": as_pairs(files), "code": code, **target_params(path)}

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Answer(same_text(params["code"]))]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        """One character misread."""
        code = params["code"]
        return copy.deepcopy(final), code[:-1] + ("A" if code[-1] != "A" else "B")

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_folder(ui, params["folder"])
        yield from ui.tap(params["name"], kind="list_item")
        text = ui.find(id="file_text", kind="text")
        found = re.search(r"Booking reference:\s*(\S+)", text.node.text if text else "")
        yield PhoneAction("answer", text=found[1] if found else "")


TEMPLATES: list[TaskTemplate] = [FilesDeleteFile(), FilesRenameFile(), FilesReadBookingCode()]
