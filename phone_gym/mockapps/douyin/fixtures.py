"""Public fixtures of 抖音 (Douyin): creators, videos by topic (each about one subject, named
in its caption), comments, the vocabulary they are drawn from, and the oracle steps other
tasks reuse."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.vocab import distinct_ints, pick
from .app import Creator, DouyinApp, Video, video_link

VIDEOS = "apps.Douyin.videos"
CREATORS = "apps.Douyin.creators"
COMMENTS = "apps.Douyin.comments"
#: Creators: (name, bio).
CREATOR_POOL: tuple[tuple[str, str], ...] = (
    ("厨房里的小王", "每天一道家常菜"), ("环球旅行家阿杰", "走遍中国的每一个角落"),
    ("橘猫胖虎", "一只爱吃的橘猫"), ("好物测评君", "只推荐真正好用的东西"),
    ("深夜食堂老李", "夜宵爱好者"), ("背包去远方", "穷游攻略分享"),
)
#: Topics: the subjects of their videos (each caption names its subject).
SUBJECTS: dict[str, tuple[str, ...]] = {
    "美食": ("红烧肉", "酸菜鱼", "手擀面", "糖醋排骨"),
    "旅行": ("稻城亚丁", "洱海骑行", "长白山天池", "鼓浪屿"),
    "萌宠": ("猫咪洗澡", "柯基赛跑", "仓鼠囤粮", "鹦鹉说话"),
    "好物": ("电动牙刷", "折叠自行车", "空气炸锅", "蓝牙音箱"),
}
CAPTIONS = ("{s}，一看就会", "第一次拍{s}，求点赞", "{s}真的绝了", "关于{s}你不知道的事")
COMMENTS_TEXT = ("太厉害了", "学到了", "已三连", "求教程", "笑死我了", "好想去")


def douyin_app(state: Any) -> DouyinApp:
    app = state.app("Douyin")
    assert isinstance(app, DouyinApp)
    return app


def sample_feed(rng: np.random.Generator, k: int = 6) -> dict[str, Any]:
    """Four creators and ``k`` videos as plain data (``write_feed`` writes them): videos of
    distinct subjects, each by one of the creators (``creator``: an index)."""
    creators = [{"name": n, "bio": b, "followers": int(f)} for (n, b), f in zip(
        pick(rng, CREATOR_POOL, 4), rng.integers(800, 90000, 4), strict=True)]
    pool = [(topic, s) for topic, subjects in SUBJECTS.items() for s in subjects]
    likes = distinct_ints(rng, 100, 50000, k)
    videos = [{"topic": topic, "subject": s,
               "caption": pick(rng, CAPTIONS).format(s=s) + f" #{topic}",
               "creator": int(rng.integers(4)), "likes": int(n), "collects": int(n) // 8,
               "shares": int(n) // 20}
              for (topic, s), n in zip(pick(rng, pool, k), likes, strict=True)]
    return {"creators": creators, "videos": videos}


def write_feed(state: Any, plan: Mapping[str, Any]) -> tuple[list[Creator], list[Video]]:
    """The creators and videos of ``plan`` (``sample_feed``), in that order."""
    data = douyin_app(state).data
    creators = [data.creators.new(name=c["name"], bio=c["bio"], followers=c["followers"],
                                  followed=c.get("followed", False))
                for c in plan["creators"]]
    videos = [data.videos.new(caption=v["caption"], creator=creators[v["creator"]].id,
                              topic=v["topic"], likes=v["likes"], collects=v["collects"],
                              shares=v["shares"]) for v in plan["videos"]]
    return creators, videos


def add_comment(state: Any, video: Video, author: str, text: str) -> None:
    douyin_app(state).data.comments.new(video=video.id, author=author, text=text)


def open_video(ui: Driver, subject: str) -> Iterator[PhoneAction]:
    """Launch 抖音, search ``subject`` and play the video about it."""
    yield from ui.open_app("Douyin")
    if ui.find(id="search_button") is None:
        yield from ui.tap("首页")
    yield from ui.tap(id="search_button")
    yield from ui.fill("query", subject)
    yield from ui.press("back")
    row = next((e for e in ui.find_all() if e.short_id.startswith("result_")
                and subject in e.text), None)
    if row is None:
        raise OracleError(f"no video about {subject}")
    yield from ui.tap(id=row.short_id)


__all__ = ["CAPTIONS", "COMMENTS", "COMMENTS_TEXT", "CREATORS", "CREATOR_POOL", "SUBJECTS",
           "VIDEOS", "add_comment", "douyin_app", "open_video", "sample_feed", "video_link",
           "write_feed"]
