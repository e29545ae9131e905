"""The Contacts app's manifest: its data is the shared contacts provider."""

from __future__ import annotations

from ...world.manifest import AppManifest, material_you

MANIFEST = AppManifest(
    name="Contacts",
    package="com.android.contacts",
    labels={"zh-CN": "通讯录"},
    icon="person",
    color=(66, 133, 244),
    intents=("android.intent.action.INSERT", "android.intent.action.EDIT"),
    deep_links=("content://com.android.contacts/",),
    reads=("contacts",),
    description="The phone's address book: search, favorites, details, create and edit.",
    order=10,
    locales=("zh-CN",),
    look=material_you(
        (11, 87, 208), models="Google Contacts 4.x", title="",
        navigation="bottom_bar",
        nav_items=("Contacts", "Highlights", "Fix & manage"),
        actions=("search", "account_circle"),
        row_leading="avatar",
        simplifies=("bottom bar: Contacts, Favorites", "contact photos are letters in discs"),
    ),
)
