"""State recovered from traces: the data model a rebuilt app keeps (issue 32).

From the screens and links of ``build.Model`` and the recorded steps:

- **collections**: each list (by widget id) and its rows: the seed records;
- **forms**: a screen with text fields typed into and then a click (the save) on the same
  form: the fields (typed by the values seen: phone, number, email, text) and the collection
  the record goes to (the list of the last list screen before the form);
- **deletes**: an action after which a list shows fewer rows (no scroll in between): it
  removes the record last opened from that list (a tap or a long press on its row);
- **toggles**: a tap on a switch or check box whose check state flipped: the value persists;
- **edits**: typing on the screen of a record opened from a list, then a control that keeps
  the form (a save in place): the record's fields hold what was typed;
- **sets**: a tap (no typing) on the screen of a record opened from a list after which a text
  of that screen changed in place (a trip's status "Express · ongoing" -> "Express ·
  cancelled"): an edit of the record's field, by the words that changed (ongoing ->
  cancelled), which the row's parts showing them change too;
- **suggest**: a list a field filters that shows no rows while the field is blank;
- **marks**: what a tap on a row puts before its text in its list (a pick: "✓ Luxe");
- **cites**: texts of the row last tapped in a list (its title, a price it showed) that a
  screen shows outside lists ("Confirm Luxe"): the rebuilt screen shows the row tapped;
- **details**: what a record's screen showed when opened (``trace_details``): look-ups.

Each observed change is a ``Change`` (create, delete, toggle, edit, set), the basis of the generated
tasks and of the state-change agreement on held-out traces (``fidelity.state_agreement``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..world.a11y import UIElement
from .build import OVERLAYS, Model, elem_key, field_id, ref_of, state_key
from .trace import Trace, app_elements

__all__ = ["Change", "StateModel", "infer_state", "field_type", "list_rows", "form_key",
           "trace_details"]

LIST_CLASSES = frozenset({"RecyclerView", "ListView", "GridView"})


def field_type(values: Sequence[str]) -> str:
    """A field's type from the values typed into it: ``phone``, ``email``, ``number`` or
    ``text``."""
    vals = [v for v in values if v]
    if vals and all(re.fullmatch(r"\+?[\d ()\-]{6,}", v) for v in vals):
        return "phone"
    if vals and all(re.fullmatch(r"[^@\s]+@[^@\s]+\.\w+", v) for v in vals):
        return "email"
    if vals and all(re.fullmatch(r"-?\d+(\.\d+)?", v) for v in vals):
        return "number"
    return "text"


def list_rows(elements: Sequence[UIElement]) -> dict[str, list[tuple[str, str]]]:
    """The rows each list of a screen shows: list id -> [(row id, text)] (clickable rows
    with text inside the list's box)."""
    out: dict[str, list[tuple[str, str]]] = {}
    end = next((i for i, e in enumerate(elements) if e.short_id in OVERLAYS), len(elements))
    for i, e in enumerate(elements[:end]):
        if e.short_class in LIST_CLASSES:
            box = e.bounds
            rows = [(c.short_id, c.text) for c in elements[i + 1:end]
                    if (c.clickable or c.long_clickable) and c.text and not c.editable
                    and c.bounds[0] >= box[0] and c.bounds[1] >= box[1]
                    and c.bounds[2] <= box[2] and c.bounds[3] <= box[3]]
            if rows:
                out[e.short_id or "list"] = rows
    return out


def form_key(elements: Sequence[UIElement]) -> tuple[Any, ...]:
    """What makes two dumps the same form: ``state_key`` without places and the fields'
    texts (as ``build.build_model`` groups a form's screens)."""
    return tuple(k[:2] + ("" if e.editable else k[2], k[3], k[5])
                 for k, e in zip(state_key(elements), elements, strict=True))


@dataclass
class Change:
    """One state change a trace shows."""

    kind: str  # create, delete, toggle, edit, set
    trace: str
    step: int
    collection: str = ""
    values: dict[str, str] = field(default_factory=dict)  # create, edit, set: field -> value
    record: str = ""  # delete, edit, set: the row's text; toggle: the switch's id
    checked: bool | None = None  # toggle: the value after
    screen: str = ""  # the screen it was done on
    key: str = ""  # the link (element ref) that did it


@dataclass
class StateModel:
    #: list id -> its seed rows [(row id, text)]
    collections: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    #: form screen -> {"save": ref, "collection": list, "fields": {id: type}, "title": id}
    forms: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: (screen, ref) -> collection whose current record that action removes
    deletes: dict[tuple[str, str], str] = field(default_factory=dict)
    #: screen -> toggle ids whose values persist
    toggles: dict[str, list[str]] = field(default_factory=dict)
    changes: list[Change] = field(default_factory=list)
    #: screen -> the text of the record opened from a list that it shows (a detail, "X will
    #: be deleted"): the screen shows the opened record's text there
    mentions: dict[str, str] = field(default_factory=dict)
    #: list id -> the field whose text filters it (a search: typing left only rows holding
    #: the text)
    filters: dict[str, str] = field(default_factory=dict)
    #: list id -> widget id -> the values a record's screen showed there (``trace_details``)
    details: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    #: list id -> (trace, step) of a tap on a row that opened its record's screen
    opens: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: (screen, ref) -> {"collection": list, "fields": [ids]}: that tap saves the fields typed
    #: on the screen of a record opened from the list into that record (an edit)
    edits: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    #: (screen, ref) -> {"collection": list, "swaps": {widget id: {old words: new words}}}:
    #: that tap changes the words of a field of the record opened from the list in place
    sets: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    #: lists filtered by a field (``filters``) that show no rows while it is blank (a place
    #: search's suggestions)
    suggest: list[str] = field(default_factory=list)
    #: list id -> what a tap on a row puts before its text (a ride picked: "✓ ")
    marks: dict[str, str] = field(default_factory=dict)
    #: screen -> [(list id, part id, text)]: a text the row last tapped in that list showed
    #: (part id "": its title; else that part of it: a price), shown outside the list (a
    #: "Confirm Luxe" button, a "Luxe · ¥121.30" summary)
    cites: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)

    def plain(self) -> dict[str, Any]:
        return {"collections": {k: [list(r) for r in v] for k, v in self.collections.items()},
                "forms": self.forms,
                "deletes": [[s, r, c] for (s, r), c in self.deletes.items()],
                "toggles": self.toggles, "mentions": self.mentions, "filters": self.filters,
                "details": self.details, "opens": {k: list(v) for k, v in self.opens.items()},
                "edits": [[s, r, e] for (s, r), e in self.edits.items()],
                "sets": [[s, r, e] for (s, r), e in self.sets.items()],
                "suggest": self.suggest, "marks": self.marks,
                "cites": {k: [list(c) for c in v] for k, v in self.cites.items()},
                "changes": [asdict(c) for c in self.changes]}


