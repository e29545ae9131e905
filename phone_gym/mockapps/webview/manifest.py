"""The WeChat Browser's manifest: the in-app web view of Chat (WeChat) where links open."""

from __future__ import annotations

from ...world.manifest import AppManifest, mini_program

MANIFEST = AppManifest(
    name="WebView",
    label="WeChat Browser",
    package="com.tencent.mm.webview",
    labels={"zh-CN": "浏览器"},
    icon="language",
    color=(87, 107, 149),
    reads=("clipboard",),
    description="Web pages opened from chats: articles, events, surveys and campaigns.",
    order=142,
    locales=("zh-CN",),
    host="Chat",
    entry="Discover > Mini Programs",
    look=mini_program((87, 107, 149), models="WeChat's in-app browser", title=""),
)
