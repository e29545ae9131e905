"""抖音 (Douyin): the authoring checks on the app and every template, and the app's own
behaviour: one full-screen video at a time that a vertical swipe moves on, 点赞 and 收藏
toggle and count, 关注 on a profile, comments saved, a share posts the link to WeChat."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver
from phone_gym.mockapps.chat.fixtures import chat_app, seed_social
from phone_gym.mockapps.douyin import APP, TEMPLATES
from phone_gym.mockapps.douyin.app import picture
from phone_gym.mockapps.douyin.fixtures import douyin_app, open_video, sample_feed, write_feed
from phone_gym.testing import check_app, check_task
from phone_gym.world import Device, pictures
from phone_gym.world.a11y import ui_elements
from phone_gym.world.state import WorldState


@pytest.mark.parametrize("task_id", [t.id for t in TEMPLATES])
def test_check_task(task_id: str) -> None:
    check_task(task_id, 20, processes=False)


@pytest.mark.parametrize("task_id", [t.id for t in TEMPLATES])
def test_check_task_on_a_zh_phone(task_id: str) -> None:
    check_task(task_id, 20, processes=False, locale="zh-CN", starts=(0,))


def test_check_app() -> None:
    check_app(APP, 3000)


def phone() -> tuple[Device, WorldState, Driver, dict]:
    device = Device(APPS)
    state = WorldState(device)
    plan = sample_feed(np.random.default_rng(5), 6)
    write_feed(state, plan)
    return device, state, Driver(lambda: ui_elements(device.frame()), state), plan


def run(device: Device, actions: Iterable[PhoneAction]) -> None:
    for action in actions:
        assert device.step(action) is None


def caption(ui: Driver) -> str:
    return ui.must(id="video_caption").text


def test_a_vertical_swipe_moves_the_feed() -> None:
    device, state, ui, plan = phone()
    run(device, ui.open_app("Douyin"))
    assert plan["videos"][0]["caption"] in caption(ui)
    view = ui.must(id="video_view")
    assert view.bounds[3] - view.bounds[1] > 1000  # the video fills the screen
    x, y0, y1 = 400, 550, 150
    run(device, [PhoneAction("drag", x=x, y=y0, x2=x, y2=y1)])  # up: the next video
    assert plan["videos"][1]["caption"] in caption(ui)
    run(device, [PhoneAction("drag", x=x, y=y1, x2=x, y2=y0)])  # down: back
    assert plan["videos"][0]["caption"] in caption(ui)
    for v in douyin_app(state).data.videos:  # drawn from the package
        assert pictures.decode(picture(v)) is not None


def test_like_collect_follow_and_comment() -> None:
    device, state, ui, plan = phone()
    video = plan["videos"][3]
    run(device, open_video(ui, video["subject"]))
    assert video["caption"] in caption(ui)
    run(device, ui.tap(id="like"))
    run(device, ui.tap(id="collect"))
    v = douyin_app(state).data.videos.get(4)
    assert v is not None and (v.liked, v.likes, v.collected, v.collects) == (
        True, video["likes"] + 1, True, video["collects"] + 1)
    run(device, ui.tap(id="like"))
    v = douyin_app(state).data.videos.get(4)
    assert v is not None and (v.liked, v.likes) == (False, video["likes"])
    run(device, ui.tap(id="creator"))
    run(device, ui.tap(id="follow"))
    c = douyin_app(state).data.creators.get(video["creator"] + 1)
    assert c is not None and c.followed and ui.must(id="follow").text == "已关注"
    run(device, ui.press("back"))
    run(device, ui.tap(id="open_comments"))
    run(device, ui.fill("comment", "学到了"))
    run(device, ui.tap(id="send_comment"))
    [comment] = douyin_app(state).data.comments
    assert (comment.video, comment.text, comment.author) == (4, "学到了", "我")


def test_share_posts_the_link_to_a_wechat_chat() -> None:
    device, state, ui, plan = phone()
    seed_social(state, np.random.default_rng(1), ["李娜", "张伟"])
    video = plan["videos"][2]
    run(device, open_video(ui, video["subject"]))
    run(device, ui.tap(id="share"))
    run(device, ui.tap("张伟", kind="list_item"))
    run(device, ui.tap(id="button_send"))
    last = max(chat_app(state).data.messages, key=lambda m: m.id)
    assert (last.chat, last.kind, last.text, last.content) == (
        2, "link", video["caption"], "https://v.douyin.com/000003/")
    v = douyin_app(state).data.videos.get(3)
    assert v is not None and v.shares == video["shares"] + 1
