"""Audio Recorder tasks (AndroidWorld's ``AudioRecorderRecordAudio`` and
``AudioRecorderRecordAudioWithFileName``): exactly one new non-empty recording in the
recordings folder (under the asked name, for the second), the older recordings seeded
there left alone (AndroidWorld clears the folder; here deleting or renaming others fails).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver
from ...tasks.families import record_keys
from ...tasks.task import Task
from ...verifiers import Allow, Allowed, Criterion, Matcher, Record
from ...world.app import app_strings
from .app import EXT, RECORDINGS_DIR, RecorderApp
from .fixtures import (
    COLLECTION,
    sample_name,
    sample_old,
    seed_recordings,
    to_recorder,
)

NON_EMPTY = Matcher(lambda v: isinstance(v, int) and v > 0, "a size above 0")
M4A = Matcher(lambda v: str(v).endswith(EXT), "an .m4a name")
#: The name the recorder gives a new recording.
DEFAULT_NAME = Matcher(lambda v: re.fullmatch(r"Record-\d+\.m4a", str(v)) is not None,
                       "the recorder's own name (Record-<n>.m4a)")


def label(ui: Driver, key: str) -> str:
    """A Recorder string as the phone's locale shows it (the "Record" button: 录音)."""
    return app_strings(RecorderApp, ui.locale).t(key)


def named(stem: str) -> Matcher:
    name = f"{stem}{EXT}".lower()
    return Matcher(lambda v: str(v).lower() == name, f"the name {name!r}")


class RecorderTask(Task):
    """One new recording matching ``new_file``; nothing else changed."""

    apps, collection = ("Recorder",), COLLECTION
    start = AW_START
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")

    locales_stay_home = True  # elsewhere: en-US unless it declares zh-CN

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"old": sample_old(rng)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_recordings(state, params["old"])

    def new_file(self, p: Mapping[str, Any]) -> dict[str, Any]:
        return {"folder": RECORDINGS_DIR, "name": M4A, "size": NON_EMPTY}

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        before = len(record_keys(initial, self.collection, self.new_file(params)))
        return [Record(self.collection, self.new_file(params), count=before + 1)]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(self.collection, "added", where=self.new_file(params), max=1)]

    def make_recording(self, ui: Driver) -> Iterator[PhoneAction]:
        yield from ui.open_app("Recorder")
        yield from to_recorder(ui)
        yield from ui.tap(label(ui, "Record"), id="btn_record")
        yield from ui.tap(label(ui, "Stop"), id="btn_stop")


class AudioRecorderRecordAudio(RecorderTask):
    template = "Record an audio clip with Audio Recorder and keep it."
    instructions = {"zh-CN": "用录音机录一段音频并保存下来。"}
    complexity, max_steps = 1, 12

    def new_file(self, p: Mapping[str, Any]) -> dict[str, Any]:
        """The recording as the app saved it (``Record-<n>.m4a``): keeping it is not
        renaming it."""
        return {**super().new_file(p), "name": DEFAULT_NAME}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why("Recording a clip: Record, then Stop keeps it under the app's own name")
        yield from self.make_recording(ui)
        yield from ui.finish()


class AudioRecorderRecordAudioWithFileName(RecorderTask):
    template = 'Record an audio clip with Audio Recorder and save it as "{file_name}".'
    instructions = {"zh-CN": "用录音机录一段音频，并把它命名为“{file_name}”。"}
    complexity, max_steps = 2, 20

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {**super().sample_params(rng), "file_name": sample_name(rng)}

    def new_file(self, p: Mapping[str, Any]) -> dict[str, Any]:
        return {"folder": RECORDINGS_DIR, "name": named(p["file_name"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Recorder")
        ui.why(f"Checking the Records list for {p['file_name']}{EXT} (made already?)")
        if ui.find(id="btn_records_list") is not None:
            yield from ui.tap(id="btn_records_list")
        if ui.find(id=f"record_{p['file_name']}{EXT}") is None:
            ui.why(f"No {p['file_name']}{EXT} yet: recording a clip, then renaming it")
            yield from self.make_recording(ui)
            yield from ui.tap(label(ui, "Rename"), id="btn_rename")
            yield from ui.fill("rename_field", p["file_name"])
            yield from ui.tap(id="button_ok")
        yield from ui.finish()


TEMPLATES: list[Task] = [AudioRecorderRecordAudio(), AudioRecorderRecordAudioWithFileName()]
