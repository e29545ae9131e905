"""VLC tasks (AndroidWorld's ``VlcCreatePlaylist`` and ``VlcCreateTwoPlaylists``).

Videos are files in ``/sdcard/Movies``: the ones to add, as many decoys, and an older
playlist of the owner's. A playlist is checked by name (``same_text``) and its ordered file
names, with counted changes: exactly the asked playlists added, nothing else touched. The
two-playlist task has one criterion per playlist, so ``info["progress"]`` is AndroidWorld's
fraction (0, 0.5, 1) while the reward stays 0/1.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver
from ...tasks.families import CreateRecord
from ...tasks.task import Task, data_catalogue, localize_data
from ...verifiers import Allow, Allowed, Criterion, Matcher, Record, same_text
from .fixtures import (
    PLAYLISTS,
    QUALIFIERS,
    THEMES,
    clip_library,
    sample_clips,
    sample_playlist_name,
    seed_playlists,
    seed_videos,
)


def playlist_name_in(name: str, table: Mapping[str, str]) -> str:
    """A drawn playlist name ("Summer Highlights": a theme and a qualifier) in ``table``'s
    words (夏日精选: the two run together, as Chinese writes them)."""
    for theme in THEMES:
        qualifier = name.removeprefix(f"{theme} ")
        if qualifier != name and qualifier in QUALIFIERS:
            return table[theme] + table[qualifier]
    return name


def media_list(names: Sequence[str]) -> Matcher:
    """Exactly these file names in this order."""
    want = [str(n) for n in names]
    return Matcher(lambda v: isinstance(v, (list, tuple)) and [str(n) for n in v] == want,
                   f"the videos {want!r} in order")


def sample_part(rng: np.random.Generator, taken: Sequence[str]) -> tuple[list[str], list[str]]:
    """2 to 5 clips to add and as many decoys, none in ``taken``."""
    n = int(rng.integers(2, 6))
    names = sample_clips(rng, 2 * n, taken)
    return names[:n], names[n:]


class VlcTask(Task):
    apps, collection = ("VLC",), PLAYLISTS
    start = AW_START
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    data = {"zh-CN": data_catalogue(__file__, "zh-CN")}

    locales_stay_home = True  # elsewhere: en-US unless it declares zh-CN

    def localize_params(self, params: dict[str, Any], table: Mapping[str, str]
                        ) -> dict[str, Any]:
        """The playlists' names in Chinese (夏日精选), the videos listed with 、, the words
        their frames show in Chinese (天空)."""
        p: dict[str, Any] = localize_data(params, table)
        for key in ("playlist_name", "playlist_name1", "playlist_name2"):
            if key in p:
                p[key] = playlist_name_in(p[key], table)
        for key in ("files", "files1", "files2"):
            if key in p:
                p[key.replace("files", "file_names")] = "、".join(p[key])
        p["old"] = [[playlist_name_in(name, table), list(media)] for name, media in p["old"]]
        return p

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_videos(state, params["library"])
        seed_playlists(state, params["old"])

    def old_playlist(self, rng: np.random.Generator, names: Sequence[str],
                     avoid: Sequence[str]) -> list[list[Any]]:
        """The owner's earlier playlist (a bystander) of two of the decoys."""
        return [[sample_playlist_name(rng, avoid), list(names[:2])]]

    def playlists(self, ui: Driver) -> Generator[PhoneAction, None, set[str]]:
        """The names the Playlists tab lists (a playlist made already is not made again)."""
        yield from ui.open_app("VLC")
        ui.why("Checking the Playlists tab for the playlists to make")
        yield from ui.tap(id="tab_playlists", kind="tab")
        names: set[str] = set()
        for _ in range(12):
            names |= {e.text for e in ui.find_all(kind="list_item") if not e.clipped}
            if not any(e.clipped or e.full_bounds is None for e in ui.elements()):
                break
            before = [(e.text, e.bounds) for e in ui.elements()]
            yield PhoneAction("scroll", x=500, y=500, direction="down")
            if [(e.text, e.bounds) for e in ui.elements()] == before:
                break
        return names

    def create(self, ui: Driver, name: str, files: Sequence[str]) -> Iterator[PhoneAction]:
        """Select ``files`` in order, then add them to a new playlist ``name``."""
        if ui.find(id="tab_playlists", kind="tab") is None:  # not in VLC's tabs now
            yield from ui.open_app("VLC")
        tab = ui.find(id="tab_video", kind="tab")
        if tab is None or not tab.selected:  # (the tabs may be scrolled away)
            yield from ui.tap(id="tab_video", kind="tab")
        ui.why(f"Selecting {', '.join(files)} in order for the playlist {name}")
        yield from ui.long_press(files[0], kind="list_item")
        for f in files[1:]:
            yield from ui.tap(f, kind="list_item")
        yield from ui.tap(id="action_add_to_playlist")
        yield from ui.fill("playlist_name", name)
        yield from ui.tap(id="button_create")


class VlcCreatePlaylist(VlcTask, CreateRecord):
    template = ('In VLC, create a playlist named "{playlist_name}" with these videos in this '
                'order: {file_names}.')
    instructions = {"zh-CN": "在 VLC 里新建一个名为“{playlist_name}”的播放列表，按以下顺序加入这些"
                             "视频：{file_names}。"}
    complexity, max_steps = 3, 28

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        files, noise = sample_part(rng, ())
        name = sample_playlist_name(rng)
        order = [str(n) for n in rng.permutation(files + noise)]
        return {"playlist_name": name, "files": files, "file_names": ", ".join(files),
                "library": clip_library(rng, order),
                "old": self.old_playlist(rng, noise, [name])}

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": same_text(p["playlist_name"]), "media": media_list(p["files"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        if p["playlist_name"] not in (yield from self.playlists(ui)):
            yield from self.create(ui, p["playlist_name"], p["files"])
        yield from ui.finish()


class VlcCreateTwoPlaylists(VlcTask):
    template = ('In VLC, create two playlists: "{playlist_name1}" with the videos '
                '{file_names1}, and "{playlist_name2}" with the videos {file_names2}, each '
                'in the order given.')
    instructions = {"zh-CN": "在 VLC 里新建两个播放列表：“{playlist_name1}”，依次加入视频 "
                             "{file_names1}；“{playlist_name2}”，依次加入视频 {file_names2}。"}
    complexity, max_steps = 5, 48

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        files1, noise1 = sample_part(rng, ())
        files2, noise2 = sample_part(rng, files1 + noise1)
        name1 = sample_playlist_name(rng)
        name2 = sample_playlist_name(rng, [name1])
        order = [str(n) for n in rng.permutation(files1 + noise1 + files2 + noise2)]
        return {"playlist_name1": name1, "files1": files1, "file_names1": ", ".join(files1),
                "playlist_name2": name2, "files2": files2, "file_names2": ", ".join(files2),
                "library": clip_library(rng, order),
                "old": self.old_playlist(rng, noise1, [name1, name2])}

    def part(self, p: Mapping[str, Any], i: int) -> dict[str, Any]:
        return {"name": same_text(p[f"playlist_name{i}"]), "media": media_list(p[f"files{i}"])}

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record(self.collection, self.part(p, i), count=1) for i in (1, 2)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(self.collection, "added", max=2)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        have = yield from self.playlists(ui)
        for i in (1, 2):
            if p[f"playlist_name{i}"] not in have:
                yield from self.create(ui, p[f"playlist_name{i}"], p[f"files{i}"])
        yield from ui.finish()


TEMPLATES: list[Task] = [VlcCreatePlaylist(), VlcCreateTwoPlaylists()]
