"""Chat (WeChat-like): the super-app that hosts mini-programs.

Four tabs: Chats (one-to-one and group threads holding text, images, files, location cards,
transfer cards and links), Contacts (friends, each with a detail page, and the Official
Accounts followed, each with its articles), Discover (Moments: friends' posts to like and
comment on; Mini Programs: the mini-programs this app hosts) and Me (the Wallet: balance,
transactions). A link message or an article opens in the web view (the ``WebView`` app, the
WeChat Browser). A thread's "+" sends a picture (Album) or a file (File)
from shared storage (the system's ``files``) as an image or file message named after the
file; a long press on an image or file message offers "Save to phone", which writes it to
``/sdcard/Pictures/WeChat`` (pictures) or ``/sdcard/Download`` (other files). A transfer
in a one-to-one chat is paid from the system ``wallet`` with the PIN confirmation
(``kit.PaySheet``), as mini-programs pay.

The app's own data (friends, chats, messages, posts, comments) is its private ``Store``
(``apps.Chat...``): PhoneWorld-only, as WeChat keeps it in its own database.
"""

from __future__ import annotations

import posixpath
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import (
    BottomNav,
    ChatMessage,
    ChatThread,
    Composer,
    NavRow,
    PaySheet,
    PayState,
    SearchList,
    Tabs,
    pay,
    yuan,
)
from ...world.kit.common import slug
from ...world.locale import DEFAULT_LOCALE, Catalogue
from ...world.manifest import AppManifest
from ...world.system import File
from ...world.widgets import (
    Button,
    Dialog,
    DialogButton,
    Icon,
    ListItem,
    ListView,
    Node,
    Screen,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from ..gallery.fixtures import is_image
from .manifest import MANIFEST

ME = "Me"  # the sender name of the phone's owner in snapshots ("" is never used)
TABS = ("Chats", "Contacts", "Discover", "Me")
#: WeChat's tab icons (its speech bubble, address book, compass and person).
TAB_ICONS = ("chat_bubble", "contacts", "explore", "person")
KINDS = ("text", "image", "file", "location", "transfer", "link")
#: Where "Save to phone" writes a picture and another file.
SAVED_PICTURES = "/sdcard/Pictures/WeChat"
SAVED_FILES = "/sdcard/Download"
ATTACH_TABS = ("Album", "File")


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Friend:
    """A contact in the app (not the phone's address book)."""

    id: int
    name: str
    wechat_id: str = ""
    region: str = ""


@dataclass(frozen=True)
class Chat:
    """A thread: with one friend (``title`` is their name) or a group."""

    id: int
    title: str
    group: bool = False
    friend: int = 0  # the friend of a one-to-one chat


@dataclass(frozen=True)
class Msg:
    """One message of chat ``chat``. ``kind``: text, image (``text`` is its description),
    file (``text`` is the file name), location (``text`` is the place), transfer
    (``amount`` cents, ``text`` the note), link (``text`` the page's title, ``content`` its
    URL: a tap opens it in the web view, the ``WebView`` app). ``sender`` is a name, ``ME``
    for the owner. ``content``: an image or file message's attachment (what the picture
    shows, the file's text), what "Save to phone" writes."""

    id: int
    chat: int
    sender: str
    text: str
    kind: str = "text"
    time: str = ""
    amount: int = 0
    content: str = ""


@dataclass(frozen=True)
class Post:
    """A Moments post; ``liked``: whether the owner likes it; ``likes``: who else does."""

    id: int
    author: str
    text: str
    time: str = ""
    likes: tuple[str, ...] = ()
    liked: bool = False


@dataclass(frozen=True)
class Comment:
    id: int
    post: int
    author: str
    text: str


@dataclass(frozen=True)
class Account:
    """An official account the owner follows."""

    id: int
    name: str
    intro: str = ""


@dataclass(frozen=True)
class Article:
    """An article of official account ``account``: a web page (``url``, opened in the web
    view), published on ``date`` (ISO day)."""

    id: int
    account: int
    title: str
    url: str
    date: str = ""


@dataclass
class ChatData(Store):
    """What the app keeps (``apps.Chat.<table>.<id>``)."""

    friends: Table[Friend] = field(default_factory=lambda: Table(kind=Friend))
    chats: Table[Chat] = field(default_factory=lambda: Table(kind=Chat))
    messages: Table[Msg] = field(default_factory=lambda: Table(kind=Msg))
    posts: Table[Post] = field(default_factory=lambda: Table(kind=Post))
    comments: Table[Comment] = field(default_factory=lambda: Table(kind=Comment))
    accounts: Table[Account] = field(default_factory=lambda: Table(kind=Account))
    articles: Table[Article] = field(default_factory=lambda: Table(kind=Article))


@dataclass
class ChatUi:
    """Transient state: the tab, searches, drafts, the open dialogs."""

    tab: str = "Chats"
    query: str = ""
    contact_query: str = ""
    draft: str = ""
    comment: str = ""
    forward_to: int | None = None  # the chat a forward waits for confirmation to
    amount: str = ""
    note: str = ""
    paying: PayState | None = None
    attach_tab: str = "Album"  # the attachment picker's tab


# --- updates -------------------------------------------------------------------------------
def messages_of(data: ChatData, chat_id: int) -> list[Msg]:
    return sorted((m for m in data.messages if m.chat == chat_id), key=lambda m: m.id)


def last_message(data: ChatData, chat_id: int) -> Msg | None:
    msgs = messages_of(data, chat_id)
    return msgs[-1] if msgs else None


def preview(m: Msg, t: Callable[..., str] | None = None) -> str:
    """How a message shows in a bubble or a chat row (``t``: the app's catalogue lookup,
    ``ChatApp.t``, for the kind's tag: [Image] / [图片])."""
    tag = t or (lambda key: key)
    if m.kind == "image":
        return f"{tag('[Image]')} {m.text}"
    if m.kind == "file":
        return f"{tag('[File]')} {m.text}"
    if m.kind == "location":
        return f"{tag('[Location]')} {m.text}"
    if m.kind == "transfer":
        return f"{tag('[Transfer]')} {yuan(m.amount)}" + (f" {m.text}" if m.text else "")
    if m.kind == "link":
        return f"{tag('[Link]')} {m.text}"
    return m.text


def send(data: ChatData, chat_id: int, text: str, kind: str = "text", *, sender: str = ME,
         time: str = "", amount: int = 0, content: str = "") -> Msg:
    return data.messages.new(chat=chat_id, sender=sender, text=text, kind=kind, time=time,
                             amount=amount, content=content)


def attachable(files: Table[File], tab: str) -> list[File]:
    """What the attachment picker lists: pictures (``Album``) or the other files
    (``File``) in shared storage, by folder and name."""
    return sorted((f for f in files if f.path.startswith("/sdcard/")
                   and is_image(f) == (tab == "Album")), key=lambda f: (f.folder, f.name))


def saved_path(m: Msg) -> str:
    """Where "Save to phone" puts the attachment of image or file message ``m``."""
    name = m.text.strip().replace("/", "_")
    if m.kind == "image":
        if not name.lower().endswith((".jpg", ".jpeg", ".png", ".gif", ".webp")):
            name = f"WeChat_IMG_{m.id}.jpg"
        return f"{SAVED_PICTURES}/{name}"
    return f"{SAVED_FILES}/{name or f'WeChat_file_{m.id}'}"


def save_attachment(files: Table[File], m: Msg) -> File | None:
    """Write the attachment of image or file message ``m`` to shared storage (None when it
    is not one, or that file is there already)."""
    if m.kind not in ("image", "file"):
        return None
    path = saved_path(m)
    if path in files:
        return None
    ext = posixpath.splitext(path)[1].lower().lstrip(".")
    mime = (f"image/{'jpeg' if ext in ('jpg', 'jpeg') else ext}" if m.kind == "image"
            else "application/octet-stream")
    return files.put(File(path, m.content or m.text, mime))


def chat_with(data: ChatData, friend: Friend) -> Chat:
    """The one-to-one chat with ``friend`` (made when there is none)."""
    for c in data.chats:
        if not c.group and c.friend == friend.id:
            return c
    return data.chats.new(title=friend.name, group=False, friend=friend.id)


def parse_amount(text: str) -> int | None:
    """``"12.5"`` -> 1250 cents; None when not a positive amount."""
    t = text.strip().lstrip("¥").replace(",", "")
    try:
        value = round(float(t) * 100)
    except ValueError:
        return None
    return value if 0 < value < 10**9 else None


def link_bubbles(thread: Node, links: dict[int, int], on_open: Any) -> None:
    """Make the bubbles of link messages (thread row ``i`` -> message id ``links[i]``)
    open on a tap: ``on_open(message_id)``."""
    def wire(node: Node) -> Node:
        for child in node.children if node.kind == "row" else ():  # a bubble by its avatar
            wire(child)
        i = int(node.id.rsplit("_", 1)[-1]) if node.id.startswith("message_") else -1
        if i in links:
            node.on_click = partial(on_open, links[i])
        return node

    rows = getattr(thread, "rows", None)
    if rows is not None:
        build = rows.build
        rows.build = lambda i: wire(build(i))
    for child in thread.children:
        wire(child)


#: The shared kit's English strings Chat's screens show (``SearchList``, ``Composer``,
#: ``ChatThread``, ``PaySheet``, ``kit.capsule.pay``'s errors): in another locale they are
#: shown through the app's catalogue (``localize_kit``).
KIT_STRINGS = frozenset({
    "Search", "Clear search", "Send", "Emoji", "You", "6-digit PIN", "Payment PIN", "Cancel",
    "Pay", "Incorrect PIN", "Nothing to pay", "Insufficient balance"})
#: Kit strings with a field: (English prefix, catalogue key with ``{value}``, suffix).
KIT_PATTERNS = (("To ", "To {value}", ""), ('No results for "', 'No results for "{value}"', '"'),
                ("Avatar of ", "Avatar of {value}", ""))


def localize_kit(node: Node, t: Callable[..., str]) -> None:
    """Show the kit's strings in ``node``'s tree (and the rows its virtual lists build)
    through ``t``, the app's catalogue lookup."""
    for attr in ("text", "hint", "desc"):
        value = getattr(node, attr)
        if value in KIT_STRINGS:
            setattr(node, attr, t(value))
            continue
        for prefix, key, suffix in KIT_PATTERNS:
            if value.startswith(prefix) and value.endswith(suffix) and len(value) > len(prefix):
                inner = value[len(prefix):len(value) - len(suffix) if suffix else None]
                setattr(node, attr, t(key, value=inner))
                break
    for child in node.children:
        localize_kit(child, t)
    if node.rows is not None:
        build = node.rows.build
        node.rows.build = lambda i: _localized(build(i), t)


def _localized(node: Node, t: Callable[..., str]) -> Node:
    localize_kit(node, t)
    return node


# --- the app -------------------------------------------------------------------------------
class ChatApp(App):
    manifest = MANIFEST

    data: ChatData
    ui: ChatUi

    def initial_data(self) -> ChatData:
        return ChatData()

    def initial_ui(self) -> ChatUi:
        return ChatUi()

    def now_text(self) -> str:
        return self.system.now.strftime("%H:%M")

    # --- handlers ------------------------------------------------------------------------
    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def open_chat(self, chat_id: int) -> None:
        self.ui.draft = ""
        self.go("chat", chat_id)

    def message_friend(self, friend_id: int) -> None:
        friend = self.data.friends.get(friend_id)
        if friend is not None:
            self.open_chat(chat_with(self.data, friend).id)

    def send_text(self, chat_id: int, text: str) -> None:
        send(self.data, chat_id, text, time=self.now_text())
        self.ui.draft = ""

    def open_attach(self, chat_id: int) -> None:
        self.ui.attach_tab = "Album"
        self.go("attach", chat_id)

    def send_attachment(self, chat_id: int, path: str) -> None:
        """Send the shared-storage file at ``path`` as an image or file message."""
        f = self.system.files.get(path)
        if f is None or self.data.chats.get(chat_id) is None:
            return
        send(self.data, chat_id, f.name, "image" if is_image(f) else "file",
             time=self.now_text(), content=f.content)
        self.back()

    def save_to_phone(self, msg_id: int) -> None:
        m = self.data.messages.get(msg_id)
        if m is None:
            return
        if save_attachment(self.system.files, m) is None:
            self.toast(self.t("Already saved"))
        else:
            self.toast(self.t("Saved to {folder}", folder=posixpath.dirname(saved_path(m))))

    def open_link_message(self, msg_id: int) -> None:
        """Open a link message's page in the web view (the ``WebView`` app)."""
        m = self.data.messages.get(msg_id)
        if m is not None and m.kind == "link":
            self.open_url(m.content or m.text)

    def open_url(self, url: str) -> None:
        """Show the page at ``url`` in the web view (the ``WebView`` app)."""
        finder = getattr(self.host, "app", None)
        web = finder("WebView") if callable(finder) else None
        if web is None:
            self.toast(self.t("Cannot open links"))
            return
        web.open_link(url)
        self.open_app(web.name)

    def start_forward(self, msg_id: int) -> None:
        self.ui.forward_to = None
        self.go("forward", msg_id)

    def confirm_forward(self, msg_id: int, chat_id: int) -> None:
        m = self.data.messages.get(msg_id)
        self.ui.forward_to = None
        if m is not None:
            send(self.data, chat_id, m.text, m.kind, time=self.now_text(), amount=0,
                 content=m.content)
            self.toast(self.t("Sent"))
        self.back()

    def start_transfer(self, chat_id: int) -> None:
        self.ui.amount, self.ui.note, self.ui.paying = "", "", None
        self.go("transfer", chat_id)

    def ask_pin(self, chat_id: int) -> None:
        chat = self.data.chats.get(chat_id)
        cents = parse_amount(self.ui.amount)
        if chat is None or cents is None:
            self.toast(self.t("Enter an amount"))
            return
        self.ui.paying = PayState(cents, chat.title, self.ui.note.strip())

    def set_pin(self, pin: str) -> None:
        if self.ui.paying is not None:
            self.ui.paying.pin = pin

    def confirm_transfer(self, chat_id: int) -> None:
        state = self.ui.paying
        if state is None or pay(self.system, state) is not None:
            return
        send(self.data, chat_id, state.memo, "transfer", time=self.now_text(),
             amount=state.amount)
        self.ui.paying = None
        self.toast(self.t("Transfer sent"))
        self.back()

    def toggle_like(self, post_id: int) -> None:
        post = self.data.posts.get(post_id)
        if post is not None:
            self.data.posts.update(post_id, liked=not post.liked)

    def add_comment(self, post_id: int) -> None:
        text = self.ui.comment.strip()
        if text and self.data.posts.get(post_id) is not None:
            self.data.comments.new(post=post_id, author=ME, text=text)
            self.ui.comment = ""

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        screen = self.route_view(route)
        if self.system.locale != DEFAULT_LOCALE:
            for part in (*screen.content, screen.top_bar, screen.bottom, screen.dialog,
                         screen.dock):
                if part is not None:
                    localize_kit(part, self.t)
        return screen

    def route_view(self, route: Route) -> Screen:
        if route.name == "chat":
            return self.chat_screen(route.arg)
        if route.name == "forward":
            return self.forward_screen(route.arg)
        if route.name == "attach":
            return self.attach_screen(route.arg)
        if route.name == "transfer":
            return self.transfer_screen(route.arg)
        if route.name == "contact":
            return self.contact_screen(route.arg)
        if route.name == "moments":
            return self.moments_screen()
        if route.name == "post":
            return self.post_screen(route.arg)
        if route.name == "mini":
            return self.mini_list()
        if route.name == "wallet":
            return self.wallet_screen()
        if route.name == "accounts":
            return self.accounts_screen()
        if route.name == "account":
            return self.account_screen(route.arg)
        return self.main_screen()

    def tab_bar(self) -> Node:
        """The four tabs, labelled in the phone's locale; ids stay ``tab_<English key>``."""
        labels = [self.t(key) for key in TABS]
        bar = BottomNav(labels, TAB_ICONS, self.t(self.ui.tab),
                        lambda label: self.set_ui(tab=TABS[labels.index(label)]),
                        style=self.manifest.look.nav_style)
        for item, key in zip(bar.children, TABS, strict=True):
            item.id = f"tab_{slug(key)}"
        return bar

    def main_screen(self) -> Screen:
        tab = self.ui.tab
        if tab == "Contacts":
            content = self.contacts_tab()
        elif tab == "Discover":
            content = [NavRow(self.t("Moments"), lambda: self.go("moments"), id="moments",
                              glyph="◎"),
                       NavRow(self.t("Mini Programs"), lambda: self.go("mini"), id="mini_programs",
                              glyph="✦")]
        elif tab == "Me":
            content = [Text(self.t(ME), style="title", id="my_name"),
                       NavRow(self.t("Wallet"), lambda: self.go("wallet"), id="wallet",
                              summary=yuan(self.system.wallet.balance), glyph="¥")]
        else:
            content = self.chats_tab()
        return Screen(top_bar=TopBar(self.t("WeChat" if tab == "Chats" else tab)), content=content,
                      bottom=self.tab_bar())

    def chat_rows(self) -> list[Chat]:
        q = self.ui.query.strip().lower()
        chats = [c for c in self.data.chats if not q or q in c.title.lower()]

        def recency(c: Chat) -> int:
            last = last_message(self.data, c.id)
            return -(last.id if last else 0)
        return sorted(chats, key=lambda c: (recency(c), c.id))

    def chats_tab(self) -> list[Node]:
        rows = self.chat_rows()

        def row(i: int) -> Node:
            c = rows[i]
            last = last_message(self.data, c.id)
            return ListItem(c.title, preview(last, self.t) if last else "", id=f"chat_{c.id}",
                            glyph="#" if c.group else c.title[:1],
                            on_click=lambda: self.open_chat(c.id))
        return SearchList(self.ui.query, lambda v: self.set_ui(query=v), len(rows), row,
                          id="chat_list", empty_text=self.t("No chats yet"),
                          hint=self.t("Search"))

    def contacts_tab(self) -> list[Node]:
        q = self.ui.contact_query.strip().lower()
        friends = sorted((f for f in self.data.friends if not q or q in f.name.lower()),
                         key=lambda f: (f.name.lower(), f.id))

        def row(i: int) -> Node:
            f = friends[i]
            return ListItem(f.name, f.region, id=f"friend_{f.id}", glyph=f.name[:1],
                            on_click=lambda: self.go("contact", f.id))
        return [NavRow(self.t("Official Accounts"), lambda: self.go("accounts"),
                       id="official_accounts", glyph="◉"),
                *SearchList(self.ui.contact_query, lambda v: self.set_ui(contact_query=v),
                            len(friends), row, id="contact_list", search_id="contact_search",
                            empty_text=self.t("No contacts"), hint=self.t("Search"))]

    def accounts_screen(self) -> Screen:
        """The official accounts the owner follows, by name."""
        accounts = sorted(self.data.accounts, key=lambda a: (a.name.lower(), a.id))
        items = [ListItem(a.name, a.intro, id=f"account_{a.id}", glyph=a.name[:1],
                          on_click=partial(self.go, "account", a.id)) for a in accounts]
        return Screen(top_bar=TopBar(self.t("Official Accounts"), on_back=self.back),
                      content=[ListView(items, id="account_list",
                                        empty_text=self.t("No official accounts"))])

    def account_screen(self, account_id: int) -> Screen:
        """An official account: its intro and its articles, newest first."""
        a = self.data.accounts.get(account_id)
        if a is None:
            return Screen(top_bar=TopBar(self.t("Official Account"), on_back=self.back), content=[])
        posts = sorted((x for x in self.data.articles if x.account == a.id),
                       key=lambda x: (x.date, x.id), reverse=True)

        def row(i: int) -> Node:
            x = posts[i]
            return ListItem(x.title, x.date, id=f"article_{x.id}", glyph="▤",
                            on_click=partial(self.open_url, x.url))
        return Screen(top_bar=TopBar(a.name, on_back=self.back), content=[
            Text(a.intro, style="caption", id="account_intro"),
            VirtualList(len(posts), row, id="articles", empty_text=self.t("No articles yet"))])

    def chat_screen(self, chat_id: int) -> Screen:
        chat = self.data.chats.get(chat_id)
        if chat is None:
            return Screen(top_bar=TopBar(self.t("Chat"), on_back=self.back),
                          content=[Text(self.t("This chat is gone"), id="empty")])
        msgs = messages_of(self.data, chat_id)
        shown = [ChatMessage(preview(m, self.t), m.sender == ME, "" if m.sender == ME else m.sender,
                             m.time) for m in msgs]

        def menu(i: int) -> list[tuple[str, Any]]:
            items: list[tuple[str, Any]] = [
                (self.t("Forward"), lambda: self.start_forward(msgs[i].id))]
            if msgs[i].kind in ("image", "file"):
                items.append((self.t("Save to phone"), partial(self.save_to_phone, msgs[i].id)))
            return items
        on_draft = lambda v: self.set_ui(draft=v)  # noqa: E731
        on_send = lambda t: self.send_text(chat_id, t)  # noqa: E731
        thread = ChatThread(shown, draft=self.ui.draft, on_draft=on_draft, on_send=on_send,
                            menu=menu, composer=False, avatars=True, peer=chat.title,
                            empty_text=self.t("No messages yet"))
        links = {i: m.id for i, m in enumerate(msgs) if m.kind == "link"}
        if links:
            link_bubbles(thread[0], links, self.open_link_message)
        actions = [] if chat.group else [
            Icon("¥", self.t("Transfer"), lambda: self.start_transfer(chat_id), id="transfer")]
        composer = Composer(self.ui.draft, on_draft, on_send, hint=self.t("Message"),
                            more_desc=self.t("Attach"),
                            on_more=lambda: self.open_attach(chat_id))
        return Screen(top_bar=TopBar(chat.title, on_back=self.back, actions=actions),
                      content=thread, dock=composer)

    def attach_screen(self, chat_id: int) -> Screen:
        """The attachment picker: a tap sends that picture or file to the chat."""
        tab = self.ui.attach_tab
        files = attachable(self.system.files, tab)

        def row(i: int) -> Node:
            f = files[i]
            return ListItem(f.name, f.folder.removeprefix("/sdcard/"), id=f"pick_{i}",
                            glyph="▣" if tab == "Album" else "▤",
                            on_click=partial(self.send_attachment, chat_id, f.path))
        return Screen(top_bar=TopBar(self.t("Send a picture" if tab == "Album" else "Send a file"),
                                     on_back=self.back),
                      content=[self.attach_tabs(tab),
                               VirtualList(len(files), row, id="attachables",
                                           empty_text=self.t("Nothing to send"))])

    def attach_tabs(self, tab: str) -> Node:
        """Album / File, labelled in the phone's locale; ids stay ``tab_<English key>``."""
        labels = [self.t(key) for key in ATTACH_TABS]
        tabs = Tabs(labels, self.t(tab),
                    lambda label: self.set_ui(attach_tab=ATTACH_TABS[labels.index(label)]),
                    id="attach_tabs")
        for item, key in zip(tabs.children, ATTACH_TABS, strict=True):
            item.id = f"tab_{slug(key)}"
        return tabs

    def forward_screen(self, msg_id: int) -> Screen:
        m = self.data.messages.get(msg_id)
        chats = sorted(self.data.chats, key=lambda c: c.title.lower())
        items = [ListItem(c.title, self.t("Group") if c.group else "", id=f"to_{c.id}",
                          glyph="#" if c.group else c.title[:1],
                          on_click=lambda c=c: self.set_ui(forward_to=c.id))  # type: ignore[misc]
                 for c in chats]
        dialog = None
        target = self.data.chats.get(self.ui.forward_to) if self.ui.forward_to else None
        if m is not None and target is not None:
            dialog = Dialog(self.t("Send to {title}?", title=target.title), preview(m, self.t), [
                DialogButton(self.t("Cancel"), lambda: self.set_ui(forward_to=None),
                             id="button_cancel"),
                DialogButton(self.t("Send"), lambda: self.confirm_forward(msg_id, target.id),
                             id="button_send"),
            ])
        return Screen(top_bar=TopBar(self.t("Select a chat"), on_back=self.back),
                      content=[ListView(items, id="forward_list")], dialog=dialog,
                      on_dismiss=lambda: self.set_ui(forward_to=None))

    def transfer_screen(self, chat_id: int) -> Screen:
        chat = self.data.chats.get(chat_id)
        title = chat.title if chat else "?"
        paying = self.ui.paying
        dialog = None if paying is None else PaySheet(
            paying, on_pin=self.set_pin, on_pay=lambda: self.confirm_transfer(chat_id),
            on_cancel=lambda: self.set_ui(paying=None), title=self.t("WeChat Pay"))
        return Screen(
            top_bar=TopBar(self.t("Transfer to {name}", name=title), on_back=self.back),
            content=[TextField(self.ui.amount, lambda v: self.set_ui(amount=v), id="amount",
                               label=self.t("Amount (¥)"), hint="0.00"),
                     TextField(self.ui.note, lambda v: self.set_ui(note=v), id="note",
                               label=self.t("Note"), hint=self.t("Add a note")),
                     Text(self.t("Balance {amount}", amount=yuan(self.system.wallet.balance)),
                          style="caption",
                          id="balance"),
                     Button(self.t("Transfer"), lambda: self.ask_pin(chat_id), id="do_transfer")],
            dialog=dialog, on_dismiss=lambda: self.set_ui(paying=None))

    def contact_screen(self, friend_id: int) -> Screen:
        f = self.data.friends.get(friend_id)
        if f is None:
            return Screen(top_bar=TopBar(self.t("Contact"), on_back=self.back), content=[])
        return Screen(top_bar=TopBar(f.name, on_back=self.back), content=[
            Text(f.name, style="title", id="friend_name"),
            Text(self.t("WeChat ID: {id}", id=f.wechat_id), id="wechat_id"),
            Text(self.t("Region: {region}", region=f.region), id="region"),
            Button(self.t("Messages"), lambda: self.message_friend(friend_id), id="message_friend"),
        ])

    def moments_screen(self) -> Screen:
        posts = sorted(self.data.posts, key=lambda p: -p.id)
        items = [ListItem(p.author, p.text, id=f"post_{p.id}", glyph=p.author[:1],
                          on_click=lambda p=p: self.go("post", p.id))  # type: ignore[misc]
                 for p in posts]
        return Screen(top_bar=TopBar(self.t("Moments"), on_back=self.back),
                      content=[ListView(items, id="moments_list", empty_text=self.t("No posts"))])

    def post_screen(self, post_id: int) -> Screen:
        p = self.data.posts.get(post_id)
        if p is None:
            return Screen(top_bar=TopBar(self.t("Post"), on_back=self.back), content=[])
        likers = [*p.likes, *([self.t(ME)] if p.liked else [])]
        comments = [ListItem(self.t(ME) if c.author == ME else c.author, c.text,
                             id=f"comment_{c.id}")
                    for c in sorted(self.data.comments, key=lambda c: c.id) if c.post == p.id]
        return Screen(top_bar=TopBar(p.author, on_back=self.back), content=[
            Text(p.text, id="post_text"),
            Text(p.time, style="caption", id="post_time"),
            Text("♥ " + (self.t(", ").join(likers) if likers else self.t("No likes yet")),
                 id="likes"),
            Button(self.t("Unlike" if p.liked else "Like"), lambda: self.toggle_like(post_id),
                   id="like", style="secondary"),
            ListView(comments, id="comments", empty_text=self.t("No comments")),
            TextField(self.ui.comment, lambda v: self.set_ui(comment=v), id="comment",
                      label=self.t("Comment"), hint=self.t("Comment")),
            Button(self.t("Send"), lambda: self.add_comment(post_id), id="send_comment"),
        ])

    def mini_programs(self) -> Sequence[AppManifest]:
        """The installed mini-programs this app hosts (the device's manifests)."""
        manifests = getattr(self.host, "manifests", ())
        return [m for m in manifests if m.host == self.name]

    def mini_description(self, m: AppManifest) -> str:
        """``m``'s description as the list shows it: English, or in another locale its entry
        in the mini-program's own catalogue (``<mini>/strings/<locale>.json``, keyed by the
        English description; read whether or not its screens declare that locale)."""
        locale = self.system.locale
        handle = getattr(getattr(self.host, "apps", None), "class_of", lambda _: None)(m.package)
        if locale == DEFAULT_LOCALE or handle is None:
            return m.description
        folder = Path(sys.modules[handle.cls.__module__].__file__ or "").parent / "strings"
        return Catalogue(m.name, folder, locale).t(m.description)

    def mini_list(self) -> Screen:
        locale = self.system.locale
        items = [ListItem(m.label_in(locale), self.mini_description(m),
                          id=f"mini_{m.name.lower()}", glyph=m.icon,
                          color=m.color, on_click=lambda m=m: self.open_app(m.name))  # type: ignore[misc]
                 for m in self.mini_programs()]
        return Screen(top_bar=TopBar(self.t("Mini Programs"), on_back=self.back),
                      content=[ListView(items, id="mini_list",
                                        empty_text=self.t("No mini programs"))])

    def wallet_screen(self) -> Screen:
        wallet = self.system.wallet
        txs = sorted(wallet.transactions, key=lambda t: -t.id)

        def row(i: int) -> Node:
            t = txs[i]
            return ListItem(t.counterparty, f"{yuan(t.amount)} · {t.date}"
                            + (f" · {t.memo}" if t.memo else ""), id=f"tx_{t.id}")
        return Screen(top_bar=TopBar(self.t("Wallet"), on_back=self.back), content=[
            Text(yuan(wallet.balance), style="big", id="wallet_balance"),
            Text(self.t("Transactions"), style="caption", id="tx_header"),
            VirtualList(len(txs), row, id="transactions", empty_text=self.t("No transactions")),
        ])
