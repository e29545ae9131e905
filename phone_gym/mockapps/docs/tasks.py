"""腾讯文档 (TencentDocs) tasks: create, edit, rename, delete and read a document; Chinese
instructions."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.families import CreateRecord, DeleteRecord, EditRecord, Infeasible, Lookup
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import Allow, Allowed, Matcher, NearMiss, lookup, same_text
from .fixtures import (
    COLLECTION,
    EXTRAS,
    LINES,
    NEW_TITLES,
    TITLES,
    new_doc,
    sample_body,
    seed_around,
    seed_docs,
)


def appended(old: str, extra: str) -> Matcher:
    """The old text kept exactly, then a line break (or spaces), then ``extra``."""
    def test(value: Any) -> bool:
        v, o = str(value).rstrip(), old.rstrip()
        if not v.startswith(o):
            return False
        rest = v[len(o):]
        found = re.match(r"\s+", rest)
        return found is not None and same_text(extra)(rest[found.end():])
    return Matcher(test, f"{old!r} kept, then on a new line {extra!r}")


def open_doc(ui: Driver, title: str) -> Iterator[PhoneAction]:
    """Launch 腾讯文档 and open the document titled ``title`` from the 最近 list."""
    yield from ui.open_app("TencentDocs")
    yield from ui.tap(title, kind="list_item")


class DocsCreateDoc(CreateRecord):
    apps, collection = ("TencentDocs",), COLLECTION
    template = "在腾讯文档里新建一篇文档，标题是“{title}”，正文写“{body}”。"
    complexity, max_steps = 1, 12

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"title": pick(rng, NEW_TITLES), "body": pick(rng, LINES)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_docs(state, rng, 3, avoid=[params["title"]])

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": same_text(p["title"]), "body": same_text(p["body"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from new_doc(ui, p["title"], p["body"])
        yield from ui.finish()


class DocTask(Task):
    """A task about the document ``title`` among ``count`` documents (written
    ``doc_id``-th, so its id follows from the params)."""

    apps, collection = ("TencentDocs",), COLLECTION
    counts: tuple[int, int] = (3, 8)
    body_lines: tuple[int, int] = (1, 2)

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        count = int(rng.integers(self.counts[0], self.counts[1] + 1))
        lines = int(rng.integers(self.body_lines[0], self.body_lines[1] + 1))
        return {"title": pick(rng, TITLES), "body": sample_body(rng, lines), "count": count,
                "doc_id": int(rng.integers(count)) + 1, **self.more_params(rng)}

    def more_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_around(state, rng, dict(params))

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"id": p["doc_id"]}


class EditDoc(DocTask, EditRecord):
    """Edit the target document: saving also moves it to the top of 最近 (``edited``), a
    change allowed but not asked for."""

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(self.collection, "modified", key=self.target_key(params, initial),
                      fields=(*self.changes(params), "edited"))]


class DocsAppendLine(EditDoc):
    template = "在腾讯文档的“{title}”末尾另起一行，加上“{extra}”。"
    complexity, max_steps = 2, 14

    def more_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"extra": pick(rng, EXTRAS)}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"body": appended(p["body"], p["extra"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_doc(ui, p["title"])
        yield from ui.tap(id="edit")
        yield from ui.tap(id="body", kind="text_field")
        yield from ui.press("enter")
        yield PhoneAction("type", text=p["extra"])
        yield from ui.tap(id="save")
        yield from ui.finish()


class DocsRenameDoc(EditDoc):
    template = "把腾讯文档里的“{title}”改名为“{new_title}”。"
    complexity, max_steps = 2, 14

    def more_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"new_title": pick(rng, NEW_TITLES)}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": same_text(p["new_title"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_doc(ui, p["title"])
        yield from ui.tap(id="edit")
        yield from ui.fill("title", p["new_title"])
        yield from ui.tap(id="save")
        yield from ui.finish()


class DocsReplaceBody(EditDoc):
    template = "把腾讯文档“{title}”的正文全部换成“{new_body}”。"
    complexity, max_steps = 2, 16

    def more_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"new_body": pick(rng, EXTRAS)}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"body": same_text(p["new_body"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_doc(ui, p["title"])
        yield from ui.tap(id="edit")
        yield from ui.fill("body", p["new_body"])
        yield from ui.tap(id="save")
        yield from ui.finish()


class DocsDeleteDoc(DocTask, DeleteRecord):
    template = "删除腾讯文档里的“{title}”这篇文档。"
    complexity, max_steps = 2, 12

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": same_text(p["title"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        if ui.choose(("page", "menu")) == "menu":
            yield from ui.open_app("TencentDocs")
            ui.why(f"从“{p['title']}”的长按菜单删除")
            yield from ui.long_press(p["title"], kind="list_item")
            yield from ui.tap("删除", kind="menu_item")
        else:
            yield from open_doc(ui, p["title"])
            yield from ui.tap(id="delete")
        yield from ui.tap(id="button_delete")
        yield from ui.finish()


class DocsReadDoc(DocTask, Lookup):
    template = "腾讯文档里的“{title}”写了什么？请把全文告诉我。"
    complexity, max_steps = 2, 10
    body_lines = (2, 2)  # the list shows only the first line: the document must be opened

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["body"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [d["body"] for d in lookup(initial, COLLECTION).values()]

    def declared_near_misses(self, initial: Any, final: Any, p: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        return [NearMiss(final, p["body"].split("\n")[0], "the list's first line only")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_doc(ui, p["title"])
        body = ui.must(id="doc_body")
        yield from ui.answer(" ".join(body.text.split()))


class DocsDeleteDocInfeasible(Infeasible, DocsDeleteDoc):
    """No document has the title the task names."""

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_docs(state, rng, params["count"], avoid=[params["title"]])


TEMPLATES: list[Task] = [
    DocsCreateDoc(), DocsAppendLine(), DocsRenameDoc(), DocsReplaceBody(), DocsDeleteDoc(),
    DocsReadDoc(), DocsDeleteDocInfeasible(),
]

# --- zh-CN: the instructions are written in Chinese already, the same sentence on a zh-CN
# phone; the apps' screens and data are Chinese in both locales.
for _task in TEMPLATES:
    type(_task).locales = ("en-US", "zh-CN")
    type(_task).instructions = {"zh-CN": type(_task).template}
