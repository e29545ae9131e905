"""The News app (Google News) driven through phone actions: sections, the article page
(save, hide the source), source and topic pages (follow), search and the Following tab."""

from __future__ import annotations

import pytest
from driving import act, fill, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.news.app import NewsApp, age_text, section_stories
from phone_gym.testing import check_app
from phone_gym.world import Device


def news(device: Device) -> NewsApp:
    app = device.apps["News"]
    assert isinstance(app, NewsApp)
    return app


@pytest.fixture
def device() -> Device:
    dev = Device([NewsApp])
    data = news(dev).data
    data.sources.new(name="Tech Pulse")
    data.sources.new(name="Global Wire")
    data.topics.new(name="Startups")
    data.articles.new(headline="Startups raise less this year", source="Tech Pulse",
                      section="Tech", hours=5, top=1)
    data.articles.new(headline="New phone chip", source="Global Wire", section="Tech",
                      hours=2)
    data.articles.new(headline="Peace talks resume", source="Global Wire", section="World",
                      hours=1, top=2)
    dev.invalidate()
    act(dev, PhoneAction("open_app", app="News"))
    return dev


def test_sections_are_newest_first(device: Device) -> None:
    data = news(device).data
    assert [a.id for a in section_stories(data, "Tech")] == [2, 1]
    assert [a.id for a in section_stories(data, "Top stories")] == [1, 3]
    assert age_text(5) == "5h ago" and age_text(50) == "2d ago"
    tap(device, id="tab_tech")
    assert shown(device, id="story_2") and not shown(device, id="story_3")


def test_save_and_hide_from_the_article(device: Device) -> None:
    tap(device, id="tab_tech")
    tap(device, id="story_2")
    tap(device, id="save")
    tap(device, id="more")
    tap(device, "Hide all stories from Global Wire", kind="list_item")
    tap(device, id="button_hide")
    data = news(device).data
    assert data.articles[2].saved and data.sources[2].hidden
    assert [a.id for a in section_stories(data, "Tech")] == [1]
    press(device, "back")
    tap(device, id="nav_following")
    assert shown(device, id="saved_2") and shown(device, id="hidden_source_2")


def test_search_and_follow(device: Device) -> None:
    tap(device, id="search_button")
    fill(device, "search", "startups")
    assert shown(device, id="story_1")
    tap(device, id="topic_1")
    tap(device, id="follow")
    assert news(device).data.topics[1].followed
    fill_source = "tech pulse"
    tap(device, id="navigate_up")
    fill(device, "search", fill_source)
    tap(device, id="source_1")
    tap(device, id="follow")
    assert news(device).data.sources[1].followed


def test_check_app() -> None:
    report = check_app(NewsApp, 1500)
    assert report.steps == 1500
