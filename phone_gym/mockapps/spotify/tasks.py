"""Spotify tasks: playlists, likes and follows, and look-ups over the catalog.

Every task seeds a catalog made from ``params["seed"]`` (``fixtures.catalog``); the Premium
pop-up shows in some seeds and may be dismissed (``promo`` may only become False); playing
songs changes nothing saved."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.families import CreateRecord, EditRecord, Lookup, record_keys
from ...tasks.families import scan_rows as scan
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import (
    Allow,
    Allowed,
    Becomes,
    Criterion,
    Matcher,
    Record,
    Value,
    lookup,
    same_text,
)
from ...world.app import app_strings
from .app import SpotifyApp
from .fixtures import (
    ARTISTS,
    DATA,
    PLAYLIST_NAMES,
    PLAYLISTS,
    TRACKS,
    Catalog,
    catalog,
    localize_text,
    localize_value,
    seed_catalog,
    seed_playlists,
)


def same_list(expected: Sequence[str]) -> Matcher:
    """A list of exactly these titles, in this order."""
    want = [str(x) for x in expected]
    return Matcher(lambda v: isinstance(v, (list, tuple)) and [str(x) for x in v] == want,
                   f"the titles {want!r} in order")


# --- oracle steps ----------------------------------------------------------------------------
def _shown(ui: Driver) -> list[tuple[int, int, int, int]]:
    return [e.bounds for e in ui.elements()]


def start(ui: Driver) -> Iterator[PhoneAction]:
    """Open Spotify and dismiss the Premium pop-up if it shows."""
    yield from ui.open_app("Spotify")
    if ui.find(id="button_not_now") is not None:
        yield from ui.tap(id="button_not_now")


def search(ui: Driver, category: str, query: str) -> Iterator[PhoneAction]:
    """The Search tab, a category chip, and a query."""
    yield from ui.tap(id="nav_1")
    chip = ui.must(id=f"chip_{category.lower()}")
    if not chip.checked:
        yield from ui.tap(id=f"chip_{category.lower()}")
    yield from ui.fill("search", query)


def open_artist(ui: Driver, name: str) -> Iterator[PhoneAction]:
    yield from search(ui, "Artists", name)
    yield from ui.tap(name, kind="list_item")


def open_album(ui: Driver, title: str) -> Iterator[PhoneAction]:
    yield from search(ui, "Albums", title)
    yield from ui.tap(title, kind="list_item")


def open_playlist(ui: Driver, name: str) -> Iterator[PhoneAction]:
    yield from ui.tap(id="nav_2")
    yield from ui.tap(name, kind="list_item")


# --- bases -----------------------------------------------------------------------------------
def label(ui: Driver, key: str, **fields: object) -> str:
    """Spotify's words for ``key`` in the phone's locale (what the screen shows)."""
    return app_strings(SpotifyApp, ui.locale).t(key, **fields)


class SpotifyTask(Task):
    """A task on a seeded catalog; ``promo``: whether the Premium pop-up shows first. In
    en-US and zh-CN: there the catalog's names and titles are Chinese (``DATA``), the params
    name them so and carry ``locale`` (the catalog to check against). Templates built on
    these elsewhere run in en-US unless they declare their locales."""

    apps = ("Spotify",)
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    data = DATA

    locales_stay_home = True

    def localize_params(self, params: dict[str, Any], table: Mapping[str, str]
                        ) -> dict[str, Any]:
        p: dict[str, Any] = localize_value(params, table)
        p["locale"] = next(k for k, v in DATA.items() if v is table)
        return p

    def cat(self, p: Mapping[str, Any]) -> Catalog:
        """The catalog of ``p``'s seed, in the words of ``p``'s locale."""
        c = catalog(p["seed"])
        return c.localized(DATA[p["locale"]]) if "locale" in p else c

    def word(self, p: Mapping[str, Any], text: str) -> str:
        """A catalog string (a playlist name) in ``p``'s locale."""
        return localize_text(text, DATA[p["locale"]]) if "locale" in p else text

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        seed = int(rng.integers(1_000_000))
        return {"seed": seed, "promo": bool(rng.random() < 0.4),
                **self.more_params(rng, catalog(seed))}

    def more_params(self, rng: np.random.Generator, cat: Catalog) -> dict[str, Any]:
        return {}

    def seed_extra(self, p: Mapping[str, Any], cat: Catalog) -> dict[str, Any]:
        """What ``setup`` marks: ``liked`` titles, ``followed`` artists."""
        return {}

    def playlists(self, p: Mapping[str, Any], cat: Catalog) -> list[list[Any]]:
        """The playlists on the phone at the start: ``[name, [titles]]``."""
        return [[name, [t.title for t in cat.tracks[i::7]][:4]]
                for i, name in enumerate(self.others(p))]

    def others(self, p: Mapping[str, Any]) -> list[str]:
        """Bystander playlist names (not the task's)."""
        used = {p.get("playlist"), p.get("name")}
        return [n for n in (self.word(p, x) for x in PLAYLIST_NAMES) if n not in used][:2]

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        cat = self.cat(params)
        seed_catalog(state, cat, promo=params["promo"], **self.seed_extra(params, cat))
        seed_playlists(state, self.playlists(params, cat))

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [*super().allowed(params, initial), Becomes("apps.Spotify.promo", False)]


