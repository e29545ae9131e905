"""微博 (Weibo): the authoring checks on the app and every template, and the app's own
behaviour: 赞 toggles and counts, 转发 makes the owner's post and counts, 发微博 reads the
#话题#, 热搜 ranks by heat."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver
from phone_gym.mockapps.weibo import APP, TEMPLATES
from phone_gym.mockapps.weibo.fixtures import (
    hot_rank,
    open_post,
    ranks,
    sample_world,
    to_tab,
    weibo_app,
    write_world,
)
from phone_gym.testing import check_app, check_task
from phone_gym.world import Device
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
    device = Device(APPS, locale="zh-CN")
    state = WorldState(device)
    plan = sample_world(np.random.default_rng(5), 6)
    write_world(state, plan)
    return device, state, Driver(lambda: ui_elements(device.frame()), state,
                                 locale="zh-CN"), plan


def run(device: Device, actions: Iterable[PhoneAction]) -> None:
    for action in actions:
        assert device.step(action) is None


def test_like_repost_and_post_with_a_topic() -> None:
    device, state, ui, plan = phone()
    post = plan["posts"][2]
    run(device, open_post(ui, post["subject"]))
    run(device, ui.tap(id="like"))
    data = weibo_app(state).data
    assert (data.posts[3].liked, data.posts[3].likes) == (True, post["likes"] + 1)
    run(device, ui.tap(id="like"))
    assert (data.posts[3].liked, data.posts[3].likes) == (False, post["likes"])
    run(device, ui.tap(id="repost"))
    run(device, ui.fill("repost_text", "转给大家看看"))
    run(device, ui.tap(id="send_repost"))
    made = max(data.posts, key=lambda p: p.id)
    assert (made.author, made.repost_of, made.text) == ("我", 3, "转给大家看看")
    assert data.posts[3].reposts == post["reposts"] + 1
    run(device, to_tab(ui, "首页"))
    run(device, ui.tap(id="compose"))
    run(device, ui.fill("post_text", "#秋季养生# 多喝热水"))
    run(device, ui.tap(id="send_post"))
    made = max(data.posts, key=lambda p: p.id)
    assert (made.topic, made.text) == ("秋季养生", "#秋季养生# 多喝热水")


def test_hot_ranks_by_heat() -> None:
    device, state, ui, plan = phone()
    run(device, to_tab(ui, "发现"))
    want = ranks(plan)
    assert sorted(want.values()) == list(range(1, 9))
    for topic, rank in want.items():
        steps = hot_rank(ui, topic)
        try:
            while True:
                device.step(next(steps))
        except StopIteration as done:
            assert done.value == rank
