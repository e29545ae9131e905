"""Public fixtures of Notes: what other apps' tasks (and tests) may use to seed notes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...tasks.vocab import LINES, TITLES, pick
from ...verifiers.state import DeviceState
from .app import Note, NotesApp, add_note

COLLECTION = "apps.Notes.notes"
#: Text that tasks add to a note: none of it is in ``LINES``.
EXTRAS = ("and coffee beans", "bring an umbrella", "check the reviews first", "ask Maria too",
          "before Friday", "cancel if it rains", "2 tickets for June", "also buy batteries")
#: New titles for renaming: none of them is in ``TITLES``.
NEW_TITLES = ("Shopping", "Holiday plans", "Work notes", "To do", "Errands", "Reminders",
              "Wish list", "Ideas for May")
PINNED_SHARE = 0.25  # chance that a distractor note is pinned


def notes_app(state: DeviceState) -> NotesApp:
    app = state.app("Notes")  # type: ignore[attr-defined]
    assert isinstance(app, NotesApp)
    return app


def write_note(state: DeviceState, title: str, body: str = "", *, pinned: bool = False) -> Note:
    """Add a note (PhoneWorld: the app's own data)."""
    return add_note(notes_app(state).data, title, body, pinned=pinned)


def sample_body(rng: np.random.Generator, lines: int) -> str:
    """A body of ``lines`` different lines."""
    return "\n".join(pick(rng, LINES, lines))


def seed_notes(state: DeviceState, rng: np.random.Generator, k: int, *,
               avoid: Sequence[str] = ()) -> None:
    """Add ``k`` distractor notes whose titles are not in ``avoid``."""
    for title in pick(rng, [t for t in TITLES if t not in avoid], k):
        write_note(state, title, sample_body(rng, 1))


def seed_around(state: DeviceState, rng: np.random.Generator, params: dict[str, Any]) -> None:
    """``params["count"]`` notes, the target (title, body, pinned) written ``note_id``-th so
    its id follows from the params; the others are distractors, some pinned."""
    others = pick(rng, [t for t in TITLES if t != params["title"]], params["count"] - 1)
    for i in range(1, params["count"] + 1):
        if i == params["note_id"]:
            write_note(state, params["title"], params["body"], pinned=params["pinned"])
        else:
            write_note(state, others.pop(), sample_body(rng, int(rng.integers(1, 3))),
                       pinned=bool(rng.random() < PINNED_SHARE))
