"""Public fixtures of Chat: what tasks (its own, its mini-programs', cross-app ones) use to
seed friends, chats, Moments and the wallet, and the oracle steps its mini-programs share
(opening one through WeChat, paying on the wallet's pay sheet)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.task import data_catalogue
from ...tasks.vocab import pick
from ...world.kit.capsule import PIN_SETTING
from ...world.locale import DEFAULT_LOCALE, MissingString
from .app import ME, Account, Article, Chat, ChatApp, Friend, Msg, Post, chat_with, send
from .app import SAVED_FILES as SAVED_FILES
from .app import SAVED_PICTURES as SAVED_PICTURES

MESSAGES = "apps.Chat.messages"
POSTS = "apps.Chat.posts"
COMMENTS = "apps.Chat.comments"
TRANSACTIONS = "wallet.transactions"
BALANCE = "wallet.balance"

NAMES = ("Li Na", "Zhang Wei", "Wang Fang", "Liu Yang", "Chen Jing", "Zhao Lei", "Sun Mei",
         "Zhou Tao", "Wu Xia", "Xu Ming", "Hu Jun", "Guo Lin", "Ma Rui", "Lin Hui",
         "Anna Berg", "Tom Reed", "Maria Lopez", "David Kim")
REGIONS = ("Beijing", "Shanghai", "Hangzhou", "Shenzhen", "Chengdu", "Guangzhou")
GROUPS = ("Family", "Hiking Club", "Project Team", "College Friends", "Book Club",
          "Badminton Sunday")
CHATTER = ("Did you see the news today?", "Thanks, got it!", "See you tomorrow.",
           "Haha that is so true", "Can you send me the photos?", "Running a bit late",
           "Happy birthday!", "Let me check and get back to you.", "Sounds good to me",
           "Who is bringing snacks?", "The meeting moved to Friday.", "Nice weather today")
POST_TEXTS = ("Sunset at the lake tonight", "Finally finished my first half marathon!",
              "New cafe downtown, great latte", "Weekend hike with the club",
              "My cat discovered the printer", "Homemade dumplings for dinner",
              "Back from a trip to Xi'an", "First day at the new job")
COMMENTS_TEXT = ("Congratulations!", "Looks amazing", "So beautiful!", "Well done!",
                 "Enjoy!", "Where is this?", "Love it", "Great photo")
IMAGES = ("photo of a beach at sunset", "photo of a birthday cake", "screenshot of a map",
          "photo of a whiteboard", "photo of a cat", "photo of a receipt")
FILES = ("Q3_report.pdf", "trip_plan.docx", "budget_2026.xlsx", "menu.pdf",
         "slides_final.pptx", "contract_draft.pdf", "photos.zip", "minutes.docx")


#: The seeded data in zh-CN (``strings/zh-CN.data.json``: English datum -> Chinese datum):
#: WeChat's templates draw params from the English tables above and localize them with it
#: (``Task.data``), and the fixtures below write what they draw themselves through ``datum``.
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def datum(state: Any, text: str, **fields: object) -> str:
    """The seeded text ``text`` (one of the English tables' data, or a sentence with
    ``{fields}``) in the phone's locale, fields filled: English on an en-US phone; the data
    catalogue's entry otherwise (``MissingString`` when it has none: never English data on a
    Chinese phone)."""
    locale = getattr(state, "locale", DEFAULT_LOCALE)
    if locale != DEFAULT_LOCALE:
        try:
            text = DATA[locale][text]
        except KeyError:
            raise MissingString(f"Chat: no {locale} datum for {text!r} (add it to "
                                f"chat/strings/{locale}.data.json)") from None
    return text.format(**fields) if fields else text


def chat_app(state: Any) -> ChatApp:
    app = state.app("Chat")
    assert isinstance(app, ChatApp)
    return app


def add_friend(state: Any, name: str, region: str = "", wechat_id: str = "") -> Friend:
    """A friend (``region``: where their profile says they are; Beijing by default)."""
    data = chat_app(state).data
    region = region or datum(state, "Beijing")
    handle = wechat_id or name.lower().replace(" ", "_") + str(len(data.friends) + 1)
    return data.friends.new(name=name, region=region, wechat_id=handle)


def add_group(state: Any, title: str) -> Chat:
    return chat_app(state).data.chats.new(title=title, group=True, friend=0)


def direct_chat(state: Any, friend: Friend) -> Chat:
    return chat_with(chat_app(state).data, friend)


def say(state: Any, chat: Chat, sender: str, text: str, kind: str = "text", *,
        time: str = "09:00", amount: int = 0, content: str = "") -> Msg:
    """A message in ``chat`` from ``sender`` (``ME`` for the owner); ``content``: an image
    or file message's attachment (what "Save to phone" writes)."""
    return send(chat_app(state).data, chat.id, text, kind, sender=sender, time=time,
                amount=amount, content=content)


