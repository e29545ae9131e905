"""The Amap app's manifest: a 高德地图-like maps app (Chinese UI and content)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

#: Amap's brand blue (#0091FF, the search button and route line of 高德地图).
BLUE = (0, 145, 255)

MANIFEST = AppManifest(
    name="Amap",
    label="高德地图",
    package="com.autonavi.minimap",
    icon="near_me",
    color=BLUE,
    aliases=("Amap", "Gaode", "AutoNavi"),
    description="Maps as in 高德地图 (Amap): search a place on the city map, its card "
                "(address, distance, rating, 收藏, 路线) and route planning by 驾车, 公交, "
                "步行 or 骑行 with time and distance.",
    order=160,
    locales=("zh-CN",),
    look=AppLook(
        models="高德地图 (Amap) 13.x",
        title="高德地图",
        light=make_palette(BLUE, bg=(255, 255, 255), title_align="left"),
        actions=(),  # the search box floats over the map
        navigation="bottom_bar",
        nav_items=("首页", "附近", "我的"),
        nav_icons=("map", "my_location", "person"),
        row_leading="icon",
        two_line=True,
        simplifies=("no 打车, 消息 or live traffic; routes follow the street grid and "
                    "their time is distance over a fixed speed per mode",),
    ),
)
