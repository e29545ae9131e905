"""The News app's manifest (a Google News-like reader)."""

from __future__ import annotations

from ...world.manifest import AppManifest, material_you

MANIFEST = AppManifest(
    name="News",
    label="Google News",
    package="com.google.android.apps.magazines",
    labels={"zh-CN": "谷歌新闻"},
    icon="newspaper",
    color=(66, 133, 244),
    description="A news reader: top stories, sections, followed topics and sources, saved "
                "articles, an article page, search and hidden sources.",
    order=102,
    locales=("zh-CN",),
    look=material_you(
        (11, 87, 208), models="Google News 5.x", title="Headlines",
        navigation="bottom_bar",
        nav_items=("For you", "Headlines", "Following", "Newsstand"),
        actions=("search", "account_circle"),
        row_leading="thumbnail",
        two_line=True,
        simplifies=("article pictures are coloured tiles",),
    ),
)
