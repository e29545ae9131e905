"""The Mail app's manifest (a Gmail-like e-mail client)."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Mail",
    label="Gmail",
    package="com.google.android.gm",
    icon="✉",
    color=(234, 67, 53),
    intents=("android.intent.action.SENDTO", "android.intent.action.SEND"),
    deep_links=("mailto:",),
    # AndroidWorld's names (android_world/env/adb_utils.py _PATTERN_TO_ACTIVITY, _DEFAULT_URIS)
    aliases=("GEmail", "Google Mail", "Google Email", "Google Mail Client", "Email"),
    description="E-mail: an inbox with Primary, Promotions and Social tabs, labels, search, "
                "reading, composing with attachments, replying, forwarding and the trash.",
    reads=("files", "contacts"),
    order=80,
)