class SpotifyCreatePlaylist(SpotifyTask, CreateRecord):
    template = ('Create a Spotify playlist named "{name}" with the songs "{s1}", "{s2}" and '
                '"{s3}", in that order.')
    instructions = {"zh-CN": "在 Spotify 上新建一个名为“{name}”的歌单，依次加入歌曲“{s1}”、“{s2}”"
                             "和“{s3}”。"}
    collection = PLAYLISTS
    complexity, max_steps = 3, 40

    def more_params(self, rng: np.random.Generator, cat: Catalog) -> dict[str, Any]:
        songs = pick(rng, [t.title for t in cat.tracks], 3)
        return {"name": pick(rng, PLAYLIST_NAMES), "s1": songs[0], "s2": songs[1],
                "s3": songs[2]}

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": same_text(p["name"]), "tracks": same_list([p["s1"], p["s2"], p["s3"]])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from start(ui)
        yield from ui.tap(id="nav_2")
        yield from ui.tap(id="create_playlist")
        yield from ui.fill("playlist_name", p["name"])
        yield from ui.tap(id="button_ok")
        yield from ui.tap(id="add_songs")
        for title in (p["s1"], p["s2"], p["s3"]):
            yield from ui.fill("add_search", title)
            yield from ui.tap(desc=label(ui, "Add {title}", title=title))
        yield from ui.finish()


class PlaylistTask(SpotifyTask, EditRecord):
    """A task on the playlist named ``playlist``, holding ``tracks`` at the start."""

    collection = PLAYLISTS

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": p["playlist"]}

    def playlists(self, p: Mapping[str, Any], cat: Catalog) -> list[list[Any]]:
        return [[p["playlist"], list(p["tracks"])], *super().playlists(p, cat)]


