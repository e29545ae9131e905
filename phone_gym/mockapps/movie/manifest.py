"""The Movie Tickets mini-program's manifest (it runs inside Chat)."""

from __future__ import annotations

from ...world.manifest import AppManifest, mini_program

MANIFEST = AppManifest(
    name="Movie",
    label="Movie Tickets",
    package="com.tencent.mm.miniprogram.movie",
    labels={"zh-CN": "电影票"},
    icon="movie",
    color=(230, 57, 70),
    reads=("wallet",),
    description="Films now showing, cinemas, showtimes and seats; pay with WeChat Pay.",
    order=130,
    locales=("zh-CN",),
    host="Chat",
    entry="Discover > Mini Programs",
    look=mini_program((233, 30, 74), models="Maoyan Movies mini-program", title="Movie Tickets"),
)
