"""The Utility Bills mini-program's manifest (it runs inside Chat)."""

from __future__ import annotations

from ...world.manifest import AppManifest, mini_program

MANIFEST = AppManifest(
    name="Bills",
    label="Utility Bills",
    package="com.tencent.mm.miniprogram.bills",
    labels={"zh-CN": "生活缴费"},
    icon="receipt_long",
    color=(0, 150, 110),
    reads=("wallet",),
    description="Pay electricity, water, gas and broadband bills, top up phones, auto-pay.",
    order=136,
    locales=("zh-CN",),
    host="Chat",
    entry="Discover > Mini Programs",
    look=mini_program((7, 193, 96), title="Utility Bills",
                      models="WeChat Pay living-expenses mini-program"),
)
