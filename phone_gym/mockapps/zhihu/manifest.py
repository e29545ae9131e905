"""The Zhihu app's manifest: a 知乎-like question-and-answer app (Chinese UI and content)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

#: Zhihu's blue (#1772F6, the logo, 赞同 and the selected tab).
BLUE = (23, 114, 246)

MANIFEST = AppManifest(
    name="Zhihu",
    label="知乎",
    package="com.zhihu.android",
    icon="question_answer",
    color=BLUE,
    aliases=("Zhihu", "知乎问答"),
    description="Questions and answers as in 知乎 (Zhihu): 推荐 and 热榜 feeds of questions, "
                "a question's answers sorted by 赞同, 赞同 and 收藏 an answer, 写回答, "
                "search, and 我的收藏.",
    order=163,
    locales=("zh-CN",),
    look=AppLook(
        models="知乎 (Zhihu) 10.x",
        title="首页",
        light=make_palette(BLUE, bg=(246, 246, 246), title_align="center"),
        actions=("search",),
        navigation="bottom_bar",
        nav_items=("首页", "我的"),
        nav_icons=("home", "person"),
        row_leading="none",
        simplifies=("no 想法, 视频, 会员 or 消息; the 热榜 ranks by a heat the fixtures "
                    "give; 反对 and comments are left out",),
    ),
)
