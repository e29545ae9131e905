"""The Chat app's manifest: WeChat, the super-app that hosts mini-programs."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="Chat",
    label="WeChat",
    package="com.tencent.mm",
    icon="forum", icon_shape="rounded",
    color=(7, 193, 96),
    reads=("wallet",),
    description="Chats, contacts, Moments, mini-programs and a wallet, as in WeChat.",
    order=6,
)
