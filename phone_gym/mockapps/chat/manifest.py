"""The Chat app's manifest: WeChat, the super-app that hosts mini-programs."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

MANIFEST = AppManifest(
    name="Chat",
    label="WeChat",
    package="com.tencent.mm",
    labels={"zh-CN": "微信"},
    icon="forum", icon_shape="rounded",
    color=(7, 193, 96),
    reads=("wallet",),
    description="Chats, contacts, Moments, mini-programs and a wallet, as in WeChat.",
    order=6,
    locales=("zh-CN",),
    look=AppLook(
        models="WeChat 8.0",
        title="WeChat",
        dark="system",
        light=make_palette((7, 193, 96), bg=(237, 237, 237), title_align="center"),
        dark_palette=make_palette((7, 193, 96), dark=True, bg=(17, 17, 17), bar=(25, 25, 25),
                                  title_align="center"),
        actions=("search", "add_circle"),
        navigation="bottom_bar",
        nav_items=("Chats", "Contacts", "Discover", "Me"),
        nav_style="wechat",
        row_leading="avatar",
        two_line=True,
        simplifies=("bottom-bar icons are Material icons, not WeChat's outlined ones",),
    ),
)
