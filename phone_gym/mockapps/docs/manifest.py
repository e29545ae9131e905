"""The TencentDocs app's manifest: a 腾讯文档-like documents app (Chinese UI and content)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

#: Tencent Docs' brand blue.
BLUE = (30, 111, 255)

MANIFEST = AppManifest(
    name="TencentDocs",
    label="腾讯文档",
    package="com.tencent.docs",
    icon="description",
    color=BLUE,
    aliases=("Tencent Docs",),
    description="Online documents as in Tencent Docs: recent and my documents, an editor, "
                "deleting, and sharing a document's link to a WeChat chat.",
    order=150,
    locales=("zh-CN",),
    look=AppLook(
        models="腾讯文档 (Tencent Docs) 3.x",
        title="腾讯文档",
        light=make_palette(BLUE, bg=(245, 246, 247), title_align="left"),
        actions=("add_circle",),
        navigation="bottom_bar",
        nav_items=("首页", "文档", "我的"),
        nav_icons=("home", "folder", "person"),
        row_leading="icon",
        two_line=True,
        simplifies=("no search, template shelf or collaborators' avatars; the editor "
                    "is plain text, not rich text",),
    ),
)
