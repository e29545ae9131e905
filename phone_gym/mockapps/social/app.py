"""Social: an X-like feed. Home timeline (For you / Following), posts with replies, reposts,
likes and bookmarks, a composer (text, a picture from the gallery, a poll), profiles (follow,
mute, block), search (posts, people), notifications, direct messages and muted words.

Posts are newest first by id; ``author`` is an account's handle (``ME`` for the phone's
owner). Everything is the app's own data (``apps.Social.<table>``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from ...world import pictures
from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import BottomSheet, ChatMessage, ChatThread, ConfirmDialog, Image, Tabs
from ...world.kit.localize import in_locale
from ...world.kit.searchbar import Logo, SearchAppBar
from ...world.locale import DEFAULT_LOCALE
from ...world.widgets import (
    Button,
    Dialog,
    DialogButton,
    Fab,
    Icon,
    ListItem,
    Node,
    Screen,
    Tab,
    TabBar,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from ..gallery.fixtures import is_image
from .manifest import MANIFEST

#: The handle of the phone's owner.
ME = "me"
FEEDS = ("For you", "Following")
SEARCH_TABS = ("Posts", "People")


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Account:
    id: int
    handle: str
    name: str
    bio: str = ""
    following: bool = False
    muted: bool = False
    blocked: bool = False


@dataclass(frozen=True)
class Post:
    id: int
    author: str
    text: str
    likes: int = 0
    reposts: int = 0
    liked: bool = False
    reposted: bool = False
    bookmarked: bool = False
    reply_to: int = 0
    image: str = ""
    poll: str = ""  # the options joined with " / "
    age: int = 60  # minutes since it was posted (when seeded)


@dataclass(frozen=True)
class MutedWord:
    id: int
    word: str


@dataclass(frozen=True)
class Dm:
    id: int
    handle: str
    text: str
    outgoing: bool = False


@dataclass(frozen=True)
class Notification:
    id: int
    text: str


@dataclass
class SocialData(Store):
    accounts: Table[Account] = field(default_factory=lambda: Table(kind=Account))
    posts: Table[Post] = field(default_factory=lambda: Table(kind=Post))
    muted_words: Table[MutedWord] = field(default_factory=lambda: Table(kind=MutedWord))
    dms: Table[Dm] = field(default_factory=lambda: Table(kind=Dm))
    notifications: Table[Notification] = field(
        default_factory=lambda: Table(kind=Notification))
    #: The owner's answer to the photos permission prompt: "", "allowed" or "denied".
    photos_access: str = ""


@dataclass
class Draft:
    text: str = ""
    image: str = ""
    poll: bool = False
    option1: str = ""
    option2: str = ""


@dataclass
class SocialUi:
    feed: str = "For you"
    query: str = ""
    search_tab: str = "Posts"
    draft: Draft = field(default_factory=Draft)
    picking_image: bool = False
    asking_photos: bool = False  # the photos permission prompt shows
    profile_menu: bool = False
    blocking: bool = False
    dm_draft: str = ""
    new_word: str = ""


# --- updates -------------------------------------------------------------------------------
def account(data: SocialData, handle: str) -> Account | None:
    return data.accounts.first(handle=handle)


#: Height of a post's image on its page (logical pixels).
IMAGE_H = 560


def avatar(handle: str) -> str:
    """The profile photo of ``handle``: a drawn face seeded by the handle."""
    return pictures.encode("avatar", pictures.seed_of(handle))


def display_name(data: SocialData, handle: str) -> str:
    if handle == ME:
        return "You"
    found = account(data, handle)
    return found.name if found else handle


def timeline(data: SocialData, feed: str) -> list[Post]:
    """Top-level posts, newest first, without blocked or muted accounts and muted words;
    ``Following`` keeps the followed accounts' posts (and the owner's)."""
    hidden = {a.handle for a in data.accounts if a.muted or a.blocked}
    followed = {a.handle for a in data.accounts if a.following} | {ME}
    words = [w.word.lower() for w in data.muted_words if w.word.strip()]
    shown = [p for p in data.posts if not p.reply_to and p.author not in hidden
             and not any(w in p.text.lower() for w in words)
             and (feed != "Following" or p.author in followed)]
    return sorted(shown, key=lambda p: -p.id)


def search_posts(data: SocialData, query: str) -> list[Post]:
    q = query.strip().lower()
    if not q:
        return []
    blocked = {a.handle for a in data.accounts if a.blocked}
    return sorted((p for p in data.posts if q in p.text.lower() and p.author not in blocked),
                  key=lambda p: -p.id)


def search_people(data: SocialData, query: str) -> list[Account]:
    q = query.strip().lower()
    if not q:
        return []
    return [a for a in data.accounts if q in a.name.lower() or q in a.handle.lower()]


def posts_by(data: SocialData, handle: str) -> list[Post]:
    return sorted((p for p in data.posts if p.author == handle and not p.reply_to),
                  key=lambda p: -p.id)


def replies_to(data: SocialData, post_id: int) -> list[Post]:
    return sorted((p for p in data.posts if p.reply_to == post_id), key=lambda p: p.id)


def age_text(minutes: int, locale: str = DEFAULT_LOCALE) -> str:
    """A post's age as X writes it: "5m", "3h", "2d" (zh-CN: "5分钟", "3小时", "2天")."""
    zh = locale == "zh-CN"
    if minutes < 60:
        return f"{max(minutes, 1)}" + ("分钟" if zh else "m")
    if minutes < 24 * 60:
        return f"{minutes // 60}" + ("小时" if zh else "h")
    return f"{minutes // (24 * 60)}" + ("天" if zh else "d")


