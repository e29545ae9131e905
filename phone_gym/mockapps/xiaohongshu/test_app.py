"""小红书 (Xiaohongshu): the authoring checks on the app and every template, and the app's
own behaviour: the feed is two columns of drawn pictures, 赞 and 收藏 toggle and count,
comments and a published note are saved (a note needs a topic)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver
from phone_gym.mockapps.xiaohongshu import APP, TEMPLATES
from phone_gym.mockapps.xiaohongshu.app import TOPICS, picture
from phone_gym.mockapps.xiaohongshu.fixtures import (
    open_note,
    recommended,
    sample_notes,
    write_notes,
    xhs_app,
)
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


def phone() -> tuple[Device, WorldState, Driver, list[dict]]:
    device = Device(APPS)
    state = WorldState(device)
    notes = sample_notes(np.random.default_rng(5), 6)
    write_notes(state, notes)
    return device, state, Driver(lambda: ui_elements(device.frame()), state), notes


def run(device: Device, actions: Iterable[PhoneAction]) -> None:
    for action in actions:
        assert device.step(action) is None


def test_the_feed_is_two_columns_of_pictures() -> None:
    device, state, ui, notes = phone()
    run(device, ui.open_app("Xiaohongshu"))
    cells = [e for e in ui.elements() if e.short_id.startswith("note_")]
    assert len({e.bounds[0] for e in cells}) == 2  # two columns
    assert cells[0].text == f"{notes[-1]['title']} ♥{notes[-1]['likes']}"  # newest first
    for n in xhs_app(state).data.notes:  # drawn from the package, by topic
        assert pictures.decode(picture(n)) == (TOPICS[n.topic], n.id * 7 + len(n.title))
    assert "（" in cells[0].content_desc  # the picture's description names the author


def test_like_and_collect_toggle_and_count() -> None:
    device, state, ui, notes = phone()
    run(device, open_note(ui, notes[0]["title"]))
    assert recommended(ui) == notes[0]["thing"]
    run(device, ui.tap(id="like"))
    run(device, ui.tap(id="collect"))
    note = xhs_app(state).data.notes.get(1)
    assert note is not None and (note.liked, note.likes, note.collected, note.collects) == (
        True, notes[0]["likes"] + 1, True, notes[0]["collects"] + 1)
    run(device, ui.tap(id="like"))
    note = xhs_app(state).data.notes.get(1)
    assert note is not None and (note.liked, note.likes) == (False, notes[0]["likes"])


def test_a_note_needs_a_topic_and_a_comment_is_saved() -> None:
    device, state, ui, notes = phone()
    run(device, ui.open_app("Xiaohongshu"))
    run(device, ui.tap("发布"))
    run(device, ui.fill("title", "一人食晚餐"))
    run(device, ui.fill("body", "简单又好吃。"))
    run(device, ui.press("back"))
    run(device, ui.tap(id="post"))
    assert len(xhs_app(state).data.notes) == 6  # no topic chosen: nothing posted
    run(device, ui.tap("美食", kind="chip"))
    run(device, ui.tap(id="post"))
    mine = max(xhs_app(state).data.notes, key=lambda n: n.id)
    assert (mine.title, mine.body, mine.topic, mine.author) == (
        "一人食晚餐", "简单又好吃。", "美食", "我")
    run(device, ui.fill("comment", "马住了"))
    run(device, ui.tap(id="send_comment"))
    [c] = xhs_app(state).data.comments
    assert (c.note, c.text) == (mine.id, "马住了")
