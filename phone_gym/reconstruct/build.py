"""``phone-gym reconstruct``: a runnable PhoneWorld app skeleton from recorded traces.

Each distinct screen of the app (its elements: ids, classes, texts, places) becomes a route;
each recorded action that led from one of its screens to another becomes a link (the element
tapped, the field typed into, or back); rows of scrolling lists become the screen's seeded
records. The package is written like ``phone-gym new-app --out`` writes one (``scaffold``:
a folder with ``pyproject.toml`` and the app folder: ``manifest.py``, ``app.py``,
``fixtures.py``, ``tasks.py``), so it installs as a plugin app.
"""

from __future__ import annotations

import pprint
import re
import textwrap
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..scaffold import module_name, render
from ..world.a11y import UIElement
from ..world.manifest import NAME_RE, PACKAGE_RE
from .trace import Step, Trace, app_elements

__all__ = ["Model", "Transition", "build_model", "write_package", "state_key", "ref_of",
           "MODELLED"]

TEMPLATE_DIR = Path(__file__).resolve().parent / "_app"
FILES = ("__init__.py", "manifest.py", "app.py", "tasks.py")
#: Actions whose effect the skeleton models as a link; others (scrolls, long presses,
#: waits...) are reported as not modelled.
MODELLED = ("click", "double_click", "long_press", "type", "press", "scroll")
ENTRY = "main"

Key = tuple[tuple[str, str, str, str, tuple[int, int, int, int], bool], ...]


def state_key(elements: Sequence[UIElement]) -> Key:
    """What makes two dumps the same screen: every element's id, class, text, description,
    place and check state (not focus: tapping a field focuses it, the screen stays)."""
    return tuple((e.short_id, e.short_class, e.text, e.content_desc, e.bounds, e.checked)
                 for e in elements)


def structure(key: Key) -> frozenset[tuple[str, str]]:
    """A screen's shape: the ids (numbers left out: ``contact_12`` is a ``contact_#``) and
    classes of its elements, whatever they show."""
    return frozenset((re.sub(r"\d+", "#", k[0]), k[1]) for k in key)


def ref_of(target: dict[str, Any] | None, elements: Sequence[UIElement]) -> int | None:
    """The index in ``elements`` of the element a step's ``target`` describes (same id,
    class, text and description; the nearest such one), or None."""
    if target is None:
        return None
    same = [i for i, e in enumerate(elements)
            if (e.short_id if e.resource_id else "") == target["id"]
            and e.short_class == target["class"] and e.content_desc == target["desc"]
            and (e.text == target["text"] or e.editable)]
    if not same:
        return None
    b = target["bounds"]
    return min(same, key=lambda i: sum(abs(p - q)
                                       for p, q in zip(elements[i].bounds, b, strict=True)))


@dataclass
class Transition:
    """One recorded step inside the app: from screen ``src`` by ``key`` to ``dst``."""

    trace: str
    step: int
    src: str
    key: str
    dst: str
    action: dict[str, Any]


@dataclass
class Model:
    name: str
    label: str
    package: str
    screens: dict[str, Key] = field(default_factory=dict)
    #: (screen, key) -> Counter of target screens
    links: dict[tuple[str, str], Counter[str]] = field(default_factory=dict)
    transitions: list[Transition] = field(default_factory=list)
    #: recorded steps inside the app the skeleton does not model, with why
    unmodelled: list[dict[str, Any]] = field(default_factory=list)
    entries: Counter[str] = field(default_factory=Counter)
    #: screen -> the route that shows it: screens one scroll apart are one route, whose
    #: lists hold the rows of all of them (PhoneWorld scrolls it)
    route_of: dict[str, str] = field(default_factory=dict)
    #: the rebuilt app's own package (default: the recorded one)
    app_package: str = ""
    #: form screen -> the first screen of the same form (only its fields' texts differ):
    #: one route, whose fields hold what was typed
    same_form: dict[str, str] = field(default_factory=dict)

    def link(self, screen: str, key: str) -> str | None:
        found = self.links.get((screen, key))
        return found.most_common(1)[0][0] if found else None


