"""抖音 (Douyin): short videos, as in the Douyin app.

首页 is the full-screen vertical feed: one video at a time fills the screen (a picture drawn
from the package, ``video_view``), with the rail at its right: the creator (id ``creator``,
opens the profile), 点赞 (id ``like``), 评论 (id ``open_comments``), 收藏 (id ``collect``)
and 分享 (id ``share``); its caption (``video_caption``: "@creator caption") under it. A
vertical swipe (a drag up) moves to the next video, a drag down to the previous one; the
search icon (id ``search_button``) opens search. 关注 lists the creators followed, 我 the
videos liked and collected.

The comments screen lists a video's comments with a field (id ``comment``) and 发送 (id
``send_comment``); a creator's profile has 关注 (id ``follow``, a toggle) over their videos
(``cvideo_<id>``); search (field ``query``, with 猜你想搜 topic chips ``hot_<i>``) finds
videos by caption (``result_<id>``) and creators by name (``user_<id>``). 分享 lists
WeChat's chats (``to_<chat id>``): sending posts the video's link to that chat, as Douyin's
share sheet hands it to WeChat.

Videos, creators and comments are the app's own ``Store`` (``apps.Douyin...``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ...world import pictures
from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import BottomNav, Chip
from ...world.kit.media import Viewfinder
from ...world.widgets import (
    Button,
    Column,
    Dialog,
    DialogButton,
    ListItem,
    ListView,
    Node,
    Row,
    Screen,
    Text,
    TextField,
    TopBar,
)
from ..chat.fixtures import send as chat_send
from .manifest import MANIFEST

TABS = ("首页", "关注", "我")
TAB_ICONS = ("home", "favorite", "person")
ME = "我"
#: Topics and the kind of picture their videos show.
TOPICS = {"美食": "food", "旅行": "landscape", "萌宠": "pet", "好物": "product"}
LINK = "https://v.douyin.com/{id:06d}/"
VIDEO_H = 1500
#: A vertical drag at least this long (0..1000 of the video's height) changes the video.
SWIPE_MIN = 150


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Video:
    """A video: ``liked``/``collected`` are the owner's; ``likes``/``collects`` count all."""

    id: int
    caption: str
    creator: int
    topic: str
    likes: int = 0
    collects: int = 0
    shares: int = 0
    liked: bool = False
    collected: bool = False


@dataclass(frozen=True)
class Creator:
    id: int
    name: str
    bio: str
    followers: int = 0
    followed: bool = False


@dataclass(frozen=True)
class Comment:
    id: int
    video: int
    author: str
    text: str


@dataclass
class DouyinData(Store):
    videos: Table[Video] = field(default_factory=lambda: Table(kind=Video))
    creators: Table[Creator] = field(default_factory=lambda: Table(kind=Creator))
    comments: Table[Comment] = field(default_factory=lambda: Table(kind=Comment))


@dataclass
class DouyinUi:
    """Transient state: the tab, the feed's position, the search, the comment draft and the
    chat a share is about to go to."""

    tab: str = "首页"
    index: int = 0
    query: str = ""
    comment: str = ""
    share_to: int | None = None


# --- updates -------------------------------------------------------------------------------
def feed(data: DouyinData) -> list[Video]:
    """The 推荐 feed: every video, oldest first (the owner's order of discovery)."""
    return sorted(data.videos, key=lambda v: v.id)


def toggle_like(data: DouyinData, video_id: int) -> None:
    v = data.videos.get(video_id)
    if v is not None:
        data.videos.update(video_id, liked=not v.liked, likes=v.likes + (-1 if v.liked else 1))


def toggle_collect(data: DouyinData, video_id: int) -> None:
    v = data.videos.get(video_id)
    if v is not None:
        data.videos.update(video_id, collected=not v.collected,
                           collects=v.collects + (-1 if v.collected else 1))


def toggle_follow(data: DouyinData, creator_id: int) -> None:
    c = data.creators.get(creator_id)
    if c is not None:
        data.creators.update(creator_id, followed=not c.followed,
                             followers=c.followers + (-1 if c.followed else 1))


def picture(v: Video) -> str:
    return pictures.encode(TOPICS.get(v.topic, "landscape"), v.id * 11 + len(v.caption))


def count_text(n: int) -> str:
    """Counts as Douyin writes them: "8765", "1.2万"."""
    return f"{n / 10000:.1f}万" if n >= 10000 else str(n)


def video_link(video_id: int) -> str:
    return LINK.format(id=video_id)


