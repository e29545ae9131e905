"""The News app's manifest (a Google News-like reader)."""

from __future__ import annotations

from ...world.manifest import AppManifest

MANIFEST = AppManifest(
    name="News",
    label="Google News",
    package="com.google.android.apps.magazines",
    icon="newspaper",
    color=(66, 133, 244),
    description="A news reader: top stories, sections, followed topics and sources, saved "
                "articles, an article page, search and hidden sources.",
    order=102,
)
