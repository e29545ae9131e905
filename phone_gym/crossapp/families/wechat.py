"""Handoffs through WeChat, as data, for the Chinese apps of the paper's world: something
read or done in one app told in a WeChat chat (``Tell``: a friend's request answered, a
group told a price) or shared there as a link (``ShareToGroup``: the app's 分享). Their
instructions are Chinese in both locales (``ZhTask``); a value written into a new 腾讯文档
document is ``handoff.ToDoc``.

A template gives the chat (``to``: the param naming the friend or the group), what the
message must say (``told``: a ``Record`` of the message, or ``Said``: one of the owner's
messages there passes a test), what it asks of the other apps (``asks``: an order paid,
``consistency.Ask``s), wrong replies (``wrong``) and its oracle's reading steps (``read``,
which return the text to send; ``asked`` reads a friend's request off their chat).
Criteria: the asks, one more message of the owner in the chat, ``told``. Allowed: the
asks', one message added in that chat. The oracle reads, goes back to WeChat (``reach``),
sends and finishes.

    class CrossWeiboHotToWeChatGroup(Tell):
        template, to = "看看微博热搜第{rank}名是什么话题，发到微信群“{group}”里。", "group"
        def told(self, p, mine): return Record(CHAT_MESSAGES, {**mine, "text": ...}, count=1)
        def read(self, ui, p): ...  # 微博's 热搜, returns "微博热搜第1：..."
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ...actions import PhoneAction
from ...mockapps.chat.fixtures import BALANCE, ME, TRANSACTIONS, open_chat
from ...mockapps.chat.fixtures import MESSAGES as CHAT_MESSAGES
from ...tasks.driver import Driver, OracleError
from ...tasks.task import Task
from ...verifiers import Allow, Allowed, Becomes, Criterion, NearMiss, Record, Value, matching
from .consistency import Ask
from .handoff import Read, rewritten

ZH = ("en-US", "zh-CN")
#: WeChat friends' names, and groups' titles.
NAMES = ("李娜", "张伟", "王芳", "刘洋", "陈静", "赵磊", "孙梅", "周涛")
GROUPS = ("家人群", "项目组", "羽毛球群", "大学同学", "读书会", "业主群")


class ZhTask(Task):
    """The instruction is Chinese in both locales: the same sentence on a zh-CN phone."""

    locales = ZH

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "template" in cls.__dict__:
            cls.instructions = {"zh-CN": cls.template}


def chat_id(state: Mapping[str, Any], title: str) -> int:
    """The id of the one WeChat chat titled ``title`` in ``state``."""
    found = matching(state, "apps.Chat.chats", {"title": title})
    if len(found) != 1:
        raise ValueError(f"{len(found)} WeChat chats are titled {title!r}, expected 1")
    return int(found[0]["id"])


@dataclass(frozen=True)
class Said:
    """One of the owner's messages in ``chat`` passes ``test`` (its text and the state: a
    reply may have to name a value the agent's own order holds); ``what`` says what."""

    chat: int
    test: Callable[[str, Mapping[str, Any]], bool]
    what: str

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        for m in matching(state, CHAT_MESSAGES, {"chat": self.chat, "sender": ME}):
            if self.test(str(m.get("text", "")), state):
                return True, f"a message in chat {self.chat} {self.what}"
        return False, f"no message in chat {self.chat} {self.what}"


def paid(balance: int, total: int) -> Ask:
    """``total`` paid by WeChat Pay from ``balance``: one payment, the balance down by it."""
    return Ask((Record(TRANSACTIONS, {"amount": -total}, count=1),
                Value(BALANCE, balance - total)),
               (Allow(TRANSACTIONS, "added"), Becomes(BALANCE, balance - total)))


def to_chat(ui: Driver, title: str) -> Iterator[PhoneAction]:
    """WeChat's chat ``title``, from wherever WeChat or its mini-programs were left: back to
    its tabs, the Chats tab, the search."""
    yield from ui.open_app("Chat")
    for _ in range(5):
        if ui.find(id="tab_chats") is not None:
            break
        yield from ui.press("back")
    yield from ui.tap(id="tab_chats")
    yield from ui.fill("search", title)
    yield from ui.tap(title, kind="list_item")


