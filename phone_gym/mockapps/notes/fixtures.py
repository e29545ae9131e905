"""Public fixtures of Notes: what other apps' tasks (and tests) may use to seed notes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue
from ...tasks.vocab import LINES, TITLES, pick
from ...verifiers.state import DeviceState
from ...world.locale import DEFAULT_LOCALE, MissingString
from .app import Note, NotesApp, add_note

COLLECTION = "apps.Notes.notes"
#: Text that tasks add to a note: none of it is in ``LINES``.
EXTRAS = ("and coffee beans", "bring an umbrella", "check the reviews first", "ask Maria too",
          "before Friday", "cancel if it rains", "2 tickets for June", "also buy batteries")
#: New titles for renaming: none of them is in ``TITLES``.
NEW_TITLES = ("Shopping", "Holiday plans", "Work notes", "To do", "Errands", "Reminders",
              "Wish list", "Ideas for May")
PINNED_SHARE = 0.25  # chance that a distractor note is pinned
#: The seeded data in zh-CN (``strings/zh-CN.data.json``: titles, lines, extras).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def datum(locale: str, text: str) -> str:
    """The seeded text ``text`` in ``locale``, line by line (a body of several lines);
    ``MissingString`` when the catalogue lacks a line."""
    if locale == DEFAULT_LOCALE:
        return text
    table = DATA.get(locale, {})
    try:
        return "\n".join(str(table[line]) for line in text.split("\n"))
    except KeyError:
        raise MissingString(f"Notes: no {locale} datum for {text!r} (add it to "
                            f"notes/strings/{locale}.data.json)") from None


def localized(value: Any, locale: str) -> Any:
    """Params with every seeded text in ``locale`` (others, numbers, kept)."""
    if isinstance(value, str):
        try:
            return datum(locale, value)
        except MissingString:
            return value
    if isinstance(value, dict):
        return {k: localized(v, locale) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(localized(v, locale) for v in value)
    return value


def locale_of(state: Any) -> str:
    return str(getattr(state, "locale", DEFAULT_LOCALE))


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
    """Add ``k`` distractor notes whose titles are not in ``avoid`` (in either locale)."""
    locale = locale_of(state)
    for title in pick(rng, [t for t in TITLES if t not in avoid
                            and datum(locale, t) not in avoid], k):
        write_note(state, datum(locale, title), datum(locale, sample_body(rng, 1)))


def seed_around(state: DeviceState, rng: np.random.Generator, params: dict[str, Any]) -> None:
    """``params["count"]`` notes, the target (title, body, pinned) written ``note_id``-th so
    its id follows from the params; the others are distractors, some pinned."""
    locale = locale_of(state)
    others = pick(rng, [t for t in TITLES if t != params["title"]
                        and datum(locale, t) != params["title"]], params["count"] - 1)
    for i in range(1, params["count"] + 1):
        if i == params["note_id"]:
            write_note(state, params["title"], params["body"], pinned=params["pinned"])
        else:
            title, body = others.pop(), sample_body(rng, int(rng.integers(1, 3)))
            write_note(state, datum(locale, title), datum(locale, body),
                       pinned=bool(rng.random() < PINNED_SHARE))
