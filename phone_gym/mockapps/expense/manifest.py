"""The Expense app's manifest: an expense tracker modelled on Pro Expense (AndroidWorld's)."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Expense",
    label="Pro Expense",
    package="com.arduia.expense",
    icon="P",
    color=(0, 137, 123),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY)
    aliases=("Pro Expense App",),
    description="Expenses: a list by date, expense pages, an editor with categories, and "
                "deleting one expense or a selection.",
    order=60,
)
