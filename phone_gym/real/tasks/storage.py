"""Files tasks, checked over adb sync (list and pull of /sdcard folders)."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...verifiers import Criterion, DeviceState, NoRecord, Record
from .base import RealTaskTemplate, ScreenDriver

DOCUMENTSUI = "com.google.android.documentsui"
DOWNLOAD = "/sdcard/Download"
STEMS = ("invoice", "notes", "report", "draft", "summary", "budget", "itinerary", "receipt")


def file_names(rng: np.random.Generator, k: int) -> list[str]:
    stems = [STEMS[int(i)] for i in rng.choice(len(STEMS), size=k, replace=False)]
    return [f"{stem}_{int(rng.integers(10, 100))}.txt" for stem in stems]


class FilesTask(RealTaskTemplate):
    apps = ("Files",)
    packages = data_packages = (DOCUMENTSUI,)

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        names = file_names(rng, 3)
        return {"name": names[0], "others": names[1:], "new_name": file_names(rng, 1)[0]}

    def setup(self, state: DeviceState, params: Mapping[str, Any],
              rng: np.random.Generator) -> None:
        for name in [params["name"], *params["others"]]:
            state.write_file(f"{DOWNLOAD}/{name}", f"{name}: phone-gym test file\n".encode())


class FilesDeleteFile(FilesTask):
    id = "FilesDeleteFile"
    template = 'In the Files app, delete "{name}" from the Download folder.'
    complexity = 2
    max_steps = 14

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [NoRecord("files", {"name": params["name"], "folder": DOWNLOAD})]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"removed:files.{DOWNLOAD}/{params['name']}"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        wrong = copy.deepcopy(final)  # deleted another file as well
        wrong["files"].pop(f"{DOWNLOAD}/{params['others'][0]}")
        return wrong, answer

    def oracle(self, ui: ScreenDriver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield PhoneAction("open_app", app="Files")
        yield from ui.tap("Download")
        yield from ui.long_press(params["name"])
        yield from ui.tap("Delete")
        yield from ui.tap("Delete")
        yield PhoneAction("finish", status="success")


class FilesRenameFile(FilesTask):
    id = "FilesRenameFile"
    template = 'In the Files app, rename "{name}" in the Download folder to "{new_name}".'
    complexity = 3
    max_steps = 18

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        names = file_names(rng, 4)
        return {"name": names[0], "others": names[1:3], "new_name": names[3]}

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        old = initial["files"][f"{DOWNLOAD}/{params['name']}"]
        return [NoRecord("files", {"name": params["name"], "folder": DOWNLOAD}),
                Record("files", {"name": params["new_name"], "folder": DOWNLOAD},
                       {"sha1": old["sha1"]})]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"removed:files.{DOWNLOAD}/{params['name']}",
                f"added:files.{DOWNLOAD}/{params['new_name']}"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        wrong = copy.deepcopy(final)  # a typo in the new name
        record = wrong["files"].pop(f"{DOWNLOAD}/{params['new_name']}")
        record["name"] = params["new_name"].replace(".txt", ".text")
        wrong["files"][f"{DOWNLOAD}/{record['name']}"] = record
        return wrong, answer

    def oracle(self, ui: ScreenDriver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield PhoneAction("open_app", app="Files")
        yield from ui.tap("Download")
        yield from ui.long_press(params["name"])
        yield from ui.tap("Rename")
        yield from ui.fill(params["new_name"], cls="EditText")
        yield from ui.tap("OK")
        yield PhoneAction("finish", status="success")


TEMPLATES: list[RealTaskTemplate] = [FilesDeleteFile(), FilesRenameFile()]
