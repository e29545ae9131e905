"""Camera tasks (AndroidWorld's ``CameraTakePhoto`` and ``CameraTakeVideo``): exactly one new
file of the right kind in ``DCIM/Camera``, the older photos and videos seeded there left
alone (AndroidWorld clears the folder and counts files; here deleting or adding others
fails too). They run on real phones: setup writes files, the check lists the folder (the
snapshots watch every shared folder: the manifest reads ``files``)."""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver
from ...tasks.families import record_keys
from ...tasks.task import Task
from ...verifiers import Allow, Allowed, Criterion, Matcher, Record
from ...world.app import app_strings
from ...world.state import WorldState
from .app import CAMERA_DIR, CameraApp
from .fixtures import COLLECTION, sample_media, seed_media


def label(ui: Driver, key: str, **fields: object) -> str:
    """A Camera string as the phone's locale shows it (the shutter's "Take photo": 拍照)."""
    return app_strings(CameraApp, ui.locale).t(key, **fields)


def ends_with(suffix: str) -> Matcher:
    return Matcher(lambda v: str(v).lower().endswith(suffix), f"a name ending in {suffix!r}")


class CameraTask(Task):
    """Exactly one new ``suffix`` file in ``CAMERA_DIR``; nothing else changed."""

    apps, collection = ("Camera",), COLLECTION
    start = AW_START
    real = True
    suffix: ClassVar[str] = ".jpg"
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")

    locales_stay_home = True  # elsewhere: en-US unless it declares zh-CN

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"media": sample_media(rng)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_media(state, params["media"])

    def done(self, ui: Driver, p: Mapping[str, Any]) -> Generator[PhoneAction, None, bool]:
        """Whether the new file is there already (made before the oracle started over), as
        a person tells: the preview opens the last capture, whose name holds its time
        (``IMG_20231015_153412.jpg``); one taken within the last minutes of the status
        bar's clock, of this task's kind, is this episode's. Returns the answer (a
        generator: it taps the preview and comes back)."""
        if not isinstance(ui.state, WorldState):  # which phone: a real one keeps earlier
            return False  # episodes' captures (and its owner's), so a recent one says nothing
        preview = ui.find(id="thumbnail", desc=label(ui, "Photo preview"))
        clock = ui.find(id="status_bar")
        if preview is None or clock is None or not re.fullmatch(r"\d{1,2}:\d{2}", clock.text):
            return False
        ui.why("Checking the last capture: was it taken just now?")
        yield from ui.tap(id="thumbnail")
        shown = ui.find(id="review")
        prefix = label(ui, "Photo {name}", name="")
        name = shown.content_desc.removeprefix(prefix) if shown is not None else ""
        yield PhoneAction("press", button="back")
        found = re.fullmatch(r"(?:IMG|VID)_\d{8}_(\d{2})(\d{2})\d{2}(?:_\d+)?(\.\w+)", name)
        if found is None or found[3] != self.suffix:
            return False
        hour, minute = (int(x) for x in clock.text.split(":"))
        age = (hour * 60 + minute) - (int(found[1]) * 60 + int(found[2]))
        return 0 <= age <= 10

    def new_file(self) -> Mapping[str, Any]:
        return {"folder": CAMERA_DIR, "name": ends_with(self.suffix)}

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        before = len(record_keys(initial, self.collection, self.new_file()))
        return [Record(self.collection, self.new_file(), count=before + 1)]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(self.collection, "added", where=self.new_file(), max=1)]


class CameraTakePhoto(CameraTask):
    template = "Take one photo with the camera."
    instructions = {"zh-CN": "用相机拍一张照片。"}
    complexity, max_steps = 1, 10

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Camera")
        if (yield from self.done(ui, p)):
            yield from ui.finish()
            return
        if not ui.must(id="tab_photo", kind="tab").selected:
            yield from ui.tap(id="tab_photo", kind="tab")
        yield from ui.tap(label(ui, "Take photo"), id="shutter_button")
        yield from ui.finish()


class CameraTakeVideo(CameraTask):
    template = "Record one short video with the camera."
    instructions = {"zh-CN": "用相机录一段短视频。"}
    complexity, max_steps = 1, 10
    suffix = ".mp4"

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Camera")
        if (yield from self.done(ui, p)):
            yield from ui.finish()
            return
        if ui.find(label(ui, "Stop recording"), id="shutter_button") is None:
            if not ui.must(id="tab_video", kind="tab").selected:
                yield from ui.tap(id="tab_video", kind="tab")
            yield from ui.tap(label(ui, "Start recording"), id="shutter_button")
        yield from ui.tap(label(ui, "Stop recording"), id="shutter_button")
        yield from ui.finish()


TEMPLATES: list[Task] = [CameraTakePhoto(), CameraTakeVideo()]
