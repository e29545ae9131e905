"""哔哩哔哩 (Bilibili): videos, their UP主 and the owner's lists, as in the Bilibili app.

The bottom bar has 首页 (a search field, id ``search``, over 推荐: a two-column grid of video
cards, each the video's drawn cover labelled with its title, UP主 and plays, ids
``video_<id>``; a search also lists the matching UP主, rows ``up_<id>``), 动态 (the videos of
followed UP主, rows ``dyn_<id>``) and 我的 (the coin balance, id ``coins``; 历史记录, id
``history``; 稍后再看, id ``later``; 我的收藏, id ``favs``). A video's page shows its cover,
title, plays and 弹幕 count (id ``danmaku``), its UP主 (id ``up``, opening the space), 点赞
(id ``like``), 投币 (id ``coin``: one coin, once), 收藏 (id ``fav``), 分享 (id ``share``: a
list of WeChat chats, ``to_<chat id>``, a confirmation, ``button_send``) and 稍后再看 (id
``watch_later``). An UP主's space shows the fans and 关注 (id ``follow``) over the videos.

UP主 and videos are the app's ``Store`` (``apps.Bilibili...``); opening a video adds it to
the history (``history``, untracked: outside snapshots, as browsing is no change a task
counts). Pictures are drawn from the package (``world.pictures``, kind ``video``) by the
video's id.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ...world import pictures
from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import BottomNav, GridItem, Image, ImageGrid
from ...world.widgets import (
    Button,
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

TABS = ("首页", "动态", "我的")
TAB_ICONS = ("home", "layers", "person")
LINK = "https://b23.tv/av{id}"


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Up:
    """An UP主 (a creator): ``followed`` by the owner, ``fans`` counts all followers."""

    id: int
    name: str
    fans: int = 0
    followed: bool = False


@dataclass(frozen=True)
class Video:
    """A video by UP主 ``up``; ``liked``/``coined``/``faved``/``later`` are the owner's,
    the counts are everyone's."""

    id: int
    title: str
    up: int
    views: int = 0
    danmaku: int = 0
    likes: int = 0
    coins: int = 0
    favs: int = 0
    shares: int = 0
    liked: bool = False
    coined: bool = False
    faved: bool = False
    later: bool = False


@dataclass
class BiliData(Store):
    ups: Table[Up] = field(default_factory=lambda: Table(kind=Up))
    videos: Table[Video] = field(default_factory=lambda: Table(kind=Video))
    coins: int = 0
    #: The videos watched, oldest first: untracked (outside snapshots, like the clock):
    #: browsing is not a change a task counts.
    history: tuple[int, ...] = ()
    untracked = ("history",)


@dataclass
class BiliUi:
    """Transient state: the tab, the search, the chat a share is about to go to."""

    tab: str = "首页"
    query: str = ""
    share_to: int | None = None


# --- updates -------------------------------------------------------------------------------
def search(data: BiliData, query: str) -> list[Video]:
    """The videos whose title or UP主 holds ``query`` (all when empty), newest first."""
    q = query.strip().lower()
    names = {u.id: u.name for u in data.ups}
    return [v for v in sorted(data.videos, key=lambda v: -v.id)
            if not q or q in v.title.lower() or q in names.get(v.up, "").lower()]


def toggle(data: BiliData, video_id: int, flag: str, count: str) -> None:
    """Flip the owner's ``flag`` (liked, faved) and move ``count`` with it."""
    v = data.videos.get(video_id)
    if v is not None:
        on = getattr(v, flag)
        data.videos.update(video_id, **{flag: not on, count: getattr(v, count) + (-1 if on
                                                                                 else 1)})


def give_coin(data: BiliData, video_id: int) -> bool:
    """Give the video one coin from the owner's balance; False when given or none left."""
    v = data.videos.get(video_id)
    if v is None or v.coined or data.coins < 1:
        return False
    data.coins -= 1
    data.videos.update(video_id, coined=True, coins=v.coins + 1)
    return True


def toggle_follow(data: BiliData, up_id: int) -> None:
    u = data.ups.get(up_id)
    if u is not None:
        data.ups.update(up_id, followed=not u.followed,
                        fans=u.fans + (-1 if u.followed else 1))


def count_text(n: int) -> str:
    return f"{n / 10000:.1f}万" if n >= 10000 else str(n)


def video_link(video_id: int) -> str:
    return LINK.format(id=video_id)


def cover(v: Video) -> str:
    return pictures.encode("video", v.id * 11 + len(v.title))