def infer_state(model: Model, traces: Sequence[Trace]) -> StateModel:
    """The collections, forms, deletes and toggles ``traces`` show (see the module doc)."""
    names = {v: k for k, v in model.screens.items()}
    state = StateModel()
    # list -> fields blank on a screen showing it empty / showing rows
    blank_empty: dict[str, set[str]] = {}
    blank_rows: dict[str, set[str]] = {}
    for t in traces:
        last_list: str | None = None  # the list of the last list screen seen
        last_rows: dict[str, list[tuple[str, str]]] = {}
        opened: dict[str, str] = {}  # list -> text of the row last tapped in it
        parts: dict[str, list[tuple[str, str]]] = {}  # list -> that row's parts
        record_of: tuple[str, str] | None = None  # (list, text): the record whose screen is open
        typed: dict[str, str] = {}  # field -> value, on the form open now
        form_at: tuple[Any, ...] | None = None
        prev: list[UIElement] | None = None
        prev_name = ""
        for step in t.steps:
            if step.package != model.package:
                prev, typed, form_at = None, {}, None
                continue
            els = app_elements(step.elements(), model.package)
            name = names.get(state_key(els), "")
            rows = list_rows(els)
            blank = {field_id(e, i) for i, e in enumerate(els) if e.editable and not e.text}
            for e in els:
                if e.short_class in LIST_CLASSES and e.short_id:
                    (blank_rows if e.short_id in rows else blank_empty).setdefault(
                        e.short_id, set()).update(blank)
            for lid, rs in rows.items():
                have = state.collections.setdefault(lid, [])
                have.extend(r for r in rs if r not in have)
            act = step.action or {}
            kind = str(act.get("action", ""))
            ref = ref_of(step.target, prev) if prev is not None else None
            target = prev[ref] if prev is not None and ref is not None else None
            if prev is not None and target is not None:
                key = elem_key(target)
                if kind == "type" and target.editable:
                    fk = form_key(prev)
                    if form_at is not None and fk != form_at:
                        typed = {}
                    form_at = fk
                    text = str(act.get("text", ""))
                    typed[field_id(target, ref or 0)] = text
                    for lid, rs in rows.items():
                        if text and rs and all(text.lower() in r[1].lower() for r in rs):
                            state.filters.setdefault(lid, field_id(target, ref or 0))
                elif kind == "click" and typed and form_key(prev) == form_at \
                        and not target.editable and form_key(els) == form_at \
                        and record_of is not None and target.short_class != "TextView":
                    # typed into the screen of a record opened from a list, then a control
                    # that keeps the form (a save in place): the record's fields changed
                    lid, text = record_of
                    saved = {field_id(e, i): e.text for i, e in enumerate(els) if e.editable
                             and field_id(e, i) in typed}
                    edit = state.edits.setdefault((prev_name, key), {"collection": lid,
                                                                     "fields": []})
                    edit["fields"].extend(f for f in saved if f not in edit["fields"])
                    state.changes.append(Change("edit", t.name, step.index, lid, saved,
                                                record=text, screen=prev_name, key=key))
                    typed, form_at = {}, None
                elif kind in ("click", "long_press") and typed and form_key(prev) == form_at \
                        and not target.editable and form_key(els) != form_at:
                    coll = last_list or "list"
                    form = state.forms.setdefault(prev_name, {
                        "save": key, "collection": coll, "fields": {}, "title": next(iter(typed)),
                        "shows": {}})
                    for fid, val in typed.items():
                        form["fields"][fid] = field_type([val])
                        if val in {e.text for e in els}:
                            form["shows"].setdefault(name, {})[val] = fid
                    state.changes.append(Change("create", t.name, step.index, coll, dict(typed),
                                                screen=prev_name, key=key))
                    typed, form_at = {}, None
                elif kind == "click" and record_of is not None and not typed and not rows \
                        and not target.editable and (swaps := _swaps(prev, els)):
                    # a tap on a record's screen that changed one of its texts in place
                    lid, text = record_of
                    st = state.sets.setdefault((prev_name, key), {"collection": lid,
                                                                  "swaps": {}})
                    for wid, (old, new, _) in swaps.items():
                        st["swaps"].setdefault(wid, {})[old] = new
                    state.changes.append(Change("set", t.name, step.index, lid,
                                                {w: v[2] for w, v in swaps.items()},
                                                record=text, screen=prev_name, key=key))
                elif kind == "click" and (target.short_class == "Switch" or target.checkable):
                    now = next((e for e in els if e.short_id == target.short_id
                                and e.short_class == target.short_class), None)
                    if now is not None and now.checked != target.checked:
                        state.toggles.setdefault(prev_name, [])
                        if target.short_id not in state.toggles[prev_name]:
                            state.toggles[prev_name].append(target.short_id)
                        state.changes.append(Change("toggle", t.name, step.index,
                                                    record=target.short_id,
                                                    checked=now.checked, screen=prev_name,
                                                    key=key))
                for lid, rs in (list_rows(prev) if kind in ("click", "long_press") else {}).items():
                    if (target.short_id, target.text) in rs:
                        opened[lid] = target.text
                        parts[lid] = _parts(prev, target)
                        mark = next((txt[:-len(target.text)] for rid, txt in rows.get(lid, [])
                                     if rid == target.short_id and txt != target.text
                                     and txt.endswith(target.text)), "")
                        if mark.strip():
                            state.marks.setdefault(lid, mark)
                        if kind == "click" and not rows and not any(e.checkable for e in els):
                            state.opens.setdefault(lid, (t.name, step.index))
                            record_of = (lid, target.text)
                if kind != "scroll" and kind != "type":
                    for lid, rs in rows.items():
                        before = last_rows.get(lid)
                        gone = Counter(t for _, t in before or []) - Counter(t for _, t in rs)
                        if before is not None and opened.get(lid) in gone \
                                and not _window(before, rs, prev, els, lid) \
                                and not _marked(before, rs, opened[lid]):
                            state.deletes[(prev_name, key)] = lid
                            state.changes.append(Change("delete", t.name, step.index, lid,
                                                        record=opened[lid], screen=prev_name,
                                                        key=key))
                            opened.pop(lid)
            shown_rows = {r for rs in rows.values() for r in rs}
            boxes = [e.bounds for e in els if e.short_class in LIST_CLASSES]
            outside = [e for e in els if e.text and not any(
                b[0] <= e.bounds[0] and b[1] <= e.bounds[1] and e.bounds[2] <= b[2]
                and e.bounds[3] <= b[3] for b in boxes)]
            for lid, text in opened.items():
                for pid, cited in [("", text), *parts.get(lid, [])]:
                    if any(cited in e.text for e in outside):
                        have_c = state.cites.setdefault(name, [])
                        if (lid, pid, cited) not in have_c:
                            have_c.append((lid, pid, cited))
            for text in opened.values():  # shown outside a list's rows (a title)
                if any(text in e.text and (e.text != text or (e.short_id, e.text) not in shown_rows)
                       for e in els):
                    state.mentions.setdefault(name, text)
            if rows:
                last_list = next(iter(rows))
                last_rows = rows
                record_of = None  # back on a list: no record's screen open
            prev, prev_name = els, name
        state.suggest = sorted(lid for lid, fid in state.filters.items()
                               if fid in blank_empty.get(lid, set())
                               and fid not in blank_rows.get(lid, set()))
        for row, shown in trace_details(t, model.package).items():
            into = next((k for k, rs in state.collections.items() if row in rs), None)
            if into is not None:
                for wid, value in shown.items():
                    seen = state.details.setdefault(into, {}).setdefault(wid, [])
                    if value not in seen:
                        seen.append(value)
    return state


