"""How faithful a rebuilt app is to the traces it was rebuilt from.

``replay`` loads the rebuilt package into a PhoneWorld ``Device`` and, trace by trace, does
each recorded action on the rebuilt app (on the element the trace says it acted on, found
again by id, class, text and description) and compares the screen it reaches with the
recorded next one. ``screen_fidelity`` compares every recorded screen with the rebuilt one:
text overlap and element-box IoU. ``static_changes`` lists the state-changing actions the
traces saw that the skeleton only imitates.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from ..actions import to_action
from ..real.commands import scroll_swipe, to_pixels
from ..world import theme as T
from ..world.a11y import UIElement, parse_xml, to_xml
from ..world.app import App, Route
from ..world.device import Device
from .build import Model, elem_key, state_key, structure
from .model import list_rows, trace_details
from .trace import Step, Trace, app_elements, screen_texts

__all__ = ["load_app", "replay", "screen_fidelity", "static_changes", "report",
           "write_report", "text_overlap", "iou", "MATCH"]

#: Two screens' texts match when their overlap (``text_overlap``) is at least this.
MATCH = 0.9


def load_app(folder: str | Path) -> ModuleType:
    """Import a rebuilt app folder (``APP``, ``MANIFEST``) without installing it."""
    folder = Path(folder)
    name = folder.name
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)])
    if spec is None or spec.loader is None:
        raise ValueError(f"{folder}: not an app package (no __init__.py)")
    for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
        del sys.modules[key]
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def text_overlap(a: Sequence[str], b: Sequence[str]) -> float:
    """Dice overlap of two screens' texts as multisets (1.0: the same texts)."""
    if not a and not b:
        return 1.0
    common = sum((Counter(a) & Counter(b)).values())
    return 2 * common / (len(a) + len(b))


def iou(p: tuple[int, int, int, int], q: tuple[int, int, int, int]) -> float:
    ix = max(0, min(p[2], q[2]) - max(p[0], q[0]))
    iy = max(0, min(p[3], q[3]) - max(p[1], q[1]))
    inter = ix * iy
    union = ((p[2] - p[0]) * (p[3] - p[1]) + (q[2] - q[0]) * (q[3] - q[1]) - inter)
    return inter / union if union > 0 else 0.0