class SpotifyAddTopSong(PlaylistTask):
    template = 'Add the most popular song of {artist} on Spotify to my playlist "{playlist}".'
    instructions = {"zh-CN": "把 Spotify 上{artist}最热门的那首歌加到我的歌单“{playlist}”里。"}
    complexity, max_steps = 3, 24

    def more_params(self, rng: np.random.Generator, cat: Catalog) -> dict[str, Any]:
        artist = str(pick(rng, [a for a, _ in cat.artists]))
        top = cat.top(artist).title
        others = [t.title for t in cat.tracks if t.title != top]
        return {"artist": artist, "playlist": pick(rng, PLAYLIST_NAMES),
                "tracks": [str(t) for t in pick(rng, others, int(rng.integers(2, 5)))]}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        top = self.cat(p).top(p["artist"]).title
        return {"tracks": same_list([*p["tracks"], top])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from start(ui)
        yield from open_artist(ui, p["artist"])
        yield from ui.tap(id="more_popular_1")
        yield from ui.tap(id="option_add_to_playlist")
        yield from ui.tap(p["playlist"], kind="list_item")
        yield from ui.finish()


class SpotifyRemoveArtistSongs(PlaylistTask):
    template = 'Remove every song by {artist} from my Spotify playlist "{playlist}".'
    instructions = {"zh-CN": "把我的 Spotify 歌单“{playlist}”里{artist}的歌全部移除。"}
    complexity, max_steps = 3, 30

    def more_params(self, rng: np.random.Generator, cat: Catalog) -> dict[str, Any]:
        artist = str(pick(rng, [a for a, _ in cat.artists]))
        mine = [t.title for t in cat.by_artist(artist)]
        rest = [t.title for t in cat.tracks if t.artist != artist]
        tracks = [*pick(rng, mine, int(rng.integers(2, 4))),
                  *pick(rng, rest, int(rng.integers(3, 5)))]
        order = rng.permutation(len(tracks))
        return {"artist": artist, "playlist": pick(rng, PLAYLIST_NAMES),
                "tracks": [str(tracks[i]) for i in order]}

    def playlists(self, p: Mapping[str, Any], cat: Catalog) -> list[list[Any]]:
        """The bystander playlists hold songs of the artist too (decoys)."""
        mine = [t.title for t in cat.by_artist(p["artist"])]
        out = super().playlists(p, cat)
        for row in out[1:]:
            row[1] = [mine[0], *row[1]]
        return out

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        cat = self.cat(p)
        return {"tracks": same_list([t for t in p["tracks"]
                                     if cat.track(t).artist != p["artist"]])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from start(ui)
        yield from open_playlist(ui, p["playlist"])
        ui.why(f"Reading the rows of {p['playlist']}: each row names its song's artist")
        rows = yield from scan(ui, "item_")
        mine = sorted((int(k.split("_")[1]) for k, e in rows.items()
                       if e.hint.split(" · ")[0] == p["artist"]), reverse=True)
        for i in mine:
            ui.why(f"{rows[f'item_{i}'].text} is by {p['artist']}: removing it (from the "
                   "bottom up, so the rows above keep their places)")
            yield from ui.tap(id=f"more_item_{i}")
            yield from ui.tap(id="option_remove")
        yield from ui.finish()


class SpotifyMoveSongToTop(PlaylistTask):
    template = 'In my Spotify playlist "{playlist}", move the song "{song}" to the top.'
    instructions = {"zh-CN": "在我的 Spotify 歌单“{playlist}”里，把歌曲“{song}”移到最上面。"}
    complexity, max_steps = 2, 30

    def more_params(self, rng: np.random.Generator, cat: Catalog) -> dict[str, Any]:
        tracks = [str(t) for t in pick(rng, [t.title for t in cat.tracks],
                                       int(rng.integers(4, 8)))]
        at = int(rng.integers(1, len(tracks)))
        return {"playlist": pick(rng, PLAYLIST_NAMES), "tracks": tracks, "song": tracks[at]}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        rest = [t for t in p["tracks"] if t != p["song"]]
        return {"tracks": same_list([p["song"], *rest])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from start(ui)
        yield from open_playlist(ui, p["playlist"])
        ui.why(f"Finding {p['song']} among the rows of {p['playlist']}")
        rows = yield from scan(ui, "item_")
        at = next(int(k.split("_")[1]) for k, e in rows.items() if e.text == p["song"])
        for i in range(at, 0, -1):
            ui.why(f"{p['song']} is row {i + 1}: moving it up one row")
            yield from ui.tap(id=f"more_item_{i}")
            yield from ui.tap(id="option_move_up")
        yield from ui.finish()


class SpotifyFollowAlbumArtist(SpotifyTask, EditRecord):
    template = 'On Spotify, follow the artist who made the album "{album}".'
    instructions = {"zh-CN": "在 Spotify 上关注专辑“{album}”的艺人。"}
    collection = ARTISTS
    complexity, max_steps = 2, 20

    def more_params(self, rng: np.random.Generator, cat: Catalog) -> dict[str, Any]:
        title, artist, _ = cat.albums[int(rng.integers(len(cat.albums)))]
        others = [a for a, _ in cat.artists if a != artist]
        return {"album": title, "followed": [str(a) for a in pick(rng, others, 2)]}

    def seed_extra(self, p: Mapping[str, Any], cat: Catalog) -> dict[str, Any]:
        return {"followed": p["followed"]}

    def artist(self, p: Mapping[str, Any]) -> str:
        return next(a for t, a, _ in self.cat(p).albums if t == p["album"])

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": self.artist(p)}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"followed": True}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from start(ui)
        yield from open_album(ui, p["album"])
        yield from ui.tap(id="album_artist")
        if ui.must(id="follow").text == label(ui, "Follow"):
            yield from ui.tap(id="follow")
        yield from ui.finish()


class SpotifyLikeAlbum(SpotifyTask):
    template = 'Like every song on the album "{album}" on Spotify.'
    instructions = {"zh-CN": "在 Spotify 上给专辑“{album}”里的每一首歌都点赞。"}
    complexity, max_steps = 3, 24

    def more_params(self, rng: np.random.Generator, cat: Catalog) -> dict[str, Any]:
        title = cat.albums[int(rng.integers(len(cat.albums)))][0]
        songs = [t.title for t in cat.on_album(title)]
        liked = [songs[int(rng.integers(len(songs)))]] if rng.random() < 0.5 else []
        other = [t.title for t in cat.tracks if t.album != title]
        return {"album": title, "liked": [*liked, *pick(rng, other, 3)]}

    def seed_extra(self, p: Mapping[str, Any], cat: Catalog) -> dict[str, Any]:
        return {"liked": p["liked"]}

    def keys(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[str]:
        return record_keys(initial, TRACKS, {"album": p["album"]})

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Value(f"{TRACKS}.{k}.liked", True) for k in self.keys(params, initial)]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [*super().allowed(params, initial),
                Allow(TRACKS, "modified", where={"album": params["album"], "liked": True},
                      fields=("liked",), max=len(self.keys(params, initial)))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from start(ui)
        yield from open_album(ui, p["album"])
        ui.why(f"Reading the songs of {p['album']}: a filled heart is a song liked already")
        rows = yield from scan(ui, "like_")
        for key, like in rows.items():
            unliked = label(ui, "Like {title}", title="")  # "Like " (zh-CN: 点赞)
            if like.content_desc.startswith(unliked):
                ui.why(f"{like.content_desc[len(unliked):]} is not liked yet: liking it")
                yield from ui.tap(id=key)
        yield from ui.finish()


class SpotifyWhichAlbum(SpotifyTask, Lookup):
    template = 'On which album is the song "{song}"? Look it up on Spotify.'
    instructions = {"zh-CN": "歌曲“{song}”收录在哪张专辑里？请在 Spotify 上查一下。"}
    answer_type = "name"
    complexity, max_steps = 2, 14

    def more_params(self, rng: np.random.Generator, cat: Catalog) -> dict[str, Any]:
        return {"song": cat.tracks[int(rng.integers(len(cat.tracks)))].title}

    def expected(self, p: Mapping[str, Any]) -> Any:
        return self.cat(p).track(p["song"]).album

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [a["title"] for a in (lookup(initial, "apps.Spotify.albums") or {}).values()]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from start(ui)
        yield from search(ui, "Songs", p["song"])
        yield from ui.tap(desc=label(ui, "More options for {title}", title=p["song"]))
        line = ui.must(id="sheet_subtitle").text
        yield from ui.answer(line.split(" · ", 1)[1])


class SpotifyLikedByArtist(SpotifyTask, Lookup):
    template = 'How many of my Liked Songs on Spotify are by {artist}?'
    instructions = {"zh-CN": "我在 Spotify 上“已点赞的歌曲”里有几首是{artist}的？"}
    answer_type = "count"
    derivations = {"answer": "the count of liked-song rows that name the artist"}
    complexity, max_steps = 2, 14

    def more_params(self, rng: np.random.Generator, cat: Catalog) -> dict[str, Any]:
        artist = str(pick(rng, [a for a, _ in cat.artists]))
        mine = [t.title for t in cat.by_artist(artist)]
        rest = [t.title for t in cat.tracks if t.artist != artist]
        return {"artist": artist,
                "liked": [*pick(rng, mine, int(rng.integers(0, 4))),
                          *pick(rng, rest, int(rng.integers(2, 6)))]}

    def seed_extra(self, p: Mapping[str, Any], cat: Catalog) -> dict[str, Any]:
        return {"liked": p["liked"]}

    def expected(self, p: Mapping[str, Any]) -> Any:
        cat = self.cat(p)
        return sum(cat.track(t).artist == p["artist"] for t in p["liked"])

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        """The number of Liked Songs, and of each artist's among them."""
        cat = self.cat(p)
        per = [sum(cat.track(t).artist == a for t in p["liked"]) for a, _ in cat.artists]
        return [len(p["liked"]), *per]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from start(ui)
        yield from ui.tap(id="nav_2")
        yield from ui.tap(label(ui, "Liked Songs"), kind="list_item")
        ui.why(f"Counting the liked songs whose row names {p['artist']}")
        rows = yield from scan(ui, "liked_")
        n = sum(1 for e in rows.values() if e.hint.split(" · ")[0] == p["artist"])
        ui.why(f"{n} of the liked songs are by {p['artist']}")
        yield from ui.answer(str(n))


class SpotifyPlaylistLength(SpotifyTask, Lookup):
    template = 'How long is my Spotify playlist "{playlist}" in total?'
    instructions = {"zh-CN": "我的 Spotify 歌单“{playlist}”总共有多长时间？"}
    answer_type = "duration"
    complexity, max_steps = 2, 12

    def more_params(self, rng: np.random.Generator, cat: Catalog) -> dict[str, Any]:
        titles = [t.title for t in cat.tracks]
        return {"playlist": pick(rng, PLAYLIST_NAMES),
                "tracks": [str(t) for t in pick(rng, titles, int(rng.integers(4, 9)))]}

    def playlists(self, p: Mapping[str, Any], cat: Catalog) -> list[list[Any]]:
        return [[p["playlist"], list(p["tracks"])], *super().playlists(p, cat)]

    def expected(self, p: Mapping[str, Any]) -> Any:
        cat = self.cat(p)
        return sum(cat.track(t).seconds for t in p["tracks"])

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        cat = self.cat(p)
        return [cat.track(t).seconds for t in p["tracks"]]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from start(ui)
        yield from open_playlist(ui, p["playlist"])
        info = ui.must(id="playlist_info").text
        yield from ui.answer(info.split(" · ", 1)[1])


class SpotifyTopSongsMix(SpotifyTask):
    """Long: a new playlist, then for each of three artists: find, follow, add the top
    song. One criterion per stage (the playlist made, each artist's song in place and the
    artist followed)."""

    template = ('On Spotify, make a new playlist named "{name}" holding the most popular song '
                'of {a1}, of {a2} and of {a3}, in that order, and follow those three artists.')
    instructions = {"zh-CN": "在 Spotify 上新建一个名为“{name}”的歌单，依次放入{a1}、{a2}和{a3}"
                             "各自最热门的歌曲，并关注这三位艺人。"}
    complexity, max_steps = 5, 60
    tags = frozenset({"long_horizon"})

    def more_params(self, rng: np.random.Generator, cat: Catalog) -> dict[str, Any]:
        artists = [str(a) for a in pick(rng, [a for a, _ in cat.artists], 3)]
        return {"name": pick(rng, PLAYLIST_NAMES), "a1": artists[0], "a2": artists[1],
                "a3": artists[2]}

    def artists(self, p: Mapping[str, Any]) -> list[str]:
        return [p["a1"], p["a2"], p["a3"]]

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        cat = self.cat(params)
        tops = [cat.top(a).title for a in self.artists(params)]
        keys = {a["name"]: k for k, a in (lookup(initial, ARTISTS) or {}).items()}
        return [Record(PLAYLISTS, {"name": same_text(params["name"])}, count=1),
                *(Value(f"{ARTISTS}.{keys[a]}.followed", True) for a in self.artists(params)),
                Record(PLAYLISTS, {"name": same_text(params["name"]),
                                   "tracks": same_list(tops)}, count=1)]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        names = set(self.artists(params))
        return [*super().allowed(params, initial), Allow(PLAYLISTS, "added", max=1),
                Allow(ARTISTS, "modified", where={"name": Matcher(lambda v: v in names,
                                                                    "one of the three")},
                      fields=("followed",), max=3)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from start(ui)
        ui.why(f"Checking Your Library for a playlist named {p['name']}")
        yield from ui.tap(id="nav_2")
        held: set[str] = set()
        if ui.find(p["name"], kind="list_item") is None:
            ui.why(f"No playlist {p['name']} yet: creating it (empty)")
            yield from ui.tap(id="create_playlist")
            yield from ui.fill("playlist_name", p["name"])
            yield from ui.tap(id="button_ok")
        else:
            ui.why(f"{p['name']} exists already: reading which songs it holds")
            yield from ui.tap(p["name"], kind="list_item")
            rows = yield from scan(ui, "item_")
            held = {e.text for e in rows.values()}
        yield from ui.press("back")
        for artist in self.artists(p):
            ui.why(f"Opening {artist}'s page: its first popular song is the one to add")
            yield from open_artist(ui, artist)
            if ui.must(id="follow").text == label(ui, "Follow"):
                ui.why(f"Following {artist}")
                yield from ui.tap(id="follow")
            top = ui.must(id="popular_1").text
            if top not in held:
                ui.why(f"{top} is {artist}'s most popular song: adding it to {p['name']}")
                yield from ui.tap(id="more_popular_1")
                yield from ui.tap(id="option_add_to_playlist")
                yield from ui.tap(p["name"], kind="list_item")
                held.add(top)
            yield from ui.press("back")
        yield from ui.finish()


TEMPLATES: list[Task] = [
    SpotifyCreatePlaylist(), SpotifyAddTopSong(), SpotifyRemoveArtistSongs(),
    SpotifyFollowAlbumArtist(), SpotifyLikeAlbum(), SpotifyWhichAlbum(),
    SpotifyPlaylistLength(), SpotifyTopSongsMix(), SpotifyMoveSongToTop(),
    SpotifyLikedByArtist(),
]
