"""The 瑞幸咖啡 (Luckin Coffee) mini-program's manifest: coffee to pick up, inside Chat."""

from __future__ import annotations

from ...world.manifest import AppManifest, mini_program

#: Luckin's brand blue (#1A2C8A).
BLUE = (26, 44, 138)

MANIFEST = AppManifest(
    name="Luckin",
    label="瑞幸咖啡",
    package="com.tencent.mm.miniprogram.luckin",
    labels={"zh-CN": "瑞幸咖啡"},
    icon="local_cafe",
    color=BLUE,
    aliases=("Luckin Coffee",),
    reads=("wallet",),
    description="到店自提：按分类点咖啡，选温度、糖度、杯型，用优惠券，凭取餐码取餐",
    order=166,
    locales=("zh-CN",),
    host="Chat",
    entry="Discover > Mini Programs",
    look=mini_program(
        BLUE, title="瑞幸咖啡", models="瑞幸咖啡 (Luckin Coffee) WeChat mini-program",
        navigation="bottom_bar", nav_items=("菜单", "购物车", "订单", "我的"),
        nav_icons=("menu", "shopping_cart", "list", "person"), two_line=True,
        simplifies=("pick-up only (no delivery); one coupon per order; no 会员, 咖啡钱包 or "
                    "gift cards",)),
)
