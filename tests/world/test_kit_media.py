"""The screen kit, part 3: cards, the image grid, the chat thread and the web page, each on
a tiny app driven on a ``Device`` (helpers: ``test_kit``)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from driving import act, fill, long_press, press, tap
from test_kit import (
    check_accessible,
    colors,
    element,
    elements,
    ids,
    region,
    render,
    scroll,
    start,
)

from phone_gym.actions import PhoneAction
from phone_gym.world import App, Device, Route, Screen
from phone_gym.world import theme as T
from phone_gym.world.kit import (
    Block,
    Card,
    CardList,
    ChatMessage,
    ChatThread,
    GridItem,
    ImageGrid,
    WebPage,
    parse_page,
)
from phone_gym.world.kit.chat import VIRTUAL_FROM
from phone_gym.world.layout import bubble_span
from phone_gym.world.manifest import AppManifest
from phone_gym.world.widgets import Node, TopBar

# --- cards ------------------------------------------------------------------------------------


@dataclass
class TripsUi:
    log: list[str] = field(default_factory=list)


class TripsApp(App):
    manifest = AppManifest("Trips", "com.example.trips")
    ui: TripsUi

    def initial_ui(self) -> TripsUi:
        return TripsUi()

    def view(self, route: Route) -> Screen:
        log = self.ui.log.append
        return Screen(top_bar=TopBar("Trips"), content=[CardList([
            Card("Rome", subtitle="May 3 - 8", body="Five days of pasta and old stones.",
                 glyph="✈", image="A plane over the sea", id="rome",
                 actions=[("Share", lambda: log("share")), ("Open", lambda: log("open"))]),
            Card("Packing list", body="Passport, charger", on_click=lambda: log("packing"),
                 id="packing"),
        ])])


def test_cards_show_picture_text_and_actions() -> None:
    device = start(TripsApp)
    check_accessible(device)
    rome = element(device, "rome")
    assert rome.class_name == "android.widget.FrameLayout" and not rome.clickable
    image = element(device, "rome_image")
    assert image.class_name == "android.widget.ImageView"
    assert image.content_desc == "A plane over the sea"
    assert element(device, "rome_title").text == "Rome"
    assert element(device, "rome_subtitle").text == "May 3 - 8"
    assert element(device, "rome_body").text.startswith("Five days")
    share, open_ = element(device, "rome_share"), element(device, "rome_open")
    assert share.clickable and share.text == "Share" and open_.text == "Open"
    for inner in (image, share, open_):  # inside the card
        assert rome.bounds[0] < inner.bounds[0] and inner.bounds[2] < rome.bounds[2]
        assert rome.bounds[1] < inner.bounds[1] and inner.bounds[3] < rome.bounds[3]
    packing = element(device, "packing")
    assert packing.clickable and packing.content_desc == "Packing list"
    assert packing.bounds[1] > rome.bounds[3]  # stacked with a gap
    tap(device, id="rome_open")
    tap(device, id="packing_body")  # a tap anywhere on a clickable card
    assert device.apps["Trips"].ui.log == ["open", "packing"]
    picture = render(device)
    tile = region(picture, image.bounds)
    assert colors(tile) > 2  # the colored tile and its glyph
    edge = region(picture, (rome.bounds[0], rome.bounds[1] + 40, rome.bounds[0] + 3,
                            rome.bounds[3] - 40))
    assert (edge != T.BG).any()  # the card's outline


# --- image grid -------------------------------------------------------------------------------

PHOTOS = [GridItem(f"IMG_{i:03d}", f"A photo of {thing}", glyph)
          for i, (thing, glyph) in enumerate([("a beach", "☀"), ("a cat", "♥"),
                                              ("a camera", "📷"), ("a star", "★")] * 25)]


@dataclass
class GalleryUi:
    opened: int | None = None
    selected: set[int] = field(default_factory=set)


class GalleryApp(App):
    manifest = AppManifest("Gallery", "com.example.gallery")
    ui: GalleryUi

    def initial_ui(self) -> GalleryUi:
        return GalleryUi()

    def view(self, route: Route) -> Screen:
        ui = self.ui
        return Screen(top_bar=TopBar("Photos"), content=[ImageGrid(
            PHOTOS, columns=3, on_open=lambda i: setattr(ui, "opened", i),
            on_long_press=lambda i: ui.selected.symmetric_difference_update({i}),
            selected=ui.selected, id="photos")])


def gallery_ui(device: Device) -> GalleryUi:
    app = device.apps["Gallery"]
    assert isinstance(app, GalleryApp)
    return app.ui


def test_image_grid_shows_labelled_thumbnails_in_columns() -> None:
    device = start(GalleryApp)
    shown = check_accessible(device)
    thumbs = [e for e in shown if e.class_name == "android.widget.ImageView"]
    assert 9 <= len(thumbs) < 40  # 100 photos: only the rows on screen (and a margin) exist
    first = element(device, "photos_0")
    assert (first.text, first.content_desc) == ("IMG_000", "A photo of a beach")
    assert first.clickable and first.long_clickable and not first.selected
    row = [element(device, f"photos_{i}") for i in range(3)]
    assert len({e.bounds[1] for e in row}) == 1  # one row of three
    assert row[0].bounds[2] <= row[1].bounds[0] and row[1].bounds[2] <= row[2].bounds[0]
    assert element(device, "photos_3").bounds[1] >= row[0].bounds[3]  # the next row below
    assert element(device, "photos").scrollable


def test_image_grid_opens_selects_and_scrolls() -> None:
    device = start(GalleryApp)
    before = render(device)
    tap(device, id="photos_4")
    assert gallery_ui(device).opened == 4
    long_press(device, id="photos_1")
    assert gallery_ui(device).selected == {1} and element(device, "photos_1").selected
    rect = element(device, "photos_1").bounds
    assert not np.array_equal(region(before, rect), region(render(device), rect))  # checked
    for _ in range(5):
        scroll(device)
    later = [e for e in elements(device) if e.short_id.startswith("photos_")
             and e.class_name.endswith("ImageView")]
    assert "photos_0" not in ids(device) and min(int(e.short_id[7:]) for e in later) > 20
    check_accessible(device)
    render(device)


def test_an_empty_grid_says_so() -> None:
    grid = ImageGrid([], id="photos", empty_text="No photos yet")
    assert grid.children[0].text == "No photos yet"


# --- chat thread ------------------------------------------------------------------------------

SHORT = [
    ChatMessage("Are we still on for lunch tomorrow?", sender="Ann", time="09:40"),
    ChatMessage("Yes! 12:30 at the usual place", outgoing=True, time="09:41"),
    ChatMessage("ok", sender="Ann", time="09:42"),
]


@dataclass
class ChatUi:
    messages: list[ChatMessage] = field(default_factory=lambda: list(SHORT))
    draft: str = ""


class ChatApp(App):
    manifest = AppManifest("Chat", "com.example.chat")
    ui: ChatUi

    def initial_ui(self) -> ChatUi:
        return ChatUi()

    def send(self, text: str) -> None:
        self.ui.messages.append(ChatMessage(text, outgoing=True, time="09:43"))
        self.ui.draft = ""

    def view(self, route: Route) -> Screen:
        ui = self.ui
        return Screen(top_bar=TopBar("Ann"), content=ChatThread(
            ui.messages, draft=ui.draft, on_draft=lambda text: setattr(ui, "draft", text),
            on_send=self.send, menu=lambda i: [("Delete", lambda: ui.messages.pop(i))]))


def chat_ui(device: Device) -> ChatUi:
    app = device.apps["Chat"]
    assert isinstance(app, ChatApp)
    return app.ui


def test_chat_bubbles_sit_left_or_right_with_their_times() -> None:
    device = start(ChatApp)
    check_accessible(device)
    bubbles = [element(device, f"message_{i}") for i in range(3)]
    assert [b.text for b in bubbles] == [m.text for m in SHORT]
    assert [b.hint for b in bubbles] == ["09:40", "09:41", "09:42"]
    assert [b.content_desc for b in bubbles] == ["Ann", "You", "Ann"]
    assert all(b.class_name == "android.widget.TextView" and b.long_clickable for b in bubbles)
    thread = element(device, "thread")
    assert bubbles[0].bounds[0] == thread.bounds[0] and bubbles[0].bounds[2] < thread.bounds[2]
    assert bubbles[1].bounds[2] == thread.bounds[2] and bubbles[1].bounds[0] > thread.bounds[0]
    assert bubbles[2].bounds[2] - bubbles[2].bounds[0] < 400  # as wide as its text
    composer, send = element(device, "composer"), element(device, "send")
    assert composer.editable and composer.content_desc == "Message"
    assert send.content_desc == "Send" and not send.enabled  # nothing to send yet
    assert composer.bounds[1] >= bubbles[2].bounds[3]
    image = render(device)
    assert (region(image, bubbles[1].bounds) == T.PRIMARY).all(axis=-1).mean() > 0.5  # blue
    assert not (region(image, bubbles[0].bounds) == T.PRIMARY).all(axis=-1).mean() > 0.5


def test_chat_sends_from_the_button_or_enter() -> None:
    device = start(ChatApp)
    before = render(device)
    fill(device, "composer", "See you there")
    assert element(device, "send").enabled
    tap(device, id="send")
    ui = chat_ui(device)
    assert ui.messages[-1] == ChatMessage("See you there", outgoing=True, time="09:43")
    assert ui.draft == "" and element(device, "message_3").text == "See you there"
    assert not np.array_equal(render(device), before)
    fill(device, "composer", "  Bye  ")
    press(device, "enter")
    assert ui.messages[-1].text == "Bye"
    fill(device, "composer", "   ")
    press(device, "enter")  # blank: nothing is sent
    assert len(ui.messages) == 5


def test_chat_messages_copy_and_show_their_menu() -> None:
    device = start(ChatApp)
    long_press(device, id="message_0")
    items = [e.text for e in elements(device) if e.class_name.endswith("TextView")
             and e.kind == "menu_item"]
    assert items == ["Delete", "Copy"]
    tap(device, "Copy", kind="menu_item")
    assert device.system.clipboard == SHORT[0].text
    long_press(device, id="message_2")
    tap(device, "Delete", kind="menu_item")
    assert [m.text for m in chat_ui(device).messages] == [m.text for m in SHORT[:2]]


def test_long_threads_are_virtual() -> None:
    device = start(ChatApp)
    long = [ChatMessage(f"Message number {i} " + "word " * (40 if i % 4 == 1 else i % 4),
                        outgoing=i % 3 == 0,
                        sender="" if i % 3 == 0 else "Ann", time=f"10:{i % 60:02d}")
            for i in range(VIRTUAL_FROM * 5)]
    chat_ui(device).messages = long
    device.invalidate()
    shown = check_accessible(device)
    bubbles = [e for e in shown if e.short_id.startswith("message_")]
    assert 3 < len(bubbles) < 30 and bubbles[0].text == long[0].text
    heights = {e.full_bounds[3] - e.full_bounds[1] for e in bubbles if e.full_bounds}
    assert len(heights) == 1  # rows of one height
    render(device)
    for _ in range(10):
        scroll(device)
    later = [e for e in elements(device) if e.short_id.startswith("message_")]
    assert "message_0" not in ids(device)
    assert all(e.text == long[int(e.short_id[8:])].text for e in later)
    image = render(device)
    cut = next(e for e in later if len(e.text) > 150)  # a long message: cut short on screen
    assert colors(region(image, cut.bounds)) > 4


def test_bubble_width_follows_the_text() -> None:
    short = Node("bubble", text="ok", style="in")
    longer = Node("bubble", text="A much longer message than that", style="out")
    x0, x1 = bubble_span(short, 48, 1032)
    assert x0 == 48 and x1 - x0 < 300
    x0, x1 = bubble_span(longer, 48, 1032)
    assert x1 == 1032 and x1 - x0 <= int(984 * T.BUBBLE_SHARE)


# --- web page ---------------------------------------------------------------------------------

SITE = {
    "https://news.example.com": """# Daily News
