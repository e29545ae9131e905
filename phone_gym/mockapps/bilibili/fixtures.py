"""Public fixtures of 哔哩哔哩 (Bilibili): UP主 and their videos (title, plays, 弹幕,
likes...), the history, the coin balance, the vocabulary they are drawn from, and the
oracle steps other tasks reuse."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.vocab import pick
from .app import BiliApp, Up, Video, video_link

UPS = "apps.Bilibili.ups"
VIDEOS = "apps.Bilibili.videos"
COINS = "apps.Bilibili.coins"
#: UP主 and the titles of their videos (every title distinct).
CATALOGUE: dict[str, tuple[str, ...]] = {
    "老番茄": ("史上最难的游戏挑战", "和粉丝一起过年"),
    "何同学": ("我做了一个透明手机", "用一年时间拍的视频"),
    "罗翔说刑法": ("法律如何保护你的权利", "什么是正当防卫"),
    "李子柒": ("一年四季的蜂蜜", "做一顿年夜饭"),
    "影视飓风": ("8K摄影机开箱", "我们去了南极"),
    "半佛仙人": ("奶茶店为什么开不下去", "外卖平台的秘密"),
    "手工耿": ("造一个不会用的发明", "自制钢铁伞"),
    "中国国家地理": ("航拍新疆独库公路", "川西雪山日出"),
}
UP_NAMES = tuple(CATALOGUE)


def bili_app(state: Any) -> BiliApp:
    app = state.app("Bilibili")
    assert isinstance(app, BiliApp)
    return app


def sample_channel(rng: np.random.Generator, k: int = 4,
                   leave_out: Sequence[str] = ()) -> dict[str, Any]:
    """``k`` UP主 (not in ``leave_out``) with their two videos each, as plain data
    (``write_channel`` writes them): UP主 ids follow ``ups``, video ids ``videos``."""
    names = pick(rng, [n for n in UP_NAMES if n not in leave_out], k)
    ups = [{"name": str(n), "fans": int(rng.integers(2, 900)) * 1000 + int(rng.integers(1000))}
           for n in names]
    videos = []
    for i, n in enumerate(names):
        for title in CATALOGUE[str(n)]:
            views = int(rng.integers(5, 400)) * 1000 + int(rng.integers(1000))
            videos.append({"title": title, "up": i + 1, "views": views,
                           "danmaku": int(rng.integers(80, 9000)),
                           "likes": views // int(rng.integers(8, 20)),
                           "coins": views // int(rng.integers(20, 60)),
                           "favs": views // int(rng.integers(15, 40)),
                           "shares": views // int(rng.integers(100, 400))})
    order = [int(i) for i in rng.permutation(len(videos))]
    return {"ups": ups, "videos": [videos[i] for i in order],
            "coins": int(rng.integers(3, 40))}


def write_channel(state: Any, plan: Mapping[str, Any],
                  watched: Sequence[int] = ()) -> tuple[list[Up], list[Video]]:
    """The plan's UP主 and videos (ids in their order), the coin balance, and the history
    of the videos ``watched`` (1-based ids, oldest first)."""
    data = bili_app(state).data
    ups = [data.ups.new(name=u["name"], fans=u["fans"], followed=u.get("followed", False))
           for u in plan["ups"]]
    videos = [data.videos.new(**{k: v[k] for k in ("title", "up", "views", "danmaku", "likes",
                                                     "coins", "favs", "shares")},
                              later=v.get("later", False)) for v in plan["videos"]]
    data.coins = plan["coins"]
    data.history = tuple(watched)
    return ups, videos


TAB_IDS = {"首页": "tab_home", "动态": "tab_layers", "我的": "tab_person"}


def to_tab(ui: Driver, tab: str) -> Iterator[PhoneAction]:
    """Launch 哔哩哔哩 and go back to its bottom bar, then open ``tab``."""
    yield from ui.open_app("Bilibili")
    for _ in range(6):
        if ui.find(id=TAB_IDS[tab]) is not None and ui.find(id="dialog") is None:
            break
        yield from ui.press("back")
        if ui.find(id="toolbar") is None:  # backed out of the app: launch it again
            yield PhoneAction("open_app", app="Bilibili")
    yield from ui.tap(id=TAB_IDS[tab])


def search(ui: Driver, query: str) -> Iterator[PhoneAction]:
    """Launch 哔哩哔哩 on 首页 and search ``query`` (the results listed)."""
    yield from to_tab(ui, "首页")
    yield from ui.fill("search", query)
    yield from ui.press("back")


def open_video(ui: Driver, title: str) -> Iterator[PhoneAction]:
    """Search the video titled ``title`` and open its page."""
    yield from search(ui, title)
    card = next((e for e in ui.find_all() if e.short_id.startswith("video_")
                 and title in e.text), None)
    if card is None:
        raise OracleError(f"no video {title!r} listed")
    yield from ui.tap(id=card.short_id)


def open_space(ui: Driver, name: str) -> Iterator[PhoneAction]:
    """Search the UP主 ``name`` and open the space."""
    yield from search(ui, name)
    row = next((e for e in ui.find_all() if e.short_id.startswith("up_") and e.text == name),
               None)
    if row is None:
        raise OracleError(f"no UP主 {name!r} listed")
    yield from ui.tap(id=row.short_id)


def share_to(ui: Driver, chat: str) -> Iterator[PhoneAction]:
    """On a video's page: 分享 to the WeChat chat titled ``chat`` and send."""
    yield from ui.tap(id="share")
    yield from ui.tap(chat, kind="list_item")
    yield from ui.tap(id="button_send")


__all__ = ["CATALOGUE", "COINS", "UPS", "UP_NAMES", "VIDEOS", "bili_app",
           "open_space", "open_video", "sample_channel", "search", "share_to", "to_tab",
           "video_link", "write_channel"]
