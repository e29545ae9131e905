"""The Bank app's manifest: a retail bank's app (accounts, transfers, payees, bills, cards)."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Bank",
    label="Bank",
    package="com.chase.sig.android",
    icon="account_balance", icon_shape="rounded",
    color=(17, 86, 160),
    description="A bank: accounts and transactions, transfers, payees, bills, scheduled "
                "payments and card controls, behind a PIN.",
    order=90,
)
