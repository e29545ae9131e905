"""Video: a YouTube-like platform. Home, search with filters (upload date, duration, sort
by upload date or views), a watch page (like, subscribe, save to Watch later or a
playlist, comments, a playback position that advances as time passes), the library
(history, Watch later, playlists) and subscriptions.

Videos, channels, playlists (``videos``: the video ids in order) and comments are the app's
own data (``apps.Video.<table>``); the watch history is kept with the session.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial

from ...world import pictures
from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import (
    BottomSheet,
    Chips,
    ChoiceDialog,
    Picture,
    PlayerControls,
    SeekBar,
    SheetOption,
    VideoRow,
    video_row_height,
)
from ...world.kit.common import weighted
from ...world.kit.localize import in_locale
from ...world.widgets import (
    Button,
    Dialog,
    DialogButton,
    Icon,
    ListItem,
    Node,
    Row,
    Screen,
    Tab,
    TabBar,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

ME = "You"
#: The watch page's video frame: 16:9 of the screen's width.
FRAME_H = 1080 * 9 // 16
UPLOAD_DATES = ("Any time", "Today", "This week", "This month", "This year")
DURATIONS = ("Any duration", "Under 4 minutes", "4 - 20 minutes", "Over 20 minutes")
SORTS = ("Relevance", "Upload date", "View count")
WATCH_LATER = "Watch later"


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Video:
    id: int
    title: str
    channel: str
    seconds: int
    views: int
    days: int  # days since upload
    likes: int = 0
    liked: bool = False
    watch_later: bool = False


@dataclass(frozen=True)
class Channel:
    id: int
    name: str
    subscribers: int = 0
    subscribed: bool = False


@dataclass(frozen=True)
class Playlist:
    id: int
    name: str
    videos: tuple[int, ...] = ()


@dataclass(frozen=True)
class Comment:
    id: int
    video: int
    author: str
    text: str


@dataclass
class VideoData(Store):
    videos: Table[Video] = field(default_factory=lambda: Table(kind=Video))
    channels: Table[Channel] = field(default_factory=lambda: Table(kind=Channel))
    playlists: Table[Playlist] = field(default_factory=lambda: Table(kind=Playlist))
    comments: Table[Comment] = field(default_factory=lambda: Table(kind=Comment))


@dataclass
class VideoUi:
    query: str = ""
    searched: str = ""
    upload: str = UPLOAD_DATES[0]
    duration: str = DURATIONS[0]
    sort: str = SORTS[0]
    filters: bool = False  # the filters sheet is open
    choosing: str = ""  # the filter whose choices show
    saving: bool = False  # the save sheet is open
    naming: bool = False  # the new playlist dialog is open
    playlist_name: str = ""
    comment: str = ""
    started: datetime | None = None  # when the video on the watch page started playing
    paused_at: int | None = None  # the position it was paused at (None: playing)
    #: The videos watched, oldest first. Kept with the session (not in the verified data:
    #: watching is what every task does on the way, never what a task checks).
    history: list[int] = field(default_factory=list)


# --- helpers -------------------------------------------------------------------------------
def clock(seconds: int) -> str:
    """``4:05`` or ``1:02:03``."""
    h, rest = divmod(max(0, seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def views_text(views: int) -> str:
    if views >= 1_000_000:
        return f"{views / 1_000_000:.1f}M views"
    if views >= 1000:
        return f"{views // 1000}K views"
    return f"{views} views"


def age_text(days: int) -> str:
    if days == 0:
        return "today"
    if days < 7:
        return f"{days} day{'s' * (days > 1)} ago"
    if days < 30:
        return f"{days // 7} week{'s' * (days >= 14)} ago"
    if days < 365:
        return f"{days // 30} month{'s' * (days >= 60)} ago"
    return f"{days // 365} year{'s' * (days >= 730)} ago"


def fits(v: Video, upload: str, duration: str) -> bool:
    limit = {"Today": 0, "This week": 6, "This month": 30, "This year": 365}.get(upload)
    if limit is not None and v.days > limit:
        return False
    minutes = v.seconds / 60
    return {"Under 4 minutes": minutes < 4, "4 - 20 minutes": 4 <= minutes <= 20,
            "Over 20 minutes": minutes > 20}.get(duration, True)


def search(data: VideoData, query: str, upload: str = UPLOAD_DATES[0],
           duration: str = DURATIONS[0], sort: str = SORTS[0]) -> list[Video]:
    """Videos whose title or channel holds every word of ``query``, filtered and sorted
    (relevance: title matches first, then by id)."""
    words = query.lower().split()
    if not words:
        return []
    found = [v for v in data.videos
             if all(w in f"{v.title} {v.channel}".lower() for w in words)
             and fits(v, upload, duration)]
    if sort == "Upload date":
        return sorted(found, key=lambda v: (v.days, -v.id))
    if sort == "View count":
        return sorted(found, key=lambda v: (-v.views, v.id))
    return sorted(found, key=lambda v: (not all(w in v.title.lower() for w in words), v.id))


def save_to(data: VideoData, playlist_id: int, video_id: int) -> None:
    """Add the video at the end of the playlist, or take it out when it is there."""
    pl = data.playlists.get(playlist_id)
    if pl is None:
        return
    if video_id in pl.videos:
        data.playlists.update(playlist_id, videos=tuple(i for i in pl.videos if i != video_id))
    else:
        data.playlists.update(playlist_id, videos=(*pl.videos, video_id))


# --- the app -------------------------------------------------------------------------------
class VideoApp(App):
    manifest = MANIFEST

    data: VideoData
    ui: VideoUi

    def initial_data(self) -> VideoData:
        return VideoData()

    def initial_ui(self) -> VideoUi:
        return VideoUi()

    @property
    def ticking(self) -> bool:
        """The playback position on the watch page advances."""
        return self.route.name == "watch" and self.ui.paused_at is None

    # updates
    def set_ui(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def tab(self, name: str) -> None:
        self.stack[:] = [Route(name)]

    def watch(self, video_id: int) -> None:
        self.ui.history.append(video_id)
        self.ui.started, self.ui.paused_at = self.system.now, None
        self.ui.comment = ""
        self.go("watch", video_id)

    def run_search(self) -> None:
        self.ui.searched = self.ui.query.strip()

    def pick_filter(self, name: str, value: str) -> None:
        setattr(self.ui, name, value)
        self.ui.choosing = ""

    def toggle_like(self, video_id: int) -> None:
        v = self.data.videos.get(video_id)
        if v is not None:
            self.data.videos.update(video_id, liked=not v.liked,
                                    likes=max(0, v.likes + (-1 if v.liked else 1)))

    def toggle_subscribe(self, name: str) -> None:
        ch = self.data.channels.first(name=name)
        if ch is not None:
            self.data.channels.update(ch.id, subscribed=not ch.subscribed)

    def toggle_watch_later(self, video_id: int) -> None:
        v = self.data.videos.get(video_id)
        if v is not None:
            self.data.videos.update(video_id, watch_later=not v.watch_later)
            self.toast(self.t("Removed from Watch later" if v.watch_later
                              else "Saved to Watch later"))
        self.ui.saving = False

    def toggle_playlist(self, playlist_id: int, video_id: int) -> None:
        save_to(self.data, playlist_id, video_id)
        self.ui.saving = False

    def create_playlist(self, video_id: int) -> None:
        name = self.ui.playlist_name.strip()
        if not name:
            return
        self.data.playlists.new(name=name, videos=(video_id,))
        self.ui.naming = self.ui.saving = False
        self.ui.playlist_name = ""
        self.toast(self.t("Saved to {playlist}", playlist=name))

    def post_comment(self, video_id: int) -> None:
        if self.ui.comment.strip():
            self.data.comments.new(video=video_id, author=ME, text=self.ui.comment.strip())
            self.ui.comment = ""

    def position(self, v: Video) -> int:
        if self.ui.paused_at is not None:
            return min(v.seconds, self.ui.paused_at)
        if self.ui.started is None:
            return 0
        return min(v.seconds, int((self.system.now - self.ui.started).total_seconds()))

    def seek(self, v: Video, seconds: int) -> None:
        """Move the watch page's video to ``seconds`` (held within the video)."""
        seconds = max(0, min(seconds, v.seconds))
        if self.ui.paused_at is not None:
            self.ui.paused_at = seconds
        else:
            self.ui.started = self.system.now - timedelta(seconds=seconds)

    def toggle_play(self, v: Video) -> None:
        if self.ui.paused_at is None:
            self.ui.paused_at = self.position(v)
        else:
            self.ui.started = self.system.now - timedelta(seconds=self.ui.paused_at)
            self.ui.paused_at = None

    def views(self, views: int) -> str:
        """A view count: "1.2M views", "15K views" (zh-CN: 120万次观看, 1.5万次观看)."""
        if self.system.locale != "zh-CN":
            return views_text(views)
        if views >= 100_000_000:  # rounded down to a tenth, as the English count
            count = f"{views // 10_000_000 / 10:.1f}".removesuffix(".0") + "亿"
        elif views >= 10_000:
            count = f"{views // 1000 / 10:.1f}".removesuffix(".0") + "万"
        else:
            count = str(views)
        return self.t("{count} views", count=count)

    def age(self, days: int) -> str:
        """How long ago a video was uploaded: "today", "3 days ago" (3天前), "2 weeks ago"."""
        if days == 0:
            return self.t("today")
        if days < 7:
            return self.t("{n} day ago" if days == 1 else "{n} days ago", n=days)
        if days < 30:
            n = days // 7
            return self.t("{n} week ago" if n == 1 else "{n} weeks ago", n=n)
        if days < 365:
            n = days // 30
            return self.t("{n} month ago" if n == 1 else "{n} months ago", n=n)
        n = days // 365
        return self.t("{n} year ago" if n == 1 else "{n} years ago", n=n)

    # views
    def view(self, route: Route) -> Screen:
        """The screen for ``route``, its fixed strings in the phone's locale."""
        screen = self.video_view(route)
        return in_locale(self, screen)

    def video_view(self, route: Route) -> Screen:
        if route.name == "watch":
            return self.watch_page(route.arg)
        if route.name == "playlist":
            return self.playlist_page(route.arg)
        pages = {"search": self.search_page, "subscriptions": self.subscriptions_page,
                 "library": self.library_page, "history": self.history_page}
        return pages.get(route.name, self.home)()

    def bottom(self, current: str) -> Node:
        return TabBar([Tab(label, current == name, partial(self.tab, name), id=f"nav_{name}")
                       for name, label in (("main", "Home"), ("subscriptions", "Subscriptions"),
                                           ("library", "Library"))])

    def video_row(self, v: Video, row_id: str = "", layout: str = "side") -> Node:
        """A video: its 16:9 frame at the left (``side``) or above its title (``card``)."""
        return VideoRow(v.title, picture=pictures.encode("video", pictures.seed_of(v.title)),
                        layout=layout, id=row_id or f"video_{v.id}",
                        on_click=partial(self.watch, v.id),
                        parts=[(f"channel_{v.id}", v.channel),
                               (f"views_{v.id}", self.views(v.views)),
                               (f"age_{v.id}", self.age(v.days)),
                               (f"length_{v.id}", clock(v.seconds))])

    def videos_list(self, videos: list[Video], list_id: str, empty: str,
                    layout: str = "side") -> Node:
        """Videos as rows (search results, history, a playlist) or as cards (the feeds)."""
        return VirtualList(len(videos), lambda i: self.video_row(videos[i], layout=layout),
                           id=list_id, empty_text=empty, row_height=video_row_height(layout))

    def home(self) -> Screen:
        videos = sorted(self.data.videos, key=lambda v: (v.days, -v.views))
        return Screen(top_bar=TopBar("YouTube", actions=[
            Icon("🔍", "Search", partial(self.go, "search"), id="search_button")]),
            content=[self.videos_list(videos, "home_feed", "Nothing to watch yet",
                                             layout="card")],
            bottom=self.bottom("main"))

    def search_page(self) -> Screen:
        ui = self.ui
        results = search(self.data, ui.searched, ui.upload, ui.duration, ui.sort)
        active = [x for x in (ui.upload, ui.duration, ui.sort)
                  if x not in (UPLOAD_DATES[0], DURATIONS[0], SORTS[0])]
        empty = self.t('No results for "{query}"', query=ui.searched) if ui.searched \
            else "Search YouTube"
        dialog: Node | None = None
        if ui.choosing:
            options = {"upload": UPLOAD_DATES, "duration": DURATIONS, "sort": SORTS}[ui.choosing]
            dialog = ChoiceDialog({"upload": "Upload date", "duration": "Duration",
                                   "sort": "Sort by"}[ui.choosing], options,
                                  getattr(ui, ui.choosing),
                                  partial(self.pick_filter, ui.choosing),
                                  lambda: self.set_ui(choosing=""))
        elif ui.filters:
            dialog = BottomSheet("Search filters", [
                SheetOption("Upload date", partial(self.set_ui, choosing="upload"),
                            subtitle=ui.upload, id="filter_upload"),
                SheetOption("Duration", partial(self.set_ui, choosing="duration"),
                            subtitle=ui.duration, id="filter_duration"),
                SheetOption("Sort by", partial(self.set_ui, choosing="sort"),
                            subtitle=ui.sort, id="filter_sort"),
                SheetOption("Done", partial(self.set_ui, filters=False), id="filters_done"),
            ])
        return Screen(
            top_bar=TopBar("Search", on_back=self.back, actions=[
                Icon("⚙", "Search filters", partial(self.set_ui, filters=True), id="filters")]),
            content=[TextField(ui.query, partial(self.set_ui_query), id="search",
                               label="Search", hint="Search YouTube", on_submit=self.run_search),
                     Button("Search", self.run_search, id="go_search", style="secondary"),
                     Chips(active, active, lambda _: None, id="active_filters"),
                     self.videos_list(results, "results", empty)],
            dialog=dialog,
            on_dismiss=lambda: self.set_ui(filters=False, choosing=""))

    def set_ui_query(self, value: str) -> None:
        self.ui.query = value

    def watch_page(self, video_id: int) -> Screen:
        v = self.data.videos.get(video_id)
        if v is None:
            return Screen(top_bar=TopBar("Video", on_back=self.back),
                          content=[Text("Video unavailable", id="empty")])
        ch = self.data.channels.first(name=v.channel)
        subscribed = ch is not None and ch.subscribed
        comments = sorted((c for c in self.data.comments if c.video == video_id),
                          key=lambda c: -c.id)
        content: list[Node] = [
            # the player: a 16:9 frame of the video above its seek bar (the page scrolls)
            Picture([], desc=self.t("Video player: {title}", title=v.title), id="video_frame",
                    height=FRAME_H,
                    picture=pictures.encode("video", pictures.seed_of(v.title))),
            SeekBar(self.position(v), v.seconds, partial(self.seek, v), id="position"),
            PlayerControls(self.ui.paused_at is None, partial(self.toggle_play, v),
                           on_previous=partial(self.seek, v, 0),
                           previous=("replay", "Replay")),
            Text(v.title, style="title", id="video_title"),
            Text(f"{self.views(v.views)} · {self.age(v.days)}", style="caption",
                 id="video_stats"),
            ListItem(v.channel, self.t("{n} subscribers", n=ch.subscribers if ch else 0),
                     id="channel",
                     glyph=v.channel[:1],
                     trailing=Button("Subscribed" if subscribed else "Subscribe",
                                     partial(self.toggle_subscribe, v.channel),
                                     id="subscribe",
                                     style="secondary" if subscribed else "primary")),
            Text(self.t("{n} likes", n=v.likes), style="caption", id="likes"),
            *(ListItem(c.author, c.text, id=f"comment_{c.id}") for c in comments),
        ]
        dialog: Node | None = None
        if self.ui.naming:
            dialog = Dialog("New playlist", "", [
                DialogButton("Cancel", partial(self.set_ui, naming=False)),
                DialogButton("Create", partial(self.create_playlist, video_id)),
            ], body=[TextField(self.ui.playlist_name, partial(self.set_playlist_name),
                               id="playlist_name", label="Title", hint="Choose a title")])
        elif self.ui.saving:
            rows = [SheetOption(WATCH_LATER, partial(self.toggle_watch_later, video_id),
                                glyph="☑" if v.watch_later else "☐", id="save_watch_later")]
            rows += [SheetOption(p.name, partial(self.toggle_playlist, p.id, video_id),
                                 glyph="☑" if video_id in p.videos else "☐",
                                 id=f"save_playlist_{p.id}")
                     for p in sorted(self.data.playlists, key=lambda p: p.id)]
            rows.append(SheetOption("New playlist", partial(self.set_ui, naming=True),
                                    glyph="+", id="new_playlist"))
            dialog = BottomSheet("Save video to...", rows)
        return Screen(
            top_bar=TopBar("", on_back=self.back, actions=[
                Icon("👍", "Remove like" if v.liked else "Like",
                     partial(self.toggle_like, video_id), id="like"),
                Icon("+", "Save", partial(self.set_ui, saving=True), id="save")]),
            content=content, dialog=dialog,
            # the comment box docked at the bottom (above the keyboard while typing), as
            # YouTube's composer is: the player above it leaves no room in the page
            dock=Row([weighted(TextField(self.ui.comment, partial(self.set_comment),
                                         id="comment", label="Add a comment",
                                         hint="Add a comment...",
                                         on_submit=partial(self.post_comment, video_id)), 0.68),
                      weighted(Button("Comment", partial(self.post_comment, video_id),
                                      id="post_comment", style="secondary",
                                      enabled=bool(self.ui.comment.strip())), 0.32)],
                     id="composer"),
            on_dismiss=lambda: self.set_ui(saving=False, naming=False))

    def set_comment(self, value: str) -> None:
        self.ui.comment = value

    def set_playlist_name(self, value: str) -> None:
        self.ui.playlist_name = value

    def subscriptions_page(self) -> Screen:
        names = {c.name for c in self.data.channels if c.subscribed}
        channels = sorted(names)
        videos = sorted((v for v in self.data.videos if v.channel in names),
                        key=lambda v: (v.days, v.id))
        return Screen(top_bar=TopBar("Subscriptions"), content=[
            Text(", ".join(channels) or "You have no subscriptions", style="caption",
                 id="channels"),
            self.videos_list(videos, "subscription_feed", "No videos from subscriptions",
                             layout="card")],
            bottom=self.bottom("subscriptions"))

    def library_page(self) -> Screen:
        later = sum(v.watch_later for v in self.data.videos)
        rows = [ListItem("History", id="history", glyph="⟲",
                         on_click=partial(self.go, "history")),
                ListItem(WATCH_LATER, self.t("{n} videos", n=later), id="watch_later", glyph="⏱",
                         on_click=partial(self.go, "playlist", 0))]
        rows += [ListItem(p.name, self.t("{n} videos", n=len(p.videos)), id=f"playlist_{p.id}",
                          glyph="≡",
                          on_click=partial(self.go, "playlist", p.id))
                 for p in sorted(self.data.playlists, key=lambda p: p.id)]
        return Screen(top_bar=TopBar("Library"), content=rows, bottom=self.bottom("library"))

    def history_page(self) -> Screen:
        seen: list[Video] = []
        for vid in reversed(self.ui.history):
            v = self.data.videos.get(vid)
            if v is not None and v not in seen:
                seen.append(v)
        return Screen(top_bar=TopBar("History", on_back=self.back),
                      content=[self.videos_list(seen, "history_list", "No watch history")])

    def playlist_page(self, playlist_id: int) -> Screen:
        if playlist_id == 0:
            name, videos = WATCH_LATER, [v for v in sorted(self.data.videos, key=lambda v: v.id)
                                         if v.watch_later]
        else:
            pl = self.data.playlists.get(playlist_id)
            name = pl.name if pl else "Playlist"
            found = [self.data.videos.get(i) for i in (pl.videos if pl else ())]
            videos = [v for v in found if v is not None]
        return Screen(top_bar=TopBar(name, on_back=self.back),
                      content=[self.videos_list(videos, "playlist_videos", "No videos")])
