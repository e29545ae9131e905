"""The Hotel Booking mini-program's manifest (it runs inside Chat)."""

from __future__ import annotations

from ...world.manifest import AppManifest, mini_program

MANIFEST = AppManifest(
    name="Hotel",
    label="Hotel Booking",
    package="com.tencent.mm.miniprogram.hotel",
    labels={"zh-CN": "酒店预订"},
    icon="hotel",
    color=(0, 122, 204),
    reads=("wallet",),
    description="Search, filter and book hotels; pay with WeChat Pay.",
    order=61,
    locales=("zh-CN",),
    host="Chat",
    entry="Discover > Mini Programs",
    look=mini_program((0, 134, 246), title="Hotel Booking",
                      models="a hotel booking mini-program (Tongcheng)"),
)
