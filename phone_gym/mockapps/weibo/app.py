"""微博 (Weibo): a microblog, as in the Weibo app.

首页 shows the feed under two tabs, 关注 (chip ``feed_follow``: the posts of the users
followed and the owner's) and 推荐 (chip ``feed_recommend``: every post), newest first; each
row (``post_<id>``) shows the text over the author and the 赞 count and opens the post. The
+ (id ``compose``) opens 发微博 (field ``post_text``, 发送 ``send_post``): a ``#话题#`` in
the text is the post's topic. 发现 has search (field ``search``: posts by text or author,
``result_<id>``, users by name, ``user_<id>``) over the 热搜 list (rows ``hot_<rank>`` with
the rank, ``rank_<rank>``, and the heat; a tap searches the topic). 我 lists the owner's
posts and the users followed.

A post's detail shows the author (id ``author``, opens the profile), the text (``post_body``),
what it reposts, the counts, and 转发 (id ``repost``: a screen with ``repost_text`` and
``send_repost``), 赞 (id ``like``, a toggle) and a comment field (``comment``, ``send_comment``)
over the comments (``comment_<id>``). A profile has 关注 (id ``follow``, a toggle) over the
user's posts.

Users, posts, comments and the 热搜 list are the app's ``Store`` (``apps.Weibo...``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import BottomNav, Chip
from ...world.widgets import (
    Button,
    Column,
    Icon,
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

TABS = ("首页", "发现", "我")
TAB_ICONS = ("home", "search", "person")
FEEDS = ("关注", "推荐")
ME = "我"
TOPIC = re.compile(r"#([^#\s]+)#")


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class User:
    id: int
    name: str
    bio: str
    followers: int = 0
    followed: bool = False


@dataclass(frozen=True)
class Post:
    """A post: ``author`` is a user's name (``ME`` for the owner); ``topic`` the #话题# of
    its text ("" when none); ``repost_of`` the post it reposts (0: none)."""

    id: int
    author: str
    text: str
    topic: str = ""
    time: str = "10:00"
    likes: int = 0
    reposts: int = 0
    liked: bool = False
    repost_of: int = 0


@dataclass(frozen=True)
class Comment:
    id: int
    post: int
    author: str
    text: str


@dataclass(frozen=True)
class Hot:
    """A 热搜 entry: its topic and heat (the list ranks by heat)."""

    id: int
    title: str
    heat: int


@dataclass
class WeiboData(Store):
    users: Table[User] = field(default_factory=lambda: Table(kind=User))
    posts: Table[Post] = field(default_factory=lambda: Table(kind=Post))
    comments: Table[Comment] = field(default_factory=lambda: Table(kind=Comment))
    hot: Table[Hot] = field(default_factory=lambda: Table(kind=Hot))


@dataclass
class WeiboUi:
    """Transient state: the tab and feed, the search and the drafts."""

    tab: str = "首页"
    feed: str = "推荐"
    query: str = ""
    draft: str = ""
    repost: str = ""
    comment: str = ""


# --- updates -------------------------------------------------------------------------------
def topic_of(text: str) -> str:
    """The first ``#话题#`` of a text ("" when none)."""
    found = TOPIC.search(text)
    return found.group(1) if found else ""


def ranked(data: WeiboData) -> list[Hot]:
    """The 热搜 list: hottest first (rank 1 is the first)."""
    return sorted(data.hot, key=lambda h: (-h.heat, h.id))


def feed(data: WeiboData, which: str) -> list[Post]:
    """关注: the posts of the users followed and the owner's; 推荐: all; newest first."""
    followed = {u.name for u in data.users if u.followed} | {ME}
    return sorted((p for p in data.posts if which != "关注" or p.author in followed),
                  key=lambda p: -p.id)


def search(data: WeiboData, query: str) -> tuple[list[User], list[Post]]:
    q = query.strip().strip("#")
    if not q:
        return [], []
    return ([u for u in sorted(data.users, key=lambda u: u.id) if q in u.name],
            [p for p in sorted(data.posts, key=lambda p: -p.id)
             if q in p.text or q == p.author or q == p.topic])


def toggle_like(data: WeiboData, post_id: int) -> None:
    p = data.posts.get(post_id)
    if p is not None:
        data.posts.update(post_id, liked=not p.liked, likes=p.likes + (-1 if p.liked else 1))


def toggle_follow(data: WeiboData, user_id: int) -> None:
    u = data.users.get(user_id)
    if u is not None:
        data.users.update(user_id, followed=not u.followed,
                          followers=u.followers + (-1 if u.followed else 1))


def heat_text(n: int) -> str:
    """Heat as Weibo writes it: "98.2万", "8765"."""
    return f"{n / 10000:.1f}万" if n >= 10000 else str(n)