Rain is expected all week.
Bring an umbrella.

## Sports
The home team won 3-1.
[Read the match report](https://news.example.com/report)
![A football on the grass](★)
[Weather](https://weather.example.com)""",
    "https://news.example.com/report": "# Match report\nIt was a good game.",
}


@dataclass
class BrowserUi:
    url: str = "https://news.example.com"
    address: str = "https://news.example.com"
    history: list[str] = field(default_factory=list)


class BrowserApp(App):
    manifest = AppManifest("Browser", "com.example.browser")
    ui: BrowserUi

    def initial_ui(self) -> BrowserUi:
        return BrowserUi()

    def open(self, url: str) -> None:
        self.ui.history.append(url)
        self.ui.url = self.ui.address = url

    def view(self, route: Route) -> Screen:
        ui = self.ui
        page = SITE.get(ui.url, "# Not found\nNo page at this address.")
        return Screen(content=WebPage(
            parse_page(page), address=ui.address,
            on_address=lambda text: setattr(ui, "address", text),
            on_go=lambda: self.open(ui.address), on_link=self.open))


def browser_ui(device: Device) -> BrowserUi:
    app = device.apps["Browser"]
    assert isinstance(app, BrowserApp)
    return app.ui


def test_parse_page() -> None:
    assert parse_page(SITE["https://news.example.com"]) == [
        Block("h1", "Daily News"),
        Block("p", "Rain is expected all week. Bring an umbrella."),
        Block("h2", "Sports"),
        Block("p", "The home team won 3-1."),
        Block("link", "Read the match report", "https://news.example.com/report"),
        Block("image", "A football on the grass", glyph="★"),
        Block("link", "Weather", "https://weather.example.com"),
    ]
    assert parse_page("") == []
    assert parse_page("![A map]") == [Block("image", "A map")]


def test_web_page_shows_headings_paragraphs_links_and_images() -> None:
    device = start(BrowserApp)
    check_accessible(device)
    bar = element(device, "url_bar")
    assert bar.editable and bar.text == "https://news.example.com"
    assert bar.content_desc == "Address"
    assert element(device, "go").content_desc == "Go"
    assert element(device, "heading_0").text == "Daily News"
    assert element(device, "heading_2").text == "Sports"
    paragraph = element(device, "paragraph_1")
    assert paragraph.text == "Rain is expected all week. Bring an umbrella."
    assert paragraph.long_clickable and not paragraph.clickable
    link = element(device, "link_4")
    assert (link.text, link.hint) == ("Read the match report", "https://news.example.com/report")
    assert link.clickable and link.class_name == "android.widget.TextView"
    assert element(device, "image_5").content_desc == "A football on the grass"
    image = render(device)
    assert (region(image, link.bounds) == T.PRIMARY).all(axis=-1).any()  # a blue link


def test_web_page_links_and_the_address_bar_navigate() -> None:
    device = start(BrowserApp)
    before = render(device)
    tap(device, id="link_4")
    ui = browser_ui(device)
    assert ui.history == ["https://news.example.com/report"]
    assert element(device, "heading_0").text == "Match report"
    assert element(device, "url_bar").text == "https://news.example.com/report"
    assert not np.array_equal(render(device), before)
    fill(device, "url_bar", "https://news.example.com")
    press(device, "enter")
    assert ui.url == "https://news.example.com"
    fill(device, "url_bar", "https://nowhere.example.com")
    press(device, "back")  # hide the keyboard
    tap(device, id="go")
    assert element(device, "heading_0").text == "Not found"
    act(device, PhoneAction("scroll", x=500, y=500, direction="down"))  # short: nothing moves
    render(device)
