"""To-do tasks: five families, a dozen lines each (criteria and allowed changes come from
the family; near misses are derived from them)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.families import CreateRecord, DeleteRecord, EditRecord, Infeasible, Lookup
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import Allow, Allowed, same_text
from ...world.app import app_strings
from .app import TodoApp
from .aw_tasks import AW_TEMPLATES
from .fixtures import COLLECTION, DATA, NEW_TITLES, sample_titles, seed_items


def shown(ui: Driver, key: str, **fields: object) -> str:
    """The Tasks UI string ``key`` as the phone's locale shows it."""
    return app_strings(TodoApp, ui.locale).t(key, **fields)


class TodoTask(Task):
    """Shared parts: 5 to 9 items (``titles``, ``done``), the target ``item_id`` among them
    (open, when ``target_open``)."""

    apps, collection = ("Todo",), COLLECTION
    target_open = False
    #: zh-CN too: the titles from the data catalogue (``sample_in``).
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    data: ClassVar[Mapping[str, Mapping[str, str]]] = DATA

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        titles = sample_titles(rng, int(rng.integers(5, 10)))
        done = [bool(rng.random() < 0.3) for _ in titles]
        t = int(rng.integers(len(titles)))
        if self.target_open:
            done[t] = False
        return {"titles": titles, "done": done, "item_id": t + 1, "title": titles[t],
                "new_title": pick(rng, NEW_TITLES)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_items(state, params["titles"], params["done"])

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"id": p["item_id"]}

    def open_item(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Todo")
        yield from ui.tap(p["title"], kind="list_item")


class TodoAddItem(TodoTask, CreateRecord):
    template = 'In Tasks, add an item "{new_title}".'
    instructions = {"zh-CN": "在待办里添加一项任务“{new_title}”。"}
    max_steps = 10

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": same_text(p["new_title"]), "done": False}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Todo")
        yield from ui.tap(id="new_item")
        yield from ui.fill("title", p["new_title"])
        yield from ui.tap(id="save")
        yield from ui.finish()


class TodoRenameItem(TodoTask, EditRecord):
    template = 'In Tasks, rename the item "{title}" to "{new_title}".'
    instructions = {"zh-CN": "在待办里把任务“{title}”重命名为“{new_title}”。"}
    max_steps = 12

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": same_text(p["new_title"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_item(ui, p)
        yield from ui.fill("title", p["new_title"])
        yield from ui.tap(id="save")
        yield from ui.finish()


class TodoCompleteItem(TodoTask, EditRecord):
    template = 'In Tasks, mark "{title}" as done.'
    instructions = {"zh-CN": "在待办里把任务“{title}”标记为已完成。"}
    max_steps = 8
    target_open = True

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"done": True}

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        """Checking an item off also records its completion date."""
        return [Allow(self.collection, "modified", key=self.target_key(p, initial),
                      fields=("done", "completed"))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why(f"Opening Tasks to check off \"{p['title']}\"")
        yield from ui.open_app("Todo")
        box = shown(ui, "Done: {title}", title=p["title"])
        yield from ui.reveal(desc=box)
        if not ui.must(desc=box).checked:
            ui.why(f"\"{p['title']}\" is still open: ticking its box")
            yield from ui.tap(desc=box)
        ui.why(f"\"{p['title']}\" is done")
        yield from ui.finish()


class TodoDeleteItem(TodoTask, DeleteRecord):
    template = 'In Tasks, delete the item "{title}".'
    instructions = {"zh-CN": "在待办里删除任务“{title}”。"}
    max_steps = 10

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Todo")
        yield from ui.long_press(p["title"], kind="list_item")
        yield from ui.tap(shown(ui, "Delete"), kind="menu_item")
        yield from ui.tap(id="button_delete")
        yield from ui.finish()


class TodoCountOpen(TodoTask, Lookup):
    template = "In Tasks, how many items are not done yet? Answer with the number."
    instructions = {"zh-CN": "待办里还有几项任务没有完成？请回答数字。"}
    max_steps = 8

    answer_type, answer_field = "count", "count"

    def expected(self, p: Mapping[str, Any]) -> Any:
        return sum(not done for done in p["done"])

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [len(p["done"]), sum(p["done"]), sum(not done for done in p["done"])]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Todo")
        yield from ui.answer(ui.must(id="count").text.split()[0])


# --- infeasible variants: no item has the title the task names -----------------------------
class MissingItem(Infeasible, TodoTask):
    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        params = super().sample_params(rng)
        t = params["item_id"] - 1
        params["titles"] = params["titles"][:t] + params["titles"][t + 1:]
        params["done"] = params["done"][:t] + params["done"][t + 1:]
        return params

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": same_text(p["title"])}


class TodoCompleteItemInfeasible(MissingItem, TodoCompleteItem):
    pass


class TodoDeleteItemInfeasible(MissingItem, TodoDeleteItem):
    pass


TEMPLATES: list[Task] = [TodoAddItem(), TodoRenameItem(), TodoCompleteItem(),
                         TodoDeleteItem(), TodoCountOpen(), TodoCompleteItemInfeasible(),
                         TodoDeleteItemInfeasible(), *AW_TEMPLATES]
