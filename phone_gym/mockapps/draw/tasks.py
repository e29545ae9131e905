"""Draw tasks: AndroidWorld's ``SimpleDrawProCreateDrawing`` (draw something and save it
under a given name in Pictures). The check reads shared storage: exactly one new file of
that name in ``/sdcard/Pictures``, not empty (a blank canvas saves an empty file)."""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver
from ...tasks.families import CreateRecord
from ...tasks.vocab import FIRST_NAMES, pick
from ...verifiers import Criterion, NearMiss, lookup
from ...world.app import app_strings
from .app import COLORS, EXTENSIONS, FOLDER, DrawApp

PALETTE = tuple(COLORS)

COLLECTION = "files"
LATIN = ("lorem", "ipsum", "dolor", "amet", "tempus", "fugit", "carpe", "diem", "veritas",
         "lux", "terra", "aqua", "ignis", "ventus", "silva", "stella")


def label(ui: Driver, key: str) -> str:
    """A Draw string as the phone's locale shows it (the "Save" icon: 保存)."""
    return app_strings(DrawApp, ui.locale).t(key)


@dataclass(frozen=True)
class NotEmpty:
    """The file at ``path`` holds something (a blank canvas saves an empty file)."""

    path: str

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        row = (lookup(state, COLLECTION) or {}).get(self.path)
        if not isinstance(row, Mapping):
            return False, f"no file {self.path}"
        if not row.get("size"):
            return False, f"{self.path} is empty: nothing was drawn"
        return True, f"{self.path} holds a drawing"


class SimpleDrawProCreateDrawing(CreateRecord):
    apps, collection = ("Draw",), COLLECTION
    template = 'In Simple Draw, make a drawing and save it in Pictures as "{file_name}".'
    instructions = {"zh-CN": "在画板里随手画点东西，然后保存到 Pictures 文件夹，"
                             "文件名为“{file_name}”。"}
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    complexity, max_steps = 2, 18
    start = AW_START
    real = True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        stem = f"{pick(rng, LATIN)}_{pick(rng, FIRST_NAMES).lower()}"
        ext = pick(rng, EXTENSIONS)
        return {"file_name": f"{stem}.{ext}"}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        for stem in pick(rng, LATIN, 2):
            if not params["file_name"].startswith(f"{stem}_"):
                state.write_file(f"{FOLDER}/{stem}_sketch.png", b"100 100 900 900 28 28 32")

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": p["file_name"], "folder": FOLDER}

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [*super().criteria(p, initial), NotEmpty(f"{FOLDER}/{p['file_name']}")]

    def declared_near_misses(self, initial: Any, final: Any, p: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        """The file saved from a blank canvas."""
        blank = copy.deepcopy(dict(final))
        row = blank.get(COLLECTION, {}).get(f"{FOLDER}/{p['file_name']}")
        if not isinstance(row, dict):
            return []
        row["size"], row["sha1"] = 0, hashlib.sha1(b"").hexdigest()
        return [NearMiss(blank, answer, "a blank drawing saved")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Draw")
        yield from ui.tap(id="color")  # the palette: a colour for the brush
        yield from ui.tap(desc=label(ui, f"Color {PALETTE[len(p['file_name']) % len(PALETTE)]}"))
        x0, y0, x1, y1 = ui.must(id="brush_size").bounds_norm  # a thicker brush
        yield PhoneAction("click", x=(x0 + 2 * x1) // 3, y=(y0 + y1) // 2)
        x0, y0, x1, y1 = ui.must(id="canvas").bounds_norm
        yield PhoneAction("drag", x=x0 + 100, y=y0 + 100, x2=x1 - 100, y2=y1 - 100)
        yield from ui.tap(desc=label(ui, "Save"))
        stem, ext = p["file_name"].rsplit(".", 1)
        yield from ui.fill("file_name", stem)
        yield from ui.tap(label(ui, ext), kind="radio")
        yield from ui.tap(label(ui, "OK"))
        yield from ui.finish()


TEMPLATES = [SimpleDrawProCreateDrawing()]
