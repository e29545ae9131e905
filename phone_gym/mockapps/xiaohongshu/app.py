"""小红书 (Xiaohongshu): lifestyle notes, as in the Xiaohongshu app.

The bottom bar has 首页 (发现: a search field, id ``search``, over a two-column feed of
notes, each a drawn picture labelled with its title and likes, ids ``note_<id>``), 发布
(the editor: a title, a body and a topic chip, 发布笔记 with id ``post``) and 我 (我的笔记
and 我的收藏). A note's page shows its picture, title, author, body, topic and comments, with
赞 (id ``like``), 收藏 (id ``collect``), both toggles that count, and a comment field
(id ``comment``) sent with 发送 (id ``send_comment``).

Notes and comments are the app's own ``Store`` (``apps.Xiaohongshu...``); pictures are drawn
from the package (``world.pictures``) by the note's topic and id.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ...world import pictures
from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import BottomNav, Chip, GridItem, Image, ImageGrid
from ...world.widgets import (
    Button,
    Column,
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

TABS = ("首页", "发布", "我")
TAB_ICONS = ("home", "add_circle", "person")
ME = "我"
#: Topics and the kind of picture their notes show.
TOPICS = {"美食": "food", "旅行": "landscape", "萌宠": "pet", "好物": "product"}


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Note:
    """A note: ``liked``/``collected`` are the owner's; ``likes``/``collects`` count all."""

    id: int
    title: str
    body: str
    author: str
    topic: str
    likes: int = 0
    collects: int = 0
    liked: bool = False
    collected: bool = False


@dataclass(frozen=True)
class Comment:
    id: int
    note: int
    author: str
    text: str


@dataclass
class XhsData(Store):
    notes: Table[Note] = field(default_factory=lambda: Table(kind=Note))
    comments: Table[Comment] = field(default_factory=lambda: Table(kind=Comment))


@dataclass
class XhsUi:
    """Transient state: the tab, the search, the comment draft, the editor's fields."""

    tab: str = "首页"
    query: str = ""
    comment: str = ""
    title: str = ""
    body: str = ""
    topic: str = ""


# --- updates -------------------------------------------------------------------------------
def feed(data: XhsData, query: str) -> list[Note]:
    """The notes whose title or body holds ``query``, or of that topic, newest first (the
    owner's own left out of 发现 unless searched)."""
    q = query.strip()
    return sorted((n for n in data.notes
                   if (q in n.title or q in n.body or q == n.topic) if q or n.author != ME),
                  key=lambda n: -n.id)


def toggle_like(data: XhsData, note_id: int) -> None:
    n = data.notes.get(note_id)
    if n is not None:
        data.notes.update(note_id, liked=not n.liked, likes=n.likes + (-1 if n.liked else 1))


def toggle_collect(data: XhsData, note_id: int) -> None:
    n = data.notes.get(note_id)
    if n is not None:
        data.notes.update(note_id, collected=not n.collected,
                          collects=n.collects + (-1 if n.collected else 1))


def picture(n: Note) -> str:
    return pictures.encode(TOPICS.get(n.topic, "landscape"), n.id * 7 + len(n.title))


def count_text(n: int) -> str:
    return f"{n / 10000:.1f}万" if n >= 10000 else str(n)


