"""The Clipper app's manifest: it reads and writes the system clipboard."""

from __future__ import annotations

from ...world.manifest import AppManifest, material_you

MANIFEST = AppManifest(
    name="Clipper",
    package="ca.zgrs.clipper",
    labels={"zh-CN": "剪贴板"},
    icon="content_paste",
    color=(121, 85, 72),
    reads=("clipboard",),
    description="Shows the clipboard and sets it to the text typed.",
    order=76,
    locales=("zh-CN",),
    look=material_you(
        (11, 87, 208), models="Clipper (ca.zgrs.clipper)", title="Clipper",
    ),
)
