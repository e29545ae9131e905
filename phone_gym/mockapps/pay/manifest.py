"""The Pay app's manifest: a mobile wallet modelled on Alipay."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Pay",
    label="Alipay",
    package="com.eg.android.AlipayGphone",
    labels={"zh-CN": "支付宝"},
    icon="payments", icon_shape="rounded",
    color=(22, 119, 255),
    description="A wallet: balance, paying a merchant by its code, transfers to contacts, "
                "red packets and the transaction history.",
    reads=("contacts", "wallet"),
    order=92,
    locales=("zh-CN",),
    look=AppLook(
        models="Alipay 10.5",
        title="Alipay",
        dark="light",
        light=make_palette((22, 119, 255), bg=(245, 245, 245), bar="colored"),
        actions=("search", "qr_code_scanner", "add_circle"),
        navigation="bottom_bar",
        nav_items=("Home", "Wealth", "Video", "Messages", "Me"),
        row_leading="icon",
        simplifies=("the home grid is a column of buttons",),
    ),
)
