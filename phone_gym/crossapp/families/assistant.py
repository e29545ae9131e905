"""Handoffs from 元宝 (Yuanbao), the assistant: a prompt sent, and the reply it writes taken
to another app (pasted into a 腾讯文档 document, shared to a WeChat chat). A template gives
the data: the prompt, the reply's kind and the parts that name it, and where the reply goes
(``dest``: the table, the new record's fields, the field holding the reply); ``YuanbaoHandoff``
makes the criteria (元宝 asked once, one new record, its text exactly 元宝's reply),
the allowed changes and the oracle's first steps (``ask_yuanbao``, ``reply_id``).

The check reads the reply in the final state: pasting stale clipboard content, or typing a
text of one's own, fails.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ...actions import PhoneAction
from ...mockapps.assistant import fixtures as yuanbao
from ...tasks.driver import Driver
from ...tasks.task import Task
from ...verifiers import Allow, Allowed, Criterion, Matcher, Record, same_text
from ...verifiers.criteria import matching, rows


def holding(*parts: str) -> Matcher:
    return Matcher(lambda v: all(p in str(v) for p in parts), f"a text holding {parts}")


@dataclass(frozen=True)
class HoldsReply:
    """A record of ``collection`` matching ``where`` whose ``field`` is exactly the text of
    a reply 元宝 holds in the same state, of ``kind`` and holding every one of ``parts``
    (the reply the task asked for): not stale clipboard content, not a text of one's own."""

    collection: str
    where: Mapping[str, Any]
    field: str
    kind: str
    parts: tuple[str, ...]

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        replies = {str(m.get("text", "")).strip()
                   for m in rows(state, yuanbao.MESSAGES).values()
                   if m.get("role") == yuanbao.ASSISTANT and m.get("kind") == self.kind
                   and all(p in str(m.get("text", "")) for p in self.parts)}
        if not replies:
            return False, f"元宝 holds no {self.kind} reply with {self.parts}"
        for record in matching(state, self.collection, self.where):
            if str(record.get(self.field, "")).strip() in replies:
                return True, f"{self.collection}: the {self.field} is 元宝's reply"
        return False, f"no {self.collection} record's {self.field} is 元宝's {self.kind} reply"


def asked(prompt: str) -> Record:
    """元宝 was sent ``prompt`` (the instruction quotes it), once."""
    return Record(yuanbao.MESSAGES, {"role": yuanbao.USER, "text": same_text(prompt)},
                  count=1)


def ask_yuanbao(ui: Driver, prompt: str, *parts: str) -> Iterator[PhoneAction]:
    """Open 元宝, send ``prompt`` in a new conversation; leaves the reply holding ``parts``
    on screen (its id is read by ``reply_id``)."""
    yield from ui.open_app("Yuanbao")
    yield from ui.tap(id="new_chat")
    yield from ui.fill("prompt", prompt)
    yield from ui.tap(id="send")


def reply_id(ui: Driver, *parts: str) -> str:
    """The number of the reply on screen holding ``parts`` (its buttons are
    ``copy_<n>``/``share_<n>``)."""
    found = [e for e in ui.find_all() if e.short_id.startswith("msg_")
             and not e.text.startswith("我：") and all(p in e.text for p in parts)]
    return found[-1].short_id.removeprefix("msg_")


class YuanbaoHandoff(Task):
    """Send 元宝 ``p["prompt"]`` and take its reply of ``kind`` (holding ``parts(p)``) into a
    new record of ``collection`` (fields ``where(p)``, the reply in ``field``)."""

    tags: ClassVar[frozenset[str]] = frozenset({"handoff"})
    collection: ClassVar[str] = ""
    field: ClassVar[str] = "text"
    kind: ClassVar[str] = ""

    def where(self, p: Mapping[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def parts(self, p: Mapping[str, Any]) -> tuple[str, ...]:
        raise NotImplementedError

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        where = self.where(params)
        return [asked(params["prompt"]), Record(self.collection, where, count=1),
                HoldsReply(self.collection, where, self.field, self.kind, self.parts(params))]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(self.collection, "added", max=1), Allow(yuanbao.CONVOS, "added", max=1),
                Allow(yuanbao.MESSAGES, "added", max=2)]

    def replaced(self, final: Any, p: Mapping[str, Any], text: str) -> dict[str, Any]:
        """``final`` with the new record's reply replaced by ``text`` (a near miss)."""
        out = copy.deepcopy(dict(final))
        for r in matching(out, self.collection, self.where(p)):
            r[self.field] = text  # type: ignore[index]
        return out
