"""The Retro Music app driven through actions: the home page, the song list and search,
multi-select in tap order, new and existing playlists, reordering, the "More options"
sheet, the playing queue, exporting a playlist; and its tasks' checks."""

from __future__ import annotations

import numpy as np
import pytest
from driving import act, fill, long_press, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.music import TEMPLATES, MusicApp
from phone_gym.mockapps.music import app as music_module
from phone_gym.mockapps.music.app import EXPORT_DIR, parse_song, song_file, songs_of
from phone_gym.mockapps.music.tasks import RetroPlaylistDuration
from phone_gym.tasks.task import Episode
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.system import File

SONGS = [("Blue Hour Bus", "Mira Solis", 200), ("Copper Rain", "Juno Vega", 245),
         ("Amber Freeway", "Sable Fox", 190), ("Glass Harbor", "Otto Quill", 300)]


def music(device: Device) -> MusicApp:
    app = device.apps["Music"]
    assert isinstance(app, MusicApp)
    return app


def playlists(device: Device) -> dict[str, tuple[str, ...]]:
    return {p.name: p.songs for p in music(device).data.playlists}


@pytest.fixture
def device() -> Device:
    d = Device([MusicApp])
    for title, artist, seconds in SONGS:
        d.system.write_file(*song_file(title, artist, seconds))
    open_app(d, "Music")
    tap(d, id="tab_songs", kind="tab")
    return d


def select(device: Device, *titles: str) -> None:
    long_press(device, titles[0], kind="list_item")
    for title in titles[1:]:
        tap(device, title, kind="list_item")


def test_songs_are_files_with_tags() -> None:
    path, text = song_file("Slow Orbit", "Night Parade", 225)
    song = parse_song(File(path, text))
    assert (song.title, song.artist, song.seconds) == ("Slow Orbit", "Night Parade", 225)
    assert path == "/sdcard/Music/Slow Orbit.mp3"


def test_the_list_is_sorted_and_searchable(device: Device) -> None:
    assert [s.title for s in songs_of(device.system.files)][:2] == ["Amber Freeway",
                                                                     "Blue Hour Bus"]
    fill(device, "search", "juno")
    assert shown(device, "Copper Rain", kind="list_item")
    assert not shown(device, "Glass Harbor", kind="list_item")


def test_a_selection_keeps_tap_order_into_a_new_playlist(device: Device) -> None:
    select(device, "Glass Harbor", "Amber Freeway", "Copper Rain")
    assert shown(device, "3 selected")
    tap(device, id="action_add_to_playlist")
    tap(device, id="option_new_playlist")
    fill(device, "playlist_name", "Road Trip 7")
    tap(device, id="button_create")
    assert playlists(device) == {"Road Trip 7": ("Glass Harbor", "Amber Freeway",
                                                 "Copper Rain")}
    assert not music(device).ui.selecting


def test_tapping_a_selected_song_unselects_it_and_back_ends_the_selection(
        device: Device) -> None:
    select(device, "Glass Harbor", "Amber Freeway")
    tap(device, "Glass Harbor", kind="list_item")
    assert music(device).ui.selection == ("Amber Freeway",)
    press(device, "back")
    assert not music(device).ui.selecting and music(device).data.queue == ()


def test_adding_to_an_existing_playlist_and_a_taken_name(device: Device) -> None:
    select(device, "Copper Rain")
    tap(device, id="action_add_to_playlist")
    tap(device, id="option_new_playlist")
    fill(device, "playlist_name", "Mix")
    tap(device, id="button_create")
    tap(device, id="more_Amber Freeway")
    tap(device, "Add to playlist", kind="list_item")
    tap(device, "Mix", kind="list_item")
    assert playlists(device) == {"Mix": ("Copper Rain", "Amber Freeway")}
    select(device, "Glass Harbor")
    tap(device, id="action_add_to_playlist")
    tap(device, id="option_new_playlist")
    fill(device, "playlist_name", "mix")
    tap(device, id="button_create")  # taken (ignoring case): refused
    assert playlists(device) == {"Mix": ("Copper Rain", "Amber Freeway")}