# --- the app -------------------------------------------------------------------------------
class DouyinApp(App):
    manifest = MANIFEST

    data: DouyinData
    ui: DouyinUi

    def initial_data(self) -> DouyinData:
        return DouyinData()

    def initial_ui(self) -> DouyinUi:
        return DouyinUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def creator_name(self, creator_id: int) -> str:
        c = self.data.creators.get(creator_id)
        return c.name if c is not None else ""

    def play(self, video_id: int) -> None:
        """Show ``video_id`` in the feed (from search, a profile or 我)."""
        ids = [v.id for v in feed(self.data)]
        if video_id in ids:
            self.ui.index, self.ui.tab = ids.index(video_id), "首页"
            self.stack = [Route("main")]

    def swipe(self, x0: int, y0: int, x1: int, y1: int) -> None:
        if abs(y1 - y0) >= SWIPE_MIN and abs(y1 - y0) > abs(x1 - x0):
            count = len(self.data.videos)
            step = 1 if y1 < y0 else -1  # a drag up shows the next video
            self.ui.index = max(0, min(count - 1, self.ui.index + step))

    def send_comment(self, video_id: int) -> None:
        text = self.ui.comment.strip()
        if not text or self.data.videos.get(video_id) is None:
            return
        self.data.comments.new(video=video_id, author=ME, text=text)
        self.ui.comment = ""
        self.toast(self.t("评论成功"))

    def chat_store(self) -> Any:
        finder = getattr(self.host, "app", None)
        chat = finder("Chat") if callable(finder) else None
        return getattr(chat, "data", None)

    def confirm_share(self, video_id: int, chat_id: int) -> None:
        store, v = self.chat_store(), self.data.videos.get(video_id)
        self.ui.share_to = None
        if store is None or v is None or store.chats.get(chat_id) is None:
            return
        chat_send(store, chat_id, v.caption, "link", time=self.system.now.strftime("%H:%M"),
                  content=video_link(v.id))
        self.data.videos.update(video_id, shares=v.shares + 1)
        self.toast(self.t("已分享"))
        self.back()

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name in ("comments", "share") and self.data.videos.get(route.arg) is not None:
            return (self.comments_screen if route.name == "comments"
                    else self.share_screen)(route.arg)
        if route.name == "creator" and self.data.creators.get(route.arg) is not None:
            return self.profile(route.arg)
        if route.name == "search":
            return self.search_screen()
        return self.home()

    def bar(self, tab: str) -> Node:
        return BottomNav([self.t(t) for t in TABS], TAB_ICONS, self.t(tab), self.pick_tab,
                         style=self.manifest.look.nav_style)

    def pick_tab(self, label: str) -> None:
        self.ui.tab = next((t for t in TABS if self.t(t) == label), TABS[0])

    def home(self) -> Screen:
        tab = self.ui.tab if self.ui.tab in TABS else TABS[0]
        if tab == "关注":
            followed = [c for c in self.data.creators if c.followed]
            return Screen(top_bar=TopBar(self.t("关注")), content=[ListView(
                [ListItem(c.name, self.t("粉丝 {n}", n=count_text(c.followers)),
                          id=f"following_{c.id}", glyph=c.name[:1],
                          on_click=partial(self.go, "creator", c.id)) for c in followed],
                id="following", empty_text=self.t("还没有关注的人"))], bottom=self.bar(tab))
        if tab == "我":
            liked = [v for v in feed(self.data) if v.liked]
            saved = [v for v in feed(self.data) if v.collected]
            return Screen(top_bar=TopBar(self.t("我")), content=[
                Text(self.t("喜欢（{n}）", n=len(liked)), style="title", id="liked_label"),
                ListView([self.video_row(v, "liked") for v in liked], id="liked",
                         empty_text=self.t("还没有喜欢的视频")),
                Text(self.t("收藏（{n}）", n=len(saved)), style="title", id="saved_label"),
                ListView([self.video_row(v, "saved") for v in saved], id="saved",
                         empty_text=self.t("还没有收藏的视频"))], bottom=self.bar(tab))
        videos = feed(self.data)
        search = Button(self.t("搜索"), partial(self.go, "search"), id="search_button")
        if not videos:
            return Screen(top_bar=TopBar(self.t("推荐")),
                          content=[Text(self.t("暂时没有视频"), id="empty_feed"), search],
                          bottom=self.bar(tab))
        v = videos[min(self.ui.index, len(videos) - 1)]
        name = self.creator_name(v.creator)
        comments = sum(1 for c in self.data.comments if c.video == v.id)

        def rail(id: str, text: str, desc: str, on_click: Any, row: int,
                 glyph: str = "") -> Node:
            top = 330 + row * 120
            return Node("map_button", text=text, glyph=glyph, desc=desc, id=id,
                        on_click=on_click, at=(820, top, 990, top + 100), color=(40, 40, 48))
        overlays = [
            Node("map_button", glyph="search", desc=self.t("搜索"), id="search_button",
                 on_click=partial(self.go, "search"), at=(860, 20, 980, 100),
                 color=(40, 40, 48)),
            rail("creator", name[:2], self.t("{name}的主页", name=name),
                 partial(self.go, "creator", v.creator), 0),
            rail("like", f"{'♥' if v.liked else '♡'}{count_text(v.likes)}",
                 self.t("已赞") if v.liked else self.t("点赞"),
                 partial(toggle_like, self.data, v.id), 1),
            rail("open_comments", self.t("评论{n}", n=comments), self.t("评论"),
                 partial(self.go, "comments", v.id), 2),
            rail("collect", f"{'★' if v.collected else '☆'}{count_text(v.collects)}",
                 self.t("已收藏") if v.collected else self.t("收藏"),
                 partial(toggle_collect, self.data, v.id), 3),
            rail("share", self.t("分享{n}", n=count_text(v.shares)), self.t("分享"),
                 partial(self.go, "share", v.id), 4),
        ]
        view = Viewfinder(picture(v), desc=self.t("视频：{caption}", caption=v.caption),
                          id="video_view", height=VIDEO_H, overlays=overlays)
        view.on_stroke = self.swipe
        return Screen(top_bar=TopBar(self.t("推荐")), content=[
            view, Text(f"@{name} {v.caption}", id="video_caption"),
            Text(self.t("第 {i}/{n} 个视频，上滑看下一个", i=videos.index(v) + 1,
                        n=len(videos)), style="caption", id="video_position")],
            bottom=self.bar(tab))

    def video_row(self, v: Video, prefix: str) -> Node:
        return ListItem(v.caption, f"@{self.creator_name(v.creator)}", id=f"{prefix}_{v.id}",
                        picture=picture(v), on_click=partial(self.play, v.id))

    def set_ui_text(self, key: str, value: str) -> None:
        setattr(self.ui, key, value)

    def comments_screen(self, video_id: int) -> Screen:
        listed = sorted((c for c in self.data.comments if c.video == video_id),
                        key=lambda c: c.id)
        return Screen(
            top_bar=TopBar(self.t("{n} 条评论", n=len(listed)), on_back=self.back),
            content=[ListView([ListItem(c.author, c.text, id=f"comment_{c.id}",
                                        glyph=c.author[:1]) for c in listed],
                              id="comments", empty_text=self.t("还没有评论，快来抢沙发"))],
            dock=Column([
                TextField(self.ui.comment, partial(self.set_ui_text, "comment"),
                          hint=self.t("善语结善缘，恶言伤人心"), id="comment",
                          label=self.t("评论")),
                Button(self.t("发送"), partial(self.send_comment, video_id),
                       id="send_comment")], id="comment_bar"))

    def profile(self, creator_id: int) -> Screen:
        c = self.data.creators.get(creator_id)
        assert c is not None
        videos = [v for v in feed(self.data) if v.creator == creator_id]
        return Screen(
            top_bar=TopBar(c.name, on_back=self.back),
            content=[Text(c.name, style="title", id="creator_name"),
                     Text(c.bio, id="creator_bio"),
                     Text(self.t("粉丝 {n}", n=count_text(c.followers)),
                          id="creator_followers"),
                     Button(self.t("已关注") if c.followed else self.t("关注"),
                            partial(toggle_follow, self.data, creator_id), id="follow"),
                     Text(self.t("作品 {n}", n=len(videos)), style="title", id="works_label"),
                     ListView([self.video_row(v, "cvideo") for v in videos], id="works",
                              empty_text=self.t("还没有作品"))])

    def search_screen(self) -> Screen:
        q = self.ui.query.strip()
        content: list[Node] = [TextField(self.ui.query, partial(self.set_ui_text, "query"),
                                         hint=self.t("搜索视频、用户"), id="query",
                                         label=self.t("搜索"))]
        if not q:
            content += [Text(self.t("猜你想搜"), style="title", id="hot_label"),
                        Row([Chip(t, False, partial(self.set_ui, query=t), id=f"hot_{i}")
                             for i, t in enumerate(TOPICS)], id="hot")]
        else:
            users = [c for c in self.data.creators if q in c.name]
            videos = [v for v in feed(self.data) if q in v.caption or q == v.topic]
            content += [
                ListView([ListItem(c.name, self.t("粉丝 {n}", n=count_text(c.followers)),
                                   id=f"user_{c.id}", glyph=c.name[:1],
                                   on_click=partial(self.go, "creator", c.id))
                          for c in users], id="users", empty_text=self.t("没有相关用户")),
                ListView([self.video_row(v, "result") for v in videos], id="results",
                         empty_text=self.t("没有相关视频"))]
        return Screen(top_bar=TopBar(self.t("搜索"), on_back=self.back), content=content)

    def share_screen(self, video_id: int) -> Screen:
        store = self.chat_store()
        chats = sorted(store.chats, key=lambda c: (c.title, c.id)) if store else []
        items = [ListItem(c.title, self.t("群聊") if c.group else "", id=f"to_{c.id}",
                          glyph="#" if c.group else c.title[:1],
                          on_click=partial(self.set_ui, share_to=c.id)) for c in chats]
        v = self.data.videos.get(video_id)
        target = store.chats.get(self.ui.share_to) if store and self.ui.share_to else None
        dialog = None
        if target is not None and v is not None:
            dialog = Dialog(self.t("发送给 {title}？", title=target.title),
                            self.t("[链接] {caption}", caption=v.caption), [
                DialogButton(self.t("取消"), partial(self.set_ui, share_to=None),
                             id="button_cancel"),
                DialogButton(self.t("发送"), partial(self.confirm_share, video_id, target.id),
                             id="button_send")])
        return Screen(top_bar=TopBar(self.t("分享给微信好友"), on_back=self.back),
                      content=[ListView(items, id="share_list",
                                        empty_text=self.t("没有微信聊天"))],
                      dialog=dialog, on_dismiss=partial(self.set_ui, share_to=None))