def asked(ui: Driver, friend: str, pattern: str | re.Pattern[str],
          via: Callable[[Driver, str], Iterator[PhoneAction]] = open_chat
          ) -> Generator[PhoneAction, None, re.Match[str]]:
    """Open the chat with ``friend`` (``via``) and read their request there: the last text
    on screen that ``pattern`` finds."""
    yield from via(ui, friend)
    found = [m for e in ui.find_all() if (m := re.search(pattern, e.text))]
    if not found:
        raise OracleError(f"{friend}'s request is not on screen")
    return found[-1]


class Tell(ZhTask):
    """Something read or done in other apps told in the WeChat chat titled ``p[to]`` (see
    the module)."""

    tags: ClassVar[frozenset[str]] = frozenset({"handoff"})
    #: The param naming the chat: a friend (who asked) or a group.
    to: ClassVar[str] = "friend"

    def told(self, params: Mapping[str, Any], mine: dict[str, Any]) -> Criterion:
        """What the message must say; ``mine``: the where-clause of the owner's messages in
        the chat."""
        raise NotImplementedError

    def asks(self, params: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Ask]:
        """What the task asks of the other apps' records (an order, a payment)."""
        return ()

    def wrong(self, params: Mapping[str, Any]) -> Sequence[tuple[str, str]]:
        """Wrong replies and why each is wrong: each, as the owner's messages in the chat,
        is a declared near miss."""
        return ()

    def mine(self, params: Mapping[str, Any], initial: Mapping[str, Any]) -> dict[str, Any]:
        return {"chat": chat_id(initial, params[self.to]), "sender": ME}

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        mine = self.mine(params, initial)
        before = len(matching(initial, CHAT_MESSAGES, mine))
        return [*(c for ask in self.asks(params, initial) for c in ask.checks),
                Record(CHAT_MESSAGES, mine, count=before + 1), self.told(params, mine)]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        chat = self.mine(params, initial)["chat"]
        return [*(a for ask in self.asks(params, initial) for a in ask.allows),
                Allow(CHAT_MESSAGES, "added", max=1, where={"chat": chat})]

    def declared_near_misses(self, initial: Any, final: Any, params: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        mine = self.mine(params, initial)
        return [rewritten(final, CHAT_MESSAGES, mine, "text", text, why)
                for text, why in self.wrong(params)]

    def read(self, ui: Driver, params: Mapping[str, Any]) -> Read:
        """The oracle's steps in the other apps; returns the text to send."""
        raise NotImplementedError

    def reach(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        """Back to the chat: WeChat where it was left (the friend's chat, read first), or
        the chat opened."""
        yield from ui.open_app("Chat")
        if ui.find(id="composer", kind="text_field") is None:
            yield from open_chat(ui, params[self.to])

    def write(self, ui: Driver, params: Mapping[str, Any], text: str) -> Iterator[PhoneAction]:
        yield from self.reach(ui, params)
        yield from ui.fill("composer", text)
        yield from ui.tap(id="send")

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        text = yield from self.read(ui, params)
        yield from self.write(ui, params, text)
        yield from ui.finish()


class ShareToGroup(Tell):
    """A thing in one app shared to the WeChat group ``p["group"]`` with the app's 分享: a
    link message whose text and link are ``link(p)``; ``share``: the oracle's steps to the
    app's share sheet."""

    to = "group"

    def share(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        raise NotImplementedError

    def read(self, ui: Driver, params: Mapping[str, Any]) -> Read:
        yield from self.share(ui, params)
        return params["group"]

    def link(self, params: Mapping[str, Any]) -> tuple[str, str]:
        """The shared message's text (a title) and its link."""
        raise NotImplementedError

    def told(self, params: Mapping[str, Any], mine: dict[str, Any]) -> Criterion:
        text, link = self.link(params)
        return Record(CHAT_MESSAGES, {**mine, "kind": "link", "text": text, "content": link},
                      count=1)

    def write(self, ui: Driver, params: Mapping[str, Any], text: str) -> Iterator[PhoneAction]:
        yield from ui.tap(text, kind="list_item")  # on the share sheet: the group, send
        yield from ui.tap(id="button_send")
