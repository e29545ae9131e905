"""The 拼多多 (Pinduoduo) mini-program's manifest: group buying inside Chat (WeChat)."""

from __future__ import annotations

from ...world.manifest import AppManifest, mini_program

#: Pinduoduo's brand red (#E02E24).
RED = (224, 46, 36)

MANIFEST = AppManifest(
    name="Pinduoduo",
    label="拼多多",
    package="com.tencent.mm.miniprogram.pinduoduo",
    labels={"zh-CN": "拼多多"},
    icon="local_mall",
    color=RED,
    aliases=("PDD",),
    reads=("wallet",),
    description="拼着买更便宜：拼单价与单独购买价，发起拼单或参与拼单，微信支付",
    order=164,
    locales=("zh-CN",),
    host="Chat",
    entry="Discover > Mini Programs",
    look=mini_program(
        RED, title="拼多多", models="拼多多 (Pinduoduo) WeChat mini-program",
        navigation="bottom_bar", nav_items=("首页", "订单", "个人中心"),
        nav_icons=("home", "list", "person"), two_line=True,
        simplifies=("one piece per order, one saved address; no coupons, 百亿补贴, 砍一刀 "
                    "or chat with the shop; a group buy is complete when its last member "
                    "pays",)),
)