def _swaps(prev: list[UIElement], now: list[UIElement]) -> dict[str, tuple[str, str, str]]:
    """The texts of the screen under ``prev``'s menu or dialog that ``now`` shows changed in
    place: widget id -> (the words before, the words after, the text after). Only on the
    same screen (its title and every widget of ``now`` were there), of widgets shown once,
    not the title, and a few words changing (a status), the rest of the text kept."""
    end = next((i for i, e in enumerate(prev) if e.short_id in OVERLAYS), len(prev))
    base = prev[:end]

    def once(els: Sequence[UIElement]) -> dict[str, UIElement]:
        ids = Counter(e.short_id for e in els if e.short_id)
        return {e.short_id: e for e in els if e.short_id and ids[e.short_id] == 1}

    was, now_ = once(base), once(now)
    if set(now_) - set(was) or was.get("toolbar", None) is None \
            or was["toolbar"].text != now_.get("toolbar", was["toolbar"]).text:
        return {}
    out: dict[str, tuple[str, str, str]] = {}
    for wid, e in now_.items():
        old = was[wid]
        if wid == "toolbar" or e.editable or e.clickable or not old.text or not e.text \
                or old.text == e.text:
            continue
        a, b = old.text.split(), e.text.split()
        i = 0
        while i < min(len(a), len(b)) and a[i] == b[i]:
            i += 1
        j = 0
        while j < min(len(a), len(b)) - i and a[-1 - j] == b[-1 - j]:
            j += 1
        mid_a, mid_b = a[i:len(a) - j], b[i:len(b) - j]
        if mid_a and mid_b and len(mid_a) <= 2 and len(mid_b) <= 2 and i + j > 0:
            out[wid] = (" ".join(mid_a), " ".join(mid_b), e.text)
    return out


