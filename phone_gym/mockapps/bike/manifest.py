"""The Bike & Parking mini-program's manifest (it runs inside Chat)."""

from __future__ import annotations

from ...world.manifest import AppManifest, mini_program

MANIFEST = AppManifest(
    name="Bike",
    label="Bike & Parking",
    package="com.tencent.mm.miniprogram.bike",
    labels={"zh-CN": "共享单车"},
    icon="pedal_bike",
    color=(255, 196, 0),
    reads=("wallet",),
    description="Shared bikes and e-bikes nearby, ride passes, car parks and parking fees.",
    order=138,
    locales=("zh-CN",),
    host="Chat",
    entry="Discover > Mini Programs",
    look=mini_program((255, 196, 0), models="Meituan Bike mini-program", title="Bike & Parking"),
)