def test_reorder_remove_export_and_delete_a_playlist(device: Device) -> None:
    select(device, "Copper Rain", "Blue Hour Bus", "Glass Harbor")
    tap(device, id="action_add_to_playlist")
    tap(device, id="option_new_playlist")
    fill(device, "playlist_name", "Focus 3")
    tap(device, id="button_create")
    tap(device, id="tab_playlists", kind="tab")
    tap(device, "Focus 3", kind="list_item")
    long_press(device, "Glass Harbor", kind="list_item")
    tap(device, "Move up", kind="menu_item")
    long_press(device, "Copper Rain", kind="list_item")
    tap(device, "Remove from playlist", kind="menu_item")
    assert playlists(device) == {"Focus 3": ("Glass Harbor", "Blue Hour Bus")}
    tap(device, id="action_save")
    m3u = device.system.files.get(f"{EXPORT_DIR}/Focus 3.m3u")
    assert m3u is not None and m3u.content.splitlines()[2] == "/sdcard/Music/Glass Harbor.mp3"
    tap(device, id="action_delete")
    tap(device, id="button_delete")
    assert playlists(device) == {}


def test_the_queue(device: Device) -> None:
    select(device, "Glass Harbor", "Amber Freeway")
    tap(device, id="action_add_to_queue")
    assert music(device).data.queue == ("Glass Harbor", "Amber Freeway")
    tap(device, "Copper Rain", kind="list_item")  # playing replaces the queue
    assert music(device).data.queue == ("Copper Rain", "Glass Harbor")
    tap(device, id="tab_queue", kind="tab")
    long_press(device, "Glass Harbor", kind="list_item")
    tap(device, "Remove from playing queue", kind="menu_item")
    assert music(device).data.queue == ("Copper Rain",)
    tap(device, id="clear_queue")
    assert music(device).data.queue == () and shown(device, "The queue is empty")


def test_the_home_page_links_to_the_lists() -> None:
    d = Device([MusicApp])
    open_app(d, "Music")
    assert shown(d, "Your library")
    tap(d, "Playlists", kind="list_item")
    assert shown(d, "No playlists")


def test_the_lists_read_only_the_songs_on_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """With 400 songs, the home page, the song list and a scroll read the few songs on
    screen from indexes kept on write, not every file (the library is not parsed per
    frame: its cost stays flat as it grows, benchmarks/growth.py)."""
    d = Device([MusicApp])
    for i in range(400):
        d.system.write_file(*song_file(f"Song {i:03d}", f"Artist {i % 7}", 200 + i))
    read: list[File] = []
    real = music_module.parse_song
    monkeypatch.setattr(music_module, "parse_song", lambda f: read.append(f) or real(f))
    open_app(d, "Music")
    assert shown(d, "Your library")
    tap(d, id="tab_songs", kind="tab")
    act(d, PhoneAction("scroll", x=500, y=600, direction="down"))
    assert shown(d, "Song 012", kind="list_item")
    assert 0 < len(read) < 100


def test_the_duration_task_accepts_any_songs_within_the_range() -> None:
    task = RetroPlaylistDuration()
    p = task.sample_params(np.random.default_rng(2))
    lengths = task.lengths(p)
    assert sum(lengths[t] for t in p["titles"]) == 2850
    songs = task.fields(p)["songs"]
    assert songs(p["titles"]) and songs(list(reversed(p["titles"])))
    assert not songs(p["titles"][:-3]) and not songs([*p["titles"], "Nope"])


@pytest.mark.parametrize("task", TEMPLATES, ids=lambda t: t.id)
def test_another_playlist_or_a_played_song_fails(task) -> None:  # noqa: ANN001
    device = Device([MusicApp])
    ep = Episode(task, device, np.random.default_rng(7))
    answer, _ = ep.solve()
    assert ep.verify(answer, ep.end_status).success
    device.force_stop("Music")
    open_app(device, "Music")
    tap(device, id="tab_songs", kind="tab")
    first = songs_of(device.system.files)[0].title
    tap(device, first, kind="list_item")  # plays: the queue changes
    assert not ep.verify(None, "success").success


def test_check_app() -> None:
    check_app("Music", 300)