def _parts(els: Sequence[UIElement], row: UIElement) -> list[tuple[str, str]]:
    """The texts shown inside ``row``'s box besides its own (a price, a time): (id, text)."""
    b = row.bounds
    return [(e.short_id, e.text) for e in els if e is not row and e.short_id and e.text
            and not e.clickable and b[0] <= e.bounds[0] and b[1] <= e.bounds[1]
            and e.bounds[2] <= b[2] and e.bounds[3] <= b[3]]


def _window(before: list[tuple[str, str]], after: list[tuple[str, str]],
            prev: list[UIElement], now: list[UIElement], lid: str) -> bool:
    """Whether list ``lid`` only shows fewer of the same rows: its box got shorter (the
    keyboard came up under a dialog) and its rows now are a run of those before."""
    def height(els: list[UIElement]) -> int:
        box = next((e for e in els if e.short_id == lid), None)
        return box.bounds[3] - box.bounds[1] if box is not None else 0

    n = len(after)
    return height(now) < height(prev) and any(before[i:i + n] == after
                                              for i in range(len(before) - n + 1))


def _marked(before: list[tuple[str, str]], after: list[tuple[str, str]], text: str) -> bool:
    """Whether the row ``text`` is still there under another text (a "✓" picked): its row
    id, one of a row each before, is still shown."""
    ids = [rid for rid, _ in before]
    rid = next((rid for rid, t in before if t == text), "")
    return bool(rid) and ids.count(rid) == 1 and any(r == rid for r, _ in after)


def trace_details(trace: Trace, package: str) -> dict[tuple[str, str], dict[str, str]]:
    """What the screen a tap on a list row opened showed, by ``(row id, text)``: each text
    and field by widget id (the record's fields as the trace found them: a note's text, a
    contact's phone). Only the first opening of each record counts (before any edit); a
    screen with switches is a settings page, not a record's."""
    out: dict[tuple[str, str], dict[str, str]] = {}
    prev: list[UIElement] | None = None
    for step in trace.steps:
        if step.package != package:
            prev = None
            continue
        els = app_elements(step.elements(), package)
        act = str((step.action or {}).get("action", ""))
        if prev is not None and act == "click" and step.target is not None:
            rows = {r for rs in list_rows(prev).values() for r in rs}
            key = (step.target["id"], step.target["text"])
            # a record's screen: no list, no switches (a settings page's texts follow them)
            if key in rows and key not in out and not list_rows(els) \
                    and not any(e.checkable for e in els):
                ids = Counter(e.short_id for e in els if e.short_id)
                out[key] = {e.short_id: e.text for e in els
                            if e.short_id and e.text and ids[e.short_id] == 1
                            and e.short_id != "toolbar" and e.short_class != "Button"
                            and not e.checkable}
        prev = els
    return out
