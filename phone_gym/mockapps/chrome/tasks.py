"""Chrome tasks: AndroidWorld's browser tasks (``BrowserDraw``, ``BrowserMaze``,
``BrowserMultiply``). Setup puts the task page (``<kind>_task.html``, its content seeded by
``browser_task_seed``) and a few other files in Download; the verifier reads the page's
progress from Chrome's data (``apps.Chrome.pages``: the page's record must be solved), so
doing nothing, or solving it on the screen alone, fails."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver, OracleError
from ...tasks.task import Task
from ...verifiers import Allow, Allowed, Criterion, Record
from .app import DOWNLOAD, SCHEME
from .pages import maze_path, maze_walls, numbers, product, task_html

COLLECTION = "apps.Chrome.pages"
#: Other files in Download (bystanders): name -> content.
OTHER_FILES = {
    "boarding-pass.txt": "Flight LH 455, seat 14C, gate B22",
    "menu.html": "<html><body><h1>Lunch menu</h1><p>Soup of the day, pasta, salad.</p>"
                 "</body></html>",
    "notes.txt": "Buy stamps. Call the plumber.",
    "invoice-0423.txt": "Invoice 0423: garden maintenance, $240.00",
}


class BrowserTask(Task):
    apps = ("Chrome",)
    kind: ClassVar[str] = ""
    start = AW_START

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"browser_task_seed": int(rng.integers(0, 2**32)),
                "file_name": f"{self.kind}_task.html"}

    def url(self, p: Mapping[str, Any]) -> str:
        return SCHEME + DOWNLOAD + p["file_name"]

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        for name in sorted(OTHER_FILES):
            if rng.random() < 0.75:
                state.write_file(DOWNLOAD + name, OTHER_FILES[name].encode("utf-8"))
        state.write_file(DOWNLOAD + params["file_name"],
                         task_html(self.kind, params["browser_task_seed"]).encode("utf-8"))

    def criteria(self, p: Mapping[str, Any], initial: Any) -> Sequence[Criterion]:
        return [Record(COLLECTION, {"url": self.url(p), "solved": True}, count=1)]

    def allowed(self, p: Mapping[str, Any], initial: Any) -> Sequence[Allowed]:
        return [Allow(COLLECTION, None, where={"url": self.url(p)}, max=1)]

    def open_page(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Chrome")
        yield from ui.tap(desc="Downloads")
        yield from ui.tap(p["file_name"], kind="list_item")


class BrowserDraw(BrowserTask):
    template = ('Open "{file_name}" from Downloads in Chrome, paint on its canvas with all '
                'three colors the page shows, then press Submit.')
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
        yield from ui.tap("Submit")
        yield from ui.finish()


class BrowserMaze(BrowserTask):
    template = ('Open "{file_name}" from Downloads in Chrome and move the marker through the '
                'maze to the goal in the bottom-right corner with the arrow buttons.')
    kind = "maze"
    complexity, max_steps = 2, 20

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_page(ui, p)
        for move in maze_path(maze_walls(p["browser_task_seed"])) or []:
            yield from ui.tap(id=f"move_{move.lower()}")
        yield from ui.finish()


class BrowserMultiply(BrowserTask):
    template = ('Open "{file_name}" from Downloads in Chrome, press "Generate number" five '
                'times, and submit the product of the five numbers in the form.')
    kind = "multiply"
    complexity, max_steps = 2, 22

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_page(ui, p)
        for _ in range(5):
            yield from ui.tap(id="generate")
        shown = [int(ui.must(id=f"number_{i}").text.rsplit(" ", 1)[1]) for i in range(5)]
        if shown != numbers(p["browser_task_seed"]):
            raise OracleError(f"the page shows {shown}, not the seeded numbers")
        yield from ui.tap(id="product", kind="text_field")
        yield PhoneAction("type", text=str(product(shown)))
        yield from ui.tap("Submit")
        yield from ui.finish()


TEMPLATES: list[Task] = [BrowserDraw(), BrowserMaze(), BrowserMultiply()]
