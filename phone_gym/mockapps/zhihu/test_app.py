"""知乎 (Zhihu): the authoring checks on the app and every template, and the app's own
behaviour: answers listed by 赞同, 赞同 and 收藏 toggle, 写回答 saves the owner's answer."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver
from phone_gym.mockapps.zhihu import APP, TEMPLATES
from phone_gym.mockapps.zhihu.fixtures import (
    answers_shown,
    open_question,
    sample_site,
    write_site,
    zhihu_app,
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


def run(device: Device, actions: Iterable[PhoneAction]) -> None:
    for action in actions:
        assert device.step(action) is None


def test_answers_by_votes_upvote_save_and_write() -> None:
    device = Device(APPS, locale="zh-CN")
    state = WorldState(device)
    plan = sample_site(np.random.default_rng(3), 5)
    write_site(state, plan)
    ui = Driver(lambda: ui_elements(device.frame()), state, locale="zh-CN")
    q = plan["questions"][1]
    run(device, open_question(ui, q["title"]))
    shown = answers_shown(ui)
    assert [v for _, _, v in shown] == sorted((a["votes"] for a in q["answers"]), reverse=True)
    row, _, votes = shown[-1]
    run(device, ui.tap(id=row))
    run(device, ui.tap(id="upvote"))
    run(device, ui.tap(id="save"))
    a = zhihu_app(state).data.answers[int(row.removeprefix("answer_"))]
    assert (a.voted, a.votes, a.saved) == (True, votes + 1, True)
    assert ui.must(id="upvote").text == f"已赞同 {votes + 1}"
    run(device, ui.press("back"))
    run(device, ui.tap(id="write_answer"))
    run(device, ui.fill("answer_text", "多看多练"))
    run(device, ui.tap(id="publish"))
    made = max(zhihu_app(state).data.answers, key=lambda x: x.id)
    assert (made.question, made.author, made.text, made.votes) == (2, "我", "多看多练", 0)
