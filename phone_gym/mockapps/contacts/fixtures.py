"""Public fixtures of Contacts: seeding the contacts provider, for any app's tasks."""

from __future__ import annotations

import re
import zlib
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


#: Chinese mobile prefixes (China Mobile 134-139, 150-152, 158, 182, 188; China Unicom 130-132,
#: 155, 156, 186; China Telecom 133, 153, 177, 180, 189, 199): one per US area code.
MOBILE_PREFIXES = ("138", "139", "186", "150", "135", "177", "158", "189", "131", "199",
                   "136", "152", "180", "137", "156")
SMS_NUMBER = re.compile(r"\+1(\d{3})55501(\d\d)")
#: Chinese mail providers for the roster's example domains (example.com: QQ Mail...).
MAIL_DOMAINS = {"example.com": "qq.com", "example.org": "163.com", "example.net": "126.com"}
EMAIL = re.compile(r"([\w.+-]+)@(example\.(?:com|org|net))")


def mobile(area: str, suffix: str) -> str:
    """The 11 digits of the Chinese mobile number for a US number's area code and 01xx
    suffix: a prefix chosen by the area code, 0 and the area code, 01 and the suffix (so
    distinct numbers stay distinct)."""
    return f"{MOBILE_PREFIXES[int(area) % len(MOBILE_PREFIXES)]}0{area}01{suffix}"


def zh_phone(phone: str) -> str:
    """A roster number ("+1 415-555-0123") as a Chinese mobile one ("+86 158 0415 0123":
    the digits that tell numbers apart are kept); an SMS address ("+14155550123") as one
    ("+8615804150123"); others kept."""
    m = US_PHONE.fullmatch(phone)
    if m is not None:
        d = mobile(m[2], m[3])
        return ("+86 " if m[1] else "") + f"{d[:3]} {d[3:7]} {d[7:]}"
    m = SMS_NUMBER.fullmatch(phone)
    return phone if m is None else f"+86{mobile(m[1], m[2])}"


def zh_email(email: str) -> str:
    """A roster e-mail ("chloe.tanaka@example.net") as a Chinese one: a QQ-number-like run
    of digits (fixed by the address) at QQ Mail, 163 or 126 ("2750193846@126.com");
    others kept."""
    m = EMAIL.fullmatch(email)
    if m is None:
        return email
    number = 10_000_000 + zlib.crc32(m[1].encode()) % 3_000_000_000
    return f"{number}@{MAIL_DOMAINS[m[2]]}"


def localize_people(value: Any, table: Mapping[str, str]) -> Any:
    """Params with every roster name, phone number and e-mail in Chinese (``zh_name``,
    ``zh_phone``, ``zh_email``); given names and surnames alone through ``table``."""
    if isinstance(value, str):
        if US_PHONE.fullmatch(value) or SMS_NUMBER.fullmatch(value):
            return zh_phone(value)
        if EMAIL.fullmatch(value):
            return zh_email(value)
        return zh_name(value, table) if " " in value else table.get(value, value)
    if isinstance(value, Mapping):
        return {k: zh_email(value[k]) if k == "email" else localize_people(value[k], table)
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
