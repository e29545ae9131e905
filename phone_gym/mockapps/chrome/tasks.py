"""Chrome tasks: AndroidWorld's browser tasks (``BrowserDraw``, ``BrowserMaze``,
``BrowserMultiply``). Setup puts the task page (``task.html``, its content seeded by
``browser_task_seed``) and a few other files in Download; as in AndroidWorld, the
instruction says to open it from the file manager and, asked, with Chrome (Files'
"Open with" sheet). The verifier reads the page's progress from Chrome's data
(``apps.Chrome.pages``: the page's record must be solved), so doing nothing, or solving it
on the screen alone, fails; and, as AndroidWorld's check, Chrome must be on screen at the
end."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver, OracleError
from ...tasks.task import Task, data_catalogue
from ...verifiers import Allow, Allowed, Criterion, NearMiss, Record, Value
from ...world.app import app_strings
from ...world.device import LAUNCHER_PACKAGE
from ...world.locale import DEFAULT_LOCALE
from .app import DOWNLOAD, SCHEME, ChromeApp
from .manifest import MANIFEST
from .pages import Cell, maze_path, product, task_html

COLLECTION = "apps.Chrome.pages"
#: Other files in Download (bystanders): name -> content.
OTHER_FILES = {
    "boarding-pass.txt": "Flight LH 455, seat 14C, gate B22",
    "menu.html": "<html><body><h1>Lunch menu</h1><p>Soup of the day, pasta, salad.</p>"
                 "</body></html>",
    "notes.txt": "Buy stamps. Call the plumber.",
    "invoice-0423.txt": "Invoice 0423: garden maintenance, $240.00",
}


#: The bystander files' contents in zh-CN (``strings/zh-CN.data.json``).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}

#: AndroidWorld's first sentence of every browser task (and as a Chinese user would say it).
PREAMBLE = ('Open the file {file_name} in Downloads in the file manager; when prompted open '
            'it with Chrome.')
PREAMBLE_ZH = "在文件管理的“Download”文件夹里打开文件 {file_name}，提示选择应用时用 Chrome 打开。"


def label(ui: Driver, key: str) -> str:
    """Chrome's words for ``key`` in the phone's locale (what the page shows)."""
    return app_strings(ChromeApp, ui.locale).t(key)


class BrowserTask(Task):
    """The page is reached through Files, a route: the task is about Chrome (AndroidWorld's
    ``app_names``), so PhoneWorld-Bench counts it single-app as it did."""

    apps = ("Chrome",)
    kind: ClassVar[str] = ""
    start = AW_START
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")

    locales_stay_home = True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"browser_task_seed": int(rng.integers(0, 2**32)), "file_name": "task.html"}

    def url(self, p: Mapping[str, Any]) -> str:
        return SCHEME + DOWNLOAD + p["file_name"]

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        locale = getattr(state, "locale", DEFAULT_LOCALE)
        for name in sorted(OTHER_FILES):
            if rng.random() < 0.75:
                text = OTHER_FILES[name]
                if locale != DEFAULT_LOCALE:
                    text = DATA[locale][text]
                state.write_file(DOWNLOAD + name, text.encode("utf-8"))
        state.write_file(DOWNLOAD + params["file_name"],
                         task_html(self.kind, params["browser_task_seed"]).encode("utf-8"))

    def criteria(self, p: Mapping[str, Any], initial: Any) -> Sequence[Criterion]:
        return [Record(COLLECTION, {"url": self.url(p), "solved": True}, count=1),
                Value("foreground", MANIFEST.package)]

    def allowed(self, p: Mapping[str, Any], initial: Any) -> Sequence[Allowed]:
        return [Allow(COLLECTION, None, where={"url": self.url(p)}, max=1)]

    def declared_near_misses(self, initial: Any, final: Any, params: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        if "foreground" not in final:
            return []
        return [NearMiss({**final, "foreground": LAUNCHER_PACKAGE}, answer,
                         "solved, then left Chrome for the home screen")]

    def open_page(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        """Files, Download, the page, "Open with" Chrome, just once."""
        yield from ui.open_app("Files")
        for _ in range(3):  # back to the root, unless the folder or the sheet shows
            if ui.find(id="resolver") or ui.find(id="folder_download") or ui.find(
                    id="files_list") and ui.must(id="toolbar").text == "Download":
                break
            yield from ui.press("back")
        if ui.find(id="resolver") is None:
            if ui.find(id="folder_download") is not None:
                yield from ui.tap(id="folder_download")
            yield from ui.tap(p["file_name"], kind="list_item")
        yield from ui.tap(id="open_with_chrome")
        yield from ui.tap(id="button_once")


class BrowserDraw(BrowserTask):
    template = PREAMBLE + (' Then create a drawing using the three colors shown at the top '
                           'and hit submit.')
    instructions = {"zh-CN": PREAMBLE_ZH + "然后用页面顶部显示的三种颜色画一幅画，再点“提交”。"}
    kind = "draw"
    complexity, max_steps = 2, 20

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_page(ui, p)
        for i in range(3):
            yield from ui.tap(id=f"swatch_{i}")
            yield from ui.reveal(id="canvas")
            x0, y0, x1, y1 = ui.must(id="canvas").bounds_norm
            y = y0 + (i + 1) * (y1 - y0) // 4
            yield PhoneAction("drag", x=x0 + 40, y=y, x2=x1 - 40, y2=y)
        yield from ui.tap(label(ui, "Submit"))
        yield from ui.finish()


def read_maze(ui: Driver) -> tuple[frozenset[Cell], Cell]:
    """The maze the page draws (its picture: ``@`` the marker, ``#`` a wall, ``G`` the goal),
    as read off the screen: its walls and where the marker is."""
    for text in ui.picture_texts():
        rows = [line.split() for line in text.splitlines()]
        if not any("@" in row for row in rows):
            continue
        walls = frozenset((r, c) for r, row in enumerate(rows)
                          for c, cell in enumerate(row) if cell == "#")
        at = next((r, row.index("@")) for r, row in enumerate(rows) if "@" in row)
        return walls, at
    raise OracleError("no maze with a marker on screen")


class BrowserMaze(BrowserTask):
    template = PREAMBLE + (' Then navigate the marker to the bottom-right cell, by using the '
                           'direction buttons.')
    instructions = {"zh-CN": PREAMBLE_ZH + "然后用方向按钮把标记移到右下角的格子。"}
    kind = "maze"
    complexity, max_steps = 2, 20

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why(f"Opening {p['file_name']} from Downloads with Chrome")
        yield from self.open_page(ui, p)
        walls, at = read_maze(ui)
        moves = maze_path(walls, at)
        if moves is None:
            raise OracleError("the maze drawn has no way to the goal")
        ui.why(f"The maze has {len(walls)} wall cells; the shortest way from the marker to "
               f"G is {', '.join(moves) or 'no move at all'}")
        for move in moves:
            yield from ui.tap(id=f"move_{move.lower()}")
        ui.why("The marker is on the goal")
        yield from ui.finish()


class BrowserMultiply(BrowserTask):
    template = PREAMBLE + (' Then click the button 5 times, remember the numbers displayed, '
                           'and enter their product in the form.')
    instructions = {"zh-CN": PREAMBLE_ZH + "然后点 5 次按钮，记住显示的数字，"
                             "并在表单里填入它们的乘积。"}
    kind = "multiply"
    complexity, max_steps = 2, 22
    derivations: ClassVar[Mapping[str, str]] = {
        "type": "the product of the five numbers the page showed"}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why(f"Opening {p['file_name']} from Downloads with Chrome")
        yield from self.open_page(ui, p)
        ui.why("Pressing the button five times to show the five numbers")
        for _ in range(5):
            yield from ui.tap(id="generate")
        # "Number 1: 42" (zh-CN: "数字1：42"): the number is the row's last run of digits
        shown = [int(re.findall(r"\d+", ui.must(id=f"number_{i}").text)[-1])
                 for i in range(5)]
        ui.why(f"The numbers are {', '.join(map(str, shown))}; their product is "
               f"{product(shown)}: entering it")
        yield from ui.tap(id="product", kind="text_field")
        yield PhoneAction("type", text=str(product(shown)))
        yield from ui.tap(label(ui, "Submit"))
        ui.why("The product is submitted")
        yield from ui.finish()


TEMPLATES: list[Task] = [BrowserDraw(), BrowserMaze(), BrowserMultiply()]
