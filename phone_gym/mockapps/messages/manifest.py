"""The SMS Messenger app's manifest (modelled on Simple SMS Messenger): its data is the shared
SMS store (Telephony's ``content://sms``), and it shows the contacts' names."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Messages",
    label="SMS Messenger",
    package="com.simplemobiletools.smsmessenger",
    labels={"zh-CN": "短信"},
    icon="sms",
    color=(0, 150, 255),
    intents=("android.intent.action.SENDTO", "android.intent.action.SEND"),
    deep_links=("sms:", "smsto:"),
    reads=("messages", "contacts"),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY): Simple SMS
    aliases=("SMS", "Simple SMS Messenger", "Messaging", "Simple SMS"),
    description="Text messages: conversations by number, threads with a composer, new "
                "conversations, copy and forward.",
    order=8,
    locales=("zh-CN",),
    look=AppLook(
        models="Simple SMS Messenger 5.16",
        title="SMS Messenger",
        dark="dark",
        light=make_palette((246, 124, 1), bar="colored"),
        dark_palette=make_palette((246, 124, 1), dark=True, bg=(66, 66, 66), bar="colored",
                                  row_dividers=False),
        actions=("search", "settings", "more_vert"),
        row_leading="avatar",
        two_line=True,
        simplifies=("contact photos are letters in discs",),
    ),
)
