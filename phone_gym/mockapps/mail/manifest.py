"""The Mail app's manifest (a Gmail-like e-mail client)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Mail",
    label="Gmail",
    package="com.google.android.gm",
    labels={"zh-CN": "Gmail"},
    icon="mail",
    color=(234, 67, 53),
    intents=("android.intent.action.SENDTO", "android.intent.action.SEND"),
    deep_links=("mailto:",),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY, _DEFAULT_URIS)
    aliases=("GEmail", "Google Mail", "Google Email", "Google Mail Client", "Email"),
    description="E-mail: an inbox with Primary, Promotions and Social tabs, labels, search, "
                "reading, composing with attachments, replying, forwarding and the trash.",
    reads=("files", "contacts"),
    order=80,
    locales=("zh-CN",),
    look=AppLook(
        models="Gmail 2024",
        title="Primary",
        dark="system",
        light=make_palette((11, 87, 208), bg=(246, 248, 252), row_dividers=False),
        dark_palette=make_palette((168, 199, 250), dark=True, bg=(31, 31, 31), row_dividers=False),
        actions=("menu", "search", "account_circle"),
        navigation="drawer",
        row_leading="avatar",
        two_line=True,
        simplifies=(
            "the search pill is an app bar with icons",
            "the drawer has no Snoozed, Important, Spam or account switcher, and no \"new\" "
            "counts on Promotions and Social",
        ),
    ),
)
