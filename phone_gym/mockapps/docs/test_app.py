"""腾讯文档 (TencentDocs): the authoring checks on the app and every template, and the app's
own behaviour: the editor saves, 最近 orders by edit, 分享 sends the link to a WeChat chat."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver
from phone_gym.mockapps.chat.fixtures import ME, add_group, chat_app
from phone_gym.mockapps.docs import APP, TEMPLATES
from phone_gym.mockapps.docs.fixtures import doc_link, docs_app, write_doc
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


def test_a_new_document_is_saved_and_listed_first_under_recent() -> None:
    device, state, ui = phone()
    write_doc(state, "周报", "本周完成了接口联调。")
    run(device, ui.open_app("TencentDocs"))
    run(device, ui.tap(id="new_doc"))
    run(device, ui.fill("title", "团建方案"))
    run(device, ui.fill("body", "周六去爬山。"))
    run(device, ui.tap(id="save"))
    assert [e.text for e in ui.find_all(kind="list_item")][::-1][:2] == ["团建方案", "周报"]
    assert [(d.title, d.body) for d in docs_app(state).data.docs] == [
        ("周报", "本周完成了接口联调。"), ("团建方案", "周六去爬山。")]


def test_sharing_sends_the_link_to_the_chosen_wechat_group() -> None:
    device, state, ui = phone()
    doc = write_doc(state, "会议纪要", "周三下午两点开会。")
    group = add_group(state, "项目组")
    run(device, ui.open_app("TencentDocs"))
    run(device, ui.tap("会议纪要", kind="list_item"))
    run(device, ui.tap(id="share"))
    run(device, ui.tap("项目组", kind="list_item"))
    assert not chat_app(state).data.messages  # nothing is sent before the confirmation
    run(device, ui.tap(id="button_send"))
    [msg] = chat_app(state).data.messages
    assert (msg.chat, msg.sender, msg.kind, msg.text, msg.content) == (
        group.id, ME, "link", "会议纪要", doc_link(doc.id))


def test_deleting_asks_first() -> None:
    device, state, ui = phone()
    write_doc(state, "值班表", "周一：王磊")
    run(device, ui.open_app("TencentDocs"))
    run(device, ui.tap("值班表", kind="list_item"))
    run(device, ui.tap(id="delete"))
    run(device, ui.tap(id="button_cancel"))
    assert len(docs_app(state).data.docs) == 1
    run(device, ui.tap(id="delete"))
    run(device, ui.tap(id="button_delete"))
    assert not docs_app(state).data.docs
