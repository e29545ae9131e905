"""网易云音乐 (NetEase Cloud Music): the authoring checks on the app and every template, and
the app's own behaviour: a tap plays a song, ♡ likes it, 收藏 adds it to a playlist once,
下一首 moves on, comments are saved."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver
from phone_gym.mockapps.neteasemusic import APP, TEMPLATES
from phone_gym.mockapps.neteasemusic.fixtures import (
    music_app,
    play_song,
    playlist_id,
    sample_songs,
    write_songs,
)
from phone_gym.testing import check_app, check_task
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.state import WorldState


@pytest.mark.parametrize("task_id", [t.id for t in TEMPLATES])
def test_check_task(task_id: str) -> None:
    check_task(task_id, 20, processes=False)


@pytest.mark.parametrize("task_id", [t.id for t in TEMPLATES])
def test_check_task_on_a_zh_phone(task_id: str) -> None:
    check_task(task_id, 20, processes=False, locale="zh-CN", starts=(0,))


def test_check_app() -> None:
    check_app(APP, 3000)


def phone() -> tuple[Device, WorldState, Driver, list[dict]]:
    device = Device(APPS, locale="zh-CN")
    state = WorldState(device)
    songs = sample_songs(np.random.default_rng(5), 8)
    write_songs(state, songs)
    return device, state, Driver(lambda: ui_elements(device.frame()), state,
                                 locale="zh-CN"), songs


def run(device: Device, actions: Iterable[PhoneAction]) -> None:
    for action in actions:
        assert device.step(action) is None


def test_play_like_next_and_lyrics() -> None:
    device, state, ui, songs = phone()
    run(device, play_song(ui, songs[2]["title"]))
    data = music_app(state).data
    assert data.now_playing == 3 and ui.must(id="play_pause").content_desc == "暂停"
    run(device, ui.tap(id="like"))
    assert data.songs[3].liked and ui.must(id="like").content_desc == "取消喜欢"
    run(device, ui.tap(id="lyrics"))
    assert ui.must(id="lyric_1").text == songs[2]["title"]
    run(device, ui.tap(id="next"))
    assert data.now_playing == 4 and ui.must(id="toolbar").text == songs[3]["title"]
    run(device, ui.tap(id="play_pause"))
    assert ui.must(id="play_pause").content_desc == "播放"


def test_a_song_joins_a_playlist_once_and_comments_are_saved() -> None:
    device, state, ui, songs = phone()
    run(device, ui.open_app("NeteaseMusic"))
    run(device, ui.tap("我的"))
    run(device, ui.tap(id="new_playlist"))
    run(device, ui.fill("playlist_name", "跑步歌单"))
    run(device, ui.tap(id="create"))
    data = music_app(state).data
    [made] = data.playlists
    assert (made.name, made.songs) == ("跑步歌单", ())
    for _ in range(2):  # the second time: already there
        run(device, play_song(ui, songs[0]["title"]))
        run(device, ui.tap(id="collect"))
        run(device, ui.tap(id=playlist_id(ui, "跑步歌单")))
    assert data.playlists[made.id].songs == (1,)
    run(device, ui.tap(id="comments"))
    run(device, ui.fill("comment", "太好听了吧"))
    run(device, ui.tap(id="send_comment"))
    [c] = data.comments
    assert (c.song, c.text, c.author) == (1, "太好听了吧", "我")
