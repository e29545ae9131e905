"""The Phone app's manifest (modelled on Google's dialer): it shows and adds to the shared
call log, and reads the contacts."""

from __future__ import annotations

from ...world.manifest import AppManifest, material_you

MANIFEST = AppManifest(
    name="Phone",
    package="com.google.android.dialer",
    labels={"zh-CN": "电话"},
    icon="call",
    color=(52, 168, 83),
    intents=("android.intent.action.DIAL",),
    deep_links=("tel:",),
    reads=("calls", "contacts"),
    aliases=("Dialer", "Phone app"),
    description="A dialer: a keypad, the call log (recents) and the contacts; a call adds "
                "an outgoing entry to the call log.",
    order=5,
    locales=("zh-CN",),
    look=material_you(
        (11, 87, 208), models="Google Phone (Pixel, Android 14)", title="",
        navigation="bottom_bar",
        nav_items=("Favorites", "Recents", "Contacts"),
        actions=("search", "more_vert"),
        row_leading="avatar",
        two_line=True,
        simplifies=(
            "the keypad is a bottom-bar destination, not a FAB; no Favorites or search bar",
        ),
    ),
)
