"""The Phone app's manifest (modelled on Google's dialer): it shows and adds to the shared
call log, and reads the contacts."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Phone",
    package="com.google.android.dialer",
    icon="📞",
    color=(26, 115, 232),
    intents=("android.intent.action.DIAL",),
    deep_links=("tel:",),
    reads=("calls", "contacts"),
    aliases=("Dialer", "Phone app"),
    description="A dialer: a keypad, the call log (recents) and the contacts; a call adds "
                "an outgoing entry to the call log.",
    order=5,
)
