"""What the cross-app templates share: checks on the text a record holds (``holds``: one
value of a type among names and decoys), the targets a value is handed to (a WeChat friend,
an SMS contact: params, seeding, the record's fields and the oracle step), ``OneRecord``, and
the oracle steps several kinds of templates use (a note, an e-mail, a calendar event, a chat
message). The families of cross-app work build on these (``crossapp.families``)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, ClassVar

import numpy as np

from ..actions import PhoneAction
from ..mockapps.calendar.fixtures import set_date, set_time
from ..mockapps.chat.fixtures import ME as CHAT_ME
from ..mockapps.chat.fixtures import NAMES as CHAT_NAMES
from ..mockapps.chat.fixtures import open_chat, seed_social
from ..mockapps.mail.fixtures import start as mail_start
from ..mockapps.messages.fixtures import sms_numbers
from ..tasks.driver import Driver
from ..tasks.families import record_keys
from ..tasks.task import Task
from ..tasks.vocab import people, pick
from ..verifiers import (
    Allow,
    Allowed,
    Criterion,
    Matcher,
    Record,
    mentions,
    normalize_text,
    same_phone,
)
from ..verifiers.answers import match_answer

_DASH = re.compile(r"(^|\s)[-–—:]+(?=\s)")
#: Words that deny what a message says ("不是¥1140", "not 双十一预售"): a message that
#: holds one states nothing (the adversarial suite's negation attack).
DENIAL = re.compile(r"不是|并非|并不是|没有|不对|错了|而非|\bnot\b|n't\b|\bno\b", re.I)


# --- checks on the text of a record --------------------------------------------------------------
def holds(kind: str | None = None, value: Any = None, *, names: Sequence[str] = (),
          mention: Sequence[str] = (), decoys: Sequence[str] = ()) -> Matcher:
    """A text that names every one of ``names`` and none of ``decoys`` and, once ``names``
    and ``mention`` (words the text may also use: a city, a merchant) are taken out, holds
    exactly one value of ``kind`` equal to ``value`` (``match_answer`` rules: every value of
    the kind in it must be that one, not negated).

    Names and decoys compare as whole tokens (``verifiers.mentions``: "EC 107" is not
    named by "EC 1077"), a name's mention must not be negated ("not X", "isn't X"), and a
    decoy that is part of a name is looked for outside the name's mentions."""
    want = [n for n in names if n]
    drop = [*want, *(m for m in mention if m)]
    avoid = [d for d in decoys if d and all(normalize_text(d) != normalize_text(n)
                                            for n in want)]

    def test(v: Any) -> bool:
        if not isinstance(v, str):
            return False
        if not all(mentions.told(v, n) for n in want):
            return False
        rest = mentions.blank(v, want)
        if any(mentions.names(rest if any(mentions.names(n, d) for n in want) else v, d)
               for d in avoid):
            return False
        if kind is None:
            return True
        rest = _DASH.sub(" ", mentions.blank(v, drop))
        return match_answer(kind, value, rest)[0]

    what = f" and the {kind} {value!r}" if kind else ""
    return Matcher(test, f"text naming {want}{what}, no other candidate")


def holding(*parts: str) -> Matcher:
    """Text naming every one of ``parts`` (whole tokens, case and spacing aside), none of
    them negated."""
    return Matcher(lambda v: all(mentions.told(v, p) for p in parts),
                   f"text holding {parts!r}")


def addresses_are(*addrs: str) -> Matcher:
    """A recipients field naming exactly ``addrs`` (any order, commas or semicolons)."""
    want = sorted(a.lower() for a in addrs)
    return Matcher(lambda v: sorted(a.strip().lower() for a in str(v).replace(";", ",")
                                    .split(",") if a.strip()) == want,
                   f"recipients {want!r}")


# --- money as apps show it -----------------------------------------------------------------------
def yuan_text(cents: int) -> str:
    return f"¥{cents // 100}.{cents % 100:02d}"