def pick_package(traces: Sequence[Trace]) -> str:
    """The app the traces are about: the package most steps show (launchers aside: a step
    whose package hosts no action's target counts for less than one that does)."""
    counts: Counter[str] = Counter()
    for t in traces:
        for s in t.steps:
            counts[s.package] += 1
        for a, b in zip(t.steps, t.steps[1:], strict=False):
            if b.target is not None:
                counts[a.package] += 2
    counts.pop("", None)
    if not counts:
        raise ValueError("the traces show no app: record them with phone-gym record")
    return counts.most_common(1)[0][0]


def build_model(traces: Sequence[Trace], *, package: str | None = None, name: str | None = None,
                label: str | None = None, app_package: str | None = None) -> Model:
    """Screens, links and what is not modelled, from ``traces`` (of ``package``: default, the
    one they show most); the app is ``name`` (default: from the package), with the package
    ``app_package`` (default: the recorded one)."""
    package = package or pick_package(traces)
    name = name or default_name(package)
    if not NAME_RE.match(name):
        raise ValueError(f"app name {name!r}: use letters and digits, starting with a capital "
                         "letter, e.g. Contacts")
    if not PACKAGE_RE.match(package):
        raise ValueError(f"package {package!r} is not an Android package name such as "
                         "com.example.todo")
    if app_package is not None and not PACKAGE_RE.match(app_package):
        raise ValueError(f"--app-package {app_package!r} is not an Android package name such "
                         "as com.example.todo")
    model = Model(name, label or name, package, app_package=app_package or package)
    ids: dict[Key, str] = {}
    forms: dict[tuple[Any, ...], str] = {}

    def screen_of(step: Step) -> tuple[str, list[UIElement]]:
        elements = app_elements(step.elements(), package)
        key = state_key(elements)
        if key not in ids:
            ids[key] = ENTRY if not ids else f"s{len(ids)}"
            model.screens[ids[key]] = key
            if any(e.editable for e in elements):
                # the same form: the same widgets, whatever the fields hold and wherever
                # the keyboard pushed them
                fk = tuple(k[:2] + ("" if e.editable else k[2], k[3], k[5])
                           for k, e in zip(key, elements, strict=True))
                model.same_form[ids[key]] = forms.setdefault(fk, ids[key])
        return ids[key], elements

    for t in traces:
        prev: tuple[str, list[UIElement]] | None = None
        for step in t.steps:
            inside = step.package == package
            here = screen_of(step) if inside else None
            if here is not None and prev is None:
                model.entries[here[0]] += 1
            if here is not None and prev is not None and step.action is not None:
                add_transition(model, t.name, step, prev, here)
            prev = here
    if not model.screens:
        raise ValueError(f"no step of the traces shows {package}: pass --package")
    if model.entries and model.entries.most_common(1)[0][0] != ENTRY:
        swap_entry(model, model.entries.most_common(1)[0][0])
    group_scrolls(model)
    return model


def group_scrolls(model: Model) -> None:
    """``route_of``: screens linked by scrolls share the route of the first of them."""
    order = list(model.screens)
    root = {s: s for s in order}

    def find(s: str) -> str:
        while root[s] != s:
            s = root[s]
        return s

    pairs = [(src, dst) for (src, key), targets in model.links.items()
             if key.startswith("scroll:") for dst in targets]
    for src, dst in [*pairs, *model.same_form.items()]:
        a, b = sorted((find(src), find(dst)), key=order.index)
        root[b] = a
    model.route_of = {s: find(s) for s in order}


def add_transition(model: Model, trace: str, step: Step, prev: tuple[str, list[UIElement]],
                   here: tuple[str, list[UIElement]]) -> None:
    action = step.action or {}
    kind = str(action.get("action", ""))
    src, elements = prev
    key: str | None = None
    why = ""
    if kind == "press" and action.get("button") == "back":
        key = "back"
    elif kind == "scroll" and action.get("direction") in ("up", "down"):
        key = f"scroll:{action['direction']}"
    elif kind in ("click", "double_click", "long_press", "type"):
        ref = ref_of(step.target, elements)
        if ref is None:
            why = "the element acted on is not in the dump"
        elif kind == "type":
            key = f"type:{field_id(elements[ref], ref)}={action.get('text', '')}"
        else:
            key = ("long:" if kind == "long_press" else "") + elem_key(elements[ref])
    else:
        why = f"{kind or 'this'} action is not modelled"
    if key is None:
        if here[0] != src:
            model.unmodelled.append({"trace": trace, "step": step.index, "action": action,
                                     "to": here[0], "why": why})
        return
    model.links.setdefault((src, key), Counter())[here[0]] += 1
    model.transitions.append(Transition(trace, step.index, src, key, here[0], dict(action)))


