"""哔哩哔哩 (Bilibili): the authoring checks on the app and every template, and the app's
own behaviour: opening a video records it in the history, 点赞/收藏 toggle and count, 投币
spends one coin once, 关注 counts a fan, 稍后再看 lists the video."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver
from phone_gym.mockapps.bilibili import APP, TEMPLATES
from phone_gym.mockapps.bilibili.fixtures import (
    bili_app,
    open_space,
    open_video,
    sample_channel,
    write_channel,
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
    plan = sample_channel(np.random.default_rng(3), 4)
    write_channel(state, plan)
    return device, state, Driver(lambda: ui_elements(device.frame()), state,
                                 locale="zh-CN"), plan


def run(device: Device, actions: Iterable[PhoneAction]) -> None:
    for action in actions:
        assert device.step(action) is None


def test_video_page_counts_history_and_coins() -> None:
    device, state, ui, plan = phone()
    data = bili_app(state).data
    v = plan["videos"][2]
    run(device, open_video(ui, v["title"]))
    assert data.history == (3,)
    assert ui.must(id="danmaku").text == f"{v['danmaku']}条弹幕"
    run(device, ui.tap(id="like"))
    run(device, ui.tap(id="coin"))
    run(device, ui.tap(id="coin"))  # a second coin is refused
    run(device, ui.tap(id="watch_later"))
    got = data.videos[3]
    assert got.liked and got.likes == v["likes"] + 1
    assert got.coined and got.coins == v["coins"] + 1 and data.coins == plan["coins"] - 1
    assert got.later
    run(device, ui.tap(id="like"))
    assert not data.videos[3].liked and data.videos[3].likes == v["likes"]


def test_follow_counts_a_fan_and_fills_dynamics() -> None:
    device, state, ui, plan = phone()
    data = bili_app(state).data
    up = plan["ups"][1]
    run(device, open_space(ui, up["name"]))
    run(device, ui.tap(id="follow"))
    assert data.ups[2].followed and data.ups[2].fans == up["fans"] + 1
    assert ui.must(id="follow").text == "已关注"
    run(device, ui.press("back"))
    run(device, ui.tap(id="tab_layers"))
    shown = {e.text for e in ui.find_all() if e.short_id.startswith("dyn_")}
    assert shown == {v["title"] for v in plan["videos"] if v["up"] == 2}
