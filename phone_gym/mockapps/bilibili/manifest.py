"""The Bilibili app's manifest: a 哔哩哔哩-like video app (Chinese UI and content)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

#: Bilibili's pink (#FB7299).
PINK = (251, 114, 153)

MANIFEST = AppManifest(
    name="Bilibili",
    label="哔哩哔哩",
    package="tv.danmaku.bili",
    icon="smart_display",
    color=PINK,
    aliases=("Bilibili", "B站", "bilibili"),
    description="Videos as in Bilibili: 首页 推荐 as two-column pictured video cards and "
                "search, a video page with 点赞, 投币, 收藏, 分享 and the 弹幕 count, an UP主's "
                "space with 关注, 稍后再看 and 历史记录.",
    order=176,
    locales=("zh-CN",),
    look=AppLook(
        models="哔哩哔哩 (Bilibili) 7.x",
        title="首页",
        light=make_palette(PINK, bg=(244, 244, 244), title_align="left"),
        actions=(),  # search is a field on 首页, not an app-bar action
        navigation="bottom_bar",
        nav_items=("首页", "动态", "我的"),
        nav_icons=("home", "layers", "person"),
        row_leading="none",
        simplifies=("no playback, live, 番剧, 会员购 or messages; a video is its drawn cover "
                    "and counts; 投币 gives one coin; 分享 goes to WeChat chats only",),
    ),
)
