"""The trace format ``phone-gym record`` writes and ``phone-gym reconstruct`` reads.

A trace is a folder: ``trace.jsonl`` (one JSON object per step), ``dumps/NNNN.xml`` (the
``uiautomator dump`` of each step) and ``frames/NNNN.png`` (its ``screencap -p``). Step 0 is
the screen before anything happened; step ``i > 0`` is the screen after ``action`` (the
action that led from step ``i - 1`` to it), with ``target``: the element of step ``i - 1``'s
dump the action acted on (``None`` for keys and app launches), and ``source``: ``"given"``
(from ``--actions`` or the caller) or ``"inferred"`` (from the two dumps, see
``infer_action``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..world.a11y import UIElement, parse_xml

__all__ = ["Step", "Trace", "element_at", "describe", "app_elements", "infer_action",
           "load_traces", "screen_texts", "TRACE_FILE"]

TRACE_FILE = "trace.jsonl"


@dataclass(frozen=True)
class Step:
    """One recorded screen and the action that led to it."""

    index: int
    package: str
    activity: str
    xml: str
    size: tuple[int, int]
    action: dict[str, Any] | None = None
    target: dict[str, Any] | None = None
    source: str = ""

    def elements(self) -> list[UIElement]:
        return parse_xml(self.xml, *self.size)


@dataclass(frozen=True)
class Trace:
    name: str
    steps: tuple[Step, ...]


def describe(e: UIElement) -> dict[str, Any]:
    """What identifies an element across dumps (and in a rebuilt app)."""
    return {"id": e.short_id if e.resource_id else "", "class": e.short_class, "text": e.text,
            "desc": e.content_desc, "bounds": list(e.bounds), "editable": e.editable}


def app_elements(elements: Iterable[UIElement], package: str) -> list[UIElement]:
    """The elements of ``package`` (a dump also holds the keyboard's, the status bar's...),
    without toasts (they come and go by themselves)."""
    return [e for e in elements if e.package == package and e.short_class != "Toast"]


def screen_texts(elements: Iterable[UIElement]) -> list[str]:
    """The visible texts of a screen, in document order."""
    return [e.text for e in elements if e.text]


def element_at(elements: Iterable[UIElement], x: int, y: int) -> UIElement | None:
    """The element a touch at pixel ``(x, y)`` lands on: the smallest clickable (or, when
    none, editable / any) one whose bounds hold the point, as Android's hit test ends at
    the deepest view that takes the touch."""
    hit = [e for e in elements if e.bounds[0] <= x < e.bounds[2] and e.bounds[1] <= y < e.bounds[3]]
    for wanted in (lambda e: e.clickable or e.editable, lambda e: bool(e.text or e.content_desc)):
        found = [e for e in hit if wanted(e)]
        if found:
            return min(found, key=lambda e: (e.bounds[2] - e.bounds[0])
                       * (e.bounds[3] - e.bounds[1]))
    return None


def _key(e: UIElement) -> tuple[str, str, tuple[int, int, int, int]]:
    return (e.resource_id, e.class_name, e.bounds)


def infer_action(before: list[UIElement], after: list[UIElement], package_before: str,
                 package_after: str, size: tuple[int, int]) -> tuple[dict[str, Any] | None,
                                                                   UIElement | None]:
    """The action that most likely turned dump ``before`` into dump ``after``.

    A text field whose text changed (same id, class and place) was typed into: a ``type`` of
    its new text. Another app in front: ``open_app`` of it (from the launcher) or a ``back``
    to it. Otherwise the screen changed after a touch: a ``click`` on the element that took
    focus, or else on a clickable element that is gone from the new screen (what a person
    tapped usually leads away from its screen): the one whose text or description the new
    screen shows (a button "Create contact" opens "Create contact"), else the smallest. None
    when nothing tells. A guess: give the actions (``--actions``) when they are known.
    (``Recorder`` also takes a return to the screen before the last for a ``back``.)
    """
    old = {_key(e): e for e in before if e.editable}
    for e in after:
        was = old.get(_key(e))
        if e.editable and was is not None and was.text != e.text:
            return {"action": "type", "text": e.text}, was
    if package_after != package_before:
        return {"action": "open_app", "app": package_after}, None
    focused_before = {_key(e) for e in before if e.focused}
    for e in after:
        if e.focused and _key(e) not in focused_before:
            was = next((b for b in before if _key(b) == _key(e)), None)
            if was is not None:
                return _click(was, size), was
    now = {(e.resource_id, e.text, e.content_desc) for e in after}
    gone = [e for e in before if e.clickable
            and (e.resource_id, e.text, e.content_desc) not in now]
    if gone:
        words = {w for e in after for w in (e.text, e.content_desc) if w}

        def likely(e: UIElement) -> tuple[bool, int]:  # names the new screen; small
            named = bool({e.text, e.content_desc} & words)
            return (not named, (e.bounds[2] - e.bounds[0]) * (e.bounds[3] - e.bounds[1]))

        best = min(gone, key=likely)
        return _click(best, size), best
    return None, None


def _click(e: UIElement, size: tuple[int, int]) -> dict[str, Any]:
    cx, cy = (e.bounds[0] + e.bounds[2]) // 2, (e.bounds[1] + e.bounds[3]) // 2
    return {"action": "click", "x": cx * 1000 // max(1, size[0]),
            "y": cy * 1000 // max(1, size[1])}


def load_trace(folder: Path) -> Trace:
    path = folder / TRACE_FILE
    steps: list[Step] = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec: Mapping[str, Any] = json.loads(line)
                xml = (folder / rec["dump"]).read_text(encoding="utf-8")
                steps.append(Step(int(rec["step"]), str(rec.get("package", "")),
                                  str(rec.get("activity", "")), xml,
                                  (int(rec["size"][0]), int(rec["size"][1])), rec.get("action"),
                                  rec.get("target"), str(rec.get("source", ""))))
            except (KeyError, ValueError, TypeError, OSError) as exc:
                raise ValueError(f"{path}:{n}: not a trace step ({exc}); record traces with "
                                 "phone-gym record") from exc
    return Trace(folder.name, tuple(steps))


def load_traces(paths: Iterable[str | Path]) -> list[Trace]:
    """Traces from trace folders, or folders holding trace folders (``ValueError`` if none)."""
    out: list[Trace] = []
    for p in map(Path, paths):
        if (p / TRACE_FILE).is_file():
            out.append(load_trace(p))
        elif p.is_dir():
            out.extend(load_trace(d) for d in sorted(p.iterdir()) if (d / TRACE_FILE).is_file())
        else:
            raise ValueError(f"{p}: no such folder; pass trace folders written by "
                             "phone-gym record")
    if not out:
        raise ValueError(f"no traces ({TRACE_FILE}) in {[str(p) for p in paths]}; record "
                         "some with phone-gym record --real --out DIR")
    return out
