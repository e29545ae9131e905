"""钉钉 (DingTalk): work chat, approvals and schedules, as in the DingTalk app.

The bottom bar has 消息 (chats and groups, rows ``chat_<id>``), 文档 (the team's documents),
工作台 (审批, id ``approvals``; 日程, id ``schedule``) and 通讯录 (colleagues, rows
``person_<id>``; a colleague's card has 发消息, id ``message_person``, and DING, id ``ding``).

A chat lists its messages (rows ``msg_<id>``: the sender over the text); under each of the
owner's own messages its receipt (id ``receipt_<id>``): 已读, 未读, or in a group "N人未读".
The composer is ``message`` with 发送 (id ``send``). DING (``ding_text``, 发送DING with id
``send_ding``) sends an urgent in-app reminder to a colleague.

审批 has three chips: 发起申请 (请假, id ``new_leave``: a form with 请假类型 chips
``type_<n>``, 开始日期 ``start`` and 结束日期 ``end`` as 2026-10-20 or 10月20日, 请假事由
``reason``, 提交 with id ``submit``), 我发起的 (rows ``mine_<id>`` with their status) and
待我审批 (rows ``todo_<id>``; an approval's page shows 申请人 and its fields, with 同意, id
``approve``, and 拒绝, id ``reject``, while it is 审批中). 日程 lists the owner's schedule
(rows ``event_<id>``, the day and times ``when_<id>``) with 新建日程 (id ``new_event``:
标题, 日期, 开始时间, 结束时间, 保存 with id ``save_event``).

Everything is the app's ``Store`` (``apps.DingTalk...``); drafts and the open chip are
transient.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from typing import Any

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import BottomNav, Chip
from ...world.widgets import (
    Button,
    ListItem,
    ListView,
    Node,
    Row,
    Screen,
    Text,
    TextField,
    TopBar,
)
from .manifest import MANIFEST

TABS = ("消息", "文档", "工作台", "通讯录")
TAB_ICONS = ("home", "folder", "apps", "person")
ME = "我"
YEAR = 2026
LEAVE_TYPES = ("年假", "事假", "病假", "调休")
PENDING, APPROVED, REJECTED = "审批中", "已通过", "已拒绝"
APPROVAL_TABS = ("发起申请", "我发起的", "待我审批")


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Person:
    id: int
    name: str
    dept: str
    title: str = ""


@dataclass(frozen=True)
class Chat:
    """A 1:1 chat (``group`` False: ``name`` is the colleague) or a group of ``members``."""

    id: int
    name: str
    group: bool = False
    members: int = 2


@dataclass(frozen=True)
class Message:
    """``unread``: for the owner's own messages, how many in the chat have not read it."""

    id: int
    chat: int
    sender: str
    text: str
    unread: int = 0


@dataclass(frozen=True)
class Ding:
    id: int
    to: str
    text: str


@dataclass(frozen=True)
class Approval:
    """A submitted form: ``kind`` 请假 (``leave_type``, ``start``/``end`` as ISO dates,
    ``reason``) or 报销 (``reason``, ``amount`` in yuan as text); ``status`` 审批中, 已通过
    or 已拒绝; ``approver`` decides it."""

    id: int
    kind: str
    applicant: str
    approver: str
    reason: str
    status: str = PENDING
    leave_type: str = ""
    start: str = ""
    end: str = ""
    amount: str = ""


@dataclass(frozen=True)
class Event:
    """A 日程: ``day`` an ISO date, ``start``/``end`` "HH:MM"."""

    id: int
    title: str
    day: str
    start: str
    end: str


@dataclass(frozen=True)
class Doc:
    id: int
    title: str
    owner: str


@dataclass
class DingData(Store):
    people: Table[Person] = field(default_factory=lambda: Table(kind=Person))
    chats: Table[Chat] = field(default_factory=lambda: Table(kind=Chat))
    messages: Table[Message] = field(default_factory=lambda: Table(kind=Message))
    dings: Table[Ding] = field(default_factory=lambda: Table(kind=Ding))
    approvals: Table[Approval] = field(default_factory=lambda: Table(kind=Approval))
    events: Table[Event] = field(default_factory=lambda: Table(kind=Event))
    docs: Table[Doc] = field(default_factory=lambda: Table(kind=Doc))


@dataclass
class DingUi:
    """Transient state: the tab, the approvals chip, the drafts of the open forms."""

    tab: str = "消息"
    approvals_tab: str = "发起申请"
    draft: str = ""
    ding: str = ""
    leave_type: str = ""
    start: str = ""
    end: str = ""
    reason: str = ""
    title: str = ""
    day: str = ""
    time_from: str = ""
    time_to: str = ""


