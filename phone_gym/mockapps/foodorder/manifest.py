"""The Food Order mini-program's manifest (it runs inside Chat)."""

from __future__ import annotations

from ...world.manifest import AppManifest, mini_program

MANIFEST = AppManifest(
    name="FoodOrder",
    label="Food Order",
    package="com.tencent.mm.miniprogram.food",
    labels={"zh-CN": "点餐"},
    icon="restaurant",
    color=(255, 140, 0),
    reads=("wallet",),
    description="Order food from nearby restaurants; pay with WeChat Pay.",
    order=62,
    locales=("zh-CN",),
    host="Chat",
    entry="Discover > Mini Programs",
    look=mini_program((255, 105, 0), title="Food Order",
                      models="a restaurant ordering mini-program"),
)