# --- the app -------------------------------------------------------------------------------
class BiliApp(App):
    manifest = MANIFEST

    data: BiliData
    ui: BiliUi

    def initial_data(self) -> BiliData:
        return BiliData()

    def initial_ui(self) -> BiliUi:
        return BiliUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def open_video(self, video_id: int) -> None:
        """Open the video's page; it becomes the newest entry of the history."""
        if self.data.videos.get(video_id) is None:
            return
        self.data.history = (*self.data.history, video_id)
        self.go("video", video_id)

    def coin(self, video_id: int) -> None:
        v = self.data.videos.get(video_id)
        if v is not None and v.coined:
            self.toast(self.t("已经投过币了"))
        elif give_coin(self.data, video_id):
            self.toast(self.t("投币成功"))
        else:
            self.toast(self.t("硬币不足"))

    def toggle_later(self, video_id: int) -> None:
        v = self.data.videos.get(video_id)
        if v is not None:
            self.data.videos.update(video_id, later=not v.later)
            self.toast(self.t("已从稍后再看移除") if v.later else self.t("已添加到稍后再看"))

    def chat_store(self) -> Any:
        finder = getattr(self.host, "app", None)
        chat = finder("Chat") if callable(finder) else None
        return getattr(chat, "data", None)

    def confirm_share(self, video_id: int, chat_id: int) -> None:
        store, v = self.chat_store(), self.data.videos.get(video_id)
        self.ui.share_to = None
        if store is None or v is None or store.chats.get(chat_id) is None:
            return
        chat_send(store, chat_id, v.title, "link", time=self.system.now.strftime("%H:%M"),
                  content=video_link(v.id))
        self.data.videos.update(video_id, shares=v.shares + 1)
        self.toast(self.t("分享成功"))
        self.back()

    def up_name(self, up_id: int) -> str:
        u = self.data.ups.get(up_id)
        return u.name if u is not None else ""

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name in ("video", "share") and self.data.videos.get(route.arg) is not None:
            return (self.video_screen if route.name == "video" else self.share_screen)(
                route.arg)
        if route.name == "space" and self.data.ups.get(route.arg) is not None:
            return self.space(route.arg)
        if route.name in ("history", "later", "favs"):
            return self.my_list(route.name)
        return self.home()

    def grid(self, videos: list[Video], grid_id: str) -> Node:
        items = [GridItem(v.title, self.t("{up} · ▶{views}", up=self.up_name(v.up),
                                          views=count_text(v.views)),
                          id=f"video_{v.id}", picture=cover(v)) for v in videos]
        return ImageGrid(items, columns=2, id=grid_id, empty_text=self.t("没有找到相关视频"),
                         on_open=lambda i: self.open_video(videos[i].id))

    def video_row(self, v: Video, prefix: str) -> Node:
        return ListItem(v.title, self.t("UP主：{up}", up=self.up_name(v.up)),
                        id=f"{prefix}_{v.id}", on_click=partial(self.open_video, v.id))

    def home(self) -> Screen:
        tab = self.ui.tab if self.ui.tab in TABS else TABS[0]
        content: list[Node]
        if tab == "动态":
            followed = {u.id for u in self.data.ups if u.followed}
            content = [ListView([self.video_row(v, "dyn") for v in search(self.data, "")
                                 if v.up in followed], id="dynamics",
                                empty_text=self.t("关注的UP主还没有动态"))]
        elif tab == "我的":
            content = [Text(self.t("硬币 {n}", n=self.data.coins), id="coins"),
                       ListItem(self.t("历史记录"), id="history",
                                on_click=partial(self.go, "history")),
                       ListItem(self.t("稍后再看"), self.t("{n}个视频", n=sum(
                           1 for v in self.data.videos if v.later)), id="later",
                           on_click=partial(self.go, "later")),
                       ListItem(self.t("我的收藏"), self.t("{n}个视频", n=sum(
                           1 for v in self.data.videos if v.faved)), id="favs",
                           on_click=partial(self.go, "favs"))]
        else:
            q = self.ui.query.strip()
            ups = [u for u in sorted(self.data.ups, key=lambda u: u.id)
                   if q and q.lower() in u.name.lower()]
            content = [TextField(self.ui.query, lambda v: self.set_ui(query=v),
                                 hint=self.t("搜索视频、UP主"), id="search",
                                 label=self.t("搜索")),
                       *([ListView([ListItem(u.name, self.t("粉丝 {n}", n=count_text(u.fans)),
                                             id=f"up_{u.id}",
                                             on_click=partial(self.go, "space", u.id))
                                    for u in ups], id="ups")] if ups else []),
                       Text(self.t("推荐") if not q else self.t("视频"), style="title",
                            id="list_label"),
                       self.grid(search(self.data, q), "feed")]
        return Screen(top_bar=TopBar(self.t(tab)), content=content,
                      bottom=BottomNav([self.t(t) for t in TABS], TAB_ICONS, self.t(tab),
                                       self.pick_tab, style=self.manifest.look.nav_style))

    def pick_tab(self, label: str) -> None:
        self.ui.tab = next((t for t in TABS if self.t(t) == label), TABS[0])

    def video_screen(self, video_id: int) -> Screen:
        v = self.data.videos[video_id]
        up = self.data.ups.get(v.up)
        return Screen(
            top_bar=TopBar(self.t("视频详情"), on_back=self.back),
            content=[Image(v.title, id="cover", picture=cover(v)),
                     Text(v.title, style="title", id="video_title"),
                     Text(self.t("{views}播放", views=count_text(v.views)), id="views"),
                     Text(self.t("{n}条弹幕", n=v.danmaku), id="danmaku"),
                     ListItem(up.name if up else "", self.t("粉丝 {n}", n=count_text(
                         up.fans if up else 0)), id="up",
                         on_click=partial(self.go, "space", v.up)),
                     Row([Button(f"{self.t('已赞') if v.liked else self.t('点赞')} "
                                 f"{count_text(v.likes)}",
                                 partial(toggle, self.data, video_id, "liked", "likes"),
                                 id="like"),
                          Button(f"{self.t('已投币') if v.coined else self.t('投币')} "
                                 f"{count_text(v.coins)}", partial(self.coin, video_id),
                                 id="coin"),
                          Button(f"{self.t('已收藏') if v.faved else self.t('收藏')} "
                                 f"{count_text(v.favs)}",
                                 partial(toggle, self.data, video_id, "faved", "favs"),
                                 id="fav"),
                          Button(f"{self.t('分享')} {count_text(v.shares)}",
                                 partial(self.go, "share", video_id), id="share")],
                         id="actions"),
                     Button(self.t("已在稍后再看") if v.later else self.t("稍后再看"),
                            partial(self.toggle_later, video_id), id="watch_later",
                            style="secondary")])

    def space(self, up_id: int) -> Screen:
        u = self.data.ups[up_id]
        videos = [v for v in search(self.data, "") if v.up == up_id]
        return Screen(
            top_bar=TopBar(u.name, on_back=self.back),
            content=[Text(self.t("粉丝 {n}", n=count_text(u.fans)), id="fans"),
                     Button(self.t("已关注") if u.followed else self.t("+ 关注"),
                            partial(toggle_follow, self.data, up_id), id="follow",
                            style="secondary" if u.followed else "primary"),
                     Text(self.t("投稿（{n}）", n=len(videos)), style="title",
                          id="uploads_label"),
                     ListView([self.video_row(v, "upload") for v in videos], id="uploads",
                              empty_text=self.t("还没有投稿"))])

    def my_list(self, name: str) -> Screen:
        if name == "history":
            seen: dict[int, None] = {}
            for vid in reversed(self.data.history):
                seen.setdefault(vid, None)
            videos = [v for i in seen if (v := self.data.videos.get(i)) is not None]
            title = self.t("历史记录")
        else:
            flag = "later" if name == "later" else "faved"
            videos = [v for v in search(self.data, "") if getattr(v, flag)]
            title = self.t("稍后再看") if name == "later" else self.t("我的收藏")
        return Screen(top_bar=TopBar(title, on_back=self.back),
                      content=[ListView([self.video_row(v, name) for v in videos], id="videos",
                                        empty_text=self.t("这里还没有视频"))])

    def share_screen(self, video_id: int) -> Screen:
        store = self.chat_store()
        chats = sorted(store.chats, key=lambda c: (c.title, c.id)) if store else []
        items = [ListItem(c.title, self.t("群聊") if c.group else "", id=f"to_{c.id}",
                          glyph="#" if c.group else c.title[:1],
                          on_click=partial(self.set_ui, share_to=c.id)) for c in chats]
        v = self.data.videos[video_id]
        target = store.chats.get(self.ui.share_to) if store and self.ui.share_to else None
        dialog = None
        if target is not None:
            dialog = Dialog(self.t("发送给 {title}？", title=target.title),
                            self.t("[链接] {title}", title=v.title), [
                DialogButton(self.t("取消"), partial(self.set_ui, share_to=None),
                             id="button_cancel"),
                DialogButton(self.t("发送"), partial(self.confirm_share, video_id, target.id),
                             id="button_send")])
        return Screen(top_bar=TopBar(self.t("分享到微信"), on_back=self.back),
                      content=[ListView(items, id="share_list",
                                        empty_text=self.t("没有微信聊天"))],
                      dialog=dialog, on_dismiss=partial(self.set_ui, share_to=None))
