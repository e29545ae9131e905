"""元宝 (Yuanbao): the authoring checks on the app and every template, and the app's own
behaviour: replies are a function of the prompt, copy fills the clipboard, share sends to
WeChat."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver
from phone_gym.mockapps.assistant import APP, TEMPLATES
from phone_gym.mockapps.assistant.app import generate
from phone_gym.mockapps.assistant.fixtures import assistant_app, leave_prompt
from phone_gym.mockapps.chat.fixtures import ME, add_friend, chat_app, direct_chat
from phone_gym.testing import check_app, check_task
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.state import WorldState


@pytest.mark.parametrize("task_id", [t.id for t in TEMPLATES])
def test_check_task(task_id: str) -> None:
    check_task(task_id, 20, processes=False)


def test_check_app() -> None:
    check_app(APP, 3000)


def phone() -> tuple[Device, WorldState, Driver]:
    device = Device(APPS)
    state = WorldState(device)
    return device, state, Driver(lambda: ui_elements(device.frame()), state)


def run(device: Device, actions: Iterable[PhoneAction]) -> None:
    for action in actions:
        assert device.step(action) is None


def test_a_leave_request_holds_the_dates_reason_and_days_asked_for() -> None:
    kind, text = generate(leave_prompt("10月15日", "10月17日", "发烧需要去医院"))
    assert kind == "leave"
    assert "本人因发烧需要去医院，需于10月15日至10月17日请假3天" in text
    assert generate("由于搬家，想请11月2日一天假，帮我写请假条")[1].count("请假1天") == 1
    # the same prompt, the same reply; the wording's variant follows the prompt
    assert generate(leave_prompt("10月15日", "10月17日", "搬家")) == generate(
        leave_prompt("10月15日", "10月17日", "搬家"))
    variants = {generate(leave_prompt("10月15日", f"10月{d}日", "搬家"))[1].split("恳请批准。")[1]
                for d in range(16, 28)}
    assert len(variants) > 1


def test_notices_wishes_and_other_prompts() -> None:
    kind, text = generate("写一则会议通知：10月20日9:30在大会议室召开项目启动会")
    assert kind == "notice" and "定于10月20日9:30在大会议室召开项目启动会" in text
    kind, text = generate("帮我给王芳写一段生日祝福")
    assert kind == "birthday" and text.startswith("亲爱的王芳：\n祝你生日快乐！")
    kind, text = generate("怎么学好英语口语")
    assert kind == "general" and "“怎么学好英语口语”" in text


def test_copy_puts_the_reply_on_the_clipboard_and_share_sends_it() -> None:
    device, state, ui = phone()
    friend = add_friend(state, "李娜")
    chat = direct_chat(state, friend)
    state.set_clipboard("旧内容")
    run(device, ui.open_app("Yuanbao"))
    run(device, ui.fill("prompt", "帮我给李娜写一段生日祝福"))
    run(device, ui.tap(id="send"))
    reply = [m for m in assistant_app(state).data.messages if m.role == "assistant"][-1]
    run(device, ui.tap(id=f"copy_{reply.id}"))
    assert device.system.clipboard == reply.text
    run(device, ui.tap(id=f"share_{reply.id}"))
    run(device, ui.tap("李娜", kind="list_item"))
    run(device, ui.tap(id="button_send"))
    [msg] = chat_app(state).data.messages
    assert (msg.chat, msg.sender, msg.text) == (chat.id, ME, reply.text)
