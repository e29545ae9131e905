"""Gallery tasks: AndroidWorld's ``SaveCopyOfReceiptTaskEval`` (copy a receipt photo from
DCIM into Download under the same name). The files are in shared storage, checked by name,
folder and content (sha1), so the task runs on real phones too."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver
from ...tasks.task import Task
from ...verifiers import Allow, Allowed, Criterion, Record
from ...world.app import app_strings
from .app import GalleryApp
from .fixtures import (
    COLLECTION,
    DCIM,
    DOWNLOAD,
    PICTURES,
    random_suffix,
    receipt_lines,
    receipt_rows,
    seed_photos,
    write_picture,
)


def label(ui: Driver, key: str) -> str:
    """A Gallery string as the phone's locale shows it (the Download folder: 下载)."""
    return app_strings(GalleryApp, ui.locale).t(key)


def sha1_of(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


class SaveCopyOfReceiptTaskEval(Task):
    """The receipt stays in DCIM and one copy with the same name and content appears in
    Download: exactly one file added there, nothing else changed (a move, a rename or a
    copy elsewhere fails). Decoy photos (one a second receipt-like picture) sit in DCIM,
    Camera and Pictures."""

    apps, collection = ("Gallery",), COLLECTION
    template = ('In Simple Gallery, save a copy of the picture "{file_name}" from the DCIM '
                'folder into the Download folder, keeping its name.')
    instructions = {"zh-CN": "在相册里，把 DCIM 文件夹中的图片“{file_name}”复制一份到“下载”"
                             "（Download）文件夹，文件名保持不变。"}
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    complexity, max_steps = 2, 16
    start = AW_START
    real = True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        rows = receipt_rows(rng)
        return {"file_name": f"receipt_{random_suffix(rng)}.jpg",
                "lines": receipt_lines(rows),
                "other": f"receipt_{random_suffix(rng)}.jpg",
                "other_lines": receipt_lines(receipt_rows(rng))}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        write_picture(state, f"{DCIM}/{params['file_name']}", params["lines"])
        write_picture(state, f"{PICTURES}/{params['other']}", params["other_lines"])
        seed_photos(state, rng, 4, folders=(DCIM, "/sdcard/DCIM/Camera", PICTURES))

    def conflicts(self, params: Mapping[str, Any], existing: Mapping[str, Any]) -> str | None:
        files = existing.get("files") or {}
        for name in (params["file_name"], params["other"]):
            if any(isinstance(r, Mapping) and r.get("name") == name for r in files.values()):
                return f"a file named {name} is on the phone already"
        return None

    def copy_where(self, p: Mapping[str, Any]) -> dict[str, Any]:
        return {"name": p["file_name"], "folder": DOWNLOAD}

    def criteria(self, p: Mapping[str, Any], initial: Any) -> Sequence[Criterion]:
        sha1 = sha1_of("\n".join(p["lines"]))
        return [Record(self.collection, self.copy_where(p), {"sha1": sha1}, count=1),
                Record(self.collection, {"name": p["file_name"], "folder": DCIM},
                       {"sha1": sha1}, count=1)]

    def allowed(self, p: Mapping[str, Any], initial: Any) -> Sequence[Allowed]:
        return [Allow(self.collection, "added", where=self.copy_where(p), max=1)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Gallery")
        yield from ui.tap(label(ui, "DCIM"), kind="thumb")
        yield from ui.long_press(p["file_name"])
        yield from ui.tap(label(ui, "Copy to"), kind="list_item")
        yield from ui.tap(label(ui, "Download"), kind="radio")
        yield from ui.finish()


TEMPLATES: list[Task] = [SaveCopyOfReceiptTaskEval()]
