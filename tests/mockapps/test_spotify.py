"""Spotify driven through phone actions: the Premium pop-up, search by category, artist and
album pages, likes and follows, playlists (create, add, remove, reorder, rename, delete),
the player (a position that advances with ``wait``, shuffle, repeat, the queue)."""

from __future__ import annotations

import numpy as np
import pytest
from driving import act, fill, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.spotify.app import SpotifyApp, SpotifyData, top_tracks
from phone_gym.mockapps.spotify.fixtures import catalog, seed_catalog, seed_playlists
from phone_gym.mockapps.spotify.tasks import TEMPLATES
from phone_gym.tasks.task import Episode
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.state import WorldState

CAT = catalog(7)


def app_of(device: Device) -> SpotifyApp:
    app = device.apps["Spotify"]
    assert isinstance(app, SpotifyApp)
    return app


def data(device: Device) -> SpotifyData:
    return app_of(device).data


def position(device: Device) -> int:
    """The player's position in seconds, as its seek bar reports it (a SeekBar's value)."""
    text = [p.node.text for p in device.frame().items if p.node.id == "player_position"][0]
    return int(float(text))


@pytest.fixture
def device() -> Device:
    """Spotify with the catalog of seed 7, one playlist, and the Premium pop-up waiting."""
    dev = Device([SpotifyApp])
    state = WorldState(dev)
    seed_catalog(state, CAT, promo=True)
    seed_playlists(state, [["Road Trip", [t.title for t in CAT.tracks[:3]]]])
    dev.invalidate()
    act(dev, PhoneAction("open_app", app="Spotify"))
    return dev


def test_the_premium_pop_up_covers_the_app_until_dismissed(device: Device) -> None:
    assert shown(device, id="button_not_now")
    tap(device, id="button_not_now")
    assert not shown(device, id="button_not_now") and not data(device).promo
    assert shown(device, "Road Trip", kind="list_item")


def test_search_by_category_opens_an_artist_with_popular_songs(device: Device) -> None:
    tap(device, id="button_not_now")
    artist = CAT.artists[0][0]
    tap(device, id="nav_1")
    tap(device, id="chip_artists")
    fill(device, "search", artist)
    tap(device, artist, kind="list_item")
    assert shown(device, artist, id="artist_name")
    top = top_tracks(data(device), artist)[0]
    assert shown(device, f"1. {top.title}", kind="list_item")
    tap(device, id="follow")
    assert data(device).artists.first(name=artist).followed  # type: ignore[union-attr]
    assert shown(device, "Following", id="follow")


def test_album_hearts_like_songs_and_the_library_lists_them(device: Device) -> None:
    tap(device, id="button_not_now")
    album = CAT.albums[1][0]
    tap(device, id="nav_1")
    tap(device, id="chip_albums")
    fill(device, "search", album)
    tap(device, album, kind="list_item")
    songs = data(device).tracks.where(album=album)
    tap(device, id=f"like_{songs[0].id}")
    assert data(device).tracks.get(songs[0].id).liked  # type: ignore[union-attr]
    press(device, "back")
    tap(device, id="nav_2")
    tap(device, "Liked Songs", kind="list_item")
    assert shown(device, songs[0].title, kind="list_item")


def test_playlists_are_created_filled_reordered_and_deleted(device: Device) -> None:
    tap(device, id="button_not_now")
    tap(device, id="nav_2")
    tap(device, id="create_playlist")
    fill(device, "playlist_name", "Focus Time")
    tap(device, id="button_ok")
    assert shown(device, "Focus Time", id="playlist_title")
    tap(device, id="add_songs")
    a, b = CAT.tracks[5].title, CAT.tracks[9].title
    for title in (a, b):
        fill(device, "add_search", title)
        tap(device, desc=f"Add {title}")
    while not shown(device, id="playlist_title"):
        press(device, "back")  # the keyboard first, then the add page
    p = data(device).playlists.first(name="Focus Time")
    assert p is not None and p.tracks == (a, b)
    tap(device, id="more_item_1")
    tap(device, id="option_move_up")
    assert data(device).playlists.get(p.id).tracks == (b, a)  # type: ignore[union-attr]
    tap(device, id="more_item_0")
    tap(device, id="option_remove")
    assert data(device).playlists.get(p.id).tracks == (a,)  # type: ignore[union-attr]
    tap(device, id="rename")
    fill(device, "playlist_name", "Deep Work")
    tap(device, id="button_ok")
    assert data(device).playlists.get(p.id).name == "Deep Work"  # type: ignore[union-attr]
    tap(device, id="delete")
    tap(device, id="button_delete")
    assert data(device).playlists.get(p.id) is None


def test_song_sheet_adds_to_a_playlist(device: Device) -> None:
    tap(device, id="button_not_now")
    title = CAT.tracks[12].title
    tap(device, id="nav_1")
    fill(device, "search", title)
    tap(device, desc=f"More options for {title}")
    tap(device, id="option_add_to_playlist")
    tap(device, "Road Trip", kind="list_item")
    road = data(device).playlists.first(name="Road Trip")
    assert road is not None and road.tracks[-1] == title


def test_the_player_position_advances_with_wait(device: Device) -> None:
    tap(device, id="button_not_now")
    title = CAT.tracks[0].title
    tap(device, id="nav_1")
    fill(device, "search", title)
    tap(device, title, kind="list_item")
    tap(device, id="mini_player")
    assert shown(device, id="player_position")
    act(device, PhoneAction("wait", seconds=30))
    assert 30 <= position(device) < 40  # each action takes a moment of phone time too
    tap(device, id="shuffle")
    tap(device, id="repeat")
    assert data(device).shuffle and data(device).repeat == "all"
    tap(device, id="play_pause")
    paused = position(device)
    act(device, PhoneAction("wait", seconds=30))
    assert position(device) == paused


def test_templates_have_unique_ids_and_a_long_one() -> None:
    ids = [t.id for t in TEMPLATES]
    assert len(ids) == len(set(ids)) and all(i.startswith("Spotify") for i in ids)
    assert any("long_horizon" in t.tags for t in TEMPLATES)


def test_random_walk_over_a_seeded_catalog_never_raises() -> None:
    dev = Device([SpotifyApp])
    Episode(TEMPLATES[0], dev, np.random.default_rng(3))
    rng = np.random.default_rng(0)
    act(dev, PhoneAction("open_app", app="Spotify"))
    for _ in range(400):
        kind = rng.choice(["click", "click", "click", "scroll", "type", "press"])
        if kind == "click":
            dev.step(PhoneAction("click", x=int(rng.integers(1000)), y=int(rng.integers(1000))))
        elif kind == "scroll":
            dev.step(PhoneAction("scroll", x=500, y=500, direction=str(rng.choice(["up",
                                                                               "down"]))))
        elif kind == "type":
            dev.step(PhoneAction("type", text="Neon"))
        else:
            dev.step(PhoneAction("press", button="back"))
        if dev.foreground_package() != "com.spotify.music":
            act(dev, PhoneAction("open_app", app="Spotify"))


def test_check_app() -> None:
    report = check_app(SpotifyApp, 2000)
    assert report.steps == 2000
