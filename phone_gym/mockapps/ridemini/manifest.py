"""The Ride mini-program's manifest (in-chat ride hailing; it runs inside Chat)."""

from __future__ import annotations

from ...world.manifest import AppManifest, mini_program

MANIFEST = AppManifest(
    name="RideMini",
    label="Ride",
    package="com.tencent.mm.miniprogram.ride",
    labels={"zh-CN": "打车"},
    icon="local_taxi",
    color=(255, 120, 0),
    reads=("wallet",),
    description="Hail a car from WeChat: car types, price estimates, scheduled rides, coupons.",
    order=140,
    locales=("zh-CN",),
    host="Chat",
    entry="Discover > Mini Programs",
    look=mini_program((255, 116, 0), models="DiDi mini-program", title="Ride"),
)
