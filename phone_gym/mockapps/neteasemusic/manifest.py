"""The NetEase Cloud Music app's manifest: a 网易云音乐-like music app (Chinese UI)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

#: NetEase Cloud Music's red (#EC4141).
RED = (236, 65, 65)

MANIFEST = AppManifest(
    name="NeteaseMusic",
    label="网易云音乐",
    package="com.netease.cloudmusic",
    icon="album",
    color=RED,
    aliases=("NetEase Cloud Music", "NeteaseMusic", "网易云"),
    description="Music as in NetEase Cloud Music: 发现 with search and songs (artist, "
                "album), a player (play/pause, next, progress, 歌词), 我喜欢的音乐, 新建歌单 "
                "and 收藏到歌单, comments, and followed artists.",
    order=155,
    locales=("zh-CN",),
    look=AppLook(
        models="网易云音乐 (NetEase Cloud Music) 9.x",
        title="发现",
        light=make_palette(RED, bg=(247, 247, 247), title_align="center"),
        actions=(),  # search is a field on 发现, not an app-bar action
        navigation="bottom_bar",
        nav_items=("发现", "我的", "关注"),
        nav_icons=("home", "person", "favorite"),
        row_leading="none",
        simplifies=("no audio, radio, podcasts, videos, VIP or downloads; progress moves "
                    "only when dragged; 关注 lists the artists of the library",),
    ),
)