class Rebuilt:
    """The rebuilt app running on a PhoneWorld device."""

    def __init__(self, app_cls: type[App], model: Model | None = None) -> None:
        self.cls = app_cls
        self.model = model
        self.device = Device([app_cls])
        fixtures = sys.modules.get(app_cls.__module__.rsplit(".", 1)[0] + ".fixtures")
        self.screens: dict[str, Any] = getattr(fixtures, "SCREENS", {})

    def show(self, screen: str, recorded: Sequence[UIElement] = (),
             rows: dict[str, list[tuple[str, str]]] | None = None,
             toggles: dict[str, bool] | None = None,
             parts: dict[tuple[str, str], list[tuple[str, str]]] | None = None,
             details: dict[tuple[str, str], dict[str, str]] | None = None) -> None:
        """Show recorded ``screen``: its route, scrolled (when a scroll reached it) so that
        the first whole row of its list sits where it was recorded; with ``rows``, the lists'
        records are those (``trace_rows``) first."""
        route = self.model.route_of.get(screen, screen) if self.model else screen
        app = self.device.apps[self.cls.package]
        if rows is not None and hasattr(app, "load_rows"):
            app.load_rows(rows, toggles, parts, details)
        app.show(route)  # type: ignore[attr-defined]
        self.device.focus = None
        self.device.scroll.pop((app.name, Route(route)), None)
        self.device.open_app(self.cls.name)
        if route != screen and recorded:
            offset = self._offset(route, recorded)
            if offset:
                self.device.scroll[(app.name, Route(route))] = offset
                self.device.open_app(self.cls.name)  # shows it again, scrolled
        focused = next((e for e in recorded if e.focused and e.editable), None)
        if focused is not None:  # the keyboard was up: tap the field, as the person did
            field = next((e for e in self.elements() if e.editable
                          and elem_key(e) == elem_key(focused)), None)
            if field is not None:
                self.device.step(to_action({"action": "click", "x": 0, "y": 0}), px=(
                    (field.bounds[0] + field.bounds[2]) // 2,
                    (field.bounds[1] + field.bounds[3]) // 2))

    def _offset(self, route: str, recorded: Sequence[UIElement]) -> int:
        lists = [w for w in self.screens.get(route, {}).get("content", [])
                 if w["kind"] == "list" and w.get("row_height")]
        for spec in lists:
            h = spec["row_height"]
            refs = [r["ref"] for r in spec["rows"]]
            box = next((e for e in self.elements()
                        if e.short_id == (spec["id"] or "list")), None)
            for e in recorded:
                key = elem_key(e)
                if key in refs and e.bounds[3] - e.bounds[1] == h and box is not None:
                    return max(0, box.bounds[1] + refs.index(key) * h - e.bounds[1])
        return 0

    def align(self, recorded: Sequence[UIElement]) -> bool:
        """After a scroll: scroll the list of the screen shown so that a row of it the
        ``recorded`` screen shows whole sits where it was recorded (the store's rows, in
        order). A trace holds a scroll's direction, not its length (the phone's fling), so
        the rebuilt list goes where the recorded one went when it holds that row. False:
        no row of it recorded (the scroll stays as the gesture left it)."""
        app: Any = self.device.apps[self.cls.package]
        key = (app.name, app.route)
        was = self.device.scroll.get(key, 0)
        for spec in self.screens.get(app.route.name, {}).get("content", []):
            h, lid = spec.get("row_height"), spec.get("id") or "list"
            if spec.get("kind") != "list" or not h or not hasattr(app.data, "records"):
                continue
            rows = [(r.rid, r.text) for r in app.data.records.where(list=lid)]
            self.device.scroll.pop(key, None)
            self.device.invalidate()
            box = next((e for e in self.elements() if e.short_id == lid), None)
            for e in recorded:
                if (e.short_id, e.text) in rows and e.bounds[3] - e.bounds[1] == h and box:
                    offset = box.bounds[1] + rows.index((e.short_id, e.text)) * h - e.bounds[1]
                    self.device.scroll[key] = max(0, offset)
                    self.device.invalidate()
                    return True
        self.device.scroll[key] = was
        self.device.invalidate()
        return False

    def elements(self) -> list[UIElement]:
        return app_elements(parse_xml(to_xml(self.device.frame())), self.cls.package)

    def find(self, target: dict[str, Any]) -> UIElement | None:
        """The rebuilt element a recorded ``target`` describes (the app's; else one the
        system shows over it, as a text field's long-press menu)."""
        elements = self.elements()
        for strict in (True, False, None):
            if strict is None:  # the system's menu over the app (Select all, Paste)
                elements = parse_xml(to_xml(self.device.frame()))
            for e in elements:
                if (e.short_id if e.resource_id else "") != target["id"] and strict:
                    continue
                if e.content_desc == target["desc"] and (e.text == target["text"]
                                                          or e.editable and target["editable"]):
                    return e
        return None

    def act(self, action: dict[str, Any], target: dict[str, Any] | None,
            size: tuple[int, int] = (T.SCREEN_W, T.SCREEN_H)) -> str | None:
        """Do a recorded action (from a ``size`` screen); an error message when it cannot."""
        kind = action.get("action")
        if kind == "press":
            return self.device.step(to_action(action))
        if kind == "scroll":
            # as the phone got it: the swipe ``real.commands`` sends for a scroll, which the
            # virtual device (``input swipe``) turns into a drag
            x, y = to_pixels(int(action["x"]), int(action["y"]), size)
            x1, y1, x2, y2 = scroll_swipe(x, y, str(action["direction"]), size)
            sx, sy = T.SCREEN_W / size[0], T.SCREEN_H / size[1]
            return self.device.step(
                to_action({"action": "drag", "x": 0, "y": 0, "x2": 0, "y2": 0}),
                px=(round(x1 * sx), round(y1 * sy)), px2=(round(x2 * sx), round(y2 * sy)))
        if target is None:
            return "no target recorded"
        e = self.find(target)
        if e is None:
            return f"no element like {target['text'] or target['desc'] or target['id']!r}"
        cx, cy = (e.bounds[0] + e.bounds[2]) // 2, (e.bounds[1] + e.bounds[3]) // 2
        if kind == "type":
            if not e.focused:
                self.device.step(to_action({"action": "click", "x": 0, "y": 0}), px=(cx, cy))
            return self.device.step(to_action(action))
        return self.device.step(to_action({"action": kind, "x": 0, "y": 0}), px=(cx, cy))


def trace_rows(trace: Trace, package: str) -> dict[str, list[tuple[str, str]]]:
    """Every row each list showed in ``trace``, in the order seen: the records a replay of
    it starts with (a record the trace created is among them from the start)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for step in trace.steps:
        if step.package != package:
            continue
        for lid, rs in list_rows(app_elements(step.elements(), package)).items():
            have = out.setdefault(lid, [])
            have.extend(r for r in rs if r not in have)
    return out


def trace_parts(trace: Trace, package: str) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """What each list row of ``trace`` showed besides its text (``build.screen_spec``'s
    parts: the texts inside the row's box), by ``(row id, text)``."""
    out: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for step in trace.steps:
        if step.package != package:
            continue
        els = app_elements(step.elements(), package)
        for rows in list_rows(els).values():
            for rid, text in rows:
                row = next((e for e in els if e.short_id == rid and e.text == text), None)
                if row is None or (rid, text) in out:
                    continue
                out[(rid, text)] = [(e.short_id, e.text) for e in els
                                    if e is not row and e.text and not e.clickable
                                    and not e.long_clickable and not e.checkable
                                    and e.bounds[0] >= row.bounds[0]
                                    and e.bounds[1] >= row.bounds[1]
                                    and e.bounds[2] <= row.bounds[2]
                                    and e.bounds[3] <= row.bounds[3]]
    return out


def trace_toggles(trace: Trace, package: str) -> dict[str, bool]:
    """The first check state each switch of ``trace`` showed: the values a replay of it
    starts with."""
    out: dict[str, bool] = {}
    for step in trace.steps:
        if step.package == package:
            for e in app_elements(step.elements(), package):
                if e.short_class == "Switch" and e.short_id:
                    out.setdefault(e.short_id, e.checked)
    return out


def replay(model: Model, traces: Sequence[Trace], app_cls: type[App]) -> dict[str, Any]:
    """Replay every modelled transition of ``traces`` in the rebuilt app, in order, each
    trace from its first screen in the app (after a mismatch, from the recorded screen)."""
    rebuilt = Rebuilt(app_cls, model)
    names = {v: k for k, v in model.screens.items()}
    wanted = {(t.trace, t.step) for t in model.transitions}
    skipped = {(u["trace"], u["step"]): u["why"] for u in model.unmodelled}
    results: list[dict[str, Any]] = []
    for trace in traces:
        inside = False
        rows: dict[str, list[tuple[str, str]]] | None = trace_rows(trace, model.package)
        for step in trace.steps:
            if step.package != model.package:
                inside = False
                continue
            recorded = app_elements(step.elements(), model.package)
            screen = names[state_key(recorded)]
            if inside and (trace.name, step.index) in wanted:
                assert step.action is not None
                error = rebuilt.act(step.action, step.target, step.size)
                got = screen_texts(rebuilt.elements())
                overlap = text_overlap(got, screen_texts(recorded))
                ok = error is None and overlap >= MATCH
                results.append({"trace": trace.name, "step": step.index,
                                "action": step.action, "to": screen, "ok": ok,
                                "text_overlap": round(overlap, 3), "error": error})
                if ok:
                    continue
            elif inside and (trace.name, step.index) in skipped:
                results.append({"trace": trace.name, "step": step.index,
                                "action": step.action, "to": screen, "ok": False,
                                "text_overlap": 0.0,
                                "error": f"not modelled: {skipped[trace.name, step.index]}"})
            rebuilt.show(screen, recorded, rows)  # (re)start from the recorded screen
            rows, inside = None, True
    passed = sum(r["ok"] for r in results)
    return {"transitions": len(results), "replayed": passed,
            "rate": round(passed / len(results), 4) if results else 0.0,
            "threshold": MATCH, "results": results}


def screen_fidelity(model: Model, traces: Sequence[Trace], app_cls: type[App]
                    ) -> dict[str, dict[str, float]]:
    """Per screen: text overlap with the recording and the mean IoU of each recorded
    element's box with its rebuilt counterpart's (same id and text; 0 when none)."""
    rebuilt = Rebuilt(app_cls, model)
    seen: dict[str, tuple[list[UIElement], Trace]] = {}
    names = {v: k for k, v in model.screens.items()}
    for t in traces:
        for s in t.steps:
            if s.package == model.package:
                els = app_elements(s.elements(), model.package)
                seen.setdefault(names[state_key(els)], (els, t))
    out: dict[str, dict[str, float]] = {}
    for name, (recorded, trace) in seen.items():
        rebuilt.show(name, recorded, trace_rows(trace, model.package))
        got = rebuilt.elements()
        ious = []
        for e in recorded:
            same = [g for g in got if g.short_id == e.short_id and g.text == e.text
                    and g.content_desc == e.content_desc]
            ious.append(max((iou(e.bounds, g.bounds) for g in same), default=0.0))
        out[name] = {"text_overlap": round(text_overlap(screen_texts(got),
                                                        screen_texts(recorded)), 3),
                     "layout_iou": round(sum(ious) / len(ious), 3) if ious else 1.0,
                     "elements": len(recorded)}
    return out


def static_changes(model: Model, traces: Sequence[Trace]) -> list[dict[str, Any]]:
    """State-changing actions seen but not modelled: typing (the skeleton jumps to the
    recorded result, it keeps no text), actions after which a screen came back showing other
    data (a record saved, deleted, changed), links that led to different screens on
    different visits, and recorded actions the skeleton has no link for."""
    out: list[dict[str, Any]] = []
    names = {v: k for k, v in model.screens.items()}
    for t in traces:
        last_of: dict[frozenset[tuple[str, str]], tuple[str, list[str]]] = {}
        for s in t.steps:
            if s.package != model.package:
                continue
            els = app_elements(s.elements(), model.package)
            key = state_key(els)
            shape, texts = structure(key), screen_texts(els)
            kind = (s.action or {}).get("action")
            if kind == "type":
                out.append({"trace": t.name, "step": s.index, "kind": "typed text",
                            "action": s.action, "detail": "the field keeps no text; the next "
                            "screen is the recorded one"})
            elif (shape in last_of and last_of[shape][0] != names[key] and s.action
                  and kind != "scroll"):  # a scroll shows other rows of the same data
                before = Counter(last_of[shape][1])
                added = sorted((Counter(texts) - before).elements())
                removed = sorted((before - Counter(texts)).elements())
                if added or removed:
                    out.append({"trace": t.name, "step": s.index, "kind": "data changed",
                                "action": s.action, "target": (s.target or {}).get("text")
                                or (s.target or {}).get("desc"),
                                "detail": f"screen {names[key]} shows +{added[:5]} "
                                          f"-{removed[:5]}"})
            last_of[shape] = (names[key], texts)
    for (src, link), targets in sorted(model.links.items()):
        if len(targets) > 1:
            out.append({"kind": "ambiguous link", "screen": src, "key": link,
                        "detail": f"led to {dict(targets)}; the skeleton follows the most "
                                  "frequent"})
    out.extend(dict(u, kind="not modelled") for u in model.unmodelled)
    return out


def report(model: Model, traces: Sequence[Trace], app_cls: type[App]) -> dict[str, Any]:
    rep = replay(model, traces, app_cls)
    screens = screen_fidelity(model, traces, app_cls)
    n = len(screens) or 1
    return {
        "app": {"name": model.name, "label": model.label, "package": model.package,
                "app_package": model.app_package or model.package},
        "traces": len(traces), "screens": len(model.screens),
        "links": len(model.links), "replay": rep,
        "screen_fidelity": {"mean_text_overlap": round(sum(s["text_overlap"]
                                                           for s in screens.values()) / n, 3),
                            "mean_layout_iou": round(sum(s["layout_iou"]
                                                         for s in screens.values()) / n, 3),
                            "screens": screens},
        "static": static_changes(model, traces),
    }


def write_report(rep: dict[str, Any], folder: str | Path) -> tuple[Path, Path]:
    """``fidelity.json`` and ``fidelity.md`` in ``folder``."""
    folder = Path(folder)
    js, md = folder / "fidelity.json", folder / "fidelity.md"
    js.write_text(json.dumps(rep, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    r, sf = rep["replay"], rep["screen_fidelity"]
    static = Counter(s["kind"] for s in rep["static"])
    lines = [
        f"# Fidelity of the rebuilt {rep['app']['label']} ({rep['app']['package']})", "",
        f"- traces: {rep['traces']}, screens: {rep['screens']}, links: {rep['links']}",
        f"- **transitions replayed: {r['replayed']}/{r['transitions']} ({r['rate']:.1%})** "
        f"(same action on the same element reaches a screen whose texts overlap the recorded "
        f"next screen's by at least {r['threshold']:.0%})",
        f"- screens: mean text overlap {sf['mean_text_overlap']:.3f}, mean element-box IoU "
        f"{sf['mean_layout_iou']:.3f}",
        "", "## Still static", "",
    ]
    if not rep["static"]:
        lines.append("Nothing state-changing was seen.")
    lines += [f"- {kind}: {n}" for kind, n in sorted(static.items())]
    for s in rep["static"][:30]:
        where = f"{s.get('trace', '')} step {s.get('step', '')}".strip()
        lines.append(f"  - {s['kind']} ({where}): {s.get('detail') or s.get('why', '')}")
    failed = [x for x in r["results"] if not x["ok"]]
    if failed:
        lines += ["", "## Transitions that did not replay", ""]
        lines += [f"- {x['trace']} step {x['step']}: {x['action']} -> {x['to']} "
                  f"(text overlap {x['text_overlap']}{'; ' + x['error'] if x['error'] else ''})"
                  for x in failed[:30]]
    md.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return js, md


# --- held-out traces ---------------------------------------------------------------------------
def nearest_screen(model: Model, recorded: Sequence[UIElement]) -> str:
    """The model's screen most like ``recorded``: the same one, else the one of the same
    shape whose texts overlap most, else the one whose texts overlap most."""
    key = state_key(recorded)
    for name, k in model.screens.items():
        if k == key:
            return name
    texts, shape = screen_texts(recorded), structure(key)

    def score(item: tuple[str, Any]) -> tuple[bool, float]:
        name, k = item
        return (structure(k) == shape,
                text_overlap([t[2] for t in k if t[2]], texts))

    return max(model.screens.items(), key=score)[0]


def _records(app: Any) -> dict[int, Any]:
    return {r.id: r for r in app.data.records.values()} if hasattr(app, "data") and hasattr(
        app.data, "records") else {}


def _agrees(change: Any, app: Any, before: dict[int, Any]) -> bool:
    """Whether the rebuilt store changed as ``change`` (a ``model.Change``) says."""
    after = _records(app)
    if change.kind == "create":
        new = [r for k, r in after.items() if k not in before]
        return any(r.list == change.collection and dict(r.values) == change.values
                   for r in new)
    if change.kind == "delete":
        gone = [r for k, r in before.items() if k not in after]
        return any(r.list == change.collection and r.text == change.record for r in gone)
    if change.kind == "toggle":
        return bool(getattr(app.data, "toggles", {}).get(change.record) == change.checked)
    if change.kind in ("edit", "set"):  # the record now holds the values, and was changed
        return any(r.list == change.collection and r.text == change.record
                   and before.get(k) != r
                   and all(dict(r.values).get(f) == v for f, v in change.values.items())
                   for k, r in after.items())
    return False


def heldout(model: Model, traces: Sequence[Trace], app_cls: type[App], *,
            snap: Callable[[Trace, Step, Rebuilt, dict[str, Any]], None] | None = None
            ) -> dict[str, Any]:
    """Replay ``traces`` (ones the build never saw) in the rebuilt app: each action on the
    element its target describes, from each trace's first screen with its lists' rows.
    Per step: whether the texts match the recorded next screen (``MATCH``), the mean IoU
    of each recorded element's box with its rebuilt counterpart's; per state change the
    held-out trace shows (``model.infer_state``), whether the rebuilt store changed the same
    way. After a mismatch the replay goes on from the recorded screen nearest the one
    recorded (the store as it is). ``snap(trace, step, rebuilt, result)`` is called after
    each step replayed, the rebuilt app showing what the action reached
    (``screens.Shots``)."""
    from .model import infer_state

    rebuilt = Rebuilt(app_cls, model)
    app: Any = rebuilt.device.apps[app_cls.package]
    steps: list[dict[str, Any]] = []
    changes: list[dict[str, Any]] = []
    for trace in traces:
        want = {c.step: c for c in infer_state(model, [trace]).changes}
        rows: dict[str, list[tuple[str, str]]] | None = trace_rows(trace, model.package)
        inside = False
        for step in trace.steps:
            if step.package != model.package:
                inside = False
                continue
            recorded = app_elements(step.elements(), model.package)
            if inside and step.action is not None:
                before = _records(app)
                try:
                    error = rebuilt.act(step.action, step.target, step.size)
                except (ValueError, KeyError) as exc:
                    error = str(exc)
                if step.action.get("action") == "scroll" and error is None:
                    rebuilt.align(recorded)
                got = rebuilt.elements()
                overlap = text_overlap(screen_texts(got), screen_texts(recorded))
                ious = [max((iou(e.bounds, g.bounds) for g in got if g.short_id == e.short_id
                             and g.text == e.text and g.content_desc == e.content_desc),
                            default=0.0) for e in recorded]
                ok = error is None and overlap >= MATCH
                steps.append({"trace": trace.name, "step": step.index, "ok": ok,
                              "action": step.action, "text_overlap": round(overlap, 3),
                              "iou": round(sum(ious) / len(ious), 3) if ious else 1.0,
                              "error": error})
                if snap is not None:
                    snap(trace, step, rebuilt, steps[-1])
                if step.index in want:
                    c = want[step.index]
                    changes.append({"trace": trace.name, "step": step.index, "kind": c.kind,
                                    "agrees": _agrees(c, app, before)})
                if ok:
                    continue
            rebuilt.show(nearest_screen(model, recorded), recorded, rows,
                         trace_toggles(trace, model.package) if rows is not None else None,
                         trace_parts(trace, model.package) if rows is not None else None,
                         trace_details(trace, model.package) if rows is not None else None)
            rows, inside = None, True
    n, m = len(steps), len(changes)
    return {"transitions": n, "reached": sum(s["ok"] for s in steps),
            "rate": round(sum(s["ok"] for s in steps) / n, 4) if n else 0.0,
            "mean_iou": round(sum(s["iou"] for s in steps) / n, 3) if n else 0.0,
            "mean_text_overlap": round(sum(s["text_overlap"] for s in steps) / n, 3)
            if n else 0.0,
            "changes": m, "changes_agreeing": sum(c["agrees"] for c in changes),
            "state_agreement": round(sum(c["agrees"] for c in changes) / m, 4) if m else 1.0,
            "steps": steps, "state_changes": changes}
