"""News: a Google News-like reader. Headlines (Top stories and the World, Business, Tech
and Sports sections), an article page (save, hide the source), source and topic pages
(follow), search, and the Following tab (followed topics and sources, saved stories,
hidden sources).

Articles, topics and sources are the app's own data (``apps.News.<table>``); a section's
stories are newest first, and stories from hidden sources never show.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from ...world import pictures
from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import BottomSheet, ConfirmDialog, Tabs
from ...world.kit.localize import in_locale
from ...world.locale import DEFAULT_LOCALE
from ...world.widgets import (
    Button,
    Icon,
    ListItem,
    Node,
    Screen,
    Tab,
    TabBar,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

SECTIONS = ("Top stories", "World", "Business", "Tech", "Sports")


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Article:
    id: int
    headline: str
    source: str
    section: str
    hours: int  # hours since it was published
    body: str = ""
    top: int = 0  # rank among the top stories (0: not one)
    saved: bool = False


@dataclass(frozen=True)
class Topic:
    id: int
    name: str
    followed: bool = False


@dataclass(frozen=True)
class Source:
    id: int
    name: str
    followed: bool = False
    hidden: bool = False


@dataclass
class NewsData(Store):
    articles: Table[Article] = field(default_factory=lambda: Table(kind=Article))
    topics: Table[Topic] = field(default_factory=lambda: Table(kind=Topic))
    sources: Table[Source] = field(default_factory=lambda: Table(kind=Source))


@dataclass
class NewsUi:
    section: str = "Top stories"
    query: str = ""
    menu: bool = False  # the article's or source's menu is open
    hiding: str = ""  # the source whose hide confirmation shows


# --- helpers -------------------------------------------------------------------------------
def age_text(hours: int, locale: str = DEFAULT_LOCALE) -> str:
    """How long ago a story was published: "5h ago", "2d ago" (zh-CN: "5小时前", "2天前")."""
    if locale == "zh-CN":
        return f"{hours}小时前" if hours < 24 else f"{hours // 24}天前"
    return f"{hours}h ago" if hours < 24 else f"{hours // 24}d ago"


def hidden(data: NewsData) -> set[str]:
    return {s.name for s in data.sources if s.hidden}


def section_stories(data: NewsData, section: str) -> list[Article]:
    """A section's stories, newest first (Top stories: by rank), without hidden sources."""
    gone = hidden(data)
    if section == "Top stories":
        return sorted((a for a in data.articles if a.top and a.source not in gone),
                      key=lambda a: a.top)
    return sorted((a for a in data.articles if a.section == section and a.source not in gone),
                  key=lambda a: (a.hours, a.id))


def search_all(data: NewsData, query: str) -> tuple[list[Topic], list[Source], list[Article]]:
    q = query.strip().lower()
    if not q:
        return [], [], []
    gone = hidden(data)
    return ([t for t in data.topics if q in t.name.lower()],
            [s for s in data.sources if q in s.name.lower()],
            sorted((a for a in data.articles if q in a.headline.lower()
                    and a.source not in gone), key=lambda a: (a.hours, a.id)))


