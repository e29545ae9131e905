"""Public fixtures of 微博 (Weibo): users, posts (each about one subject, under a #话题#),
comments, the 热搜 list, the vocabulary they are drawn from, and the oracle steps other
tasks reuse."""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.vocab import distinct_ints, pick
from .app import ME, Post, User, WeiboApp

USERS = "apps.Weibo.users"
POSTS = "apps.Weibo.posts"
COMMENTS = "apps.Weibo.comments"
HOT = "apps.Weibo.hot"
#: Users: (name, bio).
USER_POOL: tuple[tuple[str, str], ...] = (
    ("旅行博主小鹿", "用脚步丈量世界"), ("美食家老王", "吃遍大街小巷"),
    ("科技前沿观察", "关注数码与互联网"), ("跑步的阿飞", "每天五公里"),
    ("读书笔记君", "一年读一百本书"), ("萌宠日记", "家有两猫一狗"),
    ("城市摄影师", "记录城市的光影"), ("职场小百科", "打工人的成长指南"),
)
#: 热搜 topics; each post sits under one (its subject named in its text).
HOT_TOPICS = ("国庆出游", "新款手机发布", "双十一预售", "秋季养生", "马拉松报名",
              "演唱会抢票", "高铁新线开通", "月饼口味大赏", "考研倒计时", "宠物过冬")
SUBJECTS = ("西湖断桥", "折叠屏手机", "扫地机器人", "银耳羹", "城市半马", "周杰伦演唱会",
            "川藏铁路", "流心奶黄月饼", "英语作文模板", "猫咪保暖窝", "故宫角楼", "降噪耳机")
POST_TEXTS = ("#{topic}# 今天聊聊{s}，大家怎么看？", "#{topic}# {s}真的太绝了！",
              "#{topic}# 关于{s}，说几句心里话", "#{topic}# 终于体验了{s}，分享一下")
COMMENT_TEXTS = ("说得太对了", "转发支持", "哈哈哈哈", "学到了", "同款", "mark一下")


def weibo_app(state: Any) -> WeiboApp:
    app = state.app("Weibo")
    assert isinstance(app, WeiboApp)
    return app


def sample_world(rng: np.random.Generator, k: int = 6) -> dict[str, Any]:
    """Four users, ``k`` posts of distinct subjects (``author``: a user's index) and eight
    热搜 topics of distinct heat (``hot``, in the order written, not ranked), as plain data
    (``write_world`` writes them)."""
    users = [{"name": n, "bio": b, "followers": int(f)} for (n, b), f in zip(
        pick(rng, USER_POOL, 4), rng.integers(2000, 900000, 4), strict=True)]
    topics = list(pick(rng, HOT_TOPICS, 8))
    heats = distinct_ints(rng, 20000, 5000000, 8)
    hot = [{"title": t, "heat": int(h)} for t, h in zip(topics, heats, strict=True)]
    likes = distinct_ints(rng, 10, 9000, k)
    posts = []
    for s, n in zip(pick(rng, SUBJECTS, k), likes, strict=True):
        topic = pick(rng, topics)
        posts.append({"subject": s, "topic": topic, "author": int(rng.integers(4)),
                      "text": pick(rng, POST_TEXTS).format(topic=topic, s=s),
                      "likes": int(n), "reposts": int(n) // 7,
                      "time": f"{int(rng.integers(8, 12)):02d}:{int(rng.integers(60)):02d}"})
    return {"users": users, "posts": posts, "hot": hot}


def ranks(plan: Mapping[str, Any]) -> dict[str, int]:
    """The 热搜 rank of each topic of ``plan`` (1: the hottest)."""
    order = sorted(plan["hot"], key=lambda h: -h["heat"])
    return {h["title"]: i for i, h in enumerate(order, start=1)}


def write_world(state: Any, plan: Mapping[str, Any]) -> tuple[list[User], list[Post]]:
    """The users, posts and 热搜 of ``plan`` (``sample_world``), in that order."""
    data = weibo_app(state).data
    users = [data.users.new(name=u["name"], bio=u["bio"], followers=u["followers"],
                            followed=u.get("followed", False)) for u in plan["users"]]
    posts = [data.posts.new(author=users[p["author"]].name, text=p["text"], topic=p["topic"],
                            time=p["time"], likes=p["likes"], reposts=p["reposts"])
             for p in plan["posts"]]
    for h in plan["hot"]:
        data.hot.new(title=h["title"], heat=h["heat"])
    return users, posts


def add_comment(state: Any, post: Post, author: str, text: str) -> None:
    weibo_app(state).data.comments.new(post=post.id, author=author, text=text)


def to_tab(ui: Driver, tab: str) -> Iterator[PhoneAction]:
    """Launch 微博 and go back to its bottom bar, then open ``tab``."""
    yield from ui.open_app("Weibo")
    for _ in range(6):
        if ui.find(tab, kind="tab") is not None or ui.find(id="tab_home") is not None:
            break
        yield from ui.press("back")
        if ui.find(id="toolbar") is None:
            yield PhoneAction("open_app", app="Weibo")
    yield from ui.tap(id=TAB_IDS[tab])


TAB_IDS = {"首页": "tab_home", "发现": "tab_search", "我": "tab_person"}


def search(ui: Driver, query: str) -> Iterator[PhoneAction]:
    """Launch 微博 on 发现 and search ``query`` (the results listed)."""
    yield from to_tab(ui, "发现")
    yield from ui.fill("search", query)
    yield from ui.press("back")


def open_post(ui: Driver, subject: str) -> Iterator[PhoneAction]:
    """Search ``subject`` and open the post about it."""
    yield from search(ui, subject)
    row = next((e for e in ui.find_all() if e.short_id.startswith("result_")
                and subject in e.text), None)
    if row is None:
        raise OracleError(f"no post about {subject}")
    yield from ui.tap(id=row.short_id)


def hot_rank(ui: Driver, topic: str) -> Generator[PhoneAction, None, int]:
    """On 发现, scroll to the 热搜 row of ``topic`` and read its rank off the row (an
    ``OracleError`` when the topic is not listed)."""
    if not (yield from ui.seek(topic)):
        raise OracleError(f"{topic} is not on 热搜")
    row = next((e for e in ui.find_all(topic) if e.short_id.startswith("hot_")), None)
    if row is None:
        raise OracleError(f"{topic} is not on 热搜")
    return int(ui.must(id=row.short_id.replace("hot_", "rank_")).text)


__all__ = ["COMMENTS", "COMMENT_TEXTS", "HOT", "HOT_TOPICS", "ME", "POSTS", "SUBJECTS",
           "USERS", "USER_POOL", "add_comment", "hot_rank", "open_post", "ranks", "search",
           "sample_world", "to_tab", "weibo_app", "write_world"]
