"""The Douyin app's manifest: a 抖音-like short-video app (Chinese UI and content)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

#: Douyin's accent red (#FE2C55, the like heart and the follow button) on black.
RED = (254, 44, 85)

MANIFEST = AppManifest(
    name="Douyin",
    label="抖音",
    package="com.ss.android.ugc.aweme",
    icon="music_video",
    color=(22, 24, 35),
    aliases=("Douyin", "TikTok China"),
    description="Short videos as in 抖音 (Douyin): a full-screen vertical feed that a swipe "
                "moves on, the 点赞/评论/收藏/分享 rail, creators' profiles with 关注, "
                "search, and sharing a video to a WeChat chat.",
    order=161,
    locales=("zh-CN",),
    look=AppLook(
        models="抖音 (Douyin) 30.x",
        title="推荐",
        dark="dark",
        light=make_palette(RED, dark=True, bg=(0, 0, 0), title_align="center",
                           row_dividers=False),
        dark_palette=make_palette(RED, dark=True, bg=(0, 0, 0), title_align="center",
                                  row_dividers=False),
        actions=("search",),
        navigation="bottom_bar",
        nav_items=("首页", "关注", "我"),
        nav_icons=("home", "favorite", "person"),
        row_leading="avatar",
        simplifies=("videos are still pictures; no live streams, 商城, 消息 or posting; "
                    "the comment list is a screen, not a half-height sheet",),
    ),
)
