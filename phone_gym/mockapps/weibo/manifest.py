"""The Weibo app's manifest: a 微博-like microblog app (Chinese UI and content)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

#: Weibo's orange (#FF8200, the compose button and the selected tab).
ORANGE = (255, 130, 0)

MANIFEST = AppManifest(
    name="Weibo",
    label="微博",
    package="com.sina.weibo",
    icon="whatshot",
    color=(230, 22, 45),
    aliases=("Weibo", "Sina Weibo", "新浪微博"),
    description="A microblog as in 微博 (Weibo): a 首页 feed (关注/推荐) of posts, a post's "
                "detail with 转发/评论/赞, the 热搜 list with its ranks, 发微博 with a "
                "#话题#, search, and users' profiles with 关注.",
    order=162,
    locales=("zh-CN",),
    look=AppLook(
        models="微博 (Weibo) 14.x",
        title="首页",
        light=make_palette(ORANGE, bg=(242, 242, 242), title_align="center"),
        actions=("add",),  # 发微博, the + at the top right
        navigation="bottom_bar",
        nav_items=("首页", "发现", "我"),
        nav_icons=("home", "search", "person"),
        row_leading="avatar",
        simplifies=("no videos, 消息, pictures or 超话; 热搜 is one list of ranks and "
                    "heat; the counts of others' posts move only with the owner's taps",),
    ),
)
