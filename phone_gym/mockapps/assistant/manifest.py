"""The Yuanbao app's manifest: a 元宝-like AI assistant (Chinese UI and content)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

#: Yuanbao's accent green-teal.
GREEN = (32, 178, 120)

MANIFEST = AppManifest(
    name="Yuanbao",
    label="元宝",
    package="com.tencent.hunyuan.app.chat",
    icon="smart_toy",
    color=GREEN,
    aliases=("Yuanbao", "腾讯元宝"),
    reads=("clipboard",),
    description="An AI assistant chat as in Tencent Yuanbao: replies generated "
                "deterministically from the prompt (leave requests, notices, wishes), with "
                "copy and share to WeChat.",
    order=151,
    locales=("zh-CN",),
    look=AppLook(
        models="腾讯元宝 (Tencent Yuanbao) 2.x",
        title="元宝",
        light=make_palette(GREEN, bg=(247, 248, 250), title_align="center"),
        actions=("history", "add_circle"),
        navigation="none",
        simplifies=("replies are templates filled from the prompt, not a language model; "
                    "no voice input, image upload or model picker",),
    ),
)
