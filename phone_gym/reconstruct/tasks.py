"""Tasks and verifiers generated from the state changes traces show (issue 32).

``task_specs`` turns each kind of change ``model.infer_state`` found (a form's save: create; a
recorded delete; a save on a record's own screen: edit; a tap changing a text of a record's
screen in place: set; a switch flipped: toggle) and each
typed value a record's screen showed when opened (look-up) into a plain spec stored in the
rebuilt app's ``fixtures.STATE["tasks"]``: the values seen (params are drawn from them), and
the recorded path from the app's first screen to the change, as taps on what the screen
showed (ids, texts, descriptions). ``templates_for`` makes ``Task`` templates of the specs for
the rebuilt app (its ``tasks.py`` calls it): verifiers over the rebuilt store with the
platform's families (``CreateRecord``: a ``Record`` and ``Allow(added, max=1)``;
``DeleteRecord``: ``NoRecord`` and ``Allow(removed)``; ``EditRecord``: the record's field and
``Allow(modified)`` of that record only; a set (a status a tap changed): the row's parts
and the record's field holding the new words, ``Allow(modified)`` of them; ``Lookup``: the
answer matched by type, nothing may change; a toggle: ``Value`` and ``Becomes``), so
collateral damage fails, and an oracle that walks the recorded path through the ``Driver``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ..actions import PhoneAction
from ..tasks.driver import Driver
from ..tasks.families import CreateRecord, DeleteRecord, EditRecord, Lookup
from ..tasks.task import Task
from ..verifiers import Allowed, Becomes, Criterion, Value, same_text
from .build import ENTRY, Model, structure
from .model import StateModel, field_type

__all__ = ["task_specs", "templates_for", "HasValues"]


def _step(key: str, collections: Mapping[str, list[tuple[str, str]]]) -> dict[str, Any] | None:
    """A recorded link key as an oracle step (None: scrolls and typing, which the oracle does
    its own way)."""
    if key == "back":
        return {"act": "back"}
    if key.startswith(("scroll:", "type:")) or "|" not in key:
        return None
    long = key.startswith("long:")
    rid, text, desc = key.removeprefix("long:").split("|")[:3]
    step: dict[str, Any] = {"act": "long" if long else "tap", "id": rid, "text": text,
                            "desc": desc}
    for lid, rows in collections.items():
        if (rid, text) in rows:
            step["row"] = lid  # a record's row: the oracle taps the param's record
    return step


def _path(model: Model, state: StateModel, trace: str, until: int,
          stop_at: str | None = None) -> list[dict[str, Any]] | None:
    """The recorded steps of ``trace`` from its last time on the first screen (or one of
    its shape; else from its start, or from after the trace's last change before: a second
    save does not save the first again) to step
    ``until`` (included), or to the first step taken on route ``stop_at`` (excluded)."""
    route = model.route_of.get
    after = max((c.step for c in state.changes if c.trace == trace and c.step < until),
                default=-1)
    steps = sorted((t for t in model.transitions
                    if t.trace == trace and after < t.step <= until), key=lambda t: t.step)
    home = structure(model.screens[ENTRY])
    # the first screen, or one like it (the same list holding other records)
    starts = [i for i, t in enumerate(steps) if route(t.src, t.src) == ENTRY
              or structure(model.screens[t.src]) == home] or [0]
    if not steps:
        return None
    out: list[dict[str, Any]] = []
    for t in steps[starts[-1]:]:
        if stop_at is not None and route(t.src, t.src) == stop_at:
            return out
        s = _step(t.key, state.collections)
        if s is not None:
            out.append(s)
    return out if stop_at is None else None


def _label(model: Model, screen: str, wid: str) -> str:
    for k in model.screens.get(screen, ()):
        if k[0] == wid and (k[2] or k[3]):
            return k[2] or k[3]
    return wid


def task_specs(model: Model, state: StateModel) -> list[dict[str, Any]]:
    """One spec per kind of change and place (a form, a delete action, a switch): what
    ``templates_for`` needs, as plain data."""
    route = model.route_of.get
    specs: dict[tuple[str, ...], dict[str, Any]] = {}
    for c in state.changes:
        where = route(c.screen, c.screen)
        if c.kind == "create":
            form = state.forms.get(c.screen)
            path = _path(model, state, c.trace, c.step, stop_at=where)
            if form is None or path is None:
                continue
            spec = specs.setdefault(("create", where), {
                "kind": "create", "collection": c.collection, "fields": dict(form["fields"]),
                "title": form["title"], "save": _step(form["save"], {}), "path": path,
                "values": []})
            if c.values not in spec["values"]:
                spec["values"].append(dict(c.values))
        elif c.kind == "delete":
            path = _path(model, state, c.trace, c.step)
            if not path or not any(s.get("row") == c.collection for s in path):
                continue  # the oracle must open the record to delete
            specs.setdefault(("delete", where, c.key), {
                "kind": "delete", "collection": c.collection, "path": path})
        elif c.kind == "edit":
            path = _path(model, state, c.trace, c.step, stop_at=where)
            save = _step(c.key, {})
            if not path or save is None or not any(s.get("row") == c.collection for s in path):
                continue  # the oracle must open the record to edit
            for fid, value in c.values.items():
                spec = specs.setdefault(("edit", where, fid), {
                    "kind": "edit", "collection": c.collection, "field": fid,
                    "label": _field_label(model, fid), "path": path, "save": save,
                    "values": []})
                if value and value not in spec["values"]:
                    spec["values"].append(value)
        elif c.kind == "set":
            path = _path(model, state, c.trace, c.step)
            sets = state.sets.get((c.screen, c.key))
            if not path or sets is None or not any(s.get("row") == c.collection for s in path):
                continue  # the oracle must open the record to change
            for fid in c.values:
                spec = specs.setdefault(("set", c.collection, c.key, fid), {
                    "kind": "set", "collection": c.collection, "field": fid,
                    "label": _field_label(model, fid), "path": path, "swaps": {}})
                spec["swaps"].update(sets["swaps"].get(fid, {}))
        elif c.kind == "toggle":
            path = _path(model, state, c.trace, c.step)
            if not path:
                continue
            spec = specs.setdefault(("toggle", c.record), {
                "kind": "toggle", "switch": c.record, "label": _label(model, c.screen, c.record),
                "path": path[:-1], "seen": []})
            if c.checked not in spec["seen"]:
                spec["seen"].append(c.checked)
    for lid, shown in state.details.items():
        # a look-up: a value a record's screen showed, of a type an answer is matched by
        # (a caption such as "Phone" is text: it is never asked for)
        typed = [(wid, field_type(vals)) for wid, vals in shown.items()]
        wid, kind = next(((w, k) for w, k in typed if k in ANSWER_OF), ("", ""))
        opened = state.opens.get(lid)
        if not wid or opened is None:
            continue
        path = _path(model, state, opened[0], opened[1])
        if not path or not any(s.get("row") == lid for s in path):
            continue
        specs.setdefault(("lookup", lid, wid), {
            "kind": "lookup", "collection": lid, "field": wid, "type": kind,
            "answer": ANSWER_OF[kind], "label": _field_label(model, wid), "path": path})
    return list(specs.values())


#: The answer type (``verifiers.answers``) a looked-up value of each field type is matched as.
ANSWER_OF = {"phone": "phone", "number": "number", "email": "text"}


def _field_label(model: Model, wid: str) -> str:
    """How the instruction names field ``wid``: the caption shown with it (``phone_label``'s
    text), else its description (a field's "Note text"), else its id in words."""
    keys = [k for key in model.screens.values() for k in key]
    for k in keys:
        if k[0] == f"{wid}_label" and k[2]:
            return k[2].lower()
    desc = next((k[3] for k in keys if k[0] == wid and k[3]), "")
    return (desc or wid.replace("_", " ")).lower()


class HasValues:
    """Matches a record's ``values`` (pairs of field and value) holding ``expected`` (each a
    literal or a matcher)."""

    def __init__(self, expected: Mapping[str, Any]) -> None:
        self.expected = dict(expected)

    def __call__(self, value: Any) -> bool:
        try:
            have = {str(k): v for k, v in value or ()}
        except (TypeError, ValueError):
            return False
        return all(e(have.get(k, "")) if callable(e) else have.get(k, "") == e
                   for k, e in self.expected.items())

    def __repr__(self) -> str:
        return f"values with {self.expected}"


def _walk(ui: Driver, path: Sequence[Mapping[str, Any]], record: str = ""
          ) -> Iterator[PhoneAction]:
    """The recorded path: a tap or long press on what the recorded element showed (a row:
    the row of ``record``), a back."""
    for s in path:
        if s["act"] == "back":
            yield PhoneAction("press", button="back")
            continue
        if s.get("row"):
            query: dict[str, Any] = {"text": record or s["text"]}
        else:
            query = {k: s[k] or None for k in ("id", "text", "desc")}
        text = query.pop("text")
        if s["act"] == "long":
            yield from ui.long_press(text, **query)
        else:
            yield from ui.tap(text, **query)


def _seeded_rows(app: Any, path: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """``path`` with each recorded row a fresh app does not hold (another seed's: the videos
    a selection picked) in place of the next row of its list the app shows that the path
    does not tap."""
    out: list[Mapping[str, Any]] = []
    spare: dict[str, list[str]] = {}
    for s in path:
        lid = s.get("row")
        if lid and lid not in spare:
            used = {t.get("text") for t in path if t.get("row") == lid}
            spare[lid] = [t for t in _seed_texts(app, lid) if t not in used]
        if lid and s["text"] not in _seed_texts(app, lid) and spare[lid]:
            s = {**s, "text": spare[lid].pop(0)}
        out.append(s)
    return out


def _seed_texts(app: Any, lid: str) -> list[str]:
    """Texts of list ``lid``'s records on a fresh rebuilt app, each shown once."""
    texts = [r.text for r in app.seed_records() if r.list == lid]
    return [t for t in texts if texts.count(t) == 1]


def templates_for(app: Any, state: Mapping[str, Any]) -> tuple[Task, ...]:
    """Task templates of the rebuilt ``app`` (its class) from ``state["tasks"]``; a spec
    whose params cannot be drawn (every value seen is a seeded record's) makes none."""
    name = app.manifest.name
    coll = f"apps.{name}.records"
    out: list[Task] = []
    counts: dict[str, int] = {}
    for spec in state.get("tasks", ()):
        kind = spec["kind"]
        counts[kind] = counts.get(kind, 0) + 1
        cls_name = f"{name}{kind.title()}{counts[kind]}"
        base: dict[str, Any] = {"apps": (name,), "collection": coll, "spec": spec,
                                "__module__": getattr(app, "__module__", __name__)}
        family = {"create": _Create, "delete": _Delete, "toggle": _Toggle,
                  "lookup": _Lookup, "edit": _Edit, "set": _Set}.get(kind)
        if family is None:
            raise ValueError(f"task kind {kind!r}: the kinds generated are create, delete, "
                             "edit, set, toggle, lookup")
        cls: type[_Generated] = type(cls_name, (family,), base)
        cls.template = cls.sentence(app)
        task = cls(app)
        try:  # params drawn from the values seen: none left (every title seeded), no task
            task.sample_params(np.random.default_rng(0))
        except ValueError:
            continue
        out.append(task)
    return tuple(out)


class _Generated(Task):
    spec: dict[str, Any] = {}
    collection = ""
    max_steps = 20

    def __init__(self, app: Any) -> None:
        self.app = app

    @classmethod
    def sentence(cls, app: Any) -> str:
        """The instruction's template for ``app``."""
        raise NotImplementedError


class _Create(_Generated, CreateRecord):
    """Add a record through the form the traces saved, with values seen typed there."""

    @classmethod
    def sentence(cls, app: Any) -> str:
        fields = ", ".join(f'{f} "{{{f}}}"' for f in cls.spec["fields"])
        return f"In {app.manifest.label}, add a record with {fields}."

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        seen = [v for v in self.spec["values"] if v.get(self.spec["title"])]
        taken = {r.text for r in self.app.seed_records() if r.list == self.spec["collection"]}
        # each field's value from any save seen (more instances than saves)
        pool = {f: sorted({v.get(f, "") for v in seen if v.get(f)}) for f in self.spec["fields"]}
        for _ in range(50):
            params = {f: (str(rng.choice(vals)) if vals else "") for f, vals in pool.items()}
            if params[self.spec["title"]] not in taken:
                return params
        raise ValueError(f"{self.id}: every title seen is a seeded record's; record a save "
                         "of a new one")

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"list": self.spec["collection"], "text": same_text(p[self.spec["title"]]),
                "values": HasValues({f: same_text(p[f]) for f in self.spec["fields"]})}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app(self.apps[0])
        yield from _walk(ui, _seeded_rows(self.app, self.spec["path"]))
        for f in self.spec["fields"]:
            if p.get(f):
                yield from ui.fill(f, p[f])
        yield from _walk(ui, [self.spec["save"]])
        yield from ui.finish()


class _Delete(_Generated, DeleteRecord):
    """Delete a record as the traces did: open its row, then the recorded steps."""

    @classmethod
    def sentence(cls, app: Any) -> str:
        return f'In {app.manifest.label}, delete "{{name}}".'

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        texts = _seed_texts(self.app, self.spec["collection"])
        if not texts:
            raise ValueError(f"{self.id}: the list {self.spec['collection']} has no seeded "
                             "record with a text of its own")
        return {"name": str(rng.choice(texts))}

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"list": self.spec["collection"], "text": p["name"]}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app(self.apps[0])
        yield from _walk(ui, self.spec["path"], p["name"])
        yield from ui.finish()


