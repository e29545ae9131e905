"""The Video app (YouTube) driven through phone actions: search with filters, the watch
page (like, subscribe, comment, save to Watch later or a playlist, the playback position
advancing), the library and subscriptions."""

from __future__ import annotations

import pytest
from driving import Driver, act, fill, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.video.app import VideoApp, age_text, clock, search, views_text
from phone_gym.testing import check_app
from phone_gym.world import Device


def video(device: Device) -> VideoApp:
    app = device.apps["Video"]
    assert isinstance(app, VideoApp)
    return app


def seconds_played(device: Device) -> int:
    """The watch page's position in seconds (its seek bar's value)."""
    found = Driver(device).find(id="position")
    assert found is not None and found.node.kind == "slider"
    return int(float(found.node.text))


@pytest.fixture
def device() -> Device:
    dev = Device([VideoApp])
    data = video(dev).data
    data.channels.new(name="Kitchen Basics", subscribers=12000)
    data.channels.new(name="Trail Tales", subscribers=5000)
    data.videos.new(title="Sourdough bread for beginners", channel="Kitchen Basics",
                    seconds=900, views=200_000, days=30)
    data.videos.new(title="Sourdough mistakes to avoid", channel="Trail Tales",
                    seconds=200, views=50_000, days=2)
    data.videos.new(title="Kayak basics", channel="Trail Tales", seconds=1500, views=9000,
                    days=100)
    dev.invalidate()
    act(dev, PhoneAction("open_app", app="Video"))
    return dev


def test_formats() -> None:
    assert clock(65) == "1:05" and clock(3725) == "1:02:05"
    assert views_text(1_250_000) == "1.2M views" and views_text(2500) == "2K views"
    assert age_text(0) == "today" and age_text(3) == "3 days ago" and age_text(400) == "1 year ago"


def test_search_filters_and_sorts(device: Device) -> None:
    data = video(device).data
    assert [v.id for v in search(data, "sourdough")] == [1, 2]
    assert [v.id for v in search(data, "sourdough", sort="Upload date")] == [2, 1]
    assert [v.id for v in search(data, "sourdough", duration="Under 4 minutes")] == [2]
    assert [v.id for v in search(data, "sourdough", upload="This week")] == [2]
    tap(device, id="search_button")
    fill(device, "search", "sourdough")
    tap(device, id="go_search")
    tap(device, id="filters")
    tap(device, id="filter_duration")
    tap(device, id="option_4_20_minutes")
    tap(device, id="filters_done")
    assert shown(device, id="video_1") and not shown(device, id="video_2")


def test_watch_page_actions_and_position(device: Device) -> None:
    tap(device, id="video_1")
    start = seconds_played(device)
    assert start < 10
    act(device, PhoneAction("wait", seconds=30))
    assert seconds_played(device) >= start + 30
    tap(device, id="like")
    tap(device, id="subscribe")
    fill(device, "comment", "Great explanation")
    tap(device, id="post_comment")
    tap(device, id="save")
    tap(device, id="save_watch_later")
    tap(device, id="save")
    tap(device, id="new_playlist")
    fill(device, "playlist_name", "Bread")
    tap(device, id="button_create")
    data = video(device).data
    v = data.videos[1]
    assert v.liked and v.likes == 1 and v.watch_later
    assert data.channels[1].subscribed
    assert [(c.video, c.text) for c in data.comments] == [(1, "Great explanation")]
    assert [(p.name, p.videos) for p in data.playlists] == [("Bread", (1,))]


def test_library_lists_history_and_playlists(device: Device) -> None:
    tap(device, id="video_3")
    press(device, "back")
    tap(device, id="nav_library")
    tap(device, id="history")
    assert shown(device, id="video_3") and not shown(device, id="video_1")
    press(device, "back")
    tap(device, id="watch_later")
    assert shown(device, "No videos")


def test_check_app() -> None:
    report = check_app(VideoApp, 1500)
    assert report.steps == 1500


def test_the_feeds_are_16_9_cards_and_search_results_rows(device: Device) -> None:
    from phone_gym.world import pictures
    from phone_gym.world.theme import SCREEN_W

    placed = Driver(device).find("Sourdough mistakes to avoid", kind="list_item")
    assert placed.node.style == "video_card" and (placed.rect[0], placed.rect[2]) == (
        0, SCREEN_W)  # a full-width picture above the title
    assert pictures.decode(placed.node.glyph)[0] == "video"
    tap(device, id="search_button")
    fill(device, "search", "Kayak")
    tap(device, id="go_search")
    found = Driver(device).find("Kayak basics", kind="list_item")
    assert found is not None and found.node.style == "video_side"
