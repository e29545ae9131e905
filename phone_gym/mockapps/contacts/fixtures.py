"""Public fixtures of Contacts: seeding the contacts provider, for any app's tasks."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.families import Infeasible
from ...tasks.vocab import Person, people
from ...verifiers.state import DeviceState

COLLECTION = "contacts"


def sample_roster(rng: np.random.Generator, extra: int = 0, *,
                  starred_share: float = 0.25) -> tuple[list[Person], int]:
    """A roster of 12 to 16 people (plus ``extra`` more at the end, for values a task needs
    that must differ from everyone's) and the index of a random target among the first."""
    n = int(rng.integers(12, 17))
    return people(rng, n + extra, starred_share=starred_share), int(rng.integers(n))


def seed_contacts(state: DeviceState, roster: Sequence[Person]) -> None:
    """Add ``roster`` to the contacts provider in order (on a fresh PhoneWorld phone their
    ids are 1, 2, ...)."""
    for p in roster:
        state.add_contact(p["name"], p["phone"], p.get("email", ""), bool(p.get("starred")))


def roster_params(rng: np.random.Generator, **kwargs: Any) -> dict[str, Any]:
    """Params of a task about one contact among a roster: ``people``, the target's ``cid``
    (its id on a fresh phone), ``name`` and ``phone``."""
    roster, t = sample_roster(rng, **kwargs)
    return {"people": roster, "cid": t + 1, "name": roster[t]["name"],
            "phone": roster[t]["phone"]}


class MissingContact(Infeasible):
    """For an infeasible variant of any app's task about a contact of the roster
    (``roster_params``): the roster without the target, whose name stays in the
    instruction; the oracle searches Contacts for it, then declares the task infeasible."""

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        params = super().sample_params(rng)
        params["people"] = [p for p in params["people"] if p["name"] != params["name"]]
        return params

    def look(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Contacts")
        yield from ui.tap(id="search", kind="text_field")
        yield PhoneAction("type", text=p["name"])
