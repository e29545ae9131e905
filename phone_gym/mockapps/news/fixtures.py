"""Public fixtures of News: sources, topics and stories that tasks seed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue
from ...tasks.vocab import pick
from ...verifiers import lookup
from ...verifiers.state import DeviceState
from ...world.locale import DEFAULT_LOCALE, catalogue_datum
from .app import Article, NewsApp

ARTICLES = "apps.News.articles"
TOPICS_PATH = "apps.News.topics"
SOURCES = "apps.News.sources"

SOURCE_NAMES: tuple[str, ...] = ("The Daily Ledger", "Global Wire", "Metro Times",
                                 "Tech Pulse", "Market Watchers", "Sports Desk",
                                 "Coastal Herald", "Northern Post")
TOPIC_NAMES: tuple[str, ...] = ("Climate", "Electric cars", "Space exploration",
                                "Artificial intelligence", "Olympics", "Housing market",
                                "Cybersecurity", "Renewable energy", "Football", "Startups")
#: Section -> headlines (unique across sections).
HEADLINES: dict[str, tuple[str, ...]] = {
    "World": ("Leaders meet to discuss new trade corridor", "Flooding forces evacuations "
              "along the river delta", "Peace talks resume after a two-week pause",
              "Island nation holds snap election", "Historic treaty signed in Geneva",
              "Drought eases as seasonal rains arrive"),
    "Business": ("Central bank holds interest rates steady", "Retail sales beat forecasts "
                 "in October", "Airline posts record quarterly profit", "Shipping costs "
                 "fall for the third month", "Coffee prices climb after poor harvest",
                 "Carmaker announces new battery plant"),
    "Tech": ("New smartphone chip promises two-day battery", "Open source project "
             "reaches one million users", "Startup unveils foldable e-reader",
             "Major browser update blocks tracking by default", "Satellite internet "
             "expands to rural towns", "Researchers demo faster quantum memory"),
    "Sports": ("Underdogs win the cup on penalties", "Marathon record falls in Berlin",
               "Star striker signs a five-year deal", "Tennis final goes to five sets",
               "Cycling team unveils its new lineup", "Rookie pitcher throws a no-hitter"),
}
#: The seeded data in zh-CN (``strings/zh-CN.data.json``: sources, topics, headlines, the
#: body); the sections stay English keys (the app shows them in its catalogue's words).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}
BODY = ("The story is developing and will be updated as more information becomes "
        "available. Readers are encouraged to check back later for details.")


def locale_of(state: Any) -> str:
    return str(getattr(state, "locale", DEFAULT_LOCALE))


def datum(locale: str, text: str) -> str:
    """The seeded datum ``text`` in ``locale`` (``MissingString`` when the catalogue lacks
    it)."""
    return catalogue_datum(DATA, "News", "news", locale, text)


def news_app(state: Any) -> NewsApp:
    app = state.app("News")
    assert isinstance(app, NewsApp)
    return app


def add_article(state: DeviceState, headline: str, source: str, section: str, hours: int,
                *, top: int = 0) -> Article:
    body = datum(locale_of(state), BODY)
    return news_app(state).data.articles.new(headline=headline, source=source,
                                             section=section, hours=hours, body=body, top=top)


def seed_directory(state: DeviceState, rng: np.random.Generator, *,
                   keep: Sequence[str] = ()) -> None:
    """Every source and topic (in the phone's locale), a few followed (never those named in
    ``keep``, names in that locale)."""
    data, locale = news_app(state).data, locale_of(state)
    for name in (datum(locale, n) for n in SOURCE_NAMES):
        data.sources.new(name=name, followed=name not in keep and bool(rng.random() < 0.3))
    for name in (datum(locale, n) for n in TOPIC_NAMES):
        data.topics.new(name=name, followed=name not in keep and bool(rng.random() < 0.3))


def seed_stories(state: DeviceState, rng: np.random.Generator, per_section: int = 3, *,
                 avoid: Sequence[str] = (), not_from: str = "", newest: int = 1) -> None:
    """``per_section`` random stories in each section (headlines not in ``avoid``, sources
    other than ``not_from``, ``newest`` hours old or older), a few of them top stories;
    the names in the phone's locale, as ``avoid`` and ``not_from`` give them."""
    locale = locale_of(state)
    sources = [s for s in (datum(locale, n) for n in SOURCE_NAMES) if s != not_from]
    rank = 1
    for section, headlines in HEADLINES.items():
        shown = [datum(locale, h) for h in headlines]
        for headline in pick(rng, [h for h in shown if h not in avoid], per_section):
            top = rank if rng.random() < 0.3 else 0
            rank += bool(top)
            add_article(state, headline, pick(rng, sources), section,
                        int(rng.integers(newest, 72)), top=top)


def records(state: Any, collection: str) -> dict[str, Any]:
    rows = lookup(state, collection)
    return dict(rows) if hasattr(rows, "items") else {}


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({"HEADLINES"})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
