"""携程旅行 (Ctrip)'s manifest: a travel app (Chinese UI and content): hotels, train
tickets and orders."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

#: Ctrip's brand blue (#0086F6, the 携程旅行 search buttons and tab bar).
BLUE = (0, 134, 246)

MANIFEST = AppManifest(
    name="Ctrip",
    label="携程旅行",
    package="ctrip.android.view",
    icon="luggage",
    color=BLUE,
    aliases=("Ctrip", "Trip.com", "携程"),
    description="Travel as in 携程旅行 (Ctrip): 酒店 search by city and dates with 价格, 距离 "
                "and 星级 filters, room types and booking; 火车票 between stations by date "
                "with seat classes; 订单.",
    order=170,
    locales=("zh-CN",),
    look=AppLook(
        models="携程旅行 (Ctrip) 8.x",
        title="携程旅行",
        light=make_palette(BLUE, bg=(245, 246, 248), title_align="left"),
        actions=(),
        navigation="bottom_bar",
        nav_items=("首页", "行程", "我的"),
        nav_icons=("home", "list", "person"),
        row_leading="icon",
        two_line=True,
        simplifies=("no 机票, 门票 or 攻略; payment is a confirmation of the order's amount "
                    "(no card form)",),
    ),
)
