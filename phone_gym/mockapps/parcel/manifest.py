"""The Parcel Delivery mini-program's manifest (it runs inside Chat)."""

from __future__ import annotations

from ...world.manifest import AppManifest, mini_program

MANIFEST = AppManifest(
    name="Parcel",
    label="Parcel Delivery",
    package="com.tencent.mm.miniprogram.parcel",
    labels={"zh-CN": "快递"},
    icon="local_shipping",
    color=(230, 120, 20),
    reads=("wallet",),
    description="Track parcels, send one with a courier of your choice, redirect deliveries.",
    order=134,
    locales=("zh-CN",),
    host="Chat",
    entry="Discover > Mini Programs",
    look=mini_program((26, 26, 26), models="SF Express mini-program", title="Parcel Delivery"),
)
