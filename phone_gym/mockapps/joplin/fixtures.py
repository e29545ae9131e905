"""Public fixtures of Joplin: what tasks use to seed notebooks and notes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue
from ...tasks.vocab import LINES, TITLES, Draws
from ...verifiers.state import DeviceState
from .app import Folder, JoplinApp, Note, add_folder, add_note

NOTES = "apps.Joplin.notes"
FOLDERS = ("Work", "Personal", "Recipes", "Travel", "Projects", "Ideas", "Meetings",
           "Shopping", "Fitness", "Reading")
#: The seeded data in zh-CN (``strings/zh-CN.data.json``: notebooks, titles, lines, to-dos).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def localized(value: Any, table: Mapping[str, str]) -> Any:
    """Params with each seeded text in ``table``'s words, a body line by line (lines the
    table lacks, and other values, kept)."""
    if isinstance(value, str):
        if "\n" in value:
            return "\n".join(table.get(line, line) for line in value.split("\n"))
        return table.get(value, value)
    if isinstance(value, Mapping):
        return {k: localized(v, table) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(localized(v, table) for v in value)
    return value


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


def write_notes(state: DeviceState, rows: Sequence[Mapping[str, Any]]) -> None:
    """``write_note(state, **row)`` of each of ``rows``, in one write of the notes table
    (``Table.extend``)."""
    table = app_of(state).data.notes
    table.extend(Note(i, r["folder"], r["title"], r.get("body", ""), r.get("is_todo", False),
                      r.get("done", False)) for i, r in enumerate(rows, table.next_id))


def noise_notes(rng: np.random.Generator, k: int, folders: int, *,
                avoid: tuple[str, ...] = ()) -> list[dict[str, object]]:
    """``k`` everyday notes (some of them to-dos) spread over ``folders`` notebooks (ids
    1..folders), titles not in ``avoid`` (titles repeat: AndroidWorld's 100 noise notes
    are more than there are titles)."""
    pool = [t for t in TITLES if t not in avoid]
    titles = [pool[int(i)] for i in rng.integers(len(pool), size=k)]
    with Draws(rng) as draw:  # the notes' draws fetched in bulk: the same numbers and state
        draw.reserve(3 * k)  # a word for the notebook, two for the lines, an output for todo
        below, sample, random, lines = draw.below, draw.sample, draw.random, LINES
        n_lines = len(lines)
        out: list[dict[str, object]] = []
        for t in titles:  # (``integers(1, folders + 1)``, ``pick(LINES, 2)``, inline)
            folder = 1 + below(folders)
            first, second = sample(n_lines, 2)
            out.append({"folder": folder, "title": t,
                        "body": f"{lines[first]}\n{lines[second]}",
                        "is_todo": random() < 0.3, "done": False})
        return out
