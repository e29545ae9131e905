"""The Expense app's manifest: an expense tracker modelled on Pro Expense (AndroidWorld's)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Expense",
    label="Pro Expense",
    package="com.arduia.expense",
    labels={"zh-CN": "记账"},
    icon="account_balance_wallet",
    color=(0, 137, 123),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Pro Expense App",),
    description="Expenses: a list by date, expense pages, an editor with categories, and "
                "deleting one expense or a selection.",
    order=60,
    locales=("zh-CN",),
    look=AppLook(
        models="Pro Expense 1.x",
        title="Expense Logs",  # the title of the real Expense Logs screen the mock shows
        dark="dark",
        light=make_palette((2, 136, 209), bar="colored"),
        dark_palette=make_palette((79, 195, 247), dark=True, bg=(43, 43, 43), bar=(33, 33, 33),
                                  status=(0, 0, 0)),
        actions=("filter_list",),
        navigation="drawer",
        row_leading="icon",
        two_line=True,
        simplifies=(
            "categories are letters in discs, not icons",
            "the drawer holds Expense Logs only: no Home dashboard with totals and the weekly "
            "chart, no Statistics, Backup or Settings",
        ),
    ),
)
