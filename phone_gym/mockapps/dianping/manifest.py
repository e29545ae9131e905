"""The Dianping app's manifest: a 大众点评-like restaurant-review app (Chinese UI and
content)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

#: Dianping's orange (#FF6633).
ORANGE = (255, 102, 51)

MANIFEST = AppManifest(
    name="Dianping",
    label="大众点评",
    package="com.dianping.v1",
    icon="rate_review",
    color=ORANGE,
    aliases=("Dianping", "点评", "Dazhong Dianping"),
    reads=("wallet",),
    description="Restaurants as in Dazhong Dianping: search shops with filters (距离, 人均 "
                "budget, 评分), a shop page with its rating, 人均, address and reviews, 收藏, "
                "写评价 with stars, and 团购 deals paid from the wallet.",
    order=177,
    locales=("zh-CN",),
    look=AppLook(
        models="大众点评 (Dazhong Dianping) 11.x",
        title="首页",
        light=make_palette(ORANGE, bg=(245, 245, 245), title_align="left"),
        actions=(),  # search is a field on 首页, not an app-bar action
        navigation="bottom_bar",
        nav_items=("首页", "收藏", "我的"),
        nav_icons=("home", "star", "person"),
        row_leading="icon",
        two_line=True,
        simplifies=("restaurants only: no hotels, beauty, 外卖 or booking a table; no photos "
                    "in reviews; a 团购 voucher is paid from the phone's wallet with a PIN",),
    ),
)
