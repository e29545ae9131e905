"""Chrome: a browser for local pages (``file:///sdcard/Download/<name>.html``), with a
Downloads page listing the files of ``/sdcard/Download`` (tap one to open it), an address
bar (a VIEW intent for a ``file://`` address opens it too: ``open_link``), and the three
interactive pages of AndroidWorld's browser tasks (see ``pages``):

- ``draw``: three color swatches, a canvas and Submit ("Success!" once the canvas holds
  strokes in all three colors);
- ``maze``: a 4x4 maze drawn as a picture, Up/Down/Left/Right buttons (the marker reaching
  the bottom-right goal shows "Success!");
- ``multiply``: a "Generate number" button revealing five numbers one by one, and a form
  for their product ("Success!" when all five are shown and the product is right).

Each task page's progress is app data (``ChromeData.pages``: one ``TaskPage`` per page
opened), so verifiers read whether it was solved from state, not from the screen. Opening
a page (again) starts it over, as a reload does, until it is solved: a solved page shows
"Success!" and its controls no longer change it. Other HTML
files show their text; other files cannot be opened.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import (
    Canvas,
    Image,
    Picture,
    Stroke,
    WebPage,
    decode_strokes,
    encode_strokes,
    parse_page,
)
from ...world.kit.localize import in_locale
from ...world.kit.searchbar import SearchAppBar, SearchField
from ...world.system import File
from ...world.widgets import (
    Button,
    Icon,
    ListItem,
    Node,
    Row,
    Screen,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST
from .pages import (
    GOAL,
    PALETTE,
    TITLES,
    draw_colors,
    maze_lines,
    maze_walls,
    numbers,
    product,
    step,
    task_of,
)

DOWNLOAD = "/sdcard/Download/"
SCHEME = "file://"
SUCCESS = "Success!"


@dataclass(frozen=True)
class TaskPage:
    """A task page's progress: ``strokes`` (draw, encoded), ``at`` ("row,col": maze),
    ``revealed`` (multiply), ``solved`` once its check passed."""

    id: int
    url: str
    kind: str
    seed: int
    solved: bool = False
    strokes: str = ""
    at: str = "0,0"
    revealed: int = 0


@dataclass
class ChromeData(Store):
    pages: Table[TaskPage] = field(default_factory=lambda: Table(kind=TaskPage))


@dataclass
class ChromeUi:
    """The tab's address and page, what is typed, the brush, and the page's message."""

    url: str = ""
    address: str = ""
    brush: int = 0
    product: str = ""
    message: str = ""


def path_of(url: str) -> str:
    """The file path of a ``file://`` address (or of a bare path)."""
    url = url.strip()
    return url[len(SCHEME):] if url.startswith(SCHEME) else url


def text_of(html: str) -> str:
    """The readable text of a simple HTML file (tags dropped, blocks on their own lines)."""
    html = re.sub(r"<(script|style|head)\b.*?</\1>", "", html, flags=re.S | re.I)
    html = re.sub(r"<h1[^>]*>", "\n# ", html, flags=re.I)
    html = re.sub(r"<(br|p|div|li|h\d)\b[^>]*>", "\n\n", html, flags=re.I)
    return re.sub(r"<[^>]+>", "", html)