def swap_entry(model: Model, entry: str) -> None:
    """Make ``entry`` the screen named ``ENTRY`` (the app's first route)."""
    def rename(s: str) -> str:
        return {entry: ENTRY, ENTRY: entry}.get(s, s)
    model.screens = {rename(k): v for k, v in model.screens.items()}
    model.links = {(rename(s), k): Counter({rename(d): n for d, n in c.items()})
                   for (s, k), c in model.links.items()}
    for tr in model.transitions:
        tr.src, tr.dst = rename(tr.src), rename(tr.dst)
    model.entries = Counter({rename(k): n for k, n in model.entries.items()})
    model.same_form = {rename(k): rename(v) for k, v in model.same_form.items()}


def default_name(package: str) -> str:
    """``com.android.contacts`` -> ``Contacts``."""
    last = package.rsplit(".", 1)[-1]
    words = re.findall(r"[A-Za-z][a-z0-9]*", last) or ["App"]
    return "".join(w[:1].upper() + w[1:] for w in words)


# --- screens as widget specs ------------------------------------------------------------------
def _inside(e: UIElement, box: tuple[int, int, int, int]) -> bool:
    return (e.bounds[0] >= box[0] and e.bounds[1] >= box[1] and e.bounds[2] <= box[2]
            and e.bounds[3] <= box[3])


#: Ids of containers shown above the screen: a popup menu, a dialog (PhoneWorld's and
#: AOSP's ``AlertDialog`` layouts: ``parentPanel``); a ListView without an id is a popup
#: menu's too.
OVERLAYS = frozenset({"menu", "dialog", "parentPanel"})
#: Classes of lists (scrolling or not: a short one fits).
LISTS = frozenset({"RecyclerView", "ListView", "GridView"})


def elem_key(e: UIElement) -> str:
    """How links name an element: its id, text (not a field's: it changes) and
    description."""
    return "|".join((e.short_id if e.resource_id else "", "" if e.editable else e.text,
                     e.content_desc))


def field_id(e: UIElement, i: int) -> str:
    """The widget id of a text field (element ``i`` of its screen): its own, or made up."""
    return e.short_id if e.resource_id else f"field_{i}"


def _kind(e: UIElement) -> str:
    cls = e.short_class
    if e.editable:
        return "field"
    if cls == "Switch":
        return "toggle"
    if e.checkable:
        return "checkbox"
    if cls == "Button":
        return "button"
    if (e.clickable or e.long_clickable or cls == "ImageButton") and not e.text:
        # an image button greyed out (a send button before anything is typed) is one too
        return "icon" if e.content_desc else ""
    if e.clickable or e.long_clickable:
        return "row"
    return "text" if e.text else ""


