"""Public fixtures of SMS Messenger: seeding the shared SMS store (through ``DeviceState``,
so they work on real phones too), and the vocabulary of its tasks."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from ...tasks.aw import AW_START
from ...tasks.task import data_catalogue
from ...tasks.vocab import AREA_CODES, pick
from ...verifiers.state import DeviceState
from ...world.locale import DEFAULT_LOCALE
from ...world.system import STORES

COLLECTION = "messages"
#: The package that holds the SMS store on a phone (``pm clear`` of it wipes every SMS).
TELEPHONY_PROVIDER = STORES["messages"]

#: What tasks ask to send (written for phone-gym; none is a question).
SENTENCES = (
    "Running ten minutes late, start without me.",
    "Can you pick up bread on the way home?",
    "The meeting moved to Thursday at 2 pm.",
    "Happy birthday, have a great day!",
    "I left the keys under the blue pot.",
    "Dinner is at seven, bring a jacket.",
    "Thanks for your help with the move.",
    "The package arrived this morning.",
    "Let's meet at the north entrance.",
    "Please call me back when you are free.",
    "I booked the table for four people.",
    "The train is delayed by twenty minutes.",
    "Don't forget the tickets for tonight.",
    "See you at the gym tomorrow at eight.",
    "I will send the photos this evening.",
    "The plumber comes on Monday morning.",
    "Good luck with the interview today!",
    "We need more milk and some coffee.",
    "Parking is free after six on weekdays.",
    "The kids are staying at grandma's tonight.",
)
#: What other people text (distractor threads).
CHATTER = (
    "Are we still on for Saturday?", "Sounds good to me.", "Call you later.",
    "Did you see the game last night?", "On my way!", "Can you send me the link?",
    "Thanks, got it.", "How was the trip?", "Lunch tomorrow?", "Running a bit late.",
    "Happy to help.", "Let me check and get back to you.",
)
#: What a contact asks after the user's last text (SimpleSmsResend).
QUESTIONS = ("Sorry, what did you send? My phone glitched.",
             "Your last message did not come through, can you send it again?",
             "I deleted your text by accident, could you resend it?")
#: Street addresses (made up) that contacts text each other.
ADDRESSES = (
    "1482 Maple Grove Ave, Springfield, IL 62704",
    "77 Harbor View Rd, Portland, ME 04101",
    "3105 Cedar Hollow Ln, Austin, TX 78745",
    "920 Linden Park Dr, Madison, WI 53711",
    "2250 Willow Creek Blvd, Boise, ID 83706",
    "48 Orchard Hill St, Burlington, VT 05401",
    "615 Copper Ridge Way, Tucson, AZ 85719",
    "1337 Birch Meadow Ct, Raleigh, NC 27606",
)
#: The texts in zh-CN (``strings/zh-CN.data.json``: the sentences, chatter, questions and
#: addresses above): the templates' params are localized with it (``Task.data``), and what
#: setup seeds itself goes through ``datum``.
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def datum(state: Any, text: str) -> str:
    """The text ``text`` in the phone's locale (the data catalogue's entry; a text it does
    not hold, already localized or a task's own, is kept)."""
    locale = getattr(state, "locale", DEFAULT_LOCALE)
    return text if locale == DEFAULT_LOCALE else DATA[locale].get(text, text)


def sms_number(rng: np.random.Generator, avoid: Sequence[str] = ()) -> str:
    """A fictional number as AndroidWorld writes them: ``+1`` and ten digits
    (``+14155550123``, in the 555-01xx range), not in ``avoid``."""
    while True:
        number = f"+1{pick(rng, AREA_CODES)}55501{int(rng.integers(100)):02d}"
        if number not in avoid:
            return number


def sms_numbers(rng: np.random.Generator, k: int, avoid: Sequence[str] = ()) -> list[str]:
    """``k`` distinct numbers (``sms_number``), none in ``avoid``."""
    out: list[str] = []
    while len(out) < k:
        out.append(sms_number(rng, [*avoid, *out]))
    return out


def ago(minutes: int, now: datetime = AW_START) -> str:
    """The ISO time ``minutes`` before ``now`` (the AndroidWorld clock by default)."""
    return (now - timedelta(minutes=minutes)).isoformat(timespec="seconds")


def receive(state: DeviceState, address: str, body: str, minutes_ago: int) -> None:
    """Store an incoming SMS (read: a phone's inbox as the user left it)."""
    state.add_message(address, datum(state, body), "inbox", ago(minutes_ago), True)


def sent_earlier(state: DeviceState, address: str, body: str, minutes_ago: int) -> None:
    """Store an SMS the user sent earlier."""
    state.add_message(address, datum(state, body), "sent", ago(minutes_ago), True)


def seed_chatter(state: DeviceState, rng: np.random.Generator, numbers: Sequence[str], *,
                 oldest: int = 600, newest: int = 60) -> None:
    """A short exchange (1 to 3 texts, some sent by the user) with each of ``numbers``, all
    between ``oldest`` and ``newest`` minutes ago."""
    for number in numbers:
        times = sorted(rng.choice(np.arange(newest, oldest), size=int(rng.integers(1, 4)),
                                  replace=False), reverse=True)
        for minutes in times:
            if rng.random() < 0.3:
                sent_earlier(state, number, pick(rng, CHATTER), int(minutes))
            else:
                receive(state, number, pick(rng, CHATTER), int(minutes))


def seed_people(state: DeviceState, people: Sequence[dict[str, Any]]) -> None:
    """Add contacts (``{"name", "phone"}``) in order."""
    for p in people:
        state.add_contact(p["name"], p["phone"])


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({"InForeground", "send_sms"})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
