"""The Train Tickets mini-program's manifest (it runs inside Chat)."""

from __future__ import annotations

from ...world.manifest import AppManifest, mini_program

MANIFEST = AppManifest(
    name="Train",
    label="Train Tickets",
    package="com.tencent.mm.miniprogram.train",
    labels={"zh-CN": "火车票"},
    icon="train",
    color=(0, 102, 178),
    reads=("wallet",),
    description="Search trains, pick a seat class, book for saved passengers and pay; "
                "refund tickets.",
    order=132,
    locales=("zh-CN",),
    host="Chat",
    entry="Discover > Mini Programs",
    look=mini_program((19, 99, 209), title="Train Tickets",
                      models="12306 rail tickets mini-program"),
)