def add_post(state: Any, author: str, text: str, *, likes: Sequence[str] = (),
             time: str = "") -> Post:
    """A Moments post (``time``: as the post shows it; "Yesterday" by default)."""
    return chat_app(state).data.posts.new(author=author, text=text,
                                          time=time or datum(state, "Yesterday"),
                                          likes=tuple(likes), liked=False)


def add_account(state: Any, name: str, intro: str = "") -> Account:
    """An official account the owner follows."""
    return chat_app(state).data.accounts.new(name=name, intro=intro)


def add_article(state: Any, account: Account, title: str, url: str, date: str) -> Article:
    """An article of ``account`` (``date`` an ISO day) whose page is at ``url`` (seed the
    page itself in the web view: ``webview.fixtures.add_page``)."""
    return chat_app(state).data.articles.new(account=account.id, title=title, url=url,
                                             date=date)


def set_wallet(state: Any, balance: int, pin: str) -> None:
    """The wallet's balance (cents) and payment PIN."""
    state.system.wallet.balance = balance  # PhoneWorld only: the wallet is the app's own
    state.put_setting(*PIN_SETTING, pin)


def sample_pin(rng: np.random.Generator) -> str:
    return "".join(str(int(d)) for d in rng.integers(0, 10, 6))


def seed_social(state: Any, rng: np.random.Generator, names: Sequence[str],
                groups: Sequence[str] = (), *, chatter: int = 2) -> dict[str, Chat]:
    """Friends ``names``, a one-to-one chat with each holding ``chatter`` messages, then
    the group chats ``groups`` (chat ids follow that order: ``names`` first, from 1): the
    chats by title."""
    chats: dict[str, Chat] = {}
    for name in names:
        friend = add_friend(state, name, datum(state, pick(rng, REGIONS)))
        chat = direct_chat(state, friend)
        for i, line in enumerate(pick(rng, CHATTER, chatter)):
            say(state, chat, ME if i % 2 else name, datum(state, line), time=f"0{8 + i}:1{i}")
        chats[name] = chat
    for title in groups:
        chat = add_group(state, title)
        for line in pick(rng, CHATTER, chatter):
            say(state, chat, pick(rng, list(names)), datum(state, line), time="10:05")
        chats[title] = chat
    return chats


# --- oracle steps the mini-programs share ---------------------------------------------------
def open_mini_program(ui: Driver, name: str, *, launch: bool = True) -> Iterator[PhoneAction]:
    """WeChat > Discover > Mini Programs > the mini-program ``name`` (its manifest name, row
    ``mini_<name>``); ``launch=False`` when WeChat is on screen already, at its tabs."""
    if launch:
        yield from ui.open_app("Chat")
    yield from ui.tap(id="tab_discover")
    yield from ui.tap(id="mini_programs")
    yield from ui.tap(id=f"mini_{name.lower()}")


def pay_with_pin(ui: Driver, pin: str, *, submit: str = "") -> Iterator[PhoneAction]:
    """Pay on the wallet's pay sheet (``kit.PaySheet``): tap ``submit`` first when given (the
    button that brings the sheet up), type the PIN, put the keyboard away, tap Pay."""
    if submit:
        yield from ui.tap(id=submit)
    yield from ui.fill("pay_pin", pin)
    yield from ui.press("back")
    yield from ui.tap(id="button_pay")


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({"open_chat"})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
