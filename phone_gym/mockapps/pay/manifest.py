"""The Pay app's manifest: a mobile wallet modelled on Alipay."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Pay",
    label="Alipay",
    package="com.eg.android.AlipayGphone",
    icon="payments", icon_shape="rounded",
    color=(22, 119, 255),
    description="A wallet: balance, paying a merchant by its code, transfers to contacts, "
                "red packets and the transaction history.",
    reads=("contacts", "wallet"),
    order=92,
)