# --- the app -------------------------------------------------------------------------------
class XhsApp(App):
    manifest = MANIFEST

    data: XhsData
    ui: XhsUi

    def initial_data(self) -> XhsData:
        return XhsData()

    def initial_ui(self) -> XhsUi:
        return XhsUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def open_note(self, note_id: int) -> None:
        self.ui.comment = ""
        self.go("note", note_id)

    def send_comment(self, note_id: int) -> None:
        text = self.ui.comment.strip()
        if not text or self.data.notes.get(note_id) is None:
            return
        self.data.comments.new(note=note_id, author=ME, text=text)
        self.ui.comment = ""
        self.toast(self.t("评论成功"))

    def post(self) -> None:
        title, body = self.ui.title.strip(), self.ui.body.strip()
        if not title or not body or self.ui.topic not in TOPICS:
            self.toast(self.t("请填写标题、正文并选择话题"))
            return
        note = self.data.notes.new(title=title, body=body, author=ME, topic=self.ui.topic)
        self.ui.title = self.ui.body = self.ui.topic = ""
        self.ui.tab = "我"
        self.toast(self.t("发布成功"))
        self.stack = [Route("main"), Route("note", note.id)]

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name == "note" and self.data.notes.get(route.arg) is not None:
            return self.note_screen(route.arg)
        return self.home()

    def grid(self, notes: list[Note], grid_id: str, empty: str) -> Node:
        items = [GridItem(f"{n.title} ♥{count_text(n.likes)}",
                          self.t("{title}（{author}）", title=n.title, author=n.author),
                          id=f"note_{n.id}", picture=picture(n)) for n in notes]
        return ImageGrid(items, columns=2, id=grid_id, empty_text=empty,
                         on_open=lambda i: self.open_note(notes[i].id))

    def home(self) -> Screen:
        tab = self.ui.tab if self.ui.tab in TABS else TABS[0]
        content: list[Node]
        title = self.t("发现")
        if tab == "发布":
            title = self.t("发布笔记")
            content = [
                TextField(self.ui.title, partial(self.set_ui_text, "title"),
                          hint=self.t("填写标题"), id="title", label=self.t("标题")),
                TextField(self.ui.body, partial(self.set_ui_text, "body"),
                          hint=self.t("添加正文"), id="body", label=self.t("正文"),
                          multiline=True),
                Text(self.t("选择话题"), id="topic_label"),
                Row([Chip(t, t == self.ui.topic, partial(self.set_ui, topic=t),
                          id=f"topic_{i}") for i, t in enumerate(TOPICS)], id="topics"),
                Button(self.t("发布笔记"), self.post, id="post")]
        elif tab == "我":
            title = self.t("我")
            mine = sorted((n for n in self.data.notes if n.author == ME), key=lambda n: -n.id)
            saved = sorted((n for n in self.data.notes if n.collected), key=lambda n: -n.id)
            content = [Text(self.t("我的笔记（{n}）", n=len(mine)), style="title",
                            id="mine_label"),
                       ListView([ListItem(n.title, n.topic, id=f"mine_{n.id}",
                                          on_click=partial(self.open_note, n.id))
                                 for n in mine], id="mine", empty_text=self.t("还没有发布笔记")),
                       Text(self.t("我的收藏（{n}）", n=len(saved)), style="title",
                            id="saved_label"),
                       ListView([ListItem(n.title, n.author, id=f"saved_{n.id}",
                                          on_click=partial(self.open_note, n.id))
                                 for n in saved], id="saved", empty_text=self.t("还没有收藏"))]
        else:
            content = [TextField(self.ui.query, lambda v: self.set_ui(query=v),
                                 hint=self.t("搜索笔记"), id="search",
                                 label=self.t("搜索")),
                       self.grid(feed(self.data, self.ui.query), "feed",
                                 self.t("没有找到相关笔记"))]
        return Screen(top_bar=TopBar(title), content=content,
                      bottom=BottomNav([self.t(t) for t in TABS], TAB_ICONS, self.t(tab),
                                       self.pick_tab, style=self.manifest.look.nav_style))

    def pick_tab(self, label: str) -> None:
        self.ui.tab = next((t for t in TABS if self.t(t) == label), TABS[0])

    def set_ui_text(self, key: str, value: str) -> None:
        setattr(self.ui, key, value)

    def note_screen(self, note_id: int) -> Screen:
        n = self.data.notes.get(note_id)
        assert n is not None
        comments = sorted((c for c in self.data.comments if c.note == note_id),
                          key=lambda c: c.id)
        return Screen(
            top_bar=TopBar(n.author, on_back=self.back),
            content=[Image(n.title, id="note_picture", picture=picture(n)),
                     Text(n.title, style="title", id="note_title"),
                     Text(n.body, id="note_body", copyable=True),
                     Text(f"#{n.topic}", style="caption", id="note_topic"),
                     Text(self.t("共 {n} 条评论", n=len(comments)), id="comment_count"),
                     ListView([ListItem(c.author, c.text, id=f"comment_{c.id}")
                               for c in comments], id="comments",
                              empty_text=self.t("还没有评论"))],
            dock=Column([
                Row([Button(f"{self.t('已赞') if n.liked else self.t('赞')} "
                            f"{count_text(n.likes)}",
                            partial(toggle_like, self.data, note_id), id="like"),
                     Button(f"{self.t('已收藏') if n.collected else self.t('收藏')} "
                            f"{count_text(n.collects)}",
                            partial(toggle_collect, self.data, note_id), id="collect")]),
                TextField(self.ui.comment, lambda v: self.set_ui(comment=v),
                          hint=self.t("说点什么..."), id="comment",
                          label=self.t("评论")),
                Button(self.t("发送"), partial(self.send_comment, note_id),
                       id="send_comment")],
                id="note_bar"))
