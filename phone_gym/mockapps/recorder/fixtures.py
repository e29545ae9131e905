"""Public fixtures of Audio Recorder: older recordings (bystanders a task must leave alone)
and record names like the ones AndroidWorld asks for."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.vocab import pick
from ...verifiers.state import DeviceState
from .app import EXT, RECORDINGS_DIR

COLLECTION = "files"
#: Kinds of speech a recording is named after.
NOUNS = ("interview", "lecture", "memo", "meeting", "podcast", "voice_note", "speech",
         "presentation", "seminar", "conference_call", "reminder", "dictation", "review",
         "briefing", "workshop", "conversation", "rehearsal", "lesson", "sermon",
         "debate", "story", "song_idea", "sales_pitch", "standup", "diary")
SUFFIXES = ("backup", "copy", "final", "edited")
OLD_NAMES = ("Record-1", "Record-2", "Record-3", "grocery_list", "call_with_bank",
             "guitar_riff")
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def sample_name(rng: np.random.Generator) -> str:
    """A noun with a modifier: a date before or after, four letters and digits, or one of
    ``SUFFIXES`` (``lecture_2023_10_15``, ``2023_10_15_memo``, ``interview_k3x9``,
    ``podcast_final``)."""
    noun = str(pick(rng, NOUNS))
    day = datetime(2023, 10, 15) - timedelta(days=int(rng.integers(0, 30)))
    how = int(rng.integers(4))
    if how == 0:
        return f"{day:%Y_%m_%d}_{noun}"
    if how == 1:
        return f"{noun}_{day:%Y_%m_%d}"
    if how == 2:
        return f"{noun}_{''.join(str(pick(rng, list(ALPHABET))) for _ in range(4))}"
    return f"{noun}_{pick(rng, SUFFIXES)}"


def sample_old(rng: np.random.Generator, low: int = 1, high: int = 3) -> list[list[str]]:
    """``low``..``high`` older recordings as ``[path, content]`` pairs."""
    out = []
    for name in pick(rng, OLD_NAMES, int(rng.integers(low, high + 1))):
        secs = int(rng.integers(5, 600))
        out.append([f"{RECORDINGS_DIR}/{name}{EXT}",
                    f"AAC audio (m4a), 44.1 kHz mono, duration {secs // 60}:{secs % 60:02d}, "
                    f"recorded 2023-10-{int(rng.integers(1, 15)):02d} 09:30:00"])
    return out


def seed_recordings(state: DeviceState, recordings: list[list[str]]) -> None:
    for path, content in recordings:
        state.write_file(path, content.encode("utf-8"))


def new_recordings(state: DeviceState, recordings: list[list[str]]) -> list[str]:
    """Names of the recordings that ``recordings`` did not seed."""
    seeded = {path for path, _ in recordings}
    return [n for n in state.list_dir(RECORDINGS_DIR)
            if n.endswith(EXT) and f"{RECORDINGS_DIR}/{n}" not in seeded]


def to_recorder(ui: Driver) -> Iterator[PhoneAction]:
    """From the records list (where the app may have been left), back to the recorder, as a
    person taps the app bar's up arrow."""
    if ui.find(id="btn_records_list") is None and ui.find(id="navigate_up") is not None:
        yield from ui.tap(id="navigate_up")
