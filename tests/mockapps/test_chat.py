"""Chat (WeChat) driven through phone actions: tabs, chats and sending, forwarding a file,
a transfer with the PIN, Moments likes and comments, the wallet, the mini-programs list."""

from __future__ import annotations

import numpy as np
import pytest
from driving import fill, long_press, open_app, press, shown, tap

from phone_gym.mockapps import APPS
from phone_gym.mockapps.chat.app import ME, ChatApp, parse_amount, preview
from phone_gym.mockapps.chat.fixtures import add_post, say, seed_social, set_wallet
from phone_gym.testing import check_app
from phone_gym.verifiers.state import DeviceState
from phone_gym.world import Device
from phone_gym.world.state import WorldState


def chat_of(device: Device) -> ChatApp:
    app = device.app("Chat")
    assert isinstance(app, ChatApp)
    return app


@pytest.fixture
def device() -> Device:
    """WeChat with friends Li Na and Tom Reed, the group "Family", a file from Li Na, a post
    by Tom Reed, and ¥500 in the wallet (PIN 135790)."""
    dev = Device(APPS)
    state: DeviceState = WorldState(dev)
    chats = seed_social(state, np.random.default_rng(0), ["Li Na", "Tom Reed"], ["Family"])
    say(state, chats["Li Na"], "Li Na", "menu.pdf", "file", time="11:00")
    add_post(state, "Tom Reed", "Sunset at the lake tonight", likes=["Li Na"])
    set_wallet(state, 50_000, "135790")
    return dev


def test_sending_a_message(device: Device) -> None:
    open_app(device, "WeChat")
    tap(device, "Tom Reed", kind="list_item")
    fill(device, "composer", "See you at seven")
    tap(device, id="send")
    last = list(chat_of(device).data.messages)[-1]
    assert (last.chat, last.sender, last.text, last.kind) == (2, ME, "See you at seven", "text")
    press(device, "back")
    press(device, "back")
    assert shown(device, "Tom Reed", kind="list_item")  # the newest chat first


def test_forwarding_a_file_asks_first(device: Device) -> None:
    open_app(device, "Chat")
    tap(device, "Li Na", kind="list_item")
    long_press(device, "[File] menu.pdf", kind="bubble")
    tap(device, "Forward", kind="menu_item")
    tap(device, id="to_3")
    assert shown(device, "Send to Family?")
    tap(device, id="button_send")
    last = list(chat_of(device).data.messages)[-1]
    assert (last.chat, last.kind, last.text, last.sender) == (3, "file", "menu.pdf", ME)


def test_a_transfer_needs_the_pin(device: Device) -> None:
    open_app(device, "Chat")
    tap(device, "Li Na", kind="list_item")
    tap(device, id="transfer")
    fill(device, "amount", "88.50")
    fill(device, "note", "dinner")
    press(device, "back")
    tap(device, id="do_transfer")
    fill(device, "pay_pin", "000000")
    press(device, "back")
    tap(device, id="button_pay")
    assert shown(device, "Incorrect PIN") and device.system.wallet.balance == 50_000
    fill(device, "pay_pin", "135790")
    press(device, "back")
    tap(device, id="button_pay")
    assert device.system.wallet.balance == 50_000 - 8850
    last = list(chat_of(device).data.messages)[-1]
    assert (last.kind, last.amount, last.text) == ("transfer", 8850, "dinner")
    assert preview(last) == "[Transfer] ¥88.50 dinner"


def test_moments_like_and_comment(device: Device) -> None:
    open_app(device, "Chat")
    tap(device, id="tab_discover")
    tap(device, id="moments")
    tap(device, id="post_1")
    tap(device, id="like")
    fill(device, "comment", "Beautiful")
    press(device, "back")
    tap(device, id="send_comment")
    data = chat_of(device).data
    post = data.posts.get(1)
    assert post is not None and post.liked
    assert [(c.post, c.author, c.text) for c in data.comments] == [(1, ME, "Beautiful")]
    assert shown(device, "♥ Li Na, Me")


def test_wallet_and_mini_programs(device: Device) -> None:
    open_app(device, "Chat")
    tap(device, id="tab_me")
    tap(device, id="wallet")
    assert shown(device, "¥500.00", id="wallet_balance") and shown(device, "No transactions")
    press(device, "back")
    tap(device, id="tab_discover")
    tap(device, id="mini_programs")
    assert shown(device, "Hotel Booking") and shown(device, "Food Order")
    tap(device, id="mini_hotel")
    assert device.foreground == "Hotel"


def test_contacts_open_a_chat(device: Device) -> None:
    open_app(device, "Chat")
    tap(device, id="tab_contacts")
    fill(device, "contact_search", "tom")
    tap(device, "Tom Reed", kind="list_item")
    tap(device, id="message_friend")
    assert chat_of(device).route.name == "chat" and chat_of(device).route.arg == 2


def test_parse_amount() -> None:
    assert parse_amount("12.5") == 1250 and parse_amount("¥3") == 300
    assert parse_amount("abc") is None and parse_amount("-2") is None


def test_check_app() -> None:
    report = check_app("Chat", 1500)
    assert report.steps == 1500