def screen_spec(key: Key, elements: Sequence[UIElement]) -> dict[str, Any]:
    """The widgets of one screen: the top bar (a toolbar's title and its icons), the tabs of
    a tab bar, and the rest top to bottom, rows of a scrolling list grouped as its records."""
    used: set[int] = set()
    spec: dict[str, Any] = {"bar": None, "content": [], "tabs": None, "dialog": None,
                            "dock": None}
    ids: Counter[str] = Counter()

    def widget(i: int, e: UIElement) -> dict[str, Any] | None:
        used.add(i)
        kind = _kind(e)
        if not kind:
            return None
        wid = field_id(e, i) if kind == "field" else (e.short_id if e.resource_id else "")
        ids[wid] += 1
        if wid and ids[wid] > 1 and kind == "field":
            wid = f"{wid}_{ids[wid]}"
        return {"kind": kind, "ref": elem_key(e), "id": wid, "text": e.text,
                "desc": e.content_desc, "checked": e.checked, "selected": e.selected,
                "long": e.long_clickable, "h": e.bounds[3] - e.bounds[1],
                "x": (e.bounds[0], e.bounds[2]), "y": (e.bounds[1], e.bounds[3])}

    for i, e in enumerate(elements):  # overlays first: their rows lie over the screen's
        if e.short_id in OVERLAYS or (e.short_class == "ListView" and not e.scrollable
                                      and not e.resource_id):
            kids = [j for j, c in enumerate(elements) if j > i and _inside(c, e.bounds)]
            used.add(i)
            spec["dialog"] = [w for j in kids if j not in used and (w := widget(j, elements[j]))]
    for i, e in enumerate(elements):
        # a bar docked at the bottom, above the keyboard: a composer, an editor's format bar
        kids = [j for j, c in enumerate(elements) if j > i and _inside(c, e.bounds)]
        if (i in used or e.text or e.editable or e.short_class in LISTS or len(kids) < 2
                or e.short_id == "tab_bar" or e.short_class == "HorizontalScrollView"
                or e.bounds[0] > 0 or e.bounds[2] < elements[0].bounds[2]  # full width
                or not all(_kind(elements[j]) in ("field", "icon", "button") for j in kids)
                or e.bounds[3] - e.bounds[1] > 400  # one line of widgets side by side
                or len({elements[j].bounds[1] for j in kids}) > 1):
            continue
        overlays = [x.bounds for x in elements if x.short_id in OVERLAYS]
        others = [c for j, c in enumerate(elements) if j != i and j not in kids
                  and not _inside(e, c.bounds) and not any(_inside(c, b) for b in overlays)]
        if others and all(c.bounds[3] <= e.bounds[1] for c in others):
            used.add(i)
            spec["dock"] = [w for j in kids if j not in used and (w := widget(j, elements[j]))]
            break
    for i, e in enumerate(elements):
        if i in used:
            continue
        if e.short_id == "toolbar" or e.short_class == "Toolbar":
            kids = [j for j, c in enumerate(elements) if j > i and _inside(c, e.bounds)
                    and j not in used]
            used.update(kids)
            up = next((j for j in kids if elements[j].short_id == "navigate_up"
                       or elements[j].content_desc == "Navigate up"), None)
            actions = [w for j in kids if j != up and (w := widget(j, elements[j]))]
            spec["bar"] = {"text": e.text, "actions": actions,
                           "up": elem_key(elements[up]) if up else None}
            used.add(i)
        elif e.short_class == "HorizontalScrollView" and e.short_id == "tab_bar":
            kids = [j for j, c in enumerate(elements) if j > i and _inside(c, e.bounds)
                    and j not in used]
            used.update(kids)
            spec["tabs"] = [dict(w, kind="tab") for j in kids if (w := widget(j, elements[j]))]
            used.add(i)
        elif (e.scrollable or e.short_class in LISTS) and not any(
                c.scrollable or c.short_class in LISTS for j, c in enumerate(elements)
                if j > i and j not in used and _inside(c, e.bounds)):  # (a menu over it aside)
            # a list (a scrolling container of the screen's content holds one: it is the
            # screen, whose content PhoneWorld scrolls)
            kids = [j for j, c in enumerate(elements) if j > i and _inside(c, e.bounds)
                    and j not in used]
            # what a row holds (an alarm's label and days, its switch) is part of its record
            held: dict[int, list[int]] = {j: [k for k in kids if k > j and _inside(
                elements[k], elements[j].bounds)] for j in kids if _kind(elements[j]) == "row"}
            inside_rows = {k for ks in held.values() for k in ks}
            inner = []
            for j in kids:
                if j in inside_rows:
                    used.add(j)
                elif (w := widget(j, elements[j])) is not None:
                    if j in held:
                        w["parts"] = [(elements[k].short_id, elements[k].text) for k in held[j]
                                      if _kind(elements[k]) == "text"]
                        sw = next((elements[k] for k in held[j]
                                   if _kind(elements[k]) in ("toggle", "checkbox")), None)
                        if sw is not None:
                            w["switch"] = {"id": sw.short_id, "desc": sw.content_desc,
                                           "text": sw.text, "checked": sw.checked}
                    inner.append(w)
            rows = [w for w in inner if w["kind"] == "row"]
            heights = Counter(elements[j].bounds[3] - elements[j].bounds[1] for j in kids
                              if _kind(elements[j]) == "row")
            used.add(i)
            # an empty list's text ("No alarms") is what it shows when it holds no records
            empty = next((w for w in inner if w["kind"] == "text"), None) if not rows else None
            spec["content"].append({"kind": "list", "id": e.short_id if e.resource_id else "",
                                    "rows": rows, "row_height": heights.most_common(1)[0][0]
                                    if heights else 0, "empty": empty["text"] if empty else ""})
            # what floats over the list (a floating action button) follows it
            spec["content"].extend(w for w in inner if w["kind"] != "row" and w is not empty)
        else:
            w = widget(i, e)
            if w is not None:
                spec["content"].append(w)
    return spec


