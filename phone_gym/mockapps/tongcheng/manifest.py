"""The 同程旅行 (Tongcheng) mini-program's manifest (it runs inside Chat)."""

from __future__ import annotations

from ...world.manifest import AppManifest, mini_program

#: 同程旅行's blue (the mini-program's search buttons and price tags).
BLUE = (0, 119, 255)

MANIFEST = AppManifest(
    name="Tongcheng",
    label="同程旅行",
    package="com.tencent.mm.miniprogram.tongcheng",
    labels={"zh-CN": "同程旅行"},
    aliases=("Tongcheng", "LY.com", "同程"),
    icon="directions",
    color=BLUE,
    reads=("wallet",),
    description="Hotels and train tickets with budget and distance filters; pay with "
                "WeChat Pay.",
    order=63,
    locales=("zh-CN",),
    host="Chat",
    entry="Discover > Mini Programs",
    look=mini_program(BLUE, title="同程旅行",
                      models="同程旅行 WeChat mini-program (酒店, 火车票)"),
)
