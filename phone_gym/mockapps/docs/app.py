"""腾讯文档 (TencentDocs): online documents, as in Tencent Docs.

The bottom bar has 首页 (the 最近 list: documents newest-edited first), 文档 (我的文档: every
document by title) and 我的 (the account). "+" (id ``new_doc``) opens the editor for a new
document: a title and a body, saved with 完成 (id ``save``). A document opens read-only with
编辑, 分享 and 删除 in its top bar; 分享 lists WeChat's chats (through Chat's public fixtures)
and sends the document's link to the one chosen, after a confirmation. State is dataclasses
(``DocsData``: a ``Table`` of frozen ``Doc`` records), views are pure functions of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import BottomNav
from ...world.widgets import (
    Dialog,
    DialogButton,
    Fab,
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

TABS = ("首页", "文档", "我的")
TAB_ICONS = ("home", "folder", "person")
LINK = "https://docs.qq.com/doc/DT{id:06d}"
UNTITLED = "无标题文档"


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Doc:
    """One document; ``edited`` orders the 最近 list (a larger value: edited later)."""

    id: int
    title: str
    body: str = ""
    edited: int = 0


@dataclass
class DocsData(Store):
    """What the app stores (``apps.TencentDocs.docs.<id>``)."""

    docs: Table[Doc] = field(default_factory=lambda: Table(kind=Doc))


@dataclass
class DocsUi:
    """Transient state: the tab, the editor's fields, the delete confirmation and the chat
    a share is being confirmed for."""

    tab: str = "首页"
    title: str = ""
    body: str = ""
    deleting: int | None = None
    share_to: int | None = None


# --- updates -------------------------------------------------------------------------------
def next_edit(data: DocsData) -> int:
    return max((d.edited for d in data.docs), default=0) + 1


def add_doc(data: DocsData, title: str, body: str = "") -> Doc:
    return data.docs.new(title=title, body=body, edited=next_edit(data))


def save_doc(data: DocsData, doc_id: int | None, title: str, body: str) -> bool:
    """Write the editor into its document (or a new one); an empty new one is dropped."""
    title = title.strip()
    if doc_id is None:
        if not (title or body.strip()):
            return False
        add_doc(data, title or UNTITLED, body)
        return True
    doc = data.docs.get(doc_id)
    if doc is None or (doc.title, doc.body) == (title or UNTITLED, body):
        return False
    data.docs.update(doc_id, title=title or UNTITLED, body=body, edited=next_edit(data))
    return True


def recent(data: DocsData) -> list[Doc]:
    return sorted(data.docs, key=lambda d: -d.edited)


def by_title(data: DocsData) -> list[Doc]:
    return sorted(data.docs, key=lambda d: (d.title, d.id))


def link(doc: Doc) -> str:
    return LINK.format(id=doc.id)


# --- the app -------------------------------------------------------------------------------
class DocsApp(App):
    manifest = MANIFEST

    data: DocsData
    ui: DocsUi

    def initial_data(self) -> DocsData:
        return DocsData()

    def initial_ui(self) -> DocsUi:
        return DocsUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def open_editor(self, doc_id: int | None) -> None:
        doc = self.data.docs.get(doc_id) if doc_id is not None else None
        self.ui.title, self.ui.body = (doc.title, doc.body) if doc else ("", "")
        self.go("edit", doc_id)

    def close_editor(self) -> None:
        if save_doc(self.data, self.route.arg, self.ui.title, self.ui.body):
            self.toast(self.t("已保存"))
        self.back()

    def confirm_delete(self, doc_id: int) -> None:
        self.data.docs.remove(doc_id)
        self.ui.deleting = None
        del self.stack[1:]
        self.toast(self.t("已删除"))

    def chat_store(self) -> Any:
        finder = getattr(self.host, "app", None)
        chat = finder("Chat") if callable(finder) else None
        return getattr(chat, "data", None)

    def confirm_share(self, doc_id: int, chat_id: int) -> None:
        store, doc = self.chat_store(), self.data.docs.get(doc_id)
        self.ui.share_to = None
        if store is None or doc is None or store.chats.get(chat_id) is None:
            return
        chat_send(store, chat_id, doc.title, "link", time=self.system.now.strftime("%H:%M"),
                  content=link(doc))
        self.toast(self.t("已发送"))
        self.back()

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name == "edit":
            return self.editor(route.arg)
        if route.name == "doc" and self.data.docs.get(route.arg) is not None:
            return self.doc_screen(route.arg)
        if route.name == "share" and self.data.docs.get(route.arg) is not None:
            return self.share_screen(route.arg)
        return self.home()

    def doc_row(self, d: Doc) -> Node:
        first = d.body.split("\n")[0]
        return ListItem(d.title, first, id=f"doc_{d.id}", glyph="▤",
                        on_click=partial(self.go, "doc", d.id),
                        menu=[(self.t("分享"), partial(self.go, "share", d.id)),
                              (self.t("删除"), partial(self.set_ui, deleting=d.id))])

    def delete_dialog(self, doc_id: int) -> Node | None:
        doc = self.data.docs.get(doc_id)
        if doc is None:
            return None
        return Dialog(self.t("删除文档？"), self.t("“{title}”将被删除。", title=doc.title), [
            DialogButton(self.t("取消"), partial(self.set_ui, deleting=None),
                         id="button_cancel"),
            DialogButton(self.t("删除"), partial(self.confirm_delete, doc_id), id="button_delete"),
        ])

    def rows(self, docs: Sequence[Doc], list_id: str) -> Node:
        return ListView([self.doc_row(d) for d in docs], id=list_id,
                        empty_text=self.t("还没有文档，点击“+”新建"))

    def home(self) -> Screen:
        tab = self.ui.tab if self.ui.tab in TABS else TABS[0]
        content: list[Node]
        if tab == "文档":
            content = [Text(self.t("我的文档"), style="title", id="section"),
                       self.rows(by_title(self.data), "docs_list")]
        elif tab == "我的":
            content = [ListItem(self.t("腾讯文档用户"), self.t("QQ/微信登录"), id="account",
                                glyph="👤"),
                       Text(self.t("我的文档：{n} 篇", n=len(self.data.docs)), id="doc_count")]
        else:
            content = [Text(self.t("最近"), style="title", id="section"),
                       self.rows(recent(self.data), "recent_list")]
        dialog = self.delete_dialog(self.ui.deleting) if self.ui.deleting else None
        return Screen(
            top_bar=TopBar(self.t("腾讯文档"), actions=[
                Icon("+", self.t("新建"), partial(self.open_editor, None), id="new_doc")]),
            content=content,
            fab=Fab("+", self.t("新建文档"), partial(self.open_editor, None), id="fab_new"),
            bottom=BottomNav(TABS, TAB_ICONS, tab, lambda t: self.set_ui(tab=t),
                             style=self.manifest.look.nav_style),
            dialog=dialog, on_dismiss=partial(self.set_ui, deleting=None))

    def doc_screen(self, doc_id: int) -> Screen:
        doc = self.data.docs.get(doc_id)
        assert doc is not None
        dialog = self.delete_dialog(doc_id) if self.ui.deleting == doc_id else None
        return Screen(
            top_bar=TopBar(doc.title, on_back=self.back, actions=[
                Icon("✎", self.t("编辑"), partial(self.open_editor, doc_id), id="edit"),
                Icon("⇪", self.t("分享"), partial(self.go, "share", doc_id), id="share"),
                Icon("🗑", self.t("删除"), partial(self.set_ui, deleting=doc_id), id="delete")]),
            content=[Text(doc.title, style="title", id="doc_title"),
                     Text(doc.body, id="doc_body", copyable=True)],
            dialog=dialog, on_dismiss=partial(self.set_ui, deleting=None))

    def editor(self, doc_id: int | None) -> Screen:
        def back() -> bool:
            self.close_editor()
            return True

        return Screen(
            top_bar=TopBar(self.t("新建文档") if doc_id is None else self.t("编辑文档"),
                           on_back=self.close_editor,
                           actions=[Icon("✓", self.t("完成"), self.close_editor, id="save")]),
            content=[
                TextField(self.ui.title, partial(self.set_ui_text, "title"),
                          hint=self.t("请输入标题"), id="title", label=self.t("标题")),
                TextField(self.ui.body, partial(self.set_ui_text, "body"),
                          hint=self.t("请输入正文"), id="body", label=self.t("正文"),
                          multiline=True),
                Text(self.t("{n} 字", n=len(self.ui.body)), style="caption", id="char_count"),
            ],
            on_back=back)

    def set_ui_text(self, key: str, value: str) -> None:
        setattr(self.ui, key, value)

    def share_screen(self, doc_id: int) -> Screen:
        store = self.chat_store()
        chats = sorted(store.chats, key=lambda c: (c.title, c.id)) if store else []
        items = [ListItem(c.title, self.t("群聊") if c.group else "", id=f"to_{c.id}",
                          glyph="#" if c.group else c.title[:1],
                          on_click=partial(self.set_ui, share_to=c.id)) for c in chats]
        doc = self.data.docs.get(doc_id)
        target = store.chats.get(self.ui.share_to) if store and self.ui.share_to else None
        dialog = None
        if target is not None and doc is not None:
            dialog = Dialog(self.t("发送给 {title}？", title=target.title),
                            self.t("[链接] {title}", title=doc.title), [
                DialogButton(self.t("取消"), partial(self.set_ui, share_to=None),
                             id="button_cancel"),
                DialogButton(self.t("发送"), partial(self.confirm_share, doc_id, target.id),
                             id="button_send")])
        return Screen(top_bar=TopBar(self.t("发送给微信好友"), on_back=self.back),
                      content=[ListView(items, id="share_list", empty_text=self.t("没有微信聊天"))],
                      dialog=dialog, on_dismiss=partial(self.set_ui, share_to=None))