def merge_rows(into: dict[str, Any], other: dict[str, Any]) -> None:
    """Add to ``into``'s lists the rows of ``other``'s same lists that it lacks (the rows a
    scroll revealed), after the rows it has."""
    lists = {w["id"]: w for w in into["content"] if w["kind"] == "list"}
    for w in other["content"]:
        if w["kind"] == "list" and w["id"] in lists:
            have = lists[w["id"]]["rows"]
            refs = {r["ref"] for r in have}
            have.extend(r for r in w["rows"] if r["ref"] not in refs)


FIXTURES = '''"""{label}'s recorded screens, links and list records (written by
``phone-gym reconstruct``).

``SCREENS``: each screen's widgets as recorded (a list's rows among them); ``NAV``: screen ->
{{element ref, ``long:REF``, ``type:FIELD=TEXT`` or ``back``: (next screen, whether it opens on
top)}}; ``ENTRY``: the first screen; ``RECORDS``: every row each list showed on any screen,
by list: the app's ``records`` table starts with the rows of the first screen's lists and
every row of the others.
"""

from __future__ import annotations

from typing import Any

ENTRY = {entry}

SCREENS: dict[str, dict[str, Any]] = (
{screens}
)

NAV: dict[str, dict[str, tuple[str, bool]]] = (
{nav}
)

RECORDS: dict[str, list[dict[str, Any]]] = (
{records}
)

#: The data model recovered from the traces (``reconstruct.model``): ``forms`` (route ->
#: save ref, collection, fields and their types, which screens show which field), ``deletes``
#: ([route, ref, collection]: that action removes the record opened last), ``toggles``
#: (route -> switch ids whose values persist), ``row_links`` (list -> where a tap on a row
#: leads), ``tasks`` (the generated templates' specs: ``reconstruct.tasks``).
STATE: dict[str, Any] = (
{state}
)
'''


def seed_records(screens: dict[str, dict[str, Any]],
                 details: dict[tuple[str, str], dict[str, str]] | None = None
                 ) -> dict[str, list[dict[str, Any]]]:
    """Every row of every list, once, by list id: ``{"id": ..., "text": ..., "parts": ...,
    "values": ...}`` (``values``: what the record's screen showed when opened, by widget
    id: ``model.trace_details``)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for spec in screens.values():
        for w in spec["content"]:
            if w["kind"] == "list":
                rows = out.setdefault(w["id"] or "list", [])
                seen = {(r["id"], r["text"]) for r in rows}
                rows.extend({"id": r["id"], "text": r["text"], "parts": r.get("parts", []),
                             "values": (details or {}).get((r["id"], r["text"]), {})}
                            for r in w["rows"] if (r["id"], r["text"]) not in seen and r["text"])
    return out


def state_fixture(model: Model, traces: Sequence[Trace],
                  nav: dict[str, dict[str, tuple[str, bool]]]) -> dict[str, Any]:
    """``fixtures.STATE``: ``model.infer_state`` by route, with where each list's rows lead
    and each route's twins (the same widgets: the screen with other values)."""
    from .model import infer_state
    from .tasks import task_specs

    state = infer_state(model, traces)
    route = model.route_of.get
    forms: dict[str, Any] = {}
    for screen, form in state.forms.items():
        f = forms.setdefault(route(screen, screen), {**form, "shows": {}})
        f["fields"] = {**f["fields"], **form["fields"]}
        for shown, fields in form["shows"].items():
            f["shows"].setdefault(route(shown, shown), {}).update(fields)
    row_links: dict[str, tuple[str, bool]] = {}
    for links in nav.values():
        for key, dst in links.items():
            long = "long:" if key.startswith("long:") else ""
            rid, text = key.removeprefix(long).split("|")[:2] if "|" in key else ("", "")
            for lid, rows in state.collections.items():
                if (rid, text) in rows:
                    row_links.setdefault(long + lid, dst)
    cites: dict[str, list[list[str]]] = {}
    for screen, cs in state.cites.items():
        have = cites.setdefault(route(screen, screen), [])
        have.extend(list(c) for c in cs if list(c) not in have)
    shapes: dict[frozenset[tuple[str, str]], list[str]] = {}
    for screen, shape in model.screens.items():
        r = route(screen, screen)
        same = shapes.setdefault(structure(shape), [])
        if r not in same:
            same.append(r)
    twins = {r: [t for t in same if t != r] for same in shapes.values() if len(same) > 1
             for r in same}
    return {"forms": forms, "twins": twins,
            "mentions": {route(s, s): t for s, t in state.mentions.items()},
            # routes whose title is the opened record's text
            "titled": sorted({route(s, s) for s, t in state.mentions.items()
                              if any(k[0] == "toolbar" and k[2] == t
                                     for k in model.screens.get(s, ()))}),
            "filters": state.filters, "suggest": state.suggest, "marks": state.marks,
            # the values the traces typed into a form saved (rows of records they created)
            "created": sorted({v for c in state.changes if c.kind == "create"
                               for v in c.values.values()}),
            "cites": cites,
            "deletes": sorted({(route(s, s), r, c) for (s, r), c in state.deletes.items()}),
            "toggles": {route(s, s): ids for s, ids in state.toggles.items()},
            "edits": sorted(([route(s, s), r, e] for (s, r), e in state.edits.items()),
                            key=lambda x: (x[0], x[1])),
            "sets": sorted(([route(s, s), r, e] for (s, r), e in state.sets.items()),
                           key=lambda x: (x[0], x[1])),
            "row_links": row_links, "tasks": task_specs(model, state)}


