"""WeChat (Chat) on a zh-CN phone: every screen, with friends, chats, Moments, accounts,
a transfer's pay sheet and the forward dialog seeded, shows its UI from the catalogue in the
real app's Chinese (微信 / 通讯录 / 发现 / 我, 发送, 转账, 小程序); ids stay the English ones,
so oracles tap the same elements in both locales; en-US is unchanged."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from test_locale import texts, untranslated

from phone_gym.mockapps import APPS
from phone_gym.mockapps.chat.app import ChatApp
from phone_gym.mockapps.chat.fixtures import add_account, add_post, say, seed_social, set_wallet
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.kit.capsule import PayState
from phone_gym.world.state import WorldState


def seeded(locale: str) -> tuple[Device, ChatApp]:
    device = Device(APPS, locale=locale)
    state = WorldState(device)
    chats = seed_social(state, np.random.default_rng(0), ["Li Na", "Zhang Wei"], ["Family"])
    say(state, chats["Li Na"], "Li Na", "trip_plan.docx", "file")
    say(state, chats["Li Na"], "Li Na", "photo of a cat", "image")
    add_post(state, "Li Na", "Sunset at the lake tonight", likes=["Zhang Wei"])
    add_account(state, "People's Daily", "News")
    set_wallet(state, 50000, "123456")
    device.open_app("Chat")
    app = device.app("Chat")
    assert isinstance(app, ChatApp)
    return device, app


SCREENS: dict[str, Callable[[ChatApp], None]] = {
    "chats": lambda a: None,
    "search": lambda a: a.set_ui(query="zzz"),
    "contacts": lambda a: a.set_ui(tab="Contacts"),
    "discover": lambda a: a.set_ui(tab="Discover"),
    "me": lambda a: a.set_ui(tab="Me"),
    "thread": lambda a: a.open_chat(1),
    "transfer": lambda a: a.start_transfer(1),
    "pay sheet": lambda a: (a.start_transfer(1), a.set_ui(paying=PayState(1250, "Li Na", ""))),
    "attach": lambda a: a.open_attach(1),
    "attach files": lambda a: (a.open_attach(1), a.set_ui(attach_tab="File")),
    "forward": lambda a: (a.start_forward(1), a.set_ui(forward_to=2)),
    "contact": lambda a: a.go("contact", 1),
    "accounts": lambda a: a.go("accounts"),
    "account": lambda a: a.go("account", 1),
    "moments": lambda a: a.go("moments"),
    "post": lambda a: (a.toggle_like(1), a.go("post", 1)),
    "mini programs": lambda a: a.go("mini"),
    "wallet": lambda a: a.go("wallet"),
}


def screens(locale: str) -> Iterator[tuple[str, Device]]:
    for name, open_screen in SCREENS.items():
        device, app = seeded(locale)
        open_screen(app)
        device.invalidate()
        yield name, device


#: What the seeded screens show as data (names, messages, posts, files, the query typed).
DATA = ("Li Na", "Zhang Wei", "Family", "zzz", "People's Daily", "News", "Yesterday",
        "li_na1", "zhang_wei2", "Guangzhou", "Shanghai", "Beijing", "Hangzhou", "Shenzhen",
        "Chengdu")


def ui_latin(device: Device, where: str, app: ChatApp) -> list[str]:
    """Texts with Latin letters left once the data they hold is taken out."""
    data = {m.text for m in app.data.messages} | {p.text for p in app.data.posts}
    data |= {f.name for f in device.system.files}
    bad = []
    for text in untranslated(device, where):
        shown = text.split(": ", 1)[1][1:-1]
        for d in sorted({*DATA, *data}, key=len, reverse=True):
            shown = shown.replace(d, "")
        if re.search(r"[A-Za-z]", shown):
            bad.append(text)
    return bad


@pytest.mark.slow
def test_every_wechat_screen_speaks_chinese() -> None:
    bad: list[str] = []
    for name, device in screens("zh-CN"):
        app = device.app("Chat")
        assert isinstance(app, ChatApp)
        bad += ui_latin(device, name, app)
    assert not bad, "\n".join(bad)


def test_the_mini_programs_list_in_chinese() -> None:
    device, app = seeded("zh-CN")
    app.go("mini")
    device.invalidate()
    rows = {e.resource_id.rsplit("/", 1)[-1]: e for e in ui_elements(device.frame())
            if "/mini_" in e.resource_id and e.resource_id != "mini_list"}
    assert rows["mini_hotel"].text == "酒店预订" and rows["mini_ridemini"].text == "打车"
    for m in app.mini_programs():
        assert not re.search(r"[A-Za-z]", app.mini_description(m)), m.name
    en_device, en_app = seeded("en-US")
    hotel = next(m for m in en_app.mini_programs() if m.name == "Hotel")
    assert en_app.mini_description(hotel) == hotel.description


def test_wechat_tabs_are_chinese_with_the_english_ids() -> None:
    device, app = seeded("zh-CN")
    tabs = {e.resource_id.rsplit("/", 1)[-1]: e.text for e in ui_elements(device.frame())
            if e.resource_id.endswith(("tab_chats", "tab_contacts", "tab_discover", "tab_me"))}
    assert tabs == {"tab_chats": "微信", "tab_contacts": "通讯录", "tab_discover": "发现",
                    "tab_me": "我"}
    app.set_ui(tab="Discover")
    device.invalidate()
    assert {"朋友圈", "小程序"} <= set(texts(device))
    app.open_chat(1)
    app.start_transfer(1)
    app.set_ui(paying=PayState(1250, "Li Na", ""))
    device.invalidate()
    shown = set(texts(device))
    assert {"微信支付", "付款", "取消", "转账"} <= shown


def test_wechat_in_english_is_unchanged() -> None:
    device, app = seeded("en-US")
    assert {"Chats", "Contacts", "Discover", "Me", "WeChat"} <= set(texts(device))
    app.open_chat(1)
    device.invalidate()
    assert any(t.startswith("[File] ") for t in texts(device))
