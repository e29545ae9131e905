"""The SMS Messenger app's manifest (modelled on Simple SMS Messenger): its data is the shared
SMS store (Telephony's ``content://sms``), and it shows the contacts' names."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Messages",
    label="SMS Messenger",
    package="com.simplemobiletools.smsmessenger",
    icon="💬",
    color=(0, 150, 255),
    intents=("android.intent.action.SENDTO", "android.intent.action.SEND"),
    deep_links=("sms:", "smsto:"),
    reads=("messages", "contacts"),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY): Simple SMS
    aliases=("SMS", "Simple SMS Messenger", "Messaging", "Simple SMS"),
    description="Text messages: conversations by number, threads with a composer, new "
                "conversations, copy and forward.",
    order=8,
)