# --- updates -------------------------------------------------------------------------------
def parse_day(text: str) -> str | None:
    """An ISO date from "2026-10-20", "2026/10/20", "2026年10月20日" or "10月20日" (this
    year); None when it is not a date."""
    t = text.strip()
    m = re.fullmatch(r"(?:(\d{4})\s*[-/年.]\s*)?(\d{1,2})\s*[-/月.]\s*(\d{1,2})\s*[日号]?", t)
    if m is None:
        return None
    try:
        return date(int(m.group(1) or YEAR), int(m.group(2)), int(m.group(3))).isoformat()
    except ValueError:
        return None


def parse_time(text: str) -> str | None:
    m = re.fullmatch(r"(\d{1,2})\s*[:：点]\s*(\d{2})\s*分?", text.strip())
    if m is None or int(m.group(1)) > 23 or int(m.group(2)) > 59:
        return None
    return f"{int(m.group(1)):02d}:{m.group(2)}"


def approval_title(a: Approval) -> str:
    """The line a list shows: "请假：年假 10-20至10-22" or "报销：差旅费 1280.00元"."""
    if a.kind == "请假":
        return f"请假：{a.leave_type} {a.start[5:]}至{a.end[5:]}"
    return f"报销：{a.reason} {a.amount}元"


# --- the app -------------------------------------------------------------------------------
class DingApp(App):
    manifest = MANIFEST

    data: DingData
    ui: DingUi

    def initial_data(self) -> DingData:
        return DingData()

    def initial_ui(self) -> DingUi:
        return DingUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def open(self, route: str, arg: Any = None, **reset: Any) -> None:
        self.set_ui(**reset)
        self.go(route, arg)

    def send(self, chat_id: int) -> None:
        chat, text = self.data.chats.get(chat_id), self.ui.draft.strip()
        if chat is None or not text:
            return
        self.data.messages.new(chat=chat_id, sender=ME, text=text, unread=chat.members - 1)
        self.ui.draft = ""

    def send_ding(self, name: str) -> None:
        text = self.ui.ding.strip()
        if not text:
            self.toast(self.t("请输入DING内容"))
            return
        self.data.dings.new(to=name, text=text)
        self.ui.ding = ""
        self.toast(self.t("DING已发送"))
        self.back()

    def submit_leave(self) -> None:
        start, end = parse_day(self.ui.start), parse_day(self.ui.end)
        if self.ui.leave_type not in LEAVE_TYPES:
            self.toast(self.t("请选择请假类型"))
        elif start is None or end is None:
            self.toast(self.t("请填写正确的日期，如2026-10-20"))
        elif end < start:
            self.toast(self.t("结束日期不能早于开始日期"))
        elif not self.ui.reason.strip():
            self.toast(self.t("请填写请假事由"))
        else:
            boss = next((p.name for p in sorted(self.data.people, key=lambda p: p.id)), "主管")
            self.data.approvals.new(kind="请假", applicant=ME, approver=boss,
                                    reason=self.ui.reason.strip(),
                                    leave_type=self.ui.leave_type, start=start, end=end)
            self.set_ui(leave_type="", start="", end="", reason="", approvals_tab="我发起的")
            self.toast(self.t("提交成功"))
            self.back()

    def decide(self, approval_id: int, status: str) -> None:
        a = self.data.approvals.get(approval_id)
        if a is not None and a.status == PENDING and a.approver == ME:
            self.data.approvals.update(approval_id, status=status)
            self.toast(self.t("已同意") if status == APPROVED else self.t("已拒绝"))

    def save_event(self) -> None:
        day, t0, t1 = (parse_day(self.ui.day), parse_time(self.ui.time_from),
                       parse_time(self.ui.time_to))
        if not self.ui.title.strip():
            self.toast(self.t("请填写日程标题"))
        elif day is None or t0 is None or t1 is None:
            self.toast(self.t("请填写正确的日期和时间"))
        elif t1 <= t0:
            self.toast(self.t("结束时间需晚于开始时间"))
        else:
            self.data.events.new(title=self.ui.title.strip(), day=day, start=t0, end=t1)
            self.set_ui(title="", day="", time_from="", time_to="")
            self.toast(self.t("日程已创建"))
            self.back()

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name == "chat" and self.data.chats.get(route.arg) is not None:
            return self.chat(self.data.chats[route.arg])
        if route.name == "person" and self.data.people.get(route.arg) is not None:
            return self.person(self.data.people[route.arg])
        if route.name == "ding":
            return self.ding(str(route.arg))
        if route.name == "approvals":
            return self.approvals()
        if route.name == "leave":
            return self.leave_form()
        if route.name == "approval" and self.data.approvals.get(route.arg) is not None:
            return self.approval(self.data.approvals[route.arg])
        if route.name == "schedule":
            return self.schedule()
        if route.name == "new_event":
            return self.event_form()
        return self.home()

    def entry(self, key: str, label: str, hint: str, multiline: bool = False) -> Node:
        return TextField(getattr(self.ui, key), lambda v: self.set_ui(**{key: v}),
                         hint=hint, id=key, label=label, multiline=multiline)

    def home(self) -> Screen:
        tab = self.ui.tab if self.ui.tab in TABS else TABS[0]
        content: list[Node]
        if tab == "文档":
            content = [ListView([ListItem(d.title, self.t("{owner}的文档", owner=d.owner),
                                          id=f"doc_{d.id}")
                                 for d in sorted(self.data.docs, key=lambda d: -d.id)],
                                id="docs", empty_text=self.t("还没有文档"))]
        elif tab == "工作台":
            mine = sum(1 for a in self.data.approvals if a.approver == ME
                       and a.status == PENDING)
            content = [
                ListItem(self.t("审批"), self.t("{n}条待我审批", n=mine), id="approvals",
                         on_click=partial(self.open, "approvals", None,
                                          approvals_tab="发起申请")),
                ListItem(self.t("日程"), self.t("{n}个日程", n=len(self.data.events)),
                         id="schedule", on_click=partial(self.go, "schedule"))]
        elif tab == "通讯录":
            content = [ListView([ListItem(p.name, f"{p.dept} {p.title}".strip(),
                                          id=f"person_{p.id}",
                                          on_click=partial(self.go, "person", p.id))
                                 for p in sorted(self.data.people, key=lambda p: p.id)],
                                id="people", empty_text=self.t("还没有同事"))]
        else:
            rows = []
            for c in sorted(self.data.chats, key=lambda c: c.id):
                last = max((m for m in self.data.messages if m.chat == c.id),
                           key=lambda m: m.id, default=None)
                rows.append(ListItem(c.name, f"{last.sender}：{last.text}" if last else "",
                                     id=f"chat_{c.id}", on_click=partial(
                                         self.open, "chat", c.id, draft="")))
            content = [ListView(rows, id="chats", empty_text=self.t("还没有消息"))]
        return Screen(top_bar=TopBar(self.t(tab)), content=content,
                      bottom=BottomNav(TABS, TAB_ICONS, tab, lambda t: self.set_ui(tab=t),
                                       style=self.manifest.look.nav_style))

    def chat(self, chat: Chat) -> Screen:
        rows: list[Node] = []
        for m in sorted((m for m in self.data.messages if m.chat == chat.id),
                        key=lambda m: m.id):
            rows.append(ListItem(m.sender, m.text, id=f"msg_{m.id}"))
            if m.sender == ME:
                seen = self.t("已读") if m.unread <= 0 else self.t(
                    "{n}人未读", n=m.unread) if chat.group else self.t("未读")
                rows.append(Text(seen, style="caption", id=f"receipt_{m.id}"))
        title = self.t("{name}（{n}）", name=chat.name, n=chat.members) if chat.group \
            else chat.name
        return Screen(top_bar=TopBar(title, on_back=self.back),
                      content=[ListView(rows, id="messages", empty_text=self.t("暂无消息"))],
                      dock=Row([self.entry("draft", self.t("消息"), self.t("发消息")),
                                Button(self.t("发送"), partial(self.send, chat.id),
                                       id="send")], id="composer"))

    def person(self, p: Person) -> Screen:
        chat = next((c for c in self.data.chats if not c.group and c.name == p.name), None)
        buttons = [Button(self.t("DING"), partial(self.open, "ding", p.name, ding=""),
                          id="ding")]
        if chat is not None:
            buttons.insert(0, Button(self.t("发消息"),
                                     partial(self.open, "chat", chat.id, draft=""),
                                     id="message_person", style="secondary"))
        return Screen(top_bar=TopBar(p.name, on_back=self.back),
                      content=[Text(p.name, style="title", id="person_name"),
                               Text(self.t("部门：{dept}", dept=p.dept), id="person_dept"),
                               Text(self.t("职位：{title}", title=p.title), id="person_title"),
                               *buttons])

    def ding(self, name: str) -> Screen:
        return Screen(top_bar=TopBar(self.t("发DING"), on_back=self.back),
                      content=[Text(self.t("接收人：{name}", name=name), id="ding_to"),
                               TextField(self.ui.ding, lambda v: self.set_ui(ding=v),
                                         hint=self.t("输入DING内容"), id="ding_text",
                                         label=self.t("DING内容")),
                               Button(self.t("发送DING"), partial(self.send_ding, name),
                                      id="send_ding")])

    def approvals(self) -> Screen:
        tab = self.ui.approvals_tab if self.ui.approvals_tab in APPROVAL_TABS \
            else APPROVAL_TABS[0]
        chips = Row([Chip(self.t(t), t == tab, partial(self.set_ui, approvals_tab=t),
                          id=f"chip_{i}") for i, t in enumerate(APPROVAL_TABS)], id="chips")
        body: list[Node]
        ordered = sorted(self.data.approvals, key=lambda a: -a.id)
        if tab == "我发起的":
            body = [ListView([ListItem(approval_title(a), id=f"mine_{a.id}",
                                       parts=((f"status_{a.id}", self.t(a.status)),),
                                       on_click=partial(self.go, "approval", a.id))
                              for a in ordered if a.applicant == ME],
                             id="mine", empty_text=self.t("还没有发起的审批"))]
        elif tab == "待我审批":
            body = [ListView([ListItem(approval_title(a), id=f"todo_{a.id}",
                                       parts=((f"applicant_{a.id}", self.t(
                                           "申请人：{name}", name=a.applicant)),),
                                       on_click=partial(self.go, "approval", a.id))
                              for a in ordered if a.approver == ME and a.status == PENDING],
                             id="todo", empty_text=self.t("暂无待审批"))]
        else:
            body = [ListItem(self.t("请假"), self.t("年假、事假、病假、调休"), id="new_leave",
                             on_click=partial(self.go, "leave"))]
        return Screen(top_bar=TopBar(self.t("审批"), on_back=self.back),
                      content=[chips, *body])

    def leave_form(self) -> Screen:
        return Screen(
            top_bar=TopBar(self.t("请假"), on_back=self.back),
            content=[Text(self.t("请假类型"), id="type_label"),
                     Row([Chip(self.t(t), t == self.ui.leave_type,
                               partial(self.set_ui, leave_type=t), id=f"type_{i}")
                          for i, t in enumerate(LEAVE_TYPES)], id="types"),
                     self.entry("start", self.t("开始日期"), self.t("如2026-10-20")),
                     self.entry("end", self.t("结束日期"), self.t("如2026-10-21")),
                     self.entry("reason", self.t("请假事由"), self.t("请输入请假事由"),
                                multiline=True),
                     Button(self.t("提交"), self.submit_leave, id="submit")])

    def approval(self, a: Approval) -> Screen:
        rows = [Text(approval_title(a), style="title", id="approval_title"),
                Text(self.t("申请人：{name}", name=a.applicant), id="applicant"),
                Text(self.t("审批人：{name}", name=a.approver), id="approver"),
                Text(self.t("状态：{status}", status=self.t(a.status)), id="status")]
        if a.kind == "请假":
            rows += [Text(self.t("请假类型：{t}", t=self.t(a.leave_type)), id="leave_type"),
                     Text(self.t("开始日期：{d}", d=a.start), id="start_day"),
                     Text(self.t("结束日期：{d}", d=a.end), id="end_day"),
                     Text(self.t("请假事由：{r}", r=a.reason), id="reason")]
        else:
            rows += [Text(self.t("报销事由：{r}", r=a.reason), id="reason"),
                     Text(self.t("金额：{a}元", a=a.amount), id="amount")]
        if a.status == PENDING and a.approver == ME:
            rows.append(Row([Button(self.t("拒绝"), partial(self.decide, a.id, REJECTED),
                                    id="reject", style="secondary"),
                             Button(self.t("同意"), partial(self.decide, a.id, APPROVED),
                                    id="approve")], id="decision"))
        return Screen(top_bar=TopBar(self.t("审批详情"), on_back=self.back), content=rows)

    def schedule(self) -> Screen:
        events = sorted(self.data.events, key=lambda e: (e.day, e.start, e.id))
        return Screen(top_bar=TopBar(self.t("日程"), on_back=self.back), content=[
            ListView([ListItem(e.title, id=f"event_{e.id}",
                               parts=((f"when_{e.id}", f"{e.day} {e.start}-{e.end}"),))
                      for e in events], id="events", empty_text=self.t("暂无日程")),
            Button(self.t("新建日程"), partial(self.go, "new_event"), id="new_event")])

    def event_form(self) -> Screen:
        return Screen(top_bar=TopBar(self.t("新建日程"), on_back=self.back), content=[
            self.entry("title", self.t("标题"), self.t("输入日程标题")),
            self.entry("day", self.t("日期"), self.t("如2026-10-20")),
            self.entry("time_from", self.t("开始时间"), self.t("如09:00")),
            self.entry("time_to", self.t("结束时间"), self.t("如10:00")),
            Button(self.t("保存"), self.save_event, id="save_event")])
