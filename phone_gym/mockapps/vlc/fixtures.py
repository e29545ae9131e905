"""Public fixtures of VLC: videos (files in ``/sdcard/Movies``, optionally with frames that
show words) and playlist names, for its tasks and any other app's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...tasks.vocab import Draws, pick
from ...verifiers.state import DeviceState
from .app import VlcApp, create_playlist, video_file

PLAYLISTS = "apps.VLC.playlists"
#: What generated clips are named after.
CLIP_NOUNS = ("beach", "birthday", "concert", "hike", "picnic", "wedding", "graduation",
              "roadtrip", "skiing", "garden", "city_walk", "sunset", "fireworks", "zoo",
              "museum", "parade", "soccer_game", "recital", "camping", "lake")
#: Playlist names are a theme and a qualifier (16 x 7).
THEMES = ("Summer", "Family", "Travel", "Weekend", "Holiday", "Party", "Nature", "Sports",
          "Music", "Kids", "Friends", "Winter", "Road Trip", "Festival", "Adventure",
          "School")
QUALIFIERS = ("Highlights", "Memories", "Favorites", "Clips", "Moments", "Reel",
              "Collection")
#: Words a plain clip's frames show.
SCENE_WORDS = ("sky", "waves", "trees", "crowd", "stage", "road", "snow", "flowers")


def sample_playlist_name(rng: np.random.Generator, avoid: Sequence[str] = ()) -> str:
    while True:
        name = f"{pick(rng, THEMES)} {pick(rng, QUALIFIERS)}"
        if name not in avoid:
            return name


def sample_clips(rng: np.random.Generator, count: int,
                 avoid: Sequence[str] = ()) -> list[str]:
    """``count`` different clip file names (``hike_4821.mp4``) not in ``avoid``."""
    out: list[str] = []
    while len(out) < count:
        name = f"{pick(rng, CLIP_NOUNS)}_{int(rng.integers(1000, 10000))}.mp4"
        if name not in out and name not in avoid:
            out.append(name)
    return out


def clip_library(rng: np.random.Generator, names: Sequence[str]) -> list[list[Any]]:
    """``[name, seconds, frames]`` for each name (5 to 40 seconds)."""
    out: list[list[Any]] = []
    with Draws(rng) as draw:  # a frame's word a draw: fetched in bulk, the same numbers
        draw.reserve(12 * len(names))  # about 23 words a clip
        for name in names:
            seconds = draw.integers(5, 41)
            frames = [str(draw.pick(SCENE_WORDS)) for _ in range(seconds)]
            out.append([name, seconds, frames])
    return out


def seed_videos(state: DeviceState, library: Sequence[Sequence[Any]]) -> None:
    """Write ``[name, seconds, frames]`` videos as files in ``/sdcard/Movies``."""
    for name, seconds, frames in library:
        path, text = video_file(str(name), int(seconds), [str(f) for f in frames])
        state.write_file(path, text.encode("utf-8"))


def vlc_app(state: DeviceState) -> VlcApp:
    app = state.app("VLC")  # type: ignore[attr-defined]
    assert isinstance(app, VlcApp)
    return app


def seed_playlists(state: DeviceState, playlists: Sequence[Sequence[Any]]) -> None:
    """Create ``[name, [file names]]`` playlists in the app's data (PhoneWorld)."""
    for name, media in playlists:
        create_playlist(vlc_app(state).data, str(name), [str(m) for m in media])
