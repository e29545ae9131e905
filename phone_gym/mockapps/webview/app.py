"""WeChat Browser: the super-app's built-in web view, where links open.

A link in a chat message (an event page, an article, a campaign, a survey) opens here: the
top bar holds back, the page's title and the capsule (``kit.with_capsule``), the host domain
shows under it, and "⋮" (id ``page_menu``) offers Refresh, Copy link (to the system
clipboard), Open in Chrome, Share to chat (a link message in a Chat thread, after a
confirmation) and Font size. A page is markup (``kit.parse_page``: headings, paragraphs,
links to other pages, images); a slow page shows "Loading…" for a few seconds (``wait``).
A page may carry a form: text fields and single-choice questions (chips); its button either
submits the answers (a ``Submission`` in the app's ``Store``) or, on a multi-page form,
keeps them and opens the next page. A campaign page lists coupons to claim (``Coupon``
records). Back on the first page returns to the chat the link was opened from.

Pages, submissions and coupons are the app's own ``Store`` (``apps.WebView.pages`` ...):
PhoneWorld-only, as WeChat keeps them to itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from ...world.app import App, Route, app_strings
from ...world.data import Store, Table
from ...world.kit import (
    BottomSheet,
    Chips,
    ChoiceDialog,
    ConfirmDialog,
    WebPage,
    parse_page,
    with_capsule,
)
from ...world.kit.localize import in_locale
from ...world.locale import DEFAULT_LOCALE
from ...world.widgets import (
    Button,
    Icon,
    ListItem,
    ListView,
    Node,
    Screen,
    Text,
    TextField,
    TopBar,
)
from ..chat.fixtures import send as chat_send
from .manifest import MANIFEST

#: How long a slow page shows "Loading…" (phone seconds).
LOAD_SECONDS = 6
FONT_SIZES = ("Small", "Standard", "Large", "Extra large")


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Page:
    """A web page at ``url``: its ``title`` and ``body`` (``kit.parse_page`` markup).
    ``form`` names the form it carries (empty: none) with ``fields`` as (key, label,
    choices joined by "/" or "" for a text field), its button ``submit``; ``next``: the url
    of a multi-page form's next page (its button keeps the answers and opens it).
    ``coupons``: coupons offered on a campaign page as (title, note) pairs. ``slow``: it
    shows "Loading…" for ``LOAD_SECONDS``."""

    id: int
    url: str
    title: str
    body: str = ""
    form: str = ""
    fields: tuple[tuple[str, str, str], ...] = ()
    submit: str = "Submit"
    next: str = ""
    coupons: tuple[tuple[str, str], ...] = ()
    slow: bool = False


@dataclass(frozen=True)
class Submission:
    """A submitted form: its name, the url of the page it was sent from, the answers as
    (key, value) pairs (every page of a multi-page form)."""

    id: int
    form: str
    url: str
    answers: tuple[tuple[str, str], ...] = ()
    time: str = ""


@dataclass(frozen=True)
class Coupon:
    """A coupon claimed on a campaign page (``url``)."""

    id: int
    url: str
    title: str
    note: str = ""


@dataclass
class WebData(Store):
    """What the app keeps (``apps.WebView.<table>.<id>``)."""

    pages: Table[Page] = field(default_factory=lambda: Table(kind=Page))
    submissions: Table[Submission] = field(default_factory=lambda: Table(kind=Submission))
    coupons: Table[Coupon] = field(default_factory=lambda: Table(kind=Coupon))


@dataclass
class WebUi:
    """Transient state: when the page shown is ready, the form's answers so far, the open
    menu or dialog, the share target and the font size."""

    ready_at: str = ""  # ISO time the shown page finishes loading ("" : loaded)
    values: dict[str, str] = field(default_factory=dict)
    menu: bool = False
    fonts: bool = False
    font: str = "Standard"
    share_to: int | None = None


# --- pure helpers --------------------------------------------------------------------------
def domain(url: str) -> str:
    """The host of ``url`` (``https://events.example.cn/a`` -> ``events.example.cn``)."""
    return urlsplit(url).netloc or url


def page_at(data: WebData, url: str) -> Page | None:
    return data.pages.first(url=url.strip())


def choices(spec: tuple[str, str, str]) -> list[str]:
    return [c for c in spec[2].split("/") if c] if spec[2] else []


def form_pages(data: WebData, page: Page) -> list[Page]:
    """``page`` and the pages its ``next`` chain leads to (a multi-page form)."""
    out = [page]
    while out[-1].next and len(out) < 10:
        nxt = page_at(data, out[-1].next)
        if nxt is None or nxt in out:
            break
        out.append(nxt)
    return out


# --- the app -------------------------------------------------------------------------------
class WebViewApp(App):
    manifest = MANIFEST

    data: WebData
    ui: WebUi

    def initial_data(self) -> WebData:
        return WebData()

    def initial_ui(self) -> WebUi:
        return WebUi()

    def toast(self, text: str) -> None:
        """A toast; its fixed words (the capsule menu's "Link copied" too) in the locale's."""
        if self.system.locale != DEFAULT_LOCALE:
            text = app_strings(type(self), self.system.locale).strings.get(text, text)
        super().toast(text)

    @property
    def ticking(self) -> bool:
        return self.loading

    @property
    def loading(self) -> bool:
        if not self.ui.ready_at:
            return False
        return self.system.now < datetime.fromisoformat(self.ui.ready_at)

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    # --- navigation ----------------------------------------------------------------------
    def start_loading(self, url: str) -> None:
        page = page_at(self.data, url)
        self.ui.menu = self.ui.fonts = False
        self.ui.share_to = None
        if page is not None and page.slow:
            ready = self.system.now + timedelta(seconds=LOAD_SECONDS)
            self.ui.ready_at = ready.isoformat(timespec="seconds")
        else:
            self.ui.ready_at = ""

    def open_link(self, uri: str) -> None:
        """Open ``uri`` as the first page (a link tapped in a chat)."""
        self.ui.values = {}
        self.stack = [Route("page", uri.strip())]
        self.start_loading(uri)

    def follow(self, url: str) -> None:
        self.go("page", url)
        self.start_loading(url)

    def back(self) -> None:
        self.ui.menu = self.ui.fonts = False
        self.ui.ready_at = ""
        super().back()

    def refresh(self) -> None:
        if self.route.name == "page":
            self.start_loading(self.route.arg)

    def copy_link(self) -> None:
        self.ui.menu = False
        if self.route.name == "page":
            self.system.clipboard = self.route.arg
            self.toast("Link copied")

    def open_in_chrome(self) -> None:
        """Hand the page to the system browser (Chrome), as WeChat's "Open in browser"."""
        self.ui.menu = False
        finder = getattr(self.host, "app", None)
        chrome = finder("Chrome") if callable(finder) else None
        if chrome is None or self.route.name != "page":
            self.toast("No browser installed")
            return
        chrome.open_link(self.route.arg)
        self.open_app(chrome.name)

    def start_share(self) -> None:
        self.ui.menu = False
        self.ui.share_to = None
        if self.route.name == "page":
            self.go("share", self.route.arg)

    def chat_store(self) -> Any:
        finder = getattr(self.host, "app", None)
        chat = finder("Chat") if callable(finder) else None
        return getattr(chat, "data", None)

    def confirm_share(self, url: str, chat_id: int) -> None:
        store, page = self.chat_store(), page_at(self.data, url)
        self.ui.share_to = None
        if store is None or page is None or store.chats.get(chat_id) is None:
            return
        chat_send(store, chat_id, page.title, "link", time=self.system.now.strftime("%H:%M"),
                  content=page.url)
        self.toast("Sent")
        self.back()

    def set_value(self, key: str, value: str) -> None:
        self.ui.values[key] = value

    def pick(self, key: str, choice: str) -> None:
        self.ui.values[key] = choice

    def submit(self, page_id: int) -> None:
        page = self.data.pages.get(page_id)
        if page is None or self.loading:
            return
        missing = [label for key, label, _ in page.fields
                   if not self.ui.values.get(key, "").strip()]
        if missing:
            self.toast(self.t("Please fill in: {label}", label=missing[0]))
            return
        if page.next:
            self.follow(page.next)
            return
        keys = [k for p in self.chain_to(page) for k, _, _ in p.fields]
        answers = tuple((k, self.ui.values.get(k, "").strip()) for k in keys)
        self.data.submissions.new(form=page.form, url=page.url, answers=answers,
                                  time=self.system.now.isoformat(timespec="minutes"))
        self.ui.values = {}
        self.replace("done", page.form)

    def chain_to(self, page: Page) -> list[Page]:
        """The pages of the multi-page form ending at ``page`` (the pages open below it)."""
        chain: list[Page] = []
        for r in self.stack:
            p = page_at(self.data, r.arg) if r.name == "page" and r.arg else None
            if p is not None and p.form == page.form and p not in chain:
                chain.append(p)
        return chain if page in chain else [*chain, page]

    def claim(self, url: str, title: str, note: str) -> None:
        if self.data.coupons.first(url=url, title=title) is not None:
            self.toast("Already claimed")
            return
        self.data.coupons.new(url=url, title=title, note=note)
        self.toast("Coupon claimed")

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name == "page":
            screen = self.page_screen(route.arg)
        elif route.name == "share":
            screen = self.share_screen(route.arg)
        elif route.name == "done":
            screen = self.done_screen(route.arg)
        else:
            screen = self.home_screen()
        screen = with_capsule(self, screen, on_share=self.start_share)
        return in_locale(self, screen)

    def home_screen(self) -> Screen:
        return Screen(top_bar=TopBar("", on_back=self.back), content=[
            Text("Open a link in a chat to view it here.", id="empty")])

    def page_screen(self, url: str) -> Screen:
        page = page_at(self.data, url or "")
        title = page.title if page is not None else "Page not found"
        more = Icon("⋮", "Page options", lambda: self.set_ui(menu=True), id="page_menu")
        top = TopBar(title if not self.loading else "Loading…", on_back=self.back,
                     actions=[more])
        content: list[Node] = [Text(f"🔒 {domain(url or '')}", style="caption", id="domain")]
        if self.loading:
            content.append(Text("Loading…", style="title", id="loading"))
        elif page is None:
            content.append(Text("This page could not be found.", id="not_found"))
        else:
            content += self.page_body(page)
        dialog: Node | None = None
        if self.ui.fonts:
            dialog = ChoiceDialog("Font size", list(FONT_SIZES), self.ui.font,
                                  lambda f: self.set_ui(font=f, fonts=False),
                                  lambda: self.set_ui(fonts=False))
        elif self.ui.menu:
            dialog = BottomSheet(title, [
                ("Refresh", self.refresh_menu), ("Copy link", self.copy_link),
                ("Open in Chrome", self.open_in_chrome), ("Share to chat", self.start_share),
                ("Font size", lambda: self.set_ui(menu=False, fonts=True)),
            ], id="page_sheet")
        return Screen(top_bar=top, content=content, dialog=dialog,
                      on_dismiss=lambda: self.set_ui(menu=False, fonts=False))

    def refresh_menu(self) -> None:
        self.ui.menu = False
        self.refresh()

    def page_body(self, page: Page) -> list[Node]:
        blocks = parse_page(page.body)
        nodes = WebPage(blocks, address=page.url, on_address=lambda v: None,
                        on_go=lambda: None, on_link=self.follow)
        out: list[Node] = [nodes[-1]]  # WeChat shows no address bar: the page only
        for i, (title, note) in enumerate(page.coupons):
            claimed = self.data.coupons.first(url=page.url, title=title) is not None
            out.append(ListItem(title, note, id=f"coupon_{i}", glyph="%"))
            out.append(Button("Claimed" if claimed else "Claim",
                              partial(self.claim, page.url, title, note),
                              id=f"claim_{i}", style="secondary"))
        for key, label, _ in page.fields:
            spec = next(s for s in page.fields if s[0] == key)
            opts = choices(spec)
            if opts:
                out.append(Text(label, id=f"q_{key}"))
                picked = self.ui.values.get(key, "")
                out.append(Chips(opts, [picked], partial(self.pick, key), id=f"field_{key}"))
            else:
                out.append(TextField(self.ui.values.get(key, ""), partial(self.set_value, key),
                                     id=f"field_{key}", label=label, hint=label))
        if page.fields:
            out.append(Button("Next" if page.next else page.submit,
                              partial(self.submit, page.id), id="submit"))
        return out

    def share_screen(self, url: str) -> Screen:
        store = self.chat_store()
        chats = sorted(store.chats, key=lambda c: (c.title.lower(), c.id)) if store else []
        items = [ListItem(c.title, "Group" if c.group else "", id=f"to_{c.id}",
                          glyph="#" if c.group else c.title[:1],
                          on_click=partial(self.set_ui, share_to=c.id))
                 for c in chats]
        dialog = None
        target = store.chats.get(self.ui.share_to) if store and self.ui.share_to else None
        page = page_at(self.data, url or "")
        if target is not None and page is not None:
            dialog = ConfirmDialog(self.t("Send to {name}?", name=target.title),
                                   self.t("[Link] {title}", title=page.title),
                                   on_confirm=lambda: self.confirm_share(url, target.id),
                                   on_cancel=lambda: self.set_ui(share_to=None),
                                   confirm="Send")
        return Screen(top_bar=TopBar("Select a chat", on_back=self.back),
                      content=[ListView(items, id="share_list", empty_text="No chats")],
                      dialog=dialog, on_dismiss=lambda: self.set_ui(share_to=None))

    def done_screen(self, form: str) -> Screen:
        return Screen(top_bar=TopBar(form or "Submitted", on_back=self.back), content=[
            Text("Submitted", style="title", id="submitted"),
            Text("Thank you! Your answers have been received.", id="thanks")])
