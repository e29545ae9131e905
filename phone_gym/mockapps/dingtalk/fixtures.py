"""Public fixtures of 钉钉 (DingTalk): an office (colleagues, groups and 1:1 chats with
messages, approvals, a schedule, documents) drawn as plain data and written, and the oracle
steps other tasks reuse."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date, timedelta
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.vocab import pick
from .app import (
    APPROVED,
    LEAVE_TYPES,
    ME,
    PENDING,
    REJECTED,
    Approval,
    DingApp,
    Event,
    approval_title,
)

PEOPLE = "apps.DingTalk.people"
CHATS = "apps.DingTalk.chats"
MESSAGES = "apps.DingTalk.messages"
DINGS = "apps.DingTalk.dings"
APPROVALS = "apps.DingTalk.approvals"
EVENTS = "apps.DingTalk.events"
#: Colleagues: (name, department, title).
COLLEAGUES = (("王建国", "产品部", "部门经理"), ("李娜", "产品部", "产品经理"),
              ("张伟", "研发部", "前端工程师"), ("刘洋", "研发部", "后端工程师"),
              ("陈静", "设计部", "视觉设计师"), ("赵磊", "市场部", "市场专员"),
              ("孙梅", "人事部", "HRBP"), ("周涛", "财务部", "会计"))
GROUPS = ("项目组", "产品部全员", "周报群", "新人交流群", "午饭搭子")
LINES = ("大家今天下午三点开会", "需求文档已更新，请查收", "明天上线，大家辛苦了",
         "周报记得周五前提交", "会议室改到302了")
REPLIES = ("收到，我马上处理", "好的，明天上午同步进度", "没问题，我来跟进", "收到，谢谢提醒",
           "已查收，稍后反馈")
REASONS = ("家里有事需要处理", "身体不适去医院复查", "回老家参加婚礼", "孩子学校开家长会",
           "搬家")
EXPENSES = (("差旅费", "1280.00"), ("招待费", "560.00"), ("办公用品", "89.50"),
            ("打车费", "146.00"), ("培训费", "2000.00"))
DING_TEXTS = ("请尽快确认需求文档", "十分钟后会议室见", "周报还没交哦", "合同今天要寄出",
              "请回电话")
EVENT_TITLES = ("周会", "需求评审", "客户拜访", "一对一沟通", "季度复盘", "面试")
DOC_TITLES = ("产品需求文档", "周报模板", "团建方案", "季度OKR")
TODAY = date(2026, 10, 15)


def ding_app(state: Any) -> DingApp:
    app = state.app("DingTalk")
    assert isinstance(app, DingApp)
    return app


def zh_day(iso: str) -> str:
    """"2026-10-20" as 10月20日."""
    d = date.fromisoformat(iso)
    return f"{d.month}月{d.day}日"


def later_day(rng: np.random.Generator, lo: int = 2, hi: int = 20) -> str:
    return (TODAY + timedelta(days=int(rng.integers(lo, hi)))).isoformat()


def sample_office(rng: np.random.Generator) -> dict[str, Any]:
    """An office as plain data (``write_office`` writes it): six colleagues (the first is
    the owner's manager), two groups and two 1:1 chats with messages, the owner's three
    approvals (审批中, 已通过, 已拒绝), a colleague's leave waiting for the owner, two
    日程 and the team's documents."""
    people = pick(rng, COLLEAGUES[1:], 5)
    people = [COLLEAGUES[0], *people]
    groups = pick(rng, GROUPS, 2)
    dms = [p[0] for p in people[1:3]]
    messages = []
    for i in range(len(groups)):
        messages += [(i, people[1 + i][0], pick(rng, LINES)), (i, ME, pick(rng, REPLIES))]
    for j, name in enumerate(dms):
        messages.append((2 + j, name, pick(rng, LINES)))
    kinds = pick(rng, EXPENSES, 2)
    statuses = [PENDING, APPROVED, REJECTED]
    rng.shuffle(statuses)
    start = later_day(rng)
    approvals = [
        {"kind": "报销", "applicant": ME, "approver": people[0][0], "reason": kinds[0][0],
         "amount": kinds[0][1], "status": statuses[0]},
        {"kind": "报销", "applicant": ME, "approver": people[0][0], "reason": kinds[1][0],
         "amount": kinds[1][1], "status": statuses[1]},
        {"kind": "请假", "applicant": ME, "approver": people[0][0],
         "reason": pick(rng, REASONS), "leave_type": pick(rng, LEAVE_TYPES),
         "start": start, "end": start, "status": statuses[2]},
        {"kind": "请假", "applicant": people[3][0], "approver": ME,
         "reason": pick(rng, REASONS), "leave_type": pick(rng, LEAVE_TYPES),
         "start": start, "end": start}]
    events = [{"title": t, "day": later_day(rng, 0, 10), "start": f"{h:02d}:00",
               "end": f"{h + 1:02d}:00"}
              for t, h in zip(pick(rng, EVENT_TITLES, 2), (10, 15), strict=True)]
    return {"people": [list(p) for p in people], "groups": list(groups), "dms": dms,
            "messages": [list(m) for m in messages], "approvals": approvals,
            "events": events, "docs": list(pick(rng, DOC_TITLES, 3))}


def write_office(state: Any, office: Mapping[str, Any]) -> None:
    """Write ``office``: groups are chats 1 and 2, the 1:1 chats 3 and 4; approvals and
    events in their order."""
    data = ding_app(state).data
    for name, dept, title in office["people"]:
        data.people.new(name=name, dept=dept, title=title)
    for g in office["groups"]:
        data.chats.new(name=g, group=True, members=len(office["people"]) + 1)
    for name in office["dms"]:
        data.chats.new(name=name)
    for chat, sender, text in office["messages"]:
        members = data.chats[chat + 1].members
        data.messages.new(chat=chat + 1, sender=sender, text=text,
                          unread=(members - 3) if sender == ME else 0)
    for a in office["approvals"]:
        write_approval(state, a)
    for e in office["events"]:
        write_event(state, e)
    for i, title in enumerate(office["docs"]):
        data.docs.new(title=title, owner=office["people"][i % len(office["people"])][0])


def write_approval(state: Any, a: Mapping[str, Any]) -> Approval:
    return ding_app(state).data.approvals.new(**{"status": PENDING, **a})


def write_event(state: Any, e: Mapping[str, Any]) -> Event:
    return ding_app(state).data.events.new(**e)


def title_of(a: Mapping[str, Any]) -> str:
    """How the app lists an approval given as plain data."""
    return approval_title(Approval(id=0, **{"status": PENDING, **a}))


TAB_IDS = {"消息": "tab_home", "文档": "tab_folder", "工作台": "tab_apps",
           "通讯录": "tab_person"}


def to_tab(ui: Driver, tab: str) -> Iterator[PhoneAction]:
    """Launch 钉钉, go back to its bottom bar and open ``tab``."""
    yield from ui.open_app("DingTalk")
    for _ in range(6):
        if ui.find(id=TAB_IDS[tab]) is not None:
            break
        yield from ui.press("back")
        if ui.find(id="toolbar") is None:  # backed out of the app: launch it again
            yield PhoneAction("open_app", app="DingTalk")
    yield from ui.tap(id=TAB_IDS[tab])


def row_of(ui: Driver, prefix: str, text: str) -> str:
    """The id of the listed row whose id starts with ``prefix`` and whose text is ``text``."""
    for e in ui.find_all():
        if e.short_id.startswith(prefix) and e.text == text:
            return e.short_id
    raise OracleError(f"no {prefix}* row {text!r} on screen")


def open_chat(ui: Driver, name: str) -> Iterator[PhoneAction]:
    """Open the chat or group named ``name`` from 消息."""
    yield from to_tab(ui, "消息")
    yield from ui.reveal(name)
    yield from ui.tap(id=row_of(ui, "chat_", name))


def open_approvals(ui: Driver, chip: str) -> Iterator[PhoneAction]:
    """Open 工作台 > 审批 on the chip ``chip`` (发起申请, 我发起的 or 待我审批)."""
    yield from to_tab(ui, "工作台")
    yield from ui.tap(id="approvals")
    yield from ui.tap(chip, kind="chip")


__all__ = ["APPROVALS", "CHATS", "COLLEAGUES", "DINGS", "DING_TEXTS", "DOC_TITLES",
           "EVENTS", "EVENT_TITLES", "EXPENSES", "GROUPS", "LINES", "ME", "MESSAGES",
           "PEOPLE", "REASONS", "REPLIES", "TODAY", "ding_app", "later_day", "open_approvals",
           "open_chat", "row_of", "sample_office", "title_of", "to_tab", "write_approval",
           "write_event", "write_office", "zh_day"]
