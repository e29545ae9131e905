"""Public fixtures of Joplin: what tasks use to seed notebooks and notes."""

from __future__ import annotations

import numpy as np

from ...tasks.vocab import LINES, TITLES, pick
from ...verifiers.state import DeviceState
from .app import Folder, JoplinApp, Note, add_folder, add_note

NOTES = "apps.Joplin.notes"
FOLDERS = ("Work", "Personal", "Recipes", "Travel", "Projects", "Ideas", "Meetings",
           "Shopping", "Fitness", "Reading")


def app_of(state: DeviceState) -> JoplinApp:
    app = state.app("Joplin")  # type: ignore[attr-defined]
    assert isinstance(app, JoplinApp)
    return app


def write_folder(state: DeviceState, name: str) -> Folder:
    return add_folder(app_of(state).data, name)


def write_note(state: DeviceState, folder: int, title: str, body: str = "", *,
               is_todo: bool = False, done: bool = False) -> Note:
    """Add a note (PhoneWorld: the app's own data)."""
    return add_note(app_of(state).data, folder, title, body, is_todo=is_todo, done=done)


def noise_notes(rng: np.random.Generator, k: int, folders: int, *,
                avoid: tuple[str, ...] = ()) -> list[dict[str, object]]:
    """``k`` everyday notes (some of them to-dos) spread over ``folders`` notebooks (ids
    1..folders), titles not in ``avoid`` (titles repeat: AndroidWorld's 100 noise notes
    are more than there are titles)."""
    pool = [t for t in TITLES if t not in avoid]
    titles = [pool[int(i)] for i in rng.integers(len(pool), size=k)]
    return [{"folder": int(rng.integers(1, folders + 1)), "title": t,
             "body": "\n".join(pick(rng, LINES, 2)), "is_todo": bool(rng.random() < 0.3),
             "done": False} for t in titles]