class ChromeApp(App):
    manifest = MANIFEST

    data: ChromeData
    ui: ChromeUi

    def initial_data(self) -> ChromeData:
        return ChromeData()

    def initial_ui(self) -> ChromeUi:
        return ChromeUi()

    # --- navigation ---------------------------------------------------------------------
    def set_address(self, text: str) -> None:
        self.ui.address = text

    def go_address(self) -> None:
        text = self.ui.address.strip()
        if not text:
            return
        path = path_of(text)
        self.open_url(SCHEME + path if path.startswith("/") else text)

    def open_url(self, url: str) -> None:
        """Load ``url`` in the tab (a task page starts over)."""
        self.ui.url = self.ui.address = url
        self.ui.brush, self.ui.product, self.ui.message = 0, "", ""
        file = self.system.files.get(path_of(url))
        task = task_of(file.content) if file is not None else None
        if task is not None:
            page = self.data.pages.first(url=url)
            if page is None:
                self.data.pages.new(url=url, kind=task[0], seed=task[1])
            elif not page.solved:
                self.data.pages.update(page.id, strokes="", at="0,0", revealed=0)
        self.stack = [Route("main")]

    def open_link(self, uri: str) -> None:
        """A VIEW intent for a ``file://`` address (``am start -a
        android.intent.action.VIEW -d file:///sdcard/Download/x.html``) loads it."""
        self.open_url(uri)

    def open_file(self, path: str) -> None:
        if path.lower().endswith((".html", ".htm")):
            self.open_url(SCHEME + path)
        else:
            self.toast(self.t("Can't open this file"))

    def page(self) -> TaskPage | None:
        return self.data.pages.first(url=self.ui.url) if self.ui.url else None

    def live_page(self) -> TaskPage | None:
        """The task page shown, while it is not solved (a solved page is done: its controls
        no longer change it)."""
        page = self.page()
        return page if page is not None and not page.solved else None

    # --- task pages -----------------------------------------------------------------------
    def pick_brush(self, i: int) -> None:
        self.ui.brush = i

    def draw(self, x0: int, y0: int, x1: int, y1: int) -> None:
        page = self.live_page()
        if page is None:
            return
        color = PALETTE[draw_colors(page.seed)[self.ui.brush]]
        strokes = [*decode_strokes(page.strokes), Stroke(x0, y0, x1, y1, color)]
        self.data.pages.update(page.id, strokes=encode_strokes(strokes))

    def clear_canvas(self) -> None:
        page = self.live_page()
        if page is not None:
            self.data.pages.update(page.id, strokes="")

    def submit_drawing(self) -> None:
        page = self.live_page()
        if page is None:
            return
        used = {s.color for s in decode_strokes(page.strokes)}
        if all(PALETTE[c] in used for c in draw_colors(page.seed)):
            self.solve(page)
        else:
            self.ui.message = "Not yet: use all three colors"

    def move(self, direction: str) -> None:
        page = self.live_page()
        if page is None:
            return
        r, c = (int(v) for v in page.at.split(","))
        at = step(maze_walls(page.seed), (r, c), direction)
        self.data.pages.update(page.id, at=f"{at[0]},{at[1]}")
        if at == GOAL:
            self.solve(page)

    def reveal(self) -> None:
        page = self.live_page()
        if page is not None and page.revealed < 5:
            self.data.pages.update(page.id, revealed=page.revealed + 1)

    def set_product(self, text: str) -> None:
        self.ui.product = text

    def submit_product(self) -> None:
        page = self.live_page()
        if page is None:
            return
        typed = self.ui.product.strip().replace(",", "")
        if page.revealed == 5 and typed == str(product(numbers(page.seed))):
            self.solve(page)
        else:
            self.ui.message = "Wrong answer"

    def solve(self, page: TaskPage) -> None:
        if not page.solved:
            self.data.pages.update(page.id, solved=True)
        self.ui.message = SUCCESS

    # --- views ----------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        screen = self.downloads() if route.name == "downloads" else self.tab()
        return in_locale(self, screen)

    def top_bar(self) -> Node:
        # Chrome: no title, the omnibox is the top bar (WebPage's address field, id url_bar)
        return SearchAppBar(
            SearchField(self.ui.address, self.set_address, hint="Search or type web address",
                        id="url_bar", label="Address", on_submit=self.go_address),
            actions=[Icon("⬇", "Downloads", partial(self.go, "downloads"), id="downloads"),
                     Icon("⌂", "Home", partial(self.open_url, ""), id="home")])

    def tab(self) -> Screen:
        url = self.ui.url
        content: list[Node] = []  # the address field is the top bar (``top_bar``)
        if not url:
            blank = "# {}\n\n{}\n\n[{}](downloads)".format(
                self.t("New tab"), self.t("Type a web address, or open a file from Downloads."),
                self.t("Downloads"))
            content += WebPage(parse_page(blank),
                               address="", on_address=self.set_address,
                               on_go=self.go_address, on_link=lambda _: self.go("downloads"))[1:]
            return Screen(top_bar=self.top_bar(), content=content)
        file = self.system.files.get(path_of(url))
        page = self.page()
        if file is None:
            content += [Text("This site can't be reached", style="title", id="error_title"),
                        Text(self.t("{url} could not be found. ERR_FILE_NOT_FOUND", url=url),
                             id="error")]
        elif page is None:
            content += WebPage(parse_page(text_of(file.content)), address=url,
                               on_address=self.set_address, on_go=self.go_address,
                               on_link=self.open_url)[1:]
        else:
            content += [Text(TITLES[page.kind], style="title", id="page_title"),
                        *getattr(self, f"{page.kind}_page")(page)]
            message = SUCCESS if page.solved else self.ui.message
            if message:
                content.append(Text(message, style="title", id="result"))
        return Screen(top_bar=self.top_bar(), content=content)

    def draw_page(self, page: TaskPage) -> list[Node]:
        colors = draw_colors(page.seed)
        swatches = [Image(self.t("Color {n}", n=i + 1), "✓" if i == self.ui.brush else "○",
                          color=PALETTE[c], height=120, id=f"swatch_{i}",
                          on_click=partial(self.pick_brush, i)) for i, c in enumerate(colors)]
        return [Text("Draw on the canvas with all three colors, then press Submit.",
                     id="instructions"),
                Row(swatches, id="swatches"),
                Canvas(decode_strokes(page.strokes), self.draw, desc="Drawing canvas",
                       height=520),
                Row([Button("Clear", self.clear_canvas, id="clear", style="secondary"),
                     Button("Submit", self.submit_drawing, id="submit")])]

    def maze_page(self, page: TaskPage) -> list[Node]:
        r, c = (int(v) for v in page.at.split(","))
        return [Text("Move the marker (@) to the goal (G); # is a wall.", id="instructions"),
                Picture(maze_lines(maze_walls(page.seed), (r, c)), desc="Maze", height=420),
                Row([Button(m, partial(self.move, m), id=f"move_{m.lower()}",
                            style="secondary") for m in ("Left", "Up", "Down", "Right")],
                    id="moves")]

    def multiply_page(self, page: TaskPage) -> list[Node]:
        shown = numbers(page.seed)[:page.revealed]
        return [Text("Press the button five times, then enter the product of the five "
                     "numbers.", id="instructions"),
                Button("Generate number", self.reveal, id="generate",
                       enabled=page.revealed < 5),
                *(Text(self.t("Number {n}: {value}", n=i + 1, value=v), id=f"number_{i}")
                  for i, v in enumerate(shown)),
                TextField(self.ui.product, self.set_product, id="product", label="Product",
                          hint="Product", on_submit=self.submit_product),
                Button("Submit", self.submit_product, id="submit")]

    def downloads(self) -> Screen:
        files = self.system.files
        paths = sorted((f.path for f in files
                        if f.path.startswith(DOWNLOAD) and "/" not in f.path[len(DOWNLOAD):]),
                       key=str.casefold)

        def row(i: int) -> Node:
            file: File = files[paths[i]]
            return ListItem(file.name, self.t("{size} B · file://{path}",
                                              size=len(file.content.encode()), path=file.path),
                            id=f"download_{i}", glyph="📄",
                            on_click=partial(self.open_file, paths[i]))

        return Screen(top_bar=TopBar("Downloads", on_back=self.back),
                      content=[VirtualList(len(paths), row, id="downloads_list",
                                           empty_text="No downloads")])
