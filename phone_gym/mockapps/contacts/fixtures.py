"""Public fixtures of Contacts: seeding the contacts provider, for any app's tasks."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.families import Infeasible
from ...tasks.task import data_catalogue
from ...tasks.vocab import Person, people
from ...verifiers.state import DeviceState

COLLECTION = "contacts"
#: The seeded data in zh-CN (``strings/zh-CN.data.json``): the roster's given names and
#: surnames (``vocab.FIRST_NAMES``, ``LAST_NAMES``) as Chinese ones; ``localize_people``
#: writes a roster's names family name first (Maria Garcia: 高玉梅) and its numbers as
#: Chinese mobile numbers.
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}
US_PHONE = re.compile(r"(\+1 )?(\d{3})-555-01(\d\d)")


def zh_name(name: str, table: Mapping[str, str]) -> str:
    """A roster name "First Last" as a Chinese one (surname first: 高玉梅); others kept."""
    first, _, last = name.partition(" ")
    if first in table and last in table:
        return table[last] + table[first]
    return name


def zh_phone(phone: str) -> str:
    """A roster number ("+1 415-555-0123") as a Chinese mobile one ("+86 138 0415 0123":
    the digits that tell numbers apart are kept); others kept."""
    m = US_PHONE.fullmatch(phone)
    if m is None:
        return phone
    return ("+86 " if m[1] else "") + f"138 0{m[2]} 01{m[3]}"


def localize_people(value: Any, table: Mapping[str, str]) -> Any:
    """Params with every roster name and phone number in Chinese (``zh_name``,
    ``zh_phone``); given names and surnames alone through ``table``."""
    if isinstance(value, str):
        if US_PHONE.fullmatch(value):
            return zh_phone(value)
        return zh_name(value, table) if " " in value else table.get(value, value)
    if isinstance(value, Mapping):
        return {k: value[k] if k == "email" else localize_people(value[k], table)
                for k in value}
    if isinstance(value, (list, tuple)):
        return type(value)(localize_people(v, table) for v in value)
    return value


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