# --- the app -------------------------------------------------------------------------------
class WeiboApp(App):
    manifest = MANIFEST

    data: WeiboData
    ui: WeiboUi

    def initial_data(self) -> WeiboData:
        return WeiboData()

    def initial_ui(self) -> WeiboUi:
        return WeiboUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def now(self) -> str:
        return self.system.now.strftime("%H:%M")

    def publish(self) -> None:
        text = self.ui.draft.strip()
        if not text:
            self.toast(self.t("说点什么吧"))
            return
        self.data.posts.new(author=ME, text=text, topic=topic_of(text), time=self.now())
        self.ui.draft = ""
        self.toast(self.t("发送成功"))
        self.back()

    def send_repost(self, post_id: int) -> None:
        p = self.data.posts.get(post_id)
        if p is None:
            return
        text = self.ui.repost.strip() or self.t("转发微博")
        self.data.posts.new(author=ME, text=text, topic=topic_of(text), time=self.now(),
                            repost_of=post_id)
        self.data.posts.update(post_id, reposts=p.reposts + 1)
        self.ui.repost = ""
        self.toast(self.t("转发成功"))
        self.back()

    def send_comment(self, post_id: int) -> None:
        text = self.ui.comment.strip()
        if not text or self.data.posts.get(post_id) is None:
            return
        self.data.comments.new(post=post_id, author=ME, text=text)
        self.ui.comment = ""
        self.toast(self.t("评论成功"))

    def open_hot(self, title: str) -> None:
        self.ui.query = title

    def open_user(self, name: str) -> None:
        u = next((u for u in self.data.users if u.name == name), None)
        if u is not None:
            self.go("user", u.id)

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name in ("post", "repost") and self.data.posts.get(route.arg) is not None:
            return (self.post_screen if route.name == "post" else self.repost_screen)(
                route.arg)
        if route.name == "user" and self.data.users.get(route.arg) is not None:
            return self.profile(route.arg)
        if route.name == "compose":
            return self.compose()
        return self.home()

    def comment_count(self, post_id: int) -> int:
        return sum(1 for c in self.data.comments if c.post == post_id)

    def post_row(self, p: Post, prefix: str) -> Node:
        return ListItem(p.text, self.t("{author} · 赞 {n}", author=p.author, n=p.likes),
                        id=f"{prefix}_{p.id}", glyph=p.author[:1],
                        on_click=partial(self.go, "post", p.id))

    def bar(self, tab: str) -> Node:
        return BottomNav([self.t(t) for t in TABS], TAB_ICONS, self.t(tab), self.pick_tab,
                         style=self.manifest.look.nav_style)

    def pick_tab(self, label: str) -> None:
        self.ui.tab = next((t for t in TABS if self.t(t) == label), TABS[0])

    def home(self) -> Screen:
        tab = self.ui.tab if self.ui.tab in TABS else TABS[0]
        content: list[Node]
        if tab == "发现":
            users, posts = search(self.data, self.ui.query)
            content = [TextField(self.ui.query, lambda v: self.set_ui(query=v),
                                 hint=self.t("搜索微博、用户、话题"), id="search",
                                 label=self.t("搜索"))]
            if self.ui.query.strip():
                content += [
                    ListView([ListItem(u.name, self.t("粉丝 {n}", n=heat_text(u.followers)),
                                       id=f"user_{u.id}", glyph=u.name[:1],
                                       on_click=partial(self.go, "user", u.id))
                              for u in users], id="users", empty_text=self.t("没有相关用户")),
                    ListView([self.post_row(p, "result") for p in posts], id="results",
                             empty_text=self.t("没有找到相关微博"))]
            else:
                content += [Text(self.t("微博热搜"), style="title", id="hot_label"),
                            ListView([ListItem(h.title, parts=(
                                (f"rank_{i}", str(i)),
                                (f"heat_{i}", self.t("热度 {n}", n=heat_text(h.heat)))),
                                id=f"hot_{i}", on_click=partial(self.open_hot, h.title))
                                for i, h in enumerate(ranked(self.data), start=1)],
                                id="hot", empty_text=self.t("暂无热搜"))]
        elif tab == "我":
            mine = [p for p in feed(self.data, "推荐") if p.author == ME]
            following = [u for u in sorted(self.data.users, key=lambda u: u.id) if u.followed]
            content = [Text(self.t("关注 {n}", n=len(following)), id="following_count"),
                       ListView([ListItem(u.name, u.bio, id=f"following_{u.id}",
                                          glyph=u.name[:1],
                                          on_click=partial(self.go, "user", u.id))
                                 for u in following], id="following",
                                empty_text=self.t("还没有关注的人")),
                       Text(self.t("我的微博（{n}）", n=len(mine)), style="title",
                            id="mine_label"),
                       ListView([self.post_row(p, "mine") for p in mine], id="mine",
                                empty_text=self.t("还没有发过微博"))]
        else:
            which = self.ui.feed if self.ui.feed in FEEDS else "推荐"
            content = [Row([Chip(self.t(f), f == which, partial(self.set_ui, feed=f),
                                 id=f"feed_{'follow' if f == '关注' else 'recommend'}")
                            for f in FEEDS], id="feeds"),
                       ListView([self.post_row(p, "post") for p in feed(self.data, which)],
                                id="feed", empty_text=self.t("暂时没有新微博"))]
        top = TopBar(self.t(tab), actions=[Icon("add", self.t("发微博"),
                                                partial(self.go, "compose"), id="compose")]
                     if tab == "首页" else [])
        return Screen(top_bar=top, content=content, bottom=self.bar(tab))

    def post_screen(self, post_id: int) -> Screen:
        p = self.data.posts[post_id]
        comments = sorted((c for c in self.data.comments if c.post == post_id),
                          key=lambda c: c.id)
        content: list[Node] = [
            Button(p.author, partial(self.open_user, p.author), id="author",
                   style="secondary"),
            Text(p.time, style="caption", id="post_time"),
            Text(p.text, id="post_body")]
        source = self.data.posts.get(p.repost_of) if p.repost_of else None
        if source is not None:
            content.append(ListItem(source.text, f"@{source.author}", id="source",
                                    on_click=partial(self.go, "post", source.id)))
        content += [
            Row([Icon("share", self.t("转发 {n}", n=p.reposts), partial(self.go, "repost",
                                                                        post_id), id="repost"),
                 Icon("♥" if p.liked else "♡", self.t("取消赞") if p.liked else self.t("赞"),
                      partial(toggle_like, self.data, post_id), id="like")], id="actions"),
            Text(self.t("转发 {r} · 评论 {c} · 赞 {l}", r=p.reposts, c=len(comments),
                        l=p.likes), style="caption", id="counts"),
            ListView([ListItem(c.author, c.text, id=f"comment_{c.id}", glyph=c.author[:1])
                      for c in comments], id="comments",
                     empty_text=self.t("还没有评论，快来抢沙发"))]
        return Screen(top_bar=TopBar(self.t("微博正文"), on_back=self.back), content=content,
                      dock=Column([TextField(self.ui.comment, lambda v: self.set_ui(comment=v),
                                             hint=self.t("写评论..."), id="comment",
                                             label=self.t("评论")),
                                   Button(self.t("发送"), partial(self.send_comment, post_id),
                                          id="send_comment")], id="comment_bar"))

    def repost_screen(self, post_id: int) -> Screen:
        p = self.data.posts[post_id]
        return Screen(top_bar=TopBar(self.t("转发微博"), on_back=self.back), content=[
            TextField(self.ui.repost, lambda v: self.set_ui(repost=v),
                      hint=self.t("说说分享心得..."), id="repost_text", label=self.t("转发理由"),
                      multiline=True),
            ListItem(p.text, f"@{p.author}", id="source"),
            Button(self.t("转发"), partial(self.send_repost, post_id), id="send_repost")])

    def compose(self) -> Screen:
        return Screen(top_bar=TopBar(self.t("发微博"), on_back=self.back), content=[
            TextField(self.ui.draft, lambda v: self.set_ui(draft=v),
                      hint=self.t("分享新鲜事..."), id="post_text", label=self.t("微博内容"),
                      multiline=True),
            Text(self.t("用 #话题# 参与讨论"), style="caption", id="topic_hint"),
            Button(self.t("发送"), self.publish, id="send_post")])

    def profile(self, user_id: int) -> Screen:
        u = self.data.users[user_id]
        posts = [p for p in feed(self.data, "推荐") if p.author == u.name]
        return Screen(top_bar=TopBar(u.name, on_back=self.back), content=[
            Text(u.name, style="title", id="user_name"),
            Text(u.bio, id="user_bio"),
            Text(self.t("粉丝 {n}", n=heat_text(u.followers)), id="user_followers"),
            Button(self.t("已关注") if u.followed else self.t("+ 关注"),
                   partial(toggle_follow, self.data, user_id), id="follow",
                   style="secondary" if u.followed else "primary"),
            Text(self.t("微博（{n}）", n=len(posts)), style="title", id="posts_label"),
            ListView([self.post_row(p, "upost") for p in posts], id="user_posts",
                     empty_text=self.t("还没有发过微博"))])