def _literal(value: Any) -> str:
    """``value`` as Python source, indented, in lines of at most 100 characters."""
    return textwrap.indent(pprint.pformat(value, width=92, sort_dicts=False), "    ")


def write_package(model: Model, traces: Sequence[Trace], out: str | Path) -> Path:
    """Write the app package under ``out`` (``out/pyproject.toml``, ``out/<module>/``);
    return the app folder."""
    module = module_name(model.name)
    root = Path(out)
    folder = root / module
    if folder.exists() and any(folder.iterdir()):
        raise ValueError(f"{folder} exists already: pick another --out or remove it")
    folder.mkdir(parents=True, exist_ok=True)
    elements_of: dict[str, list[UIElement]] = {}
    keys = {v: k for k, v in model.screens.items()}
    for t in traces:
        for s in t.steps:
            if s.package == model.package:
                els = app_elements(s.elements(), model.package)
                name = keys.get(state_key(els))
                if name is not None:
                    elements_of.setdefault(name, els)
    screens: dict[str, dict[str, Any]] = {}
    for name, shape in model.screens.items():
        spec = screen_spec(shape, elements_of[name])
        route = model.route_of.get(name, name)
        if route in screens:
            merge_rows(screens[route], spec)
        else:
            screens[route] = spec
    nav: dict[str, dict[str, tuple[str, bool]]] = {}
    for (src, key), _ in sorted(model.links.items()):
        dst = model.link(src, key)
        assert dst is not None
        if key.startswith("scroll:"):
            continue  # the route's list holds the rows; PhoneWorld scrolls it
        push = structure(model.screens[dst]) != structure(model.screens[src]) and key != "back"
        nav.setdefault(model.route_of.get(src, src), {})[key] = (
            model.route_of.get(dst, dst), push and not key.startswith("type:"))
    from .model import infer_state, trace_details

    # what records' screens showed when opened: records the traces did not create
    created = {v for c in infer_state(model, traces).changes if c.kind == "create"
               for v in c.values.values()}
    details: dict[tuple[str, str], dict[str, str]] = {}
    for t in traces:
        for row, shown in trace_details(t, model.package).items():
            if row[1] not in created:
                details.setdefault(row, shown)
    values = {"Name": model.name, "name": module, "module": module, "label": model.label,
              "package": model.app_package or model.package, "icon": "apps",
              "dist": f"phone-gym-{module.replace('_', '-')}"}
    for name in FILES:
        (folder / name).write_text(render((TEMPLATE_DIR / f"{name}.tmpl").read_text(), values),
                                   encoding="utf-8")
    (root / "pyproject.toml").write_text(
        render((TEMPLATE_DIR / "pyproject.toml.tmpl").read_text(), values), encoding="utf-8")
    (folder / "fixtures.py").write_text(FIXTURES.format(
        label=model.label, entry=repr(ENTRY), screens=_literal(screens), nav=_literal(nav),
        records=_literal(seed_records(screens, details)),
        state=_literal(state_fixture(model, traces, nav))),
        encoding="utf-8")
    return folder
