"""Public fixtures of Spotify: a catalog made from a seed (so params stay small and the
catalog is known to plan with), and seeding it, playlists and marks into the app."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue
from ...tasks.vocab import pick
from ...verifiers.state import DeviceState
from .app import SpotifyApp, SpotifyData, create_playlist

PLAYLISTS = "apps.Spotify.playlists"
TRACKS = "apps.Spotify.tracks"
ARTISTS = "apps.Spotify.artists"

ARTIST_NAMES = ("Luna Marlowe", "The Velvet Tides", "Kasper Reyes", "Nova Harbor",
                "Ida Fontaine", "Echo Pines", "Marco Bellini", "The Glass Owls",
                "Sunny Okafor", "Polar Drive", "Hana Mori", "Wild Atlas")
FIRST = ("Golden", "Silent", "Electric", "Paper", "Crimson", "Lonely", "Neon", "Silver",
         "Broken", "Summer", "Midnight", "Velvet", "Hidden", "Wild", "Quiet", "Burning",
         "Frozen", "Distant", "Gentle", "Restless")
SECOND = ("Highway", "Garden", "Letters", "River", "Skyline", "Echoes", "Harbor", "Dreams",
          "Lights", "Waves", "Mountain", "Streets", "Hearts", "Signals", "Horizon", "Rooms",
          "Fields", "Shadows", "Stars", "Mirrors")
ALBUM_WORDS = ("Chapters", "Tapes", "Sessions", "Season", "Diaries", "Stories", "Colors",
               "Years", "Nights", "Tides")
PLAYLIST_NAMES = ("Road Trip", "Morning Run", "Study Session", "Chill Evening",
                  "Workout Mix", "Dinner Party", "Rainy Day", "Sunday Brunch",
                  "Late Night Drive", "Focus Time", "Beach Day", "Coffee Shop")
#: The catalog in zh-CN (``strings/zh-CN.data.json``): artists, playlist names, and the
#: words titles are made of (Golden + Highway: 金色 + 公路 = 金色公路).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def localize_text(text: str, table: Mapping[str, str]) -> str:
    """A catalog string in ``table``'s words: an entry, or a title of two words that have
    entries (their words joined, as Chinese titles are); anything else as it is."""
    if text in table:
        return table[text]
    first, _, second = text.partition(" ")
    if first in table and second in table:
        return table[first] + table[second]
    return text


def localize_value(value: Any, table: Mapping[str, str]) -> Any:
    """``localize_text`` on every string of ``value`` (params: strings, lists, dicts)."""
    if isinstance(value, str):
        return localize_text(value, table)
    if isinstance(value, Mapping):
        return {k: localize_value(v, table) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(localize_value(v, table) for v in value)
    return value


@dataclass(frozen=True)
class CTrack:
    title: str
    artist: str
    album: str
    seconds: int
    plays: int


@dataclass(frozen=True)
class Catalog:
    artists: tuple[tuple[str, int], ...]  # (name, monthly listeners)
    albums: tuple[tuple[str, str, int], ...]  # (title, artist, year)
    tracks: tuple[CTrack, ...]

    def by_artist(self, artist: str) -> list[CTrack]:
        return [t for t in self.tracks if t.artist == artist]

    def top(self, artist: str) -> CTrack:
        return max(self.by_artist(artist), key=lambda t: t.plays)

    def on_album(self, album: str) -> list[CTrack]:
        return [t for t in self.tracks if t.album == album]

    def track(self, title: str) -> CTrack:
        return next(t for t in self.tracks if t.title == title)

    def localized(self, table: Mapping[str, str]) -> Catalog:
        """The same catalog with its names and titles in ``table``'s words."""
        def tr(text: str) -> str:
            return localize_text(text, table)
        return Catalog(tuple((tr(n), k) for n, k in self.artists),
                       tuple((tr(t), tr(a), y) for t, a, y in self.albums),
                       tuple(CTrack(tr(t.title), tr(t.artist), tr(t.album), t.seconds, t.plays)
                             for t in self.tracks))


@functools.lru_cache(maxsize=64)
def catalog(seed: int, artists: int = 5) -> Catalog:
    """The catalog for ``seed``: ``artists`` artists with 2 albums of 3 to 5 songs each;
    titles are unique, plays distinct (one most played song per artist). Made once per seed
    (a reset reads it to sample and again to set up; it is immutable)."""
    rng = np.random.default_rng(seed)
    names = [str(n) for n in pick(rng, ARTIST_NAMES, artists)]
    pairs = [(a, b) for a in FIRST for b in SECOND]
    order = rng.permutation(len(pairs))
    titles = iter(f"{pairs[i][0]} {pairs[i][1]}" for i in order)
    album_pairs = [(a, w) for a in FIRST for w in ALBUM_WORDS]
    album_titles = iter(f"{album_pairs[i][0]} {album_pairs[i][1]}"
                        for i in rng.permutation(len(album_pairs)))
    plays = iter(int(p) for p in rng.permutation(900) * 1000 + 5000)
    out_artists, out_albums, out_tracks = [], [], []
    for name in names:
        out_artists.append((name, int(rng.integers(20, 900)) * 1000))
        for _ in range(2):
            album = next(album_titles)
            out_albums.append((album, name, int(rng.integers(2008, 2026))))
            for _ in range(int(rng.integers(3, 6))):
                out_tracks.append(CTrack(next(titles), name, album,
                                         int(rng.integers(150, 301)), next(plays)))
    return Catalog(tuple(out_artists), tuple(out_albums), tuple(out_tracks))


def spotify_app(state: DeviceState) -> SpotifyApp:
    app = state.app("Spotify")  # type: ignore[attr-defined]
    assert isinstance(app, SpotifyApp)
    return app


def seed_catalog(state: DeviceState, cat: Catalog, *, liked: Sequence[str] = (),
                 followed: Sequence[str] = (), promo: bool = False) -> SpotifyData:
    """Write the catalog into the app, with ``liked`` titles and ``followed`` artists."""
    data = spotify_app(state).data
    for name, listeners in cat.artists:
        data.artists.new(name=name, listeners=listeners, followed=name in followed)
    for title, artist, year in cat.albums:
        data.albums.new(title=title, artist=artist, year=year)
    for i, t in enumerate(cat.tracks):
        data.tracks.new(title=t.title, artist=t.artist, album=t.album, seconds=t.seconds,
                        plays=t.plays, liked=t.title in liked, downloaded=i % 7 == 3)
    data.promo = promo
    return data


def seed_playlists(state: DeviceState, playlists: Sequence[Sequence[Any]]) -> None:
    """Create ``[name, [titles]]`` playlists."""
    data = spotify_app(state).data
    for name, tracks in playlists:
        create_playlist(data, str(name), [str(t) for t in tracks])


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({"SpotifyTask", "open_artist", "search", "start"})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