# --- the app -------------------------------------------------------------------------------
class NewsApp(App):
    manifest = MANIFEST

    data: NewsData
    ui: NewsUi

    def initial_data(self) -> NewsData:
        return NewsData()

    def initial_ui(self) -> NewsUi:
        return NewsUi()

    def set_ui(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def tab(self, name: str) -> None:
        self.stack[:] = [Route(name)]

    def toggle_saved(self, article_id: int) -> None:
        a = self.data.articles.get(article_id)
        if a is not None:
            self.data.articles.update(article_id, saved=not a.saved)
            self.toast(self.t("Removed from saved stories" if a.saved else "Saved"))

    def set_source(self, name: str, **changes: object) -> None:
        s = self.data.sources.first(name=name)
        if s is not None:
            self.data.sources.update(s.id, **changes)
        self.ui.menu, self.ui.hiding = False, ""

    def toggle_topic(self, name: str) -> None:
        t = self.data.topics.first(name=name)
        if t is not None:
            self.data.topics.update(t.id, followed=not t.followed)

    def follow_label(self, followed: bool) -> str:
        """The follow button's text: "Following" / "Follow" (zh-CN: 已关注 / 关注; the tab
        "Following" is 关注 there, so the button's state has its own key)."""
        if not followed:
            return "Follow"
        return "Following" if self.system.locale == DEFAULT_LOCALE else self.t("Following (on)")

    def ask_hide(self, name: str) -> None:
        self.ui.menu, self.ui.hiding = False, name

    # views
    def view(self, route: Route) -> Screen:
        screen = self.screen(route)
        return in_locale(self, screen)

    def screen(self, route: Route) -> Screen:
        if route.name == "article":
            return self.article_page(route.arg)
        if route.name == "source":
            return self.source_page(route.arg)
        if route.name == "topic":
            return self.topic_page(route.arg)
        pages = {"search": self.search_page, "following": self.following_page}
        return pages.get(route.name, self.headlines)()

    def bottom(self, current: str) -> Node:
        return TabBar([Tab(label, current == name, partial(self.tab, name), id=f"nav_{name}")
                       for name, label in (("main", "Headlines"), ("following", "Following"))])

    def story_row(self, a: Article, prefix: str = "story") -> Node:
        return ListItem(a.headline, id=f"{prefix}_{a.id}", glyph=a.source[:1],
                        picture=pictures.encode("landscape", pictures.seed_of(a.headline)),
                        on_click=partial(self.go, "article", a.id),
                        parts=[(f"source_{a.id}", a.source),
                               (f"time_{a.id}", age_text(a.hours, self.system.locale))])

    def stories(self, rows: list[Article], list_id: str, empty: str) -> Node:
        return VirtualList(len(rows), lambda i: self.story_row(rows[i]), id=list_id,
                           empty_text=empty)

    def dialog(self) -> Node | None:
        if not self.ui.hiding:
            return None
        name = self.ui.hiding
        return ConfirmDialog(self.t("Hide all stories from {source}?", source=name),
                             "You won't see stories from this source in your feeds.",
                             confirm="Hide", destructive=True,
                             on_confirm=partial(self.set_source, name, hidden=True),
                             on_cancel=partial(self.set_ui, hiding=""))

    def headlines(self) -> Screen:
        rows = section_stories(self.data, self.ui.section)
        return Screen(top_bar=TopBar("Headlines", actions=[
            Icon("🔍", "Search", partial(self.go, "search"), id="search_button")]),
            content=[Tabs(SECTIONS, self.ui.section, lambda s: self.set_ui(section=s),
                          id="sections"),
                     self.stories(rows, "headlines", "No stories right now")],
            bottom=self.bottom("main"))

    def article_page(self, article_id: int) -> Screen:
        a = self.data.articles.get(article_id)
        if a is None:
            return Screen(top_bar=TopBar("Story", on_back=self.back),
                          content=[Text("Story unavailable", id="empty")])
        dialog = self.dialog()
        if dialog is None and self.ui.menu:
            dialog = BottomSheet(a.source, [
                (self.t("Go to {source}", source=a.source),
                 partial(self.open_source, a.source)),
                (self.t("Hide all stories from {source}", source=a.source),
                 partial(self.ask_hide, a.source)),
            ])
        return Screen(
            top_bar=TopBar(a.source, on_back=self.back, actions=[
                Icon("🔖", "Remove from saved" if a.saved else "Save",
                     partial(self.toggle_saved, a.id), id="save"),
                Icon("⋮", "More options", partial(self.set_ui, menu=True), id="more")]),
            content=[Text(a.headline, style="title", id="headline"),
                     ListItem(a.source, self.t("{section} · {age}", section=self.t(a.section),
                                                      age=age_text(a.hours, self.system.locale)),
                              id="source",
                              glyph=a.source[:1], on_click=partial(self.go, "source", a.source)),
                     Text(a.body, id="body")],
            dialog=dialog, on_dismiss=partial(self.set_ui, menu=False, hiding=""))

    def open_source(self, name: str) -> None:
        self.ui.menu = False
        self.go("source", name)

    def source_page(self, name: str) -> Screen:
        s = self.data.sources.first(name=name)
        if s is None:
            return Screen(top_bar=TopBar(name, on_back=self.back),
                          content=[Text("Source unavailable", id="empty")])
        rows = sorted((a for a in self.data.articles if a.source == name),
                      key=lambda a: (a.hours, a.id)) if not s.hidden else []
        if s.hidden:
            main = Button("Unhide", partial(self.set_source, name, hidden=False), id="unhide",
                          style="secondary")
        else:
            main = Button(self.follow_label(s.followed),
                          partial(self.set_source, name, followed=not s.followed), id="follow",
                          style="secondary" if s.followed else "primary")
        dialog = self.dialog()
        if dialog is None and self.ui.menu:
            dialog = BottomSheet(name, [(self.t("Hide all stories from {source}", source=name),
                                         partial(self.ask_hide, name))])
        return Screen(
            top_bar=TopBar(name, on_back=self.back, actions=[
                Icon("⋮", "More options", partial(self.set_ui, menu=True), id="more")]),
            content=[main, Text("Hidden" if s.hidden else "", style="caption", id="state"),
                     self.stories(rows, "source_stories", "No stories")],
            dialog=dialog, on_dismiss=partial(self.set_ui, menu=False, hiding=""))

    def topic_page(self, name: str) -> Screen:
        t = self.data.topics.first(name=name)
        gone = hidden(self.data)
        rows = sorted((a for a in self.data.articles if name.lower() in a.headline.lower()
                       and a.source not in gone), key=lambda a: (a.hours, a.id))
        followed = t is not None and t.followed
        return Screen(top_bar=TopBar(name, on_back=self.back), content=[
            Button(self.follow_label(followed), partial(self.toggle_topic, name),
                   id="follow", style="secondary" if followed else "primary"),
            self.stories(rows, "topic_stories", "No stories")])

    def search_page(self) -> Screen:
        topics, sources, rows = search_all(self.data, self.ui.query)
        content: list[Node] = [TextField(self.ui.query, partial(self.set_query), id="search",
                                         label="Search", hint="Search for topics, sources "
                                         "and stories")]
        content += [ListItem(t.name, "Topic", id=f"topic_{t.id}", glyph="#",
                             on_click=partial(self.go, "topic", t.name)) for t in topics]
        content += [ListItem(s.name, "Source", id=f"source_{s.id}", glyph=s.name[:1],
                             on_click=partial(self.go, "source", s.name)) for s in sources]
        empty = (self.t('No results for "{value}"', value=self.ui.query.strip())
                 if self.ui.query.strip() else "")
        content.append(self.stories(rows, "results", empty or "Search Google News"))
        return Screen(top_bar=TopBar("Search", on_back=self.back), content=content)

    def set_query(self, value: str) -> None:
        self.ui.query = value

    def following_page(self) -> Screen:
        data = self.data
        rows: list[Node] = [Text("Topics", style="title", id="topics_header")]
        rows += [ListItem(t.name, "Topic", id=f"followed_topic_{t.id}",
                          on_click=partial(self.go, "topic", t.name))
                 for t in data.topics if t.followed]
        rows.append(Text("Sources", style="title", id="sources_header"))
        rows += [ListItem(s.name, "Source", id=f"followed_source_{s.id}",
                          on_click=partial(self.go, "source", s.name))
                 for s in data.sources if s.followed]
        rows.append(Text("Saved stories", style="title", id="saved_header"))
        rows += [self.story_row(a, "saved") for a in data.articles if a.saved]
        rows.append(Text("Hidden sources", style="title", id="hidden_header"))
        rows += [ListItem(s.name, "Hidden", id=f"hidden_source_{s.id}",
                          on_click=partial(self.go, "source", s.name))
                 for s in data.sources if s.hidden]
        return Screen(top_bar=TopBar("Following"), content=rows, bottom=self.bottom("following"))