class _Toggle(_Generated):
    """Set a switch the traces flipped; the other switches keep their values."""

    @classmethod
    def sentence(cls, app: Any) -> str:
        return f'In {app.manifest.label}, turn {{state}} "{cls.spec["label"]}".'

    @property
    def path(self) -> str:
        return f"apps.{self.app.manifest.name}.toggles.{self.spec['switch']}"

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        on = bool(rng.integers(2))
        return {"on": on, "state": "on" if on else "off"}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        data = state.app(self.app.manifest.name).data
        data.toggles = {**data.toggles, self.spec["switch"]: not params["on"]}

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Value(self.path, params["on"])]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Becomes(self.path, params["on"])]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app(self.apps[0])
        yield from _walk(ui, self.spec["path"])
        yield from ui.reveal(id=self.spec["switch"])
        switch = ui.must(id=self.spec["switch"])
        if switch.checked != p["on"]:
            x, y = switch.center_norm
            yield PhoneAction("click", x=x, y=y)
        yield from ui.finish()


class _Lookup(_Generated, Lookup):
    """Read a record's value off the screen its row opens (as the traces did) and answer
    it; the answer is matched by its type (a phone number in any usual format)."""

    @classmethod
    def sentence(cls, app: Any) -> str:
        return (f'In {app.manifest.label}, what is the {cls.spec["label"]} of "{{name}}"? '
                "Answer with it only.")

    @property
    def answer_type(self) -> str:  # type: ignore[override]
        return str(self.spec["answer"])

    @property
    def answer_field(self) -> str:  # type: ignore[override]
        return str(self.spec["field"])

    def _values(self) -> dict[str, str]:
        """Record text -> its value of the field, for records whose text is their own."""
        recs = [r for r in self.app.seed_records() if r.list == self.spec["collection"]]
        texts = [r.text for r in recs]
        return {r.text: r.value(self.spec["field"]) for r in recs
                if texts.count(r.text) == 1 and r.value(self.spec["field"])}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        values = self._values()
        if not values:
            raise ValueError(f"{self.id}: no record of {self.spec['collection']} holds a "
                             f"{self.spec['field']} seen in the traces")
        name = str(rng.choice(sorted(values)))
        return {"name": name, "value": values[name]}

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["value"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [v for v in self._values().values() if v != p["value"]]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app(self.apps[0])
        yield from _walk(ui, self.spec["path"], p["name"])
        yield from ui.answer(ui.must(id=self.spec["field"]).text)


class _Edit(_Generated, EditRecord):
    """Change a field of a record on its own screen, as the traces did: open its row, make
    the field hold a value seen saved there, save in place. Only that field of that record
    may change."""

    @classmethod
    def sentence(cls, app: Any) -> str:
        return (f'In {app.manifest.label}, open "{{name}}" and change its '
                f'{cls.spec["label"]} to "{{value}}".')

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        recs = [r for r in self.app.seed_records() if r.list == self.spec["collection"]]
        texts = [r.text for r in recs]
        pairs = [(r.text, v) for r in recs if texts.count(r.text) == 1
                 and r.value(self.spec["field"]) for v in self.spec["values"]
                 if v != r.value(self.spec["field"])]
        if not pairs:
            raise ValueError(f"{self.id}: no record of {self.spec['collection']} whose "
                             f"{self.spec['field']} was seen holds another value than those "
                             "saved")
        name, value = pairs[int(rng.integers(len(pairs)))]
        return {"name": name, "value": value}

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"list": self.spec["collection"], "text": p["name"]}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"values": HasValues({self.spec["field"]: same_text(p["value"])})}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app(self.apps[0])
        yield from _walk(ui, self.spec["path"], p["name"])
        yield from ui.fill(self.spec["field"], p["value"])
        yield from _walk(ui, [self.spec["save"]])
        yield from ui.finish()


