"""The Contacts app's manifest: its data is the shared contacts provider."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Contacts",
    package="com.android.contacts",
    icon="person",
    color=(66, 133, 244),
    intents=("android.intent.action.INSERT", "android.intent.action.EDIT"),
    deep_links=("content://com.android.contacts/",),
    reads=("contacts",),
    description="The phone's address book: search, favorites, details, create and edit.",
    order=10,
)
