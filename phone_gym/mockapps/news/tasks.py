"""News (Google News) tasks: follow a topic, save the latest story of a source in a
section, hide a source, look up a headline, and a two-stage follow-and-save."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import MAX_SCROLLS, Driver, OracleError
from ...tasks.families import EditRecord, Lookup
from ...tasks.task import Task, localize_data
from ...tasks.vocab import pick
from ...verifiers import Allow, Allowed, Criterion, Value
from ...world.app import app_strings
from .app import NewsApp
from .fixtures import (
    ARTICLES,
    DATA,
    HEADLINES,
    SOURCE_NAMES,
    SOURCES,
    TOPIC_NAMES,
    TOPICS_PATH,
    add_article,
    datum,
    locale_of,
    records,
    seed_directory,
    seed_stories,
)

SECTIONS = tuple(HEADLINES)


class NewsTask(Task):
    """A News template, in en-US and zh-CN (sources, topics and headlines in Chinese through
    ``strings/zh-CN.data.json``; the instruction names a section in the app's words).
    Templates built on these elsewhere run in en-US unless they declare their locales."""

    apps = ("News",)
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    data = DATA

    locales_stay_home = True

    def localize_params(self, params: dict[str, Any], table: Mapping[str, str]
                        ) -> dict[str, Any]:
        """The params in zh-CN's words; a section also as its tab shows it
        (``section_shown``: 科技), the one the instruction names and the oracle looks for."""
        p: dict[str, Any] = localize_data(params, table)
        if "section" in p:
            p["section_shown"] = app_strings(NewsApp, "zh-CN").t(p["section"])
        return p

    @staticmethod
    def label(ui: Driver, key: str, **fields: object) -> str:
        """The app's words for ``key`` in the phone's locale (what the screen shows)."""
        return app_strings(NewsApp, ui.locale).t(key, **fields)

    def search(self, ui: Driver, query: str) -> Iterator[PhoneAction]:
        yield from ui.open_app("News")
        yield from ui.tap(id="nav_main")
        yield from ui.tap(id="search_button")
        yield from ui.fill("search", query)

    @staticmethod
    def row(ui: Driver, text: str, prefix: str) -> str:
        """The id of the row showing ``text`` whose id starts with ``prefix`` (a topic, a
        source or a story in the search results)."""
        for e in ui.find_all(text, kind="list_item"):
            if e.short_id.startswith(prefix):
                return e.short_id
        raise OracleError(f"no {prefix.rstrip('_')} row {text!r} on screen")


class NewsFollowTopic(NewsTask, EditRecord):
    template = "Follow the topic {topic} in Google News."
    instructions = {"zh-CN": "在谷歌新闻里关注“{topic}”这个主题。"}
    collection = TOPICS_PATH
    complexity, max_steps = 1, 14

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"topic": pick(rng, TOPIC_NAMES)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_directory(state, rng, keep=[params["topic"]])
        seed_stories(state, rng)

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": p["topic"]}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"followed": True}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why(f"Searching Google News for the topic {p['topic']}")
        yield from self.search(ui, p["topic"])
        ui.why(f"The results list the topic {p['topic']}: opening it")
        yield from ui.tap(id=self.row(ui, p["topic"], "topic_"))
        if ui.must(id="follow").text == self.label(ui, "Follow"):
            ui.why(f"{p['topic']} is not followed yet: tapping Follow")
            yield from ui.tap(id="follow")
        ui.why(f"The topic page shows {p['topic']} as followed")
        yield from ui.finish()


class NewsHideSource(NewsTask, EditRecord):
    template = "I don't want to see stories from {source} any more: hide it in Google News."
    instructions = {"zh-CN": "我不想再看到{source}的报道了，请在谷歌新闻里隐藏这个来源。"}
    collection = SOURCES
    complexity, max_steps = 2, 16

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"source": pick(rng, SOURCE_NAMES)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_directory(state, rng, keep=[params["source"]])
        seed_stories(state, rng)

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": p["source"]}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"hidden": True}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why(f"Searching Google News for the source {p['source']}")
        yield from self.search(ui, p["source"])
        ui.why(f"The results list the source {p['source']}: opening its page")
        yield from ui.tap(id=self.row(ui, p["source"], "source_"))
        if ui.find(id="unhide") is None:
            ui.why(f"{p['source']} is not hidden yet: hiding it from the page's menu")
            yield from ui.tap(id="more")
            yield from ui.tap(self.label(ui, "Hide all stories from {source}",
                                         source=p["source"]), kind="list_item")
            yield from ui.tap(id="button_hide")
        ui.why(f"{p['source']} is hidden: its page offers Unhide")
        yield from ui.finish()


class SourceSection(NewsTask):
    """Stories where ``source`` wrote three in ``section`` (and a newer one elsewhere),
    among other sources' stories, some newer."""

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"source": pick(rng, SOURCE_NAMES), "section": pick(rng, SECTIONS)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_directory(state, rng, keep=[params["source"]])
        section = params["section"]
        locale = locale_of(state)
        mine = [datum(locale, h) for h in pick(rng, HEADLINES[section], 3)]
        other = pick(rng, [s for s in SECTIONS if s != section])
        elsewhere = datum(locale, pick(rng, HEADLINES[other]))
        seed_stories(state, rng, 2, avoid=[*mine, elsewhere], not_from=params["source"])
        hours = sorted(int(h) for h in rng.choice(np.arange(3, 60), 3, replace=False))
        for headline, h in zip(mine, hours, strict=True):
            add_article(state, headline, params["source"], section, h)
        add_article(state, elsewhere, params["source"], other, 1)

    def latest(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> str:
        rows = [(r["hours"], int(k), k) for k, r in records(initial, ARTICLES).items()
                if r["source"] == p["source"] and r["section"] == p["section"]]
        return min(rows)[2]

    def save_latest(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        source = p["source"]
        # the section as the instruction named it: the tab's word (zh-CN: 科技)
        section = p["section_shown"] if "section_shown" in p else p["section"]
        ui.why(f"Opening the {section} section of Google News: its stories are newest first")
        yield from ui.open_app("News")
        yield from ui.tap(id="nav_main")
        if "section_shown" in p:
            yield from ui.tap(section)
        else:
            yield from ui.tap(id=f"tab_{section.lower()}")
        ui.why(f"Looking down the {section} stories for the first one from {source}")
        for _ in range(MAX_SCROLLS):
            mine = [e for e in ui.find_all(source) if e.short_id.startswith("source_")
                    and ui.usable(e)]
            if mine:
                break
            before = [e.text for e in ui.elements()]
            yield PhoneAction("scroll", x=500, y=600, direction="down")
            if [e.text for e in ui.elements()] == before:
                raise OracleError(f"no {section} story from {source} in the list")
        # the list is newest first: of the rows from the source, the topmost is the latest
        first = min(mine, key=lambda e: e.bounds[1])
        story_id = "story_" + first.short_id.removeprefix("source_")
        age = ui.must(id="time_" + first.short_id.removeprefix("source_")).text
        headline = ui.must(id=story_id).text
        ui.why(f"The latest {section} story from {source} is “{headline}”, {age}: "
               "opening it")
        yield from ui.tap(id=story_id)
        if ui.must(id="save").content_desc == self.label(ui, "Save"):
            ui.why(f"“{headline}” is not saved yet: tapping Save")
            yield from ui.tap(id="save")


class NewsSaveLatestFromSource(SourceSection):
    template = "In Google News, save the latest {section} story from {source}."
    instructions = {"zh-CN": "在谷歌新闻里，把{source}在“{section_shown}”栏目中"
                             "最新的一篇报道保存下来。"}
    complexity, max_steps = 2, 14

    def criteria(self, params: Mapping[str, Any], initial: Mapping[str, Any]
                 ) -> Sequence[Criterion]:
        return [Value(f"{ARTICLES}.{self.latest(params, initial)}.saved", True)]

    def allowed(self, params: Mapping[str, Any], initial: Mapping[str, Any]
                ) -> Sequence[Allowed]:
        return [Allow(ARTICLES, "modified", key=self.latest(params, initial),
                      fields=("saved",))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.save_latest(ui, p)
        yield from ui.finish()


class NewsFollowSourceAndSave(SourceSection):
    template = ("In Google News, save the latest {section} story from {source}, then follow "
                "{source}.")
    instructions = {"zh-CN": "在谷歌新闻里，把{source}在“{section_shown}”栏目中"
                             "最新的一篇报道保存下来，然后关注{source}。"}
    complexity, max_steps = 3, 20

    def source_key(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> str:
        return next(k for k, r in records(initial, SOURCES).items() if r["name"] == p["source"])

    def criteria(self, params: Mapping[str, Any], initial: Mapping[str, Any]
                 ) -> Sequence[Criterion]:
        return [Value(f"{ARTICLES}.{self.latest(params, initial)}.saved", True),
                Value(f"{SOURCES}.{self.source_key(params, initial)}.followed", True)]

    def allowed(self, params: Mapping[str, Any], initial: Mapping[str, Any]
                ) -> Sequence[Allowed]:
        return [Allow(ARTICLES, "modified", key=self.latest(params, initial),
                      fields=("saved",)),
                Allow(SOURCES, "modified", key=self.source_key(params, initial),
                      fields=("followed",))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.save_latest(ui, p)
        ui.why(f"The story is saved; opening {p['source']}'s page from it to follow it")
        yield from ui.tap(id="source")
        if ui.must(id="follow").text == self.label(ui, "Follow"):
            ui.why(f"{p['source']} is not followed yet: tapping Follow")
            yield from ui.tap(id="follow")
        ui.why(f"The story is saved and {p['source']} followed")
        yield from ui.finish()


class NewsTopTechHeadline(NewsTask, Lookup):
    template = "What is the headline of the top story in the Tech section of Google News?"
    instructions = {"zh-CN": "谷歌新闻“科技”栏目里排在最前面的那篇报道，标题是什么？"}
    answer_type = "text"
    complexity, max_steps = 1, 10

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"headline": pick(rng, HEADLINES["Tech"]), "source": pick(rng, SOURCE_NAMES)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_directory(state, rng)
        seed_stories(state, rng, 3, avoid=[params["headline"]], newest=2)
        add_article(state, params["headline"], params["source"], "Tech", 1)

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["headline"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [r["headline"] for r in records(initial, ARTICLES).values()]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why("Opening the Tech section of Google News to read its top story")
        yield from ui.open_app("News")
        yield from ui.tap(id="nav_main")
        yield from ui.tap(id="tab_tech")
        rows = [e for e in ui.find_all(kind="list_item") if e.short_id.startswith("story_")]
        if not rows:
            raise OracleError("the Tech section shows no stories")
        top = min(rows, key=lambda e: e.bounds[1]).text
        ui.why(f"The first story in Tech is “{top}”")
        yield from ui.answer(top)


class NewsStorySource(NewsTask, Lookup):
    template = 'Which source published the story "{headline}" in Google News?'
    instructions = {"zh-CN": "谷歌新闻里的报道“{headline}”是哪个来源发布的？"}
    answer_type = "text"
    complexity, max_steps = 2, 12

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        section = pick(rng, SECTIONS)
        return {"headline": pick(rng, HEADLINES[section]), "section": section,
                "source": pick(rng, SOURCE_NAMES)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_directory(state, rng)
        seed_stories(state, rng, 3, avoid=[params["headline"]])
        add_article(state, params["headline"], params["source"], params["section"],
                    int(rng.integers(1, 48)))

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["source"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [r["name"] for r in records(initial, SOURCES).values()]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why("Searching Google News for the story's headline")
        yield from self.search(ui, p["headline"])
        ui.why("The results show the story: opening it to see its source")
        yield from ui.tap(id=self.row(ui, p["headline"], "story_"))
        source = ui.must(id="source").text
        ui.why(f"The story page names its source: {source}")
        yield from ui.answer(source)


TEMPLATES: list[Task] = [
    NewsFollowTopic(), NewsHideSource(), NewsSaveLatestFromSource(),
    NewsFollowSourceAndSave(), NewsTopTechHeadline(), NewsStorySource(),
]