class _Pairs:
    """Matches pairs (a record's ``parts`` or ``values``) equal to ``expected``, in order."""

    def __init__(self, expected: Sequence[tuple[str, str]]) -> None:
        self.expected = [tuple(p) for p in expected]

    def __call__(self, value: Any) -> bool:
        try:
            return [tuple(p) for p in value or ()] == self.expected
        except TypeError:
            return False

    def __repr__(self) -> str:
        return f"exactly {self.expected}"


def _swap(text: str, swaps: Mapping[str, str]) -> str:
    """``text`` with each word run of ``swaps`` as its new words."""
    for old, new in swaps.items():
        text = re.sub(rf"(?<!\S){re.escape(old)}(?!\S)", new, text)
    return text


class _Set(_Generated, EditRecord):
    """Change a record's status as the traces did, with the controls of its own screen (no
    typing): open its row, tap what was tapped. The record's field (when its screen was
    seen) and the row's parts showing the words must change to the new words; nothing
    else of it, and no other record."""

    @classmethod
    def sentence(cls, app: Any) -> str:
        return (f'In {app.manifest.label}, make the {cls.spec["label"]} of "{{name}}" '
                f'"{{value}}".')

    def _eligible(self) -> list[tuple[Any, str]]:
        """(record, new words): the records whose row shows words a tap changed, the only
        one of its name that does (a name may be another trip's too: one done, which has
        nothing to cancel), with its row id unique among them."""
        recs = [r for r in self.app.seed_records() if r.list == self.spec["collection"]]
        pairs = [(r, new) for r in recs for old, new in self.spec["swaps"].items()
                 if any(_swap(t, {old: new}) != t for _, t in r.parts)]
        return [(r, new) for r, new in pairs
                if sum(q.text == r.text for q, _ in pairs) == 1
                and sum(q.text == r.text and q.rid == r.rid for q in recs) == 1]

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        pairs = self._eligible()
        if not pairs:
            raise ValueError(f"{self.id}: no record of {self.spec['collection']} shows the "
                             f"words {sorted(self.spec['swaps'])} a tap changed")
        rec, new = pairs[int(rng.integers(len(pairs)))]
        return {"name": rec.text, "row": rec.rid, "value": new}

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"list": self.spec["collection"], "text": p["name"], "rid": p["row"]}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        rec = next(r for r in self.app.seed_records() if r.list == self.spec["collection"]
                   and r.text == p["name"] and r.rid == p["row"])
        swaps = {o: n for o, n in self.spec["swaps"].items() if n == p["value"]}
        out: dict[str, Any] = {"parts": _Pairs([(k, _swap(t, swaps)) for k, t in rec.parts])}
        shown = rec.value(self.spec["field"])
        if shown and _swap(shown, swaps) != shown:
            out["values"] = _Pairs([(k, _swap(v, swaps) if k == self.spec["field"] else v)
                                    for k, v in rec.values])
        return out

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app(self.apps[0])
        olds = {o for o, n in self.spec["swaps"].items() if n == p["value"]}
        for s in self.spec["path"]:
            if not s.get("row"):
                yield from _walk(ui, [s])
                continue
            # the row of that name showing the words to change (another trip of that name,
            # completed, has nothing to change): found on screen, scrolling to it
            for _ in range(12):
                row = _row_showing(ui, p["name"], olds)
                if row is not None:
                    break
                yield PhoneAction("scroll", x=500, y=500, direction="down")
            else:
                raise ValueError(f"{self.id}: no row {p['name']!r} showing {sorted(olds)}")
            x, y = row.center_norm
            yield PhoneAction("long_press" if s["act"] == "long" else "click", x=x, y=y)
        yield from ui.finish()


def _row_showing(ui: Driver, name: str, words: set[str]) -> Any:
    """The row on screen titled ``name`` with one of ``words`` inside its box, or None."""
    els = ui.elements()
    for e in els:
        b = e.bounds
        if e.text == name and ui.usable(e) and any(
                o is not e and o.text in words and b[0] <= o.bounds[0] and b[1] <= o.bounds[1]
                and o.bounds[2] <= b[2] and o.bounds[3] <= b[3] for o in els):
            return e
    return None
