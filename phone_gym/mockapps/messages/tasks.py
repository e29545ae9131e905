"""SMS Messenger tasks: AndroidWorld's six Simple SMS Messenger tasks.

Each checks the shared SMS store: exactly one new message in the sent box, to the number the
task means (national digits compared), with the text asked for (``same_text``: case,
punctuation and spacing aside), and nothing else changed; on PhoneWorld also that SMS
Messenger is on screen at the end (AndroidWorld requires it; a real phone's snapshot has no
foreground app, so there that part is left out). All start on AndroidWorld's date.
``send_sms`` is the oracle helper other apps' tasks use to text someone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver, OracleError
from ...tasks.families import CreateRecord, record_keys
from ...tasks.task import Task, localize_data
from ...tasks.vocab import people, pick
from ...verifiers import (
    Allow,
    Allowed,
    Criterion,
    Matcher,
    NearMiss,
    Record,
    matching,
    normalize_text,
    same_phone,
    same_text,
)
from ...world.app import app_strings
from ...world.device import LAUNCHER_PACKAGE
from ...world.locale import DEFAULT_LOCALE
from ..contacts.fixtures import DATA as NAMES_DATA
from ..contacts.fixtures import zh_name, zh_phone
from .app import MessagesApp, thread_key
from .fixtures import (
    ADDRESSES,
    CHATTER,
    COLLECTION,
    DATA,
    QUESTIONS,
    SENTENCES,
    TELEPHONY_PROVIDER,
    datum,
    receive,
    seed_chatter,
    seed_people,
    sent_earlier,
    sms_number,
    sms_numbers,
)
from .manifest import MANIFEST


# --- oracle helpers (other apps' tasks use them too) -----------------------------------------
def send_sms(ui: Driver, number: str, text: str) -> Iterator[PhoneAction]:
    """Text ``text`` to ``number`` (or a contact's exact name) from a new conversation:
    SMS Messenger, +, the recipient, the message, Send (7 actions)."""
    yield from ui.open_app(MANIFEST.name)
    yield from ui.tap(id="new_conversation")
    yield from ui.fill("recipient", number)
    yield from ui.fill("composer", text)
    yield from ui.tap(id="send")


def compose(ui: Driver, text: str) -> Iterator[PhoneAction]:
    """Type ``text`` into an open thread's (empty) composer and send it. The composer ends
    the thread, so in a long one the keyboard covers it once focused (a phone's dump then
    leaves it out): type at once, then scroll to Send."""
    yield from ui.tap(id="composer", kind="text_field")
    yield PhoneAction("type", text=text)
    yield from ui.tap(id="send")


def reply(ui: Driver, address: str, text: str) -> Iterator[PhoneAction]:
    """Open the conversation with ``address`` from the list and send ``text`` in it."""
    yield from ui.open_app(MANIFEST.name)
    yield from ui.tap(id=f"thread_{thread_key(address)}", kind="list_item")
    yield from compose(ui, text)


def without(others: Sequence[str], expected: str) -> Matcher:
    """Text containing ``expected`` and none of ``others`` (so that pasting every candidate
    into one message fails)."""
    want = normalize_text(expected)
    bad = [normalize_text(o) for o in others if normalize_text(o) != want]

    def test(value: Any) -> bool:
        text = normalize_text(value)
        return want in text and not any(b in text for b in bad)
    return Matcher(test, f"containing {expected!r} and no other address")


# --- the tasks ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class InForeground:
    """The app of ``package`` is on screen at the end (a snapshot's ``foreground``). A
    snapshot that does not say which app is on screen (a real phone's, read over adb) cannot
    be checked: the criterion holds there."""

    package: str

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        if "foreground" not in state:
            return True, "the foreground app is not observable here"
        shown = state["foreground"]
        if shown == self.package:
            return True, f"{self.package} is on screen"
        return False, f"{shown!r} is on screen, expected {self.package!r}"


class SmsTask(Task):
    """Send one SMS: exactly one new message in the sent box matching ``fields`` (counted:
    a wrong text sent first and left there fails), nothing else changed, and SMS Messenger
    in the foreground at the end. The templates whose instruction names a new value mix in
    ``CreateRecord`` (for the family's tests); the criteria are these."""

    apps = (MANIFEST.name,)
    collection: ClassVar[str] = COLLECTION
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    data = {"zh-CN": {**NAMES_DATA["zh-CN"], **DATA["zh-CN"]}}

    locales_stay_home = True

    def localize_params(self, params: dict[str, Any], table: Mapping[str, str]
                        ) -> dict[str, Any]:
        """The texts and addresses in Chinese, people's names as Chinese ones (高玉梅), their
        numbers as Chinese mobile ones (+8615804150123)."""
        def walk(value: Any) -> Any:
            if isinstance(value, str):
                if value in table:
                    return table[value]
                number = zh_phone(value)
                return number if number != value else zh_name(value, table)
            if isinstance(value, Mapping):
                return {k: walk(v) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return type(value)(walk(v) for v in value)
            return value
        return walk(localize_data(params, table))  # type: ignore[no-any-return]
    start = AW_START
    real = True
    data_packages = (TELEPHONY_PROVIDER,)
    complexity, max_steps = 1, 12  # AndroidWorld: complexity 1.2

    def recipient(self, p: Mapping[str, Any]) -> str:
        return str(p["number"])

    def body(self, p: Mapping[str, Any]) -> Any:
        return same_text(p["message"])

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"address": same_phone(self.recipient(p)), "body": self.body(p), "box": "sent"}

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        fields = self.fields(params)
        before = len(record_keys(initial, COLLECTION, fields))
        return [Record(COLLECTION, fields, count=before + 1), InForeground(MANIFEST.package)]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(COLLECTION, "added", max=1)]

    def conflicts(self, params: Mapping[str, Any], existing: Mapping[str, Any]) -> str | None:
        """A phone that already holds such a sent message is fine (the count is relative);
        a contact already named like one the task adds would make a name ambiguous."""
        for person in params.get("people", ()):
            if matching(existing, "contacts", {"name": same_text(person["name"])}):
                return f"the phone already has a contact named {person['name']!r}"
        return None

    def declared_near_misses(self, initial: Mapping[str, Any], final: Mapping[str, Any],
                             params: Mapping[str, Any], answer: str | None) -> list[NearMiss]:
        if "foreground" not in final:
            return []
        return [NearMiss({**final, "foreground": LAUNCHER_PACKAGE}, answer,
                         "sent, then left SMS Messenger for the home screen")]


class SimpleSmsSend(SmsTask, CreateRecord):
    template = 'Text {number} the message "{message}"'
    instructions = {"zh-CN": "给{number}发短信：“{message}”"}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        number = sms_number(rng)
        return {"number": number, "message": pick(rng, SENTENCES),
                "others": sms_numbers(rng, int(rng.integers(1, 4)), [number])}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_chatter(state, rng, params["others"])

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from send_sms(ui, p["number"], p["message"])
        yield from ui.finish()


class SimpleSmsReply(SmsTask, CreateRecord):
    template = 'Reply to {number} with the text "{message}"'
    instructions = {"zh-CN": "回复{number}的短信：“{message}”"}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        """1 to 5 incoming texts, at least one from ``number`` (as AndroidWorld seeds)."""
        number = sms_number(rng)
        total = int(rng.integers(1, 6))
        mine = int(rng.integers(1, total + 1))
        others = sms_numbers(rng, total - mine, [number])
        senders = [number] * mine + others
        order = [senders[int(i)] for i in rng.permutation(total)]
        return {"number": number, "message": pick(rng, SENTENCES), "senders": order}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        for i, sender in enumerate(params["senders"]):
            receive(state, sender, pick(rng, CHATTER), 5 + 30 * (len(params["senders"]) - i))

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from reply(ui, p["number"], p["message"])
        yield from ui.finish()


class SimpleSmsReplyMostRecent(SmsTask, CreateRecord):
    template = 'Reply to whoever texted me most recently with "{message}"'
    instructions = {"zh-CN": "回复最近给我发短信的人：“{message}”"}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        """0 to 5 earlier texts from other numbers, then the newest from ``number``."""
        number = sms_number(rng)
        return {"number": number, "message": pick(rng, SENTENCES),
                "earlier": sms_numbers(rng, int(rng.integers(0, 6)), [number])}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        earlier = params["earlier"]
        for i, sender in enumerate(earlier):
            receive(state, sender, pick(rng, CHATTER), 10 + 25 * (len(earlier) - i))
        # the newest text arrives now (the phone's clock: on a real phone, newer than
        # everything its owner received before)
        state.add_message(params["number"], datum(state, pick(rng, CHATTER)), "inbox", "",
                          True)

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why("Opening SMS Messenger to see who texted last")
        yield from ui.open_app(MANIFEST.name)
        threads = sorted((e for e in ui.find_all(kind="list_item")
                          if e.short_id.startswith("thread_")), key=lambda e: e.bounds[1])
        if not threads:
            raise OracleError("no conversation listed")
        newest = threads[0]  # conversations are listed newest first
        ui.why(f"The newest conversation, at the top, is {newest.text} (“{newest.hint}”): "
               "replying there")
        yield from ui.tap(id=newest.short_id, kind="list_item")
        yield from compose(ui, p["message"])
        ui.why(f"The reply is sent to {newest.text}")
        yield from ui.finish()


class SimpleSmsResend(SmsTask):
    template = 'Send {name} the last text message I sent them again.'
    instructions = {"zh-CN": "把我上一条发给{name}的短信重新发给对方。"}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        """A few contacts; the thread with ``name``: an older text of the user's
        (``older``), a reply, the last one (``message``), then their question."""
        roster = people(rng, int(rng.integers(3, 6)), starred_share=0.0, email_share=0.0)
        numbers = sms_numbers(rng, len(roster))
        for p, number in zip(roster, numbers, strict=True):
            p["phone"] = number
        older, message = pick(rng, SENTENCES, 2)
        target = roster[int(rng.integers(len(roster)))]
        return {"people": [{"name": p["name"], "phone": p["phone"]} for p in roster],
                "name": target["name"], "number": target["phone"], "message": message,
                "older": older, "question": pick(rng, QUESTIONS)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_people(state, params["people"])
        seed_chatter(state, rng, [p["phone"] for p in params["people"]
                                  if p["name"] != params["name"]])
        number = params["number"]
        sent_earlier(state, number, params["older"], 50)
        receive(state, number, pick(rng, CHATTER), 40)
        sent_earlier(state, number, params["message"], 30)
        receive(state, number, params["question"], 5)

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app(MANIFEST.name)
        yield from ui.tap(p["name"], kind="list_item")
        you = app_strings(MessagesApp, ui.locale).t("You")
        mine = ui.find_all(kind="bubble", desc=you)  # the last of them comes first
        yield from compose(ui, mine[0].text if mine else p["message"])
        yield from ui.finish()


class SimpleSmsSendClipboardContent(SmsTask, CreateRecord):
    template = "Send the text on my clipboard to {number} as a text message."
    instructions = {"zh-CN": "把剪贴板里的文字用短信发给{number}。"}
    real = False  # adb cannot put text on a phone's clipboard

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        number = sms_number(rng)
        return {"number": number, "message": pick(rng, SENTENCES),
                "others": sms_numbers(rng, int(rng.integers(1, 4)), [number])}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_chatter(state, rng, params["others"])
        state.set_clipboard(params["message"])

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app(MANIFEST.name)
        yield from ui.tap(id="new_conversation")
        yield from ui.fill("recipient", p["number"])
        yield from ui.long_press(id="composer", kind="text_field")
        yield from ui.tap("Paste" if ui.locale == DEFAULT_LOCALE else "粘贴", kind="menu_item")
        yield from ui.tap(id="send")
        yield from ui.finish()


class SimpleSmsSendReceivedAddress(SmsTask):
    template = "Text {name1} the address that {name2} just sent me."
    instructions = {"zh-CN": "把{name2}刚发给我的地址用短信发给{name1}。"}
    complexity, max_steps = 2, 18  # AndroidWorld: complexity 1.8

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        """Contacts ``name1`` (to text) and ``name2`` (who sent ``address``; earlier, another
        address, ``old_address``), and one or two more."""
        roster = people(rng, int(rng.integers(3, 5)), starred_share=0.0, email_share=0.0)
        for p, number in zip(roster, sms_numbers(rng, len(roster)), strict=True):
            p["phone"] = number
        address, old = pick(rng, ADDRESSES, 2)
        return {"people": [{"name": p["name"], "phone": p["phone"]} for p in roster],
                "name1": roster[0]["name"], "number": roster[0]["phone"],
                "name2": roster[1]["name"], "number2": roster[1]["phone"],
                "address": address, "old_address": old}

    def body(self, p: Mapping[str, Any]) -> Any:
        table = DATA["zh-CN"]
        known = ADDRESSES if p["address"] in ADDRESSES else [table[a] for a in ADDRESSES]
        return without(known, p["address"])

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_people(state, params["people"])
        seed_chatter(state, rng, [p["phone"] for p in params["people"]
                                  if p["phone"] != params["number2"]])
        receive(state, params["number2"], params["old_address"], 300)
        receive(state, params["number2"], pick(rng, CHATTER), 200)
        receive(state, params["number2"], params["address"], 4)

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app(MANIFEST.name)
        yield from ui.tap(p["name2"], kind="list_item")
        yield from ui.long_press(p["address"], kind="bubble")
        yield from ui.tap(app_strings(MessagesApp, ui.locale).t("Forward"), kind="menu_item")
        yield from ui.fill("recipient", p["name1"])
        yield from ui.tap(id="send")
        yield from ui.finish()


TEMPLATES: list[Task] = [
    SimpleSmsSend(), SimpleSmsReply(), SimpleSmsReplyMostRecent(), SimpleSmsResend(),
    SimpleSmsSendClipboardContent(), SimpleSmsSendReceivedAddress(),
]
