"""Public fixtures of Retro Music: songs (files in ``/sdcard/Music``) and playlist names,
for its tasks and any other app's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...tasks.vocab import pick
from ...verifiers.state import DeviceState
from .app import EXPORT_DIR as EXPORT_DIR
from .app import MusicApp, create_playlist, song_file

PLAYLISTS = "apps.Music.playlists"
QUEUE = "apps.Music.queue"
#: Invented song titles.
TITLES = ("Paper Lanterns", "Northern Static", "Glass Harbor", "Slow Orbit", "Copper Rain",
          "Midnight Ferry", "Velvet Engine", "Salt and Cedar", "Kites Over Lisbon",
          "Hollow Moon Radio", "Satellite Garden", "Amber Freeway", "Quiet Avalanche",
          "Lemonade Sky", "Signal Fires", "Neon Meadow", "Driftwood Waltz", "Blue Hour Bus",
          "Tin Roof Parade", "Second Summer", "Clockwork Tides", "Fever Dream Motel",
          "Harbor Lights Fade", "Sugar Pine Road", "Electric Orchard", "Wild Honey",
          "Cloud Atlas Drive", "Marble Stairs", "Sunday Circuit", "Lighthouse Keeper",
          "Cinnamon Static", "Polar Lane", "Golden Hour Loop", "Rust and Roses",
          "Open Window Song")
ARTISTS = ("The Low Lanterns", "Mira Solis", "Coastal Arcade", "Juno Vega", "Night Parade",
           "Otto Quill", "Sable Fox", "The Paper Kites Club", "Rosa Linde", "Static Bloom")
#: Themes of playlist names (a name is a theme and a number).
THEMES = ("Road Trip", "Morning Run", "Study Session", "Chill Evening", "Workout Mix",
          "Dinner Party", "Rainy Day", "Sunday Brunch", "Late Night Drive", "Focus Time",
          "Beach Day", "Coffee Shop", "Summer Hits", "Winter Warmers", "Throwbacks",
          "Cooking Tunes", "Deep Work", "Commute", "Weekend Vibes", "Garden Party",
          "Yoga Flow", "Power Walk", "Sleepy Time", "Party Starters", "Feel Good",
          "Acoustic Corner", "Indie Finds", "Night Owl", "Sunrise", "Golden Oldies",
          "Cleaning Day", "Lazy Afternoon", "Festival Prep", "Gaming Night", "Reading Nook",
          "Heartbreak", "Celebration", "Travel Diaries", "Campfire", "Happy Hour",
          "City Lights", "Mountain Air", "Ocean Breeze", "Slow Dance", "Retro Nights",
          "Fresh Finds", "Daydream", "Bedtime", "Spring Cleaning", "Homework")


def sample_playlist_name(rng: np.random.Generator) -> str:
    return f"{pick(rng, THEMES)} {int(rng.integers(1, 1000))}"


def sample_library(rng: np.random.Generator, wanted: int,
                   noise: tuple[int, int] = (10, 13)) -> tuple[list[str], list[list[Any]]]:
    """``wanted`` titles in a random order, and the library: those and ``noise`` more
    songs, each ``[title, artist, seconds]`` (3 to 5 minutes), in a random order."""
    count = wanted + int(rng.integers(noise[0], noise[1] + 1))
    titles = [str(t) for t in pick(rng, TITLES, count)]
    library = [[t, str(pick(rng, ARTISTS)), int(rng.integers(180, 301))] for t in titles]
    return titles[:wanted], [library[int(i)] for i in rng.permutation(len(library))]


def sample_old_playlists(rng: np.random.Generator, library: Sequence[Sequence[Any]],
                         avoid: str) -> list[list[Any]]:
    """One or two playlists the owner made before (bystanders): ``[name, [titles]]``."""
    out: list[list[Any]] = []
    for _ in range(int(rng.integers(1, 3))):
        name = sample_playlist_name(rng)
        theme = name.rsplit(" ", 1)[0]
        if theme == avoid.rsplit(" ", 1)[0] or any(theme in n for n, _ in out):
            continue
        songs = [str(s[0]) for s in pick(rng, list(library), int(rng.integers(2, 4)))]
        out.append([name, songs])
    return out


def music_app(state: DeviceState) -> MusicApp:
    app = state.app("Music")  # type: ignore[attr-defined]
    assert isinstance(app, MusicApp)
    return app


def seed_songs(state: DeviceState, library: Sequence[Sequence[Any]]) -> None:
    """Write ``[title, artist, seconds]`` songs as files in ``/sdcard/Music``."""
    for title, artist, seconds in library:
        path, text = song_file(str(title), str(artist), int(seconds))
        state.write_file(path, text.encode("utf-8"))


def seed_playlists(state: DeviceState, playlists: Sequence[Sequence[Any]]) -> None:
    """Create ``[name, [titles]]`` playlists in the app's data (PhoneWorld)."""
    for name, songs in playlists:
        create_playlist(music_app(state).data, str(name), [str(s) for s in songs])
