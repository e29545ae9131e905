"""The Taobao app's manifest: a 淘宝-like shopping app (Chinese UI and content)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

#: Taobao's brand orange (#FF5000).
ORANGE = (255, 80, 0)

MANIFEST = AppManifest(
    name="Taobao",
    label="淘宝",
    package="com.taobao.taobao",
    icon="shopping_bag",
    color=ORANGE,
    aliases=("Taobao", "手机淘宝"),
    reads=("wallet",),
    description="Shopping as in Taobao: search with results by sales or price, a product's "
                "page with its SKU choice, 收藏, the cart, buying with a payment "
                "confirmation, orders, and sharing a product's link to WeChat.",
    order=153,
    locales=("zh-CN",),
    look=AppLook(
        models="手机淘宝 (Taobao) 10.x",
        title="淘宝",
        light=make_palette(ORANGE, bg=(244, 244, 244), title_align="left"),
        actions=(),  # search is a field on the first screen, not an app-bar action
        navigation="bottom_bar",
        nav_items=("首页", "购物车", "我的淘宝"),
        nav_icons=("home", "shopping_cart", "person"),
        row_leading="icon",
        two_line=True,
        simplifies=("no live streams, 逛逛 video feed, coupons or seller chat; one SKU "
                    "dimension per product at one price; payment is the phone's wallet",),
    ),
)
