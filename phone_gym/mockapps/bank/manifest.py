"""The Bank app's manifest: a retail bank's app (accounts, transfers, payees, bills, cards)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Bank",
    label="Bank",
    package="com.chase.sig.android",
    labels={"zh-CN": "银行"},
    icon="account_balance", icon_shape="rounded",
    color=(17, 86, 160),
    description="A bank: accounts and transactions, transfers, payees, bills, scheduled "
                "payments and card controls, behind a PIN.",
    order=90,
    locales=("zh-CN",),
    look=AppLook(
        models="Chase Mobile 5.x",
        title="",
        dark="system",
        light=make_palette((17, 106, 198), bg=(244, 246, 248)),
        dark_palette=make_palette((92, 161, 237), dark=True),
        actions=("notifications", "account_circle"),
        navigation="bottom_bar",
        nav_items=("Accounts", "Pay & transfer", "Plan & track", "Offers & more"),
        two_line=True,
    ),
)