def publish(data: SocialData, draft: Draft, reply_to: int = 0) -> Post | None:
    """Post the draft (nothing when it has no text and no picture)."""
    if not (draft.text.strip() or draft.image):
        return None
    poll = ""
    if draft.poll and draft.option1.strip() and draft.option2.strip():
        poll = f"{draft.option1.strip()} / {draft.option2.strip()}"
    return data.posts.new(author=ME, text=draft.text, image=draft.image, poll=poll,
                          reply_to=reply_to, age=0)


def toggle_flag(data: SocialData, post_id: int, flag: str, counter: str = "") -> None:
    post = data.posts.get(post_id)
    if post is None:
        return
    on = not getattr(post, flag)
    changes: dict[str, object] = {flag: on}
    if counter:
        changes[counter] = max(0, getattr(post, counter) + (1 if on else -1))
    data.posts.update(post_id, **changes)


# --- the app -------------------------------------------------------------------------------
class SocialApp(App):
    manifest = MANIFEST

    data: SocialData
    ui: SocialUi

    def initial_data(self) -> SocialData:
        return SocialData()

    def initial_ui(self) -> SocialUi:
        return SocialUi()

    # navigation
    def tab(self, name: str) -> None:
        self.stack[:] = [Route(name)]

    def compose(self, reply_to: int = 0) -> None:
        self.ui.draft = Draft()
        self.ui.picking_image = False
        self.go("compose", reply_to)

    def send(self, reply_to: int) -> None:
        if publish(self.data, self.ui.draft, reply_to) is not None:
            self.ui.draft = Draft()
            self.toast(self.t("Your post was sent"))
            self.back()

    def set_draft(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.ui.draft, key, value)

    def set_ui(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def set_account(self, handle: str, **changes: object) -> None:
        found = account(self.data, handle)
        if found is not None:
            self.data.accounts.update(found.id, **changes)
        self.ui.profile_menu = self.ui.blocking = False

    def send_dm(self, handle: str, text: str) -> None:
        if text.strip():
            self.data.dms.new(handle=handle, text=text.strip(), outgoing=True)
            self.ui.dm_draft = ""

    def add_word(self) -> None:
        word = self.ui.new_word.strip()
        if word and not self.data.muted_words.first(word=word):
            self.data.muted_words.new(word=word)
        self.ui.new_word = ""

    def message(self, handle: str) -> None:
        self.ui.profile_menu = False
        self.go("thread", handle)

    def attach(self, path: str) -> None:
        self.ui.draft.image = path
        self.ui.picking_image = False

    def unmute_word(self, word_id: int) -> None:
        self.data.muted_words.remove(word_id)

    def gallery(self) -> list[str]:
        """Pictures in shared storage (what the gallery shows)."""
        return sorted(f.path for f in self.system.files
                      if f.path.startswith(("/sdcard/DCIM/", "/sdcard/Pictures/"))
                      and is_image(f))

    def add_picture(self) -> None:
        """Open the picture picker, asking for access to photos first (until allowed)."""
        if self.data.photos_access == "allowed":
            self.ui.picking_image = True
        else:
            self.ui.asking_photos = True

    def answer_photos(self, allow: bool) -> None:
        self.data.photos_access = "allowed" if allow else "denied"
        self.ui.asking_photos = False
        if allow:
            self.ui.picking_image = True
        else:
            self.toast(self.t("X needs access to your photos to attach one"))

    # views
    def view(self, route: Route) -> Screen:
        screen = self.screen(route)
        return in_locale(self, screen)

    def word(self, en: str, key: str) -> str:
        """``en`` in en-US; elsewhere the catalogue's ``key``, for an English word that
        means two things the locale words apart (X's "Post": 发帖, the verb, and 帖子)."""
        return en if self.system.locale == DEFAULT_LOCALE else self.t(key)

    def screen(self, route: Route) -> Screen:
        if route.name == "post":
            return self.post_page(route.arg)
        if route.name == "profile":
            return self.profile_page(route.arg)
        if route.name == "compose":
            return self.composer(route.arg)
        if route.name == "thread":
            return self.dm_thread(route.arg)
        pages = {"search": self.search_page, "notifications": self.notifications_page,
                 "messages": self.messages_page, "muted": self.muted_page}
        return pages.get(route.name, self.home)()

    def bottom(self, current: str) -> Node:
        return TabBar([Tab(label, current == name, partial(self.tab, name), id=f"nav_{name}")
                       for name, label in (("main", "Home"), ("search", "Search"),
                                           ("notifications", "Notifications"),
                                           ("messages", "Messages"))])

    def image_of(self, path: str) -> str:
        """The drawn picture of an attached image (``pictures``): what the file shows, or,
        for a file gone from the phone, a picture seeded by its name."""
        file = self.system.files.get(path)
        name = path.rsplit("/", 1)[-1]
        lines = file.content.split("\n") if file is not None else [name]
        return pictures.encode(*pictures.describe(lines, name))

    def post_row(self, p: Post) -> Node:
        extra = " · 🖼" if p.image else ""
        thumb = Image("Image", id=f"image_{p.id}", picture=self.image_of(p.image)) \
            if p.image else None
        return ListItem(
            display_name(self.data, p.author), glyph=display_name(self.data, p.author)[:1],
            picture=avatar(p.author), trailing=thumb,
            id=f"post_{p.id}", on_click=lambda: self.go("post", p.id),
            parts=[(f"text_{p.id}", p.text + extra),
                   (f"age_{p.id}", age_text(p.age, self.system.locale)),
                   (f"likes_{p.id}", self.t("{n} likes", n=p.likes))],
        )

    def posts_list(self, posts: Sequence[Post], list_id: str, empty: str) -> Node:
        return VirtualList(len(posts), lambda i: self.post_row(posts[i]), id=list_id,
                           row_height=240, empty_text=empty)

    def home(self) -> Screen:
        posts = timeline(self.data, self.ui.feed)
        return Screen(
            top_bar=SearchAppBar(Logo("X"), actions=[  # X's logo centred, no title
                Icon("🔇", "Muted words", lambda: self.go("muted"), id="muted_words")]),
            content=[Tabs(FEEDS, self.ui.feed, lambda f: self.set_ui(feed=f)),
                     self.posts_list(posts, "timeline", "Nothing to see yet")],
            bottom=self.bottom("main"),
            fab=Fab("+", "Post", self.compose, id="compose"),
        )

    def post_page(self, post_id: int) -> Screen:
        p = self.data.posts.get(post_id)
        if p is None:
            return Screen(top_bar=TopBar(self.word("Post", "Post (noun)"), on_back=self.back),
                          content=[Text("This post was deleted", id="empty")])
        content: list[Node] = [
            ListItem(display_name(self.data, p.author), f"@{p.author}", id="author",
                     glyph=display_name(self.data, p.author)[:1], picture=avatar(p.author),
                     on_click=lambda: self.go("profile", p.author) if p.author != ME
                     else None),
            Text(p.text, id="post_text"),
        ]
        if p.image:
            content.append(Text(self.t("Picture: {name}", name=p.image.rsplit("/", 1)[-1]),
                                id="post_image"))
            content.append(Image("Image", id="post_picture", height=IMAGE_H,
                                 picture=self.image_of(p.image)))
        if p.poll:
            content.append(Text(self.t("Poll: {poll}", poll=p.poll), id="post_poll"))
        content += [
            Text(self.t("{likes} likes · {reposts} reposts · {age}", likes=p.likes,
                        reposts=p.reposts, age=age_text(p.age, self.system.locale)),
                 style="caption", id="post_stats"),
            *self.replies(p.id),
        ]
        actions = [
            Icon("💬", "Reply", lambda: self.compose(p.id), id="reply"),
            Icon("↻", "Undo repost" if p.reposted else "Repost",
                 lambda: toggle_flag(self.data, p.id, "reposted", "reposts"), id="repost"),
            Icon("♥" if p.liked else "♡", "Unlike" if p.liked else "Like",
                 lambda: toggle_flag(self.data, p.id, "liked", "likes"), id="like"),
            Icon("🔖", "Remove bookmark" if p.bookmarked else "Bookmark",
                 lambda: toggle_flag(self.data, p.id, "bookmarked"), id="bookmark"),
        ]
        return Screen(top_bar=TopBar(self.word("Post", "Post (noun)"), on_back=self.back,
                                     actions=actions),
                      content=content)

    def replies(self, post_id: int) -> list[Node]:
        return [ListItem(display_name(self.data, r.author), r.text, id=f"reply_{r.id}",
                         glyph=display_name(self.data, r.author)[:1], picture=avatar(r.author),
                         on_click=partial(self.go, "post", r.id))
                for r in replies_to(self.data, post_id)]

    def profile_page(self, handle: str) -> Screen:
        a = account(self.data, handle)
        if a is None:
            return Screen(top_bar=TopBar("Profile", on_back=self.back),
                          content=[Text("This account doesn't exist", id="empty")])
        posts = [] if a.blocked else posts_by(self.data, handle)
        if a.blocked:
            main = Button("Unblock", lambda: self.set_account(handle, blocked=False),
                          id="unblock", style="secondary")
        elif a.following:
            main = Button("Following", lambda: self.set_account(handle, following=False),
                          id="follow", style="secondary")
        else:
            main = Button("Follow", lambda: self.set_account(handle, following=True),
                          id="follow")
        dialog: Node | None = None
        if self.ui.blocking:
            dialog = ConfirmDialog(self.t("Block @{handle}?", handle=handle),
                                   "They will not be able to follow you or see your posts.",
                                   confirm="Block", destructive=True,
                                   on_confirm=lambda: self.set_account(
                                       handle, blocked=True, following=False),
                                   on_cancel=lambda: self.set_ui(blocking=False))
        elif self.ui.profile_menu:
            dialog = BottomSheet(f"@{handle}", [
                ("Unmute" if a.muted else "Mute",
                 lambda: self.set_account(handle, muted=not a.muted)),
                ("Block", lambda: self.set_ui(profile_menu=False, blocking=True)),
                ("Message", partial(self.message, handle)),
            ])
        return Screen(
            top_bar=TopBar(a.name, on_back=self.back, actions=[
                Icon("⋮", "More options", lambda: self.set_ui(profile_menu=True),
                     id="profile_more")]),
            content=[Text(f"@{a.handle}", id="handle"), Text(a.bio, style="caption", id="bio"),
                     main, Text("Muted" if a.muted else "", style="caption", id="muted"),
                     self.posts_list(posts, "profile_posts", "No posts yet")],
            dialog=dialog,
            on_dismiss=lambda: self.set_ui(profile_menu=False, blocking=False),
        )

    def composer(self, reply_to: int) -> Screen:
        d = self.ui.draft
        content: list[Node] = []
        if reply_to:
            parent = self.data.posts.get(reply_to)
            who = display_name(self.data, parent.author) if parent else "a deleted post"
            content.append(Text(self.t("Replying to {who}", who=self.t(who) if who in (
                "You", "a deleted post") else who), style="caption", id="replying_to"))
        content.append(TextField(d.text, lambda v: self.set_draft(text=v), id="post_text",
                                 hint="What's happening?", label="Post text", multiline=True))
        if d.image:
            content.append(ListItem(d.image.rsplit("/", 1)[-1], "Picture", id="attached",
                                    picture=self.image_of(d.image),
                                    trailing=Icon("×", "Remove picture",
                                                  lambda: self.set_draft(image=""),
                                                  id="remove_image")))
        if d.poll:
            content += [TextField(d.option1, lambda v: self.set_draft(option1=v), id="option1",
                                  hint="Choice 1", label="Choice 1"),
                        TextField(d.option2, lambda v: self.set_draft(option2=v), id="option2",
                                  hint="Choice 2", label="Choice 2")]
        content.append(Button("Reply" if reply_to else self.word("Post", "Post (verb)"),
                              lambda: self.send(reply_to), id="send",
                              enabled=bool(d.text.strip() or d.image)))
        dialog: Node | None = None
        if self.ui.asking_photos:
            dialog = Dialog("Allow X to access photos and videos on this device?", "", [
                DialogButton("Don't allow", partial(self.answer_photos, False),
                             id="button_deny"),
                DialogButton("Allow", partial(self.answer_photos, True), id="button_allow"),
            ])
        elif self.ui.picking_image:
            pics = self.gallery()
            dialog = BottomSheet("Choose a picture", [
                (path.rsplit("/", 1)[-1], partial(self.attach, path)) for path in pics[:8]
            ] or [("No pictures", lambda: self.set_ui(picking_image=False))])
        return Screen(
            top_bar=TopBar("Reply" if reply_to else "New post", on_back=self.back, actions=[
                Icon("🖼", "Add picture", self.add_picture, id="add_image"),
                Icon("📊", "Remove poll" if d.poll else "Add poll",
                     lambda: self.set_draft(poll=not d.poll), id="add_poll")]),
            content=content, dialog=dialog,
            on_dismiss=lambda: self.set_ui(picking_image=False, asking_photos=False))

    def search_page(self) -> Screen:
        ui = self.ui
        content: list[Node] = [
            TextField(ui.query, lambda v: self.set_ui(query=v), id="search", label="Search",
                      hint="Search posts, people, #hashtags"),
            Tabs(SEARCH_TABS, ui.search_tab, lambda t: self.set_ui(search_tab=t),
                 id="search_tabs"),
        ]
        empty = (self.t('No results for "{value}"', value=ui.query.strip()) if ui.query.strip()
                 else "Try searching")
        if ui.search_tab == "People":
            people = search_people(self.data, ui.query)
            content.append(VirtualList(len(people), lambda i: ListItem(
                people[i].name, f"@{people[i].handle}", glyph=people[i].name[:1],
                picture=avatar(people[i].handle),
                id=f"person_{people[i].id}",
                on_click=partial(self.go, "profile", people[i].handle)),
                id="people", empty_text=empty))
        else:
            content.append(self.posts_list(search_posts(self.data, ui.query), "results", empty))
        return Screen(top_bar=TopBar("Search"), content=content, bottom=self.bottom("search"))

    def notifications_page(self) -> Screen:
        rows = sorted(self.data.notifications, key=lambda n: -n.id)
        return Screen(top_bar=TopBar("Notifications"), content=[VirtualList(
            len(rows), lambda i: ListItem(rows[i].text, id=f"notification_{rows[i].id}"),
            id="notifications", empty_text="Nothing to see here yet")],
            bottom=self.bottom("notifications"))

    def messages_page(self) -> Screen:
        people: list[str] = []
        for m in sorted(self.data.dms, key=lambda m: -m.id):
            if m.handle not in people:
                people.append(m.handle)
        last = {h: max((m for m in self.data.dms if m.handle == h), key=lambda m: m.id)
                for h in people}
        return Screen(top_bar=TopBar("Messages"), content=[VirtualList(
            len(people), lambda i: ListItem(
                display_name(self.data, people[i]), last[people[i]].text,
                glyph=display_name(self.data, people[i])[:1], picture=avatar(people[i]),
                id=f"conversation_{i}", on_click=partial(self.go, "thread", people[i])),
            id="conversations", empty_text="No messages yet")],
            bottom=self.bottom("messages"))

    def dm_thread(self, handle: str) -> Screen:
        msgs = sorted((m for m in self.data.dms if m.handle == handle), key=lambda m: m.id)
        name = display_name(self.data, handle)
        return Screen(top_bar=TopBar(name, on_back=self.back), content=ChatThread(
            [ChatMessage(m.text, m.outgoing, "You" if m.outgoing else name) for m in msgs],
            draft=self.ui.dm_draft, on_draft=lambda v: self.set_ui(dm_draft=v),
            on_send=lambda text: self.send_dm(handle, text)))

    def muted_page(self) -> Screen:
        words = sorted(self.data.muted_words, key=lambda w: w.word.lower())
        return Screen(top_bar=TopBar("Muted words", on_back=self.back), content=[
            TextField(self.ui.new_word, lambda v: self.set_ui(new_word=v), id="new_word",
                      label="Word or phrase", hint="Enter a word or phrase"),
            Button("Add", self.add_word, id="add_word"),
            VirtualList(len(words), lambda i: ListItem(
                words[i].word, id=f"word_{words[i].id}", trailing=Icon(
                    "×", self.t("Unmute {word}", word=words[i].word),
                    partial(self.unmute_word, words[i].id),
                    id=f"unmute_{words[i].id}")), id="muted_list",
                empty_text="You haven't muted any words yet"),
        ])
