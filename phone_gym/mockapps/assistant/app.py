"""元宝 (Yuanbao): a chat with an AI assistant, as in Tencent Yuanbao.

The assistant's reply is a pure function of the prompt (``generate``): a leave request
(请假条) with the dates and the reason asked for, a meeting notice (会议通知), a birthday
wish (生日祝福), or a general answer; the wording's variants are picked by a hash of the
prompt, so the same prompt always gets the same reply. Under each reply, 复制 (id
``copy_<id>``) puts its text on the system clipboard and 分享 (``share_<id>``) sends it to a
WeChat chat (through Chat's public fixtures). The top bar opens the history of
conversations (delete one from its menu) and starts a new one.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from typing import Any

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.widgets import (
    Button,
    Dialog,
    DialogButton,
    Icon,
    ListItem,
    ListView,
    Node,
    Screen,
    Text,
    TextField,
    TopBar,
)
from ..chat.fixtures import send as chat_send
from .manifest import MANIFEST

USER, ASSISTANT = "user", "assistant"
#: The year the dates of a prompt are read in (PhoneWorld's clock starts in 2026).
YEAR = 2026

LEAVE_MIDDLES = ("请假期间的工作已交接给同事，如有急事可随时电话联系我。",
                 "请假期间我会保持手机畅通，手头工作已提前安排妥当。",
                 "返岗后我会尽快跟进落下的工作，感谢理解与支持。")
NOTICE_MIDDLES = ("请相关同事提前十分钟到场。", "如不能参加，请提前向组织者请假。",
                  "请参会人员提前准备好相关材料。")
WISHES = ("愿你新的一岁平安喜乐，万事顺意", "愿你笑口常开，所得皆所愿",
          "愿你健康快乐，前程似锦", "愿你岁岁有今朝，年年皆胜意")
ADVICE = ("先把目标拆成几个小步骤，一步一步来。", "可以先列一个清单，按轻重缓急排序。",
          "建议先了解清楚背景信息，再做决定。", "不妨和身边有经验的人聊一聊。")


def _seed(prompt: str) -> int:
    """A stable number from the prompt (Python's ``hash`` changes between processes)."""
    return int(hashlib.sha256(prompt.encode("utf-8")).hexdigest()[:8], 16)


def _dates(prompt: str) -> list[tuple[int, int]]:
    return [(int(m), int(d)) for m, d in re.findall(r"(\d{1,2})月(\d{1,2})[日号]", prompt)]


def _after(prompt: str, pattern: str, default: str) -> str:
    found = re.search(pattern + r"[:：]?\s*(.+?)\s*(?:[，。,.!！;；]|$)", prompt)
    return found.group(1) if found else default


def leave_request(prompt: str) -> str:
    """A leave request for the dates (``10月15日``) and the reason (after 因为, 由于,
    原因是) the prompt names."""
    days = _dates(prompt)
    reason = _after(prompt, r"(?:因为|由于|原因是|理由是)", "个人原因")
    if days:
        (m1, d1), (m2, d2) = days[0], days[min(1, len(days) - 1)]
        try:
            count = (date(YEAR, m2, d2) - date(YEAR, m1, d1)).days + 1
        except ValueError:
            count = 1
        span = f"{m1}月{d1}日" if count <= 1 else f"{m1}月{d1}日至{m2}月{d2}日"
        count = max(count, 1)
    else:
        span, count = "近日", 1
    middle = LEAVE_MIDDLES[_seed(prompt) % len(LEAVE_MIDDLES)]
    return (f"请假条\n尊敬的领导：\n本人因{reason}，需于{span}请假{count}天，恳请批准。"
            f"{middle}\n此致\n敬礼！\n申请人：")


def notice(prompt: str) -> str:
    """A meeting notice for the date, time, place (after 在) and topic (after 召开/开) the
    prompt names."""
    days = _dates(prompt)
    when = f"{days[0][0]}月{days[0][1]}日" if days else "近期"
    clock = re.search(r"(\d{1,2})[:：](\d{2})", prompt)
    at = f"{int(clock.group(1))}:{clock.group(2)}" if clock else ""
    place = _after(prompt, r"在", "会议室").split("召开")[0].split("开")[0] or "会议室"
    topic = _after(prompt, r"(?:召开|开)", "会议")
    middle = NOTICE_MIDDLES[_seed(prompt) % len(NOTICE_MIDDLES)]
    return (f"会议通知\n各位同事：\n定于{when}{at}在{place}召开{topic}，请准时参加。"
            f"{middle}\n特此通知。")


def birthday_wish(prompt: str) -> str:
    """A birthday wish for the person the prompt names (给<name>写...)."""
    found = re.search(r"给(.{1,6}?)(?:写|的|送)", prompt)
    name = found.group(1) if found else "你"
    seed = _seed(prompt)
    return f"亲爱的{name}：\n祝你生日快乐！{WISHES[seed % len(WISHES)]}！"


def generate(prompt: str) -> tuple[str, str]:
    """The assistant's reply to ``prompt`` and its kind (``leave``, ``notice``,
    ``birthday``, ``general``): the same prompt always gets the same reply."""
    text = prompt.strip()
    if "请假" in text:
        return "leave", leave_request(text)
    if "通知" in text:
        return "notice", notice(text)
    if "生日" in text:
        return "birthday", birthday_wish(text)
    seed = _seed(text)
    first, second = ADVICE[seed % len(ADVICE)], ADVICE[(seed // 7 + 1) % len(ADVICE)]
    if first == second:
        second = ADVICE[(seed + 1) % len(ADVICE)]
    return "general", f"关于“{text}”，我的建议是：\n1. {first}\n2. {second}"


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Convo:
    """A conversation, titled with its first prompt."""

    id: int
    title: str


@dataclass(frozen=True)
class Message:
    """One message of conversation ``convo``: ``role`` user or assistant; an assistant's
    ``kind`` is what ``generate`` made."""

    id: int
    convo: int
    role: str
    text: str
    kind: str = ""


@dataclass
class AssistantData(Store):
    """What the app stores (``apps.Yuanbao.convos``, ``apps.Yuanbao.messages``)."""

    convos: Table[Convo] = field(default_factory=lambda: Table(kind=Convo))
    messages: Table[Message] = field(default_factory=lambda: Table(kind=Message))


@dataclass
class AssistantUi:
    """Transient state: the open conversation (None: a new one), the prompt being typed,
    the conversation whose delete confirmation shows, the chat a share is confirmed for."""

    convo: int | None = None
    prompt: str = ""
    deleting: int | None = None
    share_to: int | None = None


# --- updates -------------------------------------------------------------------------------
def ask(data: AssistantData, prompt: str, convo: int | None = None) -> Message:
    """Send ``prompt`` in ``convo`` (a new conversation when None) and add the reply."""
    if convo is None or data.convos.get(convo) is None:
        convo = data.convos.new(title=prompt.strip()).id
    data.messages.new(convo=convo, role=USER, text=prompt.strip())
    kind, text = generate(prompt)
    return data.messages.new(convo=convo, role=ASSISTANT, text=text, kind=kind)


def delete_convo(data: AssistantData, convo: int) -> None:
    for m in [m for m in data.messages if m.convo == convo]:
        data.messages.remove(m.id)
    data.convos.remove(convo)


# --- the app -------------------------------------------------------------------------------
class AssistantApp(App):
    manifest = MANIFEST

    data: AssistantData
    ui: AssistantUi

    def initial_data(self) -> AssistantData:
        return AssistantData()

    def initial_ui(self) -> AssistantUi:
        return AssistantUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def set_prompt(self, text: str) -> None:
        self.ui.prompt = text

    def send(self) -> None:
        if not self.ui.prompt.strip():
            return
        reply = ask(self.data, self.ui.prompt, self.ui.convo)
        self.ui.convo, self.ui.prompt = reply.convo, ""

    def copy(self, message_id: int) -> None:
        m = self.data.messages.get(message_id)
        if m is not None:
            self.system.clipboard = m.text
            self.toast(self.t("已复制"))

    def open_convo(self, convo: int) -> None:
        self.ui.convo = convo
        self.back()

    def new_convo(self) -> None:
        self.ui.convo, self.ui.prompt = None, ""

    def confirm_delete(self, convo: int) -> None:
        delete_convo(self.data, convo)
        if self.ui.convo == convo:
            self.ui.convo = None
        self.ui.deleting = None
        self.toast(self.t("已删除"))

    def chat_store(self) -> Any:
        finder = getattr(self.host, "app", None)
        chat = finder("Chat") if callable(finder) else None
        return getattr(chat, "data", None)

    def confirm_share(self, message_id: int, chat_id: int) -> None:
        store, m = self.chat_store(), self.data.messages.get(message_id)
        self.ui.share_to = None
        if store is None or m is None or store.chats.get(chat_id) is None:
            return
        chat_send(store, chat_id, m.text, time=self.system.now.strftime("%H:%M"))
        self.toast(self.t("已发送"))
        self.back()

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name == "history":
            return self.history()
        if route.name == "share" and self.data.messages.get(route.arg) is not None:
            return self.share_screen(route.arg)
        return self.chat()

    def message_nodes(self, m: Message) -> list[Node]:
        if m.role == USER:
            return [Text(self.t("我：{text}", text=m.text), id=f"msg_{m.id}")]
        return [Text(m.text, id=f"msg_{m.id}", copyable=True),
                Button(self.t("复制"), partial(self.copy, m.id), id=f"copy_{m.id}", style="text"),
                Button(self.t("分享"), partial(self.go, "share", m.id), id=f"share_{m.id}",
                       style="text")]

    def chat(self) -> Screen:
        convo = self.data.convos.get(self.ui.convo) if self.ui.convo is not None else None
        content: list[Node] = []
        if convo is None:
            content.append(Text(self.t("你好，我是元宝，有什么可以帮你？"), style="title",
                                id="greeting"))
        else:
            for m in sorted((m for m in self.data.messages if m.convo == convo.id),
                            key=lambda m: m.id):
                content += self.message_nodes(m)
        content += [TextField(self.ui.prompt, self.set_prompt, hint=self.t("有问题，尽管问"),
                              id="prompt", label=self.t("输入问题"), on_submit=self.send),
                    Button(self.t("发送"), self.send, id="send")]
        return Screen(top_bar=TopBar(self.t("元宝"), actions=[
            Icon("☰", self.t("历史对话"), partial(self.go, "history"), id="history"),
            Icon("+", self.t("新对话"), self.new_convo, id="new_chat")]), content=content)

    def history(self) -> Screen:
        convos = sorted(self.data.convos, key=lambda c: -c.id)
        items = [ListItem(c.title, "", id=f"convo_{c.id}", glyph="💬",
                          on_click=partial(self.open_convo, c.id),
                          menu=[(self.t("删除"), partial(self.set_ui, deleting=c.id))])
                 for c in convos]
        dialog = None
        target = self.data.convos.get(self.ui.deleting) if self.ui.deleting else None
        if target is not None:
            dialog = Dialog(self.t("删除对话？"),
                            self.t("“{title}”将被删除。", title=target.title), [
                DialogButton(self.t("取消"), partial(self.set_ui, deleting=None),
                             id="button_cancel"),
                DialogButton(self.t("删除"), partial(self.confirm_delete, target.id),
                             id="button_delete")])
        return Screen(top_bar=TopBar(self.t("历史对话"), on_back=self.back),
                      content=[ListView(items, id="convo_list", empty_text=self.t("还没有对话"))],
                      dialog=dialog, on_dismiss=partial(self.set_ui, deleting=None))

    def share_screen(self, message_id: int) -> Screen:
        store = self.chat_store()
        chats = sorted(store.chats, key=lambda c: (c.title, c.id)) if store else []
        items = [ListItem(c.title, self.t("群聊") if c.group else "", id=f"to_{c.id}",
                          glyph="#" if c.group else c.title[:1],
                          on_click=partial(self.set_ui, share_to=c.id)) for c in chats]
        target = store.chats.get(self.ui.share_to) if store and self.ui.share_to else None
        dialog = None
        if target is not None:
            dialog = Dialog(self.t("发送给 {title}？", title=target.title),
                            self.t("将把这条回答发送到微信"), [
                DialogButton(self.t("取消"), partial(self.set_ui, share_to=None),
                             id="button_cancel"),
                DialogButton(self.t("发送"), partial(self.confirm_share, message_id, target.id),
                             id="button_send")])
        return Screen(top_bar=TopBar(self.t("发送给微信好友"), on_back=self.back),
                      content=[ListView(items, id="share_list", empty_text=self.t("没有微信聊天"))],
                      dialog=dialog, on_dismiss=partial(self.set_ui, share_to=None))
