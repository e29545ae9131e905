"""钉钉 (DingTalk): the authoring checks on the app and every template, and the app's own
behaviour: receipts on one's own messages, a leave form's checks and dates, decisions only
by the approver, a 日程's times, a DING."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver
from phone_gym.mockapps.dingtalk import APP, TEMPLATES
from phone_gym.mockapps.dingtalk.app import parse_day, parse_time
from phone_gym.mockapps.dingtalk.fixtures import (
    ding_app,
    open_approvals,
    open_chat,
    row_of,
    sample_office,
    title_of,
    to_tab,
    write_office,
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
    office = sample_office(np.random.default_rng(3))
    write_office(state, office)
    return device, state, Driver(lambda: ui_elements(device.frame()), state,
                                 locale="zh-CN"), office


def run(device: Device, actions: Iterable[PhoneAction]) -> None:
    for action in actions:
        assert device.step(action) is None


def test_dates_and_times_read_as_typed() -> None:
    assert parse_day("10月20日") == parse_day("2026-10-20") == "2026-10-20"
    assert parse_day("2026年10月20号") == "2026-10-20"
    assert parse_day("10月32日") is None and parse_day("明天") is None
    assert parse_time("9:30") == "09:30" and parse_time("14点00") == "14:00"
    assert parse_time("25:00") is None


def test_a_group_message_shows_who_has_not_read_it() -> None:
    device, state, ui, office = phone()
    run(device, open_chat(ui, office["groups"][0]))
    run(device, ui.fill("draft", "收到"))
    run(device, ui.tap(id="send"))
    sent = max(ding_app(state).data.messages, key=lambda m: m.id)
    members = len(office["people"]) + 1
    assert (sent.chat, sent.text, sent.unread) == (1, "收到", members - 1)
    assert ui.must(id=f"receipt_{sent.id}").text == f"{members - 1}人未读"
    run(device, open_chat(ui, office["dms"][0]))
    run(device, ui.fill("draft", "好的"))
    run(device, ui.tap(id="send"))
    sent = max(ding_app(state).data.messages, key=lambda m: m.id)
    assert ui.must(id=f"receipt_{sent.id}").text == "未读"


def test_a_leave_needs_a_type_and_dates_in_order() -> None:
    device, state, ui, _ = phone()
    before = len(ding_app(state).data.approvals)
    run(device, open_approvals(ui, "发起申请"))
    run(device, ui.tap(id="new_leave"))
    run(device, ui.fill("start", "10月22日"))
    run(device, ui.fill("end", "10月21日"))
    run(device, ui.fill("reason", "搬家"))
    run(device, ui.press("back"))
    run(device, ui.tap(id="submit"))  # no type
    run(device, ui.tap("年假", kind="chip"))
    run(device, ui.tap(id="submit"))  # end before start
    assert len(ding_app(state).data.approvals) == before
    run(device, ui.fill("end", "2026-10-23"))
    run(device, ui.press("back"))
    run(device, ui.tap(id="submit"))
    made = max(ding_app(state).data.approvals, key=lambda a: a.id)
    assert (made.leave_type, made.start, made.end, made.status, made.applicant) == (
        "年假", "2026-10-22", "2026-10-23", "审批中", "我")


def test_only_the_approver_decides() -> None:
    device, state, ui, office = phone()
    theirs = office["approvals"][3]
    run(device, open_approvals(ui, "待我审批"))
    run(device, ui.tap(id=row_of(ui, "todo_", title_of(theirs))))
    run(device, ui.tap(id="approve"))
    assert ding_app(state).data.approvals[4].status == "已通过"
    run(device, open_approvals(ui, "我发起的"))  # the owner's own: no decision buttons
    run(device, ui.tap(id="mine_1"))
    assert ui.find(id="approve") is None


def test_a_schedule_and_a_ding_are_saved() -> None:
    device, state, ui, office = phone()
    run(device, to_tab(ui, "工作台"))
    run(device, ui.tap(id="schedule"))
    run(device, ui.tap(id="new_event"))
    run(device, ui.fill("title", "需求评审"))
    run(device, ui.fill("day", "10月20日"))
    run(device, ui.fill("time_from", "15:00"))
    run(device, ui.fill("time_to", "14:00"))
    run(device, ui.press("back"))
    run(device, ui.tap(id="save_event"))
    assert len(ding_app(state).data.events) == 2  # ends before it starts: not saved
    run(device, ui.fill("time_to", "16:00"))
    run(device, ui.press("back"))
    run(device, ui.tap(id="save_event"))
    e = max(ding_app(state).data.events, key=lambda e: e.id)
    assert (e.title, e.day, e.start, e.end) == ("需求评审", "2026-10-20", "15:00", "16:00")
    name = office["people"][2][0]
    run(device, to_tab(ui, "通讯录"))
    run(device, ui.tap(id=row_of(ui, "person_", name)))
    run(device, ui.tap(id="ding"))
    run(device, ui.fill("ding_text", "请回电话"))
    run(device, ui.tap(id="send_ding"))
    [d] = ding_app(state).data.dings
    assert (d.to, d.text) == (name, "请回电话")