def dollars(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


# --- where a value goes --------------------------------------------------------------------------
class OneRecord(Task):
    """Add exactly one record to ``collection`` whose fields are ``fields(params)``: the
    semantics of ``CreateRecord`` (a counted criterion, one added record allowed), for
    templates whose sentence names only what is already on the phone (a friend, a city, a
    merchant), so that a leftover first try is a second record and fails on the count."""

    collection: ClassVar[str] = ""

    def fields(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        raise NotImplementedError

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        fields = self.fields(params)
        before = len(record_keys(initial, self.collection, fields))
        return [Record(self.collection, fields, count=before + 1)]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(self.collection, "added", max=1)]


class ChatTarget(Task):
    """The value goes to ``p["friend"]`` on WeChat (friends ``p["names"]``, chats 1..n)."""

    def chat_params(self, rng: np.random.Generator) -> dict[str, Any]:
        names = [str(n) for n in pick(rng, CHAT_NAMES, 4)]
        return {"names": names, "friend": names[int(rng.integers(len(names)))]}

    def seed_chat(self, state: Any, p: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_social(state, rng, p["names"])

    def chat_fields(self, p: Mapping[str, Any], text: Matcher) -> dict[str, Any]:
        return {"chat": list(p["names"]).index(p["friend"]) + 1, "sender": CHAT_ME,
                "kind": "text", "text": text}

    def tell(self, ui: Driver, p: Mapping[str, Any], text: str) -> Iterator[PhoneAction]:
        yield from open_chat(ui, p["friend"])
        yield from ui.fill("composer", text)
        yield from ui.tap(id="send")


class SmsTarget(Task):
    """The value goes by SMS to the contact ``p["person"]`` (one of ``p["people"]``)."""

    def sms_params(self, rng: np.random.Generator) -> dict[str, Any]:
        crowd = [str(x["name"]) for x in people(rng, 4)]
        numbers = sms_numbers(rng, len(crowd))
        k = int(rng.integers(len(crowd)))
        return {"people": crowd, "numbers": numbers, "person": crowd[k], "number": numbers[k]}

    def seed_contacts(self, state: Any, p: Mapping[str, Any]) -> None:
        for name, number in zip(p["people"], p["numbers"], strict=True):
            state.add_contact(name, number)

    def sms_fields(self, p: Mapping[str, Any], body: Matcher) -> dict[str, Any]:
        return {"address": same_phone(p["number"]), "body": body, "box": "sent"}


# --- oracle steps --------------------------------------------------------------------------------
def new_event(ui: Driver, title: str, first: datetime, last: datetime, description: str = "",
              *, location: str = "") -> Iterator[PhoneAction]:
    """Add a one-time event in the calendar (from any screen): title, description, location,
    start and end, Save."""
    yield from ui.open_app("Calendar")
    yield from ui.tap(id="new_event")
    yield from ui.fill("title", title)
    if description:
        yield from ui.fill("description", description)
    if location:
        yield from ui.fill("location", location)
    yield from set_date(ui, "start_date", first.date())
    yield from set_time(ui, "start_time", first)
    yield from set_date(ui, "end_date", last.date())
    yield from set_time(ui, "end_time", last)
    yield from ui.tap(id="save")


def compose_mail(ui: Driver, to: str, subject: str, body: str) -> Iterator[PhoneAction]:
    """Send an e-mail from Gmail: compose, the recipients, the subject, the body, Send."""
    yield from mail_start(ui)
    yield from ui.tap(id="compose")
    yield from ui.fill("to", to)
    yield from ui.fill("subject", subject)
    yield from ui.fill("body", body)
    yield from ui.tap(id="send")


def new_note(ui: Driver, title: str, body: str) -> Iterator[PhoneAction]:
    """Write a new note in Notes: +, the title, the body, Save."""
    yield from ui.open_app("Notes")
    yield from ui.tap(id="new_note")
    yield from ui.fill("title", title)
    yield from ui.fill("body", body)
    yield from ui.tap(id="save")


def chat_text(ui: Driver, title: str, text: str) -> Iterator[PhoneAction]:
    """Send ``text`` in the WeChat chat titled ``title``."""
    yield from open_chat(ui, title)
    yield from ui.fill("composer", text)
    yield from ui.tap(id="send")
