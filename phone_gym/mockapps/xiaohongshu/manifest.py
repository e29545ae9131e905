"""The Xiaohongshu app's manifest: a 小红书-like lifestyle-notes app (Chinese UI and content)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

#: Xiaohongshu's brand red (#FF2442).
RED = (255, 36, 66)

MANIFEST = AppManifest(
    name="Xiaohongshu",
    label="小红书",
    package="com.xingin.xhs",
    icon="favorite",
    color=RED,
    aliases=("Xiaohongshu", "RED", "小红书笔记"),
    description="Lifestyle notes as in Xiaohongshu: a two-column feed of pictured notes, "
                "search, a note's page with 赞, 收藏 and comments, and 发布 a note.",
    order=154,
    locales=("zh-CN",),
    look=AppLook(
        models="小红书 (Xiaohongshu) 8.x",
        title="发现",
        light=make_palette(RED, bg=(255, 255, 255), title_align="center"),
        actions=(),  # search is a field on the first screen, not an app-bar action
        navigation="bottom_bar",
        nav_items=("首页", "发布", "我"),
        nav_icons=("home", "add_circle", "person"),
        row_leading="none",
        simplifies=("no videos, live streams, shopping or direct messages; a note has one "
                    "drawn picture; no following feed",),
    ),
)
